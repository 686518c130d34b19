// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Kernel function arguments from BTF. BTF has no locations, so parameters
 * are found where the calling convention puts them at the function's entry
 * (prologue/arch.h: on x86-64 rdi, rsi, rdx, rcx, r8, r9); member chains,
 * array indexes and the final type come from BTF types, walked in
 * btf_walk.c; perf's fetch arguments in btf_fetcharg.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "probes/value/chain.h"
#include "probes/value/value.h"
#include "probes/kernel/kernel.h"
#include "probes/record_plan.h"
#include "prologue/arch.h"

/* --- functions and parameters --------------------------------------------- */

int bp_kbtf__find_funcs(const struct btf *btf, const char *name, __u32 *ids, int max)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 id = base ? btf__type_cnt(base) : 1, cnt = btf__type_cnt(btf);
	int n = 0;

	for (; id < cnt && n < max; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *tn;

		if (!btf_is_func(t))
			continue;
		tn = btf__name_by_offset(btf, t->name_off);
		if (tn && !strcmp(tn, name))
			ids[n++] = id;
	}
	return n;
}

bool bp_kbtf__same_protos(const struct btf *btf, const __u32 *ids, int n)
{
	/* deduplicated BTF gives equal prototypes one id */
	for (int i = 1; i < n; i++)
		if (btf__type_by_id(btf, ids[i])->type != btf__type_by_id(btf, ids[0])->type)
			return false;
	return true;
}

/* How many integer registers a parameter of this type takes: 0 when it
 * travels in memory or in an SSE register. */
static int regs_needed(const struct btf *btf, __u32 type)
{
	__u32 id = bp_kbtf__peel(btf, type);
	const struct btf_type *t = id ? btf__type_by_id(btf, id) : NULL;

	if (!t)
		return 0;
	switch (btf_kind(t)) {
	case BTF_KIND_FLOAT:
		return 0;
	case BTF_KIND_PTR:
		return 1;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		/* 16-byte scalars and small aggregates take two */
		return t->size > 16 ? 0 : (t->size + 7) / 8;
	default:
		return 1;
	}
}

static void param_names(const struct btf *btf, const struct btf_type *proto,
			char *buf, size_t len)
{
	const struct btf_param *p = btf_params(proto);
	size_t pos = 0;

	buf[0] = '\0';
	for (int i = 0; i < btf_vlen(proto) && pos < len; i++, p++) {
		const char *n = btf__name_by_offset(btf, p->name_off);

		if (!p->type)
			n = "...";
		pos += snprintf(buf + pos, len - pos, "%s%s", pos ? ", " : "",
				n && *n ? n : "<unnamed>");
	}
}

/* "rdi rsi rdx rcx r8 r9" */
static void arg_reg_names(char *buf, size_t len)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (int i = 0; i < bp_arch__nr_arg_regs() && pos < len; i++)
		pos += snprintf(buf + pos, len - pos, "%s%s", i ? " " : "",
				bp_arch__reg_name(bp_arch__arg_reg(i)));
}

/*
 * The parameter called name: its type and the register it arrives in,
 * counting the integer registers the parameters before it take.
 */
static int param_value(const struct btf *btf, const struct btf_type *proto,
		       const struct bp_arg_ctx *c, const char *name, __u32 *type,
		       struct bp_val *val, char *desc, size_t desclen)
{
	const struct btf_param *p = btf_params(proto);
	int i, slot = 0, need;
	char params[256];

	for (i = 0; i < btf_vlen(proto); i++, p++) {
		const char *n = btf__name_by_offset(btf, p->name_off);

		need = regs_needed(btf, p->type);
		/* an aggregate that no longer fits goes to memory whole */
		if (slot + need > bp_arch__nr_arg_regs() && need > 1)
			need = 0;
		if (p->type && n && !strcmp(n, name))
			break;
		slot += need;
	}
	if (i == btf_vlen(proto)) {
		param_names(btf, proto, params, sizeof(params));
		bp_arg_fail(c, "no parameter '%s' (parameters: %s)", name,
			    params[0] ? params : "none");
		return -ENOENT;
	}
	if (need == 0 || need > 1) {
		char tname[128];
		int kind = bp_kbtf__kind(btf, bp_kbtf__peel(btf, p->type));

		bp_kbtf__type_name(btf, p->type, tname, sizeof(tname));
		if (kind == BTF_KIND_FLOAT)
			bp_arg_fail(c, "parameter %d '%s' (type %s) arrives in an SSE register, which is not readable from a probe",
				    i + 1, name, tname);
		else if (bp_kbtf__is_record(kind))
			bp_arg_fail(c, "parameter %d '%s' (type %s) is a struct passed by value: not supported",
				    i + 1, name, tname);
		else
			bp_arg_fail(c, "parameter %d '%s' (type %s) takes %d registers: not supported",
				    i + 1, name, tname, need);
		return -EOPNOTSUPP;
	}
	if (slot >= bp_arch__nr_arg_regs()) {
		arg_reg_names(params, sizeof(params));
		bp_arg_fail(c, "parameter %d '%s' is passed on the stack (only the first %d integer arguments arrive in registers, %s), and BTF says nothing about stack locations: install the kernel's debug info (vmlinux with DWARF) for it",
			    i + 1, name, bp_arch__nr_arg_regs(), params);
		return -EOPNOTSUPP;
	}
	memset(val, 0, sizeof(*val));
	val->f.base = BP_BASE_REG;
	val->f.reg = bp_arch__arg_reg(slot);
	*type = p->type;
	snprintf(desc, desclen, "reg %s (parameter %d)", bp_arch__reg_name(val->f.reg), i + 1);
	return 0;
}

/* What proto returns, for $retval. */
static enum bp_ret_kind ret_kind(const struct btf *btf, const struct btf_type *proto)
{
	int kind = bp_kbtf__kind(btf, bp_kbtf__peel(btf, proto->type));

	if (!proto->type)
		return BP_RET_VOID;
	if (kind == BTF_KIND_FLOAT)
		return BP_RET_FLOAT;
	return bp_kbtf__is_record(kind) ? BP_RET_RECORD : BP_RET_VALUE;
}

static int resolve_arg(const struct btf *btf, const struct btf_type *proto,
		       const struct bp_spec *spec, const char *where,
		       const struct bp_arg_spec *arg, int i, struct bp_point *pt,
		       struct bp_diag *d)
{
	struct bp_arg_ctx c = {
		.where = where,
		.arg = arg->text ? arg->text : arg->name ? arg->name : arg->var,
		.diag = d,
	};
	struct bp_val val;
	char desc[320], from[160] = "";
	__u32 type = 0;
	size_t l;
	int err;

	pt->arg_name[i] = strdup(arg->name ? arg->name : c.arg);
	if (!pt->arg_name[i])
		return -ENOMEM;
	if (arg->farg != BP_FARG_NONE) {
		err = bp_kbtf__fetcharg(btf, proto, spec, &c, arg, &pt->plan.args[i],
					&pt->type_name[i], desc, sizeof(desc));
		if (err)
			return err;
		pt->loc_desc[i] = strdup(desc);
		return pt->loc_desc[i] ? 0 : -ENOMEM;
	}
	if (!proto) {
		bp_arg_fail(&c, "the function's parameters are unknown (no BTF for it)");
		return -ENOENT;
	}
	if (!strcmp(arg->var, "$retval")) {
		type = proto->type;
		err = bp_retval__value(&c, spec, ret_kind(btf, proto), &val, desc, sizeof(desc));
	} else if (spec->is_return) {
		/* its registers are reused by then */
		bp_arg_fail(&c, "a return probe can only fetch $retval");
		err = -EINVAL;
	} else if (spec->has_offset && spec->offset) {
		bp_arg_fail(&c, "BTF says where parameters are only at the function's entry, not at +%" PRIu64 ": probe %s itself, or install the kernel's debug info (vmlinux with DWARF)",
			    spec->offset, spec->func);
		err = -EOPNOTSUPP;
	} else {
		err = param_value(btf, proto, &c, arg->var, &type, &val, desc, sizeof(desc));
	}
	if (err)
		return err;
	/* from here on, the member chain: user memory with @user */
	c.user = arg->user;
	err = bp_kbtf__compile_chain(btf, type, &c, arg, &val, &pt->plan.args[i],
				     &pt->type_name[i], from, sizeof(from));
	if (err)
		return err;
	l = strlen(desc);
	if (from[0])
		snprintf(desc + l, sizeof(desc) - l, "; %s", from);
	pt->loc_desc[i] = strdup(desc);
	return pt->loc_desc[i] ? 0 : -ENOMEM;
}

static int expand_params(const struct btf *btf, const struct btf_type *proto,
			 const struct bp_spec *spec, const char *where, int others,
			 struct bp_arg_spec *out, int max, struct bp_diag *d)
{
	const struct btf_param *p = btf_params(proto);
	char names[256];
	int n = 0;

	for (int i = 0; i < btf_vlen(proto); i++, p++) {
		const char *name = btf__name_by_offset(btf, p->name_off);

		if (!p->type || !name || !*name)
			continue;	/* "...", or nothing to name it by */
		if (n < max) {
			memset(&out[n], 0, sizeof(out[n]));
			/* BTF's strings outlive the resolution; never freed */
			out[n].text = out[n].name = out[n].var = (char *)name;
		}
		n++;
	}
	if (n + others > bp_spec__max_args(spec)) {
		param_names(btf, proto, names, sizeof(names));
		bp_diag__set(d, "%s: $params expands to %d parameter%s (%s), %d argument%s in all; at most %d fit in %s: name the ones you need",
			     where, n, n == 1 ? "" : "s", names, n + others,
			     n + others == 1 ? "" : "s", bp_spec__max_args(spec),
			     spec->record ? "a record" : "R3..R5");
		return -E2BIG;
	}
	/* the record ABI: what each parameter's member wants */
	for (int i = 0; spec->record && i < n && i < max; i++) {
		int err = bp_record__want(spec->record, &out[i], where, d);

		if (err)
			return err;
	}
	return n;
}

int bp_kbtf__resolve_args(const struct btf *btf, __u32 func_id,
			  const struct bp_spec *spec, const char *where,
			  struct bp_point *pt, struct bp_diag *d)
{
	const struct btf_type *func = btf && func_id ? btf__type_by_id(btf, func_id) : NULL;
	const struct btf_type *proto = func ? btf__type_by_id(btf, func->type) : NULL;
	struct bp_arg_spec params[BP_MAX_ARGS];
	int i, k, n = 0, err;

	/* no BTF for the function: perf's fetch arguments only, untyped */
	if (btf && func_id && (!proto || !btf_is_func_proto(proto))) {
		bp_diag__set(d, "%s: BTF entry %u is not a function with a prototype", where, func_id);
		return -EINVAL;
	}
	for (i = 0; i < spec->nargs; i++) {
		const struct bp_arg_spec *arg = &spec->args[i];
		int np;

		if (strcmp(arg->var, "$params")) {
			if (n == BP_MAX_ARGS)
				return -E2BIG;
			err = resolve_arg(btf, proto, spec, where, arg, n++, pt, d);
			if (err)
				return err;
			continue;
		}
		if (!proto) {
			bp_diag__set(d, "%s: $params needs the function's prototype, and there is no BTF for it",
				     where);
			return -ENOENT;
		}
		np = expand_params(btf, proto, spec, where, spec->nargs - 1, params, BP_MAX_ARGS, d);
		if (np < 0)
			return np;
		for (k = 0; k < np; k++) {
			err = resolve_arg(btf, proto, spec, where, &params[k], n++, pt, d);
			if (err)
				return err;
		}
	}
	pt->plan.nargs = n;
	return 0;
}
