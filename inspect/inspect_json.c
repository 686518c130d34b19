// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A fetch plan's argument as JSON (see inspect.h). */
#include "inspect/inspect.h"
#include "prologue/arch.h"

static const char *base_name(enum bp_base_kind base)
{
	switch (base) {
	case BP_BASE_REG:	return "reg";
	case BP_BASE_CONST:	return "const";
	case BP_BASE_ADDR:	return "addr";
	case BP_BASE_CTX:	return "ctx";
	case BP_BASE_EXPR:	return "expr";
	default:		return "none";
	}
}

void bp_inspect__fetch_json(const struct bp_fetch *f, struct bp_json *j)
{
	char text[1024];
	int i, n = f->nderef < BP_MAX_DEREFS ? f->nderef : BP_MAX_DEREFS;

	bp_fetch__format(f, text, sizeof(text));
	bp_json__begin_object(j);
	bp_json__kv_string(j, "text", text);
	bp_json__kv_string(j, "base", base_name(f->base));
	bp_json__kv_string(j, "reg", f->base == BP_BASE_REG ? bp_arch__reg_name(f->reg) : NULL);
	if (f->base == BP_BASE_CTX)
		bp_json__kv_uint(j, "ctx_arg", f->reg);
	bp_json__kv_int(j, "add", f->add);
	if (f->base == BP_BASE_EXPR) {
		/* the expression, postfix (prologue/expr.h) */
		bp_expr__format(&f->expr, text, sizeof(text));
		bp_json__kv_string(j, "expr", text);
	}
	bp_json__key(j, "anchor");
	if (f->base == BP_BASE_ADDR || f->base == BP_BASE_EXPR) {
		/* the load bias is the anchor's run-time minus link-time address */
		bp_json__begin_object(j);
		bp_json__kv_uint(j, "addr", f->anchor);
		bp_json__kv_string(j, "kind", f->anchor_kind == BP_ANCHOR_FUNC_IP ?
				   "func_ip" : "ip");
		bp_json__end_object(j);
	} else {
		bp_json__null(j);
	}
	bp_json__key(j, "derefs");
	bp_json__begin_array(j);
	for (i = 0; i < n; i++) {
		bp_json__begin_object(j);
		bp_json__kv_int(j, "off", f->deref_off[i]);
		bp_json__kv_bool(j, "user", f->user_mask & (1U << i));
		bp_json__end_object(j);
	}
	bp_json__end_array(j);
	bp_json__kv_int(j, "size", f->size);
	bp_json__kv_bool(j, "signed", f->is_signed);
	bp_json__key(j, "bits");
	if (f->bit_size) {
		bp_json__begin_object(j);
		bp_json__kv_int(j, "off", f->bit_off);
		bp_json__kv_int(j, "size", f->bit_size);
		bp_json__end_object(j);
	} else {
		bp_json__null(j);
	}
	bp_json__end_object(j);
}
