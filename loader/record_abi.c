// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#define _GNU_SOURCE		/* asprintf */
/*
 * The record ABI (probes/record_plan.h), as a program's BTF says it: a program
 * int prog(void *ctx, struct S *a) receives a record of struct S, whose
 * members are read here: their names, offsets, sizes and what their types
 * want fetched. Then each SEC argument learns what its member wants.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include "loader/object.h"
#include "probes/record_plan.h"
#include "prologue/plan.h"
#include "prologue/prologue.h"
#include "util/log.h"

static const struct btf_type *skip_mods(const struct btf *btf, __u32 id, __u32 *out)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_typedef(t) || btf_is_mod(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (out)
		*out = id;
	return t;
}

bool bp_record_abi__detect(const struct btf *btf, const struct btf_type *proto, __u32 *struct_id)
{
	const struct btf_param *params = btf_params(proto);
	const struct btf_type *t;
	__u32 id;

	if (btf_vlen(proto) != 2)
		return false;
	t = skip_mods(btf, params[1].type, NULL);
	if (!t || !btf_is_ptr(t))
		return false;
	t = skip_mods(btf, t->type, &id);
	if (!t || !btf_is_struct(t))
		return false;
	*struct_id = id;
	return true;
}

/* A C name for a member's type, for messages: "__u32", "char[64]". */
static void type_text(const struct btf *btf, __u32 id, char *buf, size_t len)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name = t ? btf__name_by_offset(btf, t->name_off) : NULL;

	if (!t) {
		snprintf(buf, len, "void");
	} else if (btf_is_array(t)) {
		char elem[96];

		type_text(btf, btf_array(t)->type, elem, sizeof(elem));
		snprintf(buf, len, "%s[%u]", elem, btf_array(t)->nelems);
	} else if (btf_is_ptr(t)) {
		char to[96];

		type_text(btf, t->type, to, sizeof(to));
		snprintf(buf, len, "%s *", to);
	} else if (btf_is_struct(t) || btf_is_union(t)) {
		snprintf(buf, len, "%s %s", btf_is_struct(t) ? "struct" : "union",
			 name && *name ? name : "(anonymous)");
	} else if (btf_is_mod(t)) {
		type_text(btf, t->type, buf, len);
	} else {
		snprintf(buf, len, "%s", name && *name ? name : "?");
	}
}

/* What member m (of type id) wants; an error says why it can take nothing. */
static int member_kind(const struct btf *btf, __u32 id, struct bp_record_member *m,
		       char *why, size_t len)
{
	__u32 peeled;
	const struct btf_type *t = skip_mods(btf, id, &peeled);
	const struct btf_type *e;
	__s64 size = btf__resolve_size(btf, peeled);

	if (!t || size <= 0) {
		snprintf(why, len, "it has no size");
		return -EINVAL;
	}
	m->size = (uint32_t)size;
	if (btf_is_int(t) || btf_is_any_enum(t) || btf_is_ptr(t)) {
		if (size != 1 && size != 2 && size != 4 && size != 8) {
			snprintf(why, len, "an integer of %lld bytes: 1, 2, 4 or 8 fit a value",
				 (long long)size);
			return -EINVAL;
		}
		m->kind = BP_FETCH_VALUE;
		m->is_signed = btf_is_int(t) ? btf_int_encoding(t) & BTF_INT_SIGNED :
			       btf_is_any_enum(t) ? btf_kflag(t) : false;
		return 0;
	}
	if (btf_is_float(t)) {
		snprintf(why, len, "floating-point: not supported");
		return -EOPNOTSUPP;
	}
	if (size > UINT16_MAX) {
		snprintf(why, len, "%lld bytes: too large", (long long)size);
		return -E2BIG;
	}
	e = btf_is_array(t) ? skip_mods(btf, btf_array(t)->type, NULL) : NULL;
	m->kind = e && btf_is_int(e) && e->size == 1 ? BP_FETCH_STRING : BP_FETCH_BYTES;
	return 0;
}

static int add_member(const struct btf *btf, const struct btf_type *st, int i,
		      struct bp_record *r, char *why, size_t len)
{
	const struct btf_member *bm = btf_members(st) + i;
	const char *name = btf__name_by_offset(btf, bm->name_off);
	struct bp_record_member *m = &r->members[r->nmembers];
	char tname[128], kwhy[160];
	int err;

	type_text(btf, bm->type, tname, sizeof(tname));
	if (!name || !*name) {
		snprintf(why, len, "member %d (%s) has no name: every member is filled by the argument of its name",
			 i + 1, tname);
		return -EINVAL;
	}
	if (btf_member_bitfield_size(st, i) || btf_member_bit_offset(st, i) % 8) {
		snprintf(why, len, "member '%s' is a bitfield: make it a whole integer", name);
		return -EINVAL;
	}
	err = member_kind(btf, bm->type, m, kwhy, sizeof(kwhy));
	if (err) {
		snprintf(why, len, "member '%s' (%s) is %s", name, tname, kwhy);
		return err;
	}
	m->off = btf_member_bit_offset(st, i) / 8;
	m->name = strdup(name);
	m->type_name = strdup(tname);
	if (!m->name || !m->type_name) {
		free(m->name);
		free(m->type_name);
		return -ENOMEM;
	}
	if (!strcmp(name, "err") && m->kind == BP_FETCH_VALUE && m->size == 8)
		r->err_member = r->nmembers;
	r->nmembers++;
	return 0;
}

/* The record of struct id, into r; what is wrong is said naming p. */
static int read_record(const struct btf *btf, __u32 id, struct bp_program *p,
		       struct bp_record *r)
{
	const struct btf_type *st = btf__type_by_id(btf, id);
	const char *sname = btf__name_by_offset(btf, st->name_off);
	char why[512];
	int err = 0;

	memset(r, 0, sizeof(*r));
	r->err_member = -1;
	r->size = st->size;
	if (asprintf(&r->type_name, "struct %s", sname && *sname ? sname : "(anonymous)") < 0) {
		r->type_name = NULL;
		return -ENOMEM;
	}
	if (st->size > BP_RECORD_MAX_SIZE) {
		bp_err("program '%s': %s is %u bytes, but a record lives in the BPF stack, %d bytes in all with the program's own: fetch fewer or smaller members\n",
		       p->name, r->type_name, st->size, BP_RECORD_MAX_SIZE);
		return -E2BIG;
	}
	r->members = calloc(btf_vlen(st) ? btf_vlen(st) : 1, sizeof(*r->members));
	if (!r->members)
		return -ENOMEM;
	for (int i = 0; i < btf_vlen(st) && !err; i++)
		err = add_member(btf, st, i, r, why, sizeof(why));
	if (err == -ENOMEM)
		bp_err("program '%s': out of memory\n", p->name);
	else if (err)
		bp_err("program '%s': %s, which it receives as its record: %s\n", p->name,
		       r->type_name, why);
	return err;
}

int bp_record_abi__setup(const struct btf *btf, __u32 struct_id, struct bp_program *p)
{
	char where[300];
	int err;

	err = read_record(btf, struct_id, p, &p->record);
	if (err)
		return err;
	p->spec.record = &p->record;
	p->record_abi = true;
	/* r1 and r2: r3..r5 mean nothing to it */
	p->proto_unread = BP_UNREAD_PARAMS(2);
	snprintf(where, sizeof(where), "program '%s'", p->name);
	/* $params' arguments learn theirs when they are expanded */
	for (int i = 0; i < p->spec.nargs; i++) {
		struct bp_diag d = {};

		if (!strcmp(p->spec.args[i].var, "$params"))
			continue;
		err = bp_record__want(&p->record, &p->spec.args[i], where, &d);
		if (err) {
			bp_err("%s\n", d.msg);
			return err;
		}
	}
	return 0;
}
