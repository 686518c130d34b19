// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Checks a program's C prototype against its SEC(): the ABI is
 * int prog(void *ctx, int err, u64 a1, u64 a2, u64 a3) with one uNN per
 * fetched argument. A program may take fewer parameters than 2 + nargs
 * (it ignores the rest), never more (a parameter beyond would read a
 * register nothing fills); ctx is a pointer, err an integer, and the
 * arguments integers (or pointers, when the value is an address the
 * program reads with bpf_probe_read_*()): a struct or a float would not be
 * what the prologue put there. Any mismatch is an error that shows the
 * exact prototype for the SEC.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include "loader/object.h"
#include "prologue/prologue.h"
#include "util/log.h"

/* A C name for argument a (bp_arg_spec__c_name), or argK. */
static void arg_c_name(const struct bp_arg_spec *a, int k, char *buf, size_t len)
{
	if (!bp_arg_spec__c_name(a, buf, len))
		snprintf(buf, len, "arg%d", k + 1);
}

/* "int prog(void *ctx, int err, u64 len, u64 fd)" for p's SEC */
static void abi_text(const struct bp_program *p, char *buf, size_t len)
{
	size_t n = snprintf(buf, len, "int %s(void *ctx, int err", p->name);
	bool params = false;

	for (int k = 0; k < p->spec.nargs; k++)
		params |= !strcmp(p->spec.args[k].var, "$params");
	for (int k = 0; k < (params ? BP_MAX_REG_ARGS : p->spec.nargs) && n < len; k++) {
		char name[64];

		if (params)
			snprintf(name, sizeof(name), "arg%d", k + 1);
		else
			arg_c_name(&p->spec.args[k], k, name, sizeof(name));
		n += snprintf(buf + n, len - n, ", u64 %s", name);
	}
	if (n < len)
		snprintf(buf + n, len - n, ")%s", params ? " ($params: up to 3)" : "");
}

/* The type id under typedefs and qualifiers. */
static const struct btf_type *resolve(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	return t;
}

static const char *kind_name(const struct btf_type *t)
{
	if (!t)
		return "void";
	switch (btf_kind(t)) {
	case BTF_KIND_INT: return "an integer";
	case BTF_KIND_ENUM: case BTF_KIND_ENUM64: return "an enum";
	case BTF_KIND_PTR: return "a pointer";
	case BTF_KIND_STRUCT: return "a struct";
	case BTF_KIND_UNION: return "a union";
	case BTF_KIND_FLOAT: return "a floating-point number";
	case BTF_KIND_ARRAY: return "an array";
	default: return "not a plain value";
	}
}

static bool is_integer(const struct btf_type *t)
{
	return t && (btf_is_int(t) || btf_is_any_enum(t));
}

/* What fills parameter k (from 0) of the register ABI, for messages. */
static void receives(const struct bp_program *p, int k, char *buf, size_t len)
{
	char name[64];

	if (k == 1) {
		snprintf(buf, len, "err, the fetch-error flag");
		return;
	}
	arg_c_name(&p->spec.args[k - 2], k - 2, name, sizeof(name));
	snprintf(buf, len, "SEC argument %d '%s'", k - 1, name);
}

/*
 * A parameter named like a SEC argument, in another argument's position:
 * int p(void *ctx, long name, long mode) on SEC args "name mode" would
 * give name the error flag and mode name's value.
 */
static int check_names(const struct btf *btf, const struct bp_program *p,
		       const struct btf_param *params, int have, const char *abi)
{
	for (int k = 1; k < have; k++) {
		const char *pname = btf__name_by_offset(btf, params[k].name_off);
		char what[96], name[64];

		if (!pname || !*pname)
			continue;
		/* named like the argument it receives: right, whatever else */
		if (k >= 2 && k - 2 < p->spec.nargs) {
			arg_c_name(&p->spec.args[k - 2], k - 2, name, sizeof(name));
			if (!strcmp(name, pname))
				continue;
		}
		for (int j = 0; j < p->spec.nargs; j++) {
			if (!strcmp(p->spec.args[j].var, "$params"))
				return 0;
			arg_c_name(&p->spec.args[j], j, name, sizeof(name));
			if (strcmp(name, pname) || j == k - 2)
				continue;
			receives(p, k, what, sizeof(what));
			bp_err("program '%s': parameter %d '%s' receives %s, but it is named like SEC argument %d '%s': write it as %s\n",
			       p->name, k + 1, pname, what, j + 1, name, abi);
			return -EINVAL;
		}
	}
	return 0;
}

/* The register ABI's limits, which hold without BTF too. */
static int check_register_args(const struct bp_program *p)
{
	for (int i = 0; i < p->spec.nargs; i++) {
		const struct bp_arg_spec *a = &p->spec.args[i];
		char name[64];

		if (!a->string && !a->ustring)
			continue;
		arg_c_name(a, i, name, sizeof(name));
		bp_err("program '%s': argument '%s' is a string, which fits no register of R3..R5: receive a record, int %s(void *ctx, struct args *a) with a member char %s[N] (docs/sec-grammar.md)\n",
		       p->name, a->text, p->name, name);
		return -EINVAL;
	}
	if (p->spec.nargs <= BP_SPEC_REG_ARGS)
		return 0;
	bp_err("program '%s': %d arguments given, at most %d fit in R3..R5 (SEC(\"%s\")); first extra argument: '%s'; more fit in a record: int %s(void *ctx, struct args *a) (docs/arguments.md)\n",
	       p->name, p->spec.nargs, BP_SPEC_REG_ARGS, p->sec,
	       p->spec.args[BP_SPEC_REG_ARGS].text, p->name);
	return -E2BIG;
}

int bp_btf__check_prototype(const struct bpf_object *obj, struct bp_program *p)
{
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_type *fn, *proto;
	const struct btf_param *params;
	int id, have, max = 2 + p->spec.nargs;
	__u32 struct_id;
	char abi[512];

	p->preamble_len = BP_PREAMBLE_LEN;
	p->record_map_fd = -1;
	id = btf ? btf__find_by_name_kind(btf, p->name, BTF_KIND_FUNC) : -1;
	fn = id > 0 ? btf__type_by_id(btf, id) : NULL;
	proto = fn ? btf__type_by_id(btf, fn->type) : NULL;
	if (proto && btf_is_func_proto(proto) && bp_record_abi__detect(btf, proto, &struct_id)) {
		p->preamble_len = BP_RECORD_PREAMBLE_LEN;
		return bp_record_abi__setup(btf, struct_id, p);
	}
	if (check_register_args(p))
		return -E2BIG;

	/* $params is as many arguments as the function has, up to the limit */
	for (id = 0; id < p->spec.nargs; id++) {
		if (!strcmp(p->spec.args[id].var, "$params"))
			max = 2 + BP_MAX_REG_ARGS;
	}

	if (!btf)
		return 0;	/* no BTF: said once per object by the caller */
	if (!proto || !btf_is_func_proto(proto))
		return 0;
	have = btf_vlen(proto);
	params = btf_params(proto);
	abi_text(p, abi, sizeof(abi));
	if (have > max) {
		bp_err("program '%s' takes %d parameters, but SEC(\"%s\") gives %d (ctx, err and %d fetched argument%s): write it as %s\n",
		       p->name, have, p->sec, max, max - 2, max - 2 == 1 ? "" : "s", abi);
		return -EINVAL;
	}
	for (int k = 0; k < have; k++) {
		const struct btf_type *t = resolve(btf, params[k].type);
		const char *pname = btf__name_by_offset(btf, params[k].name_off);
		bool ok = k == 0 ? t && btf_is_ptr(t) :
			  k == 1 ? is_integer(t) : is_integer(t) || (t && btf_is_ptr(t));
		const char *want = k == 0 ? "ctx, a pointer" : k == 1 ? "err, an integer" :
				   "a fetched value, an integer or an address";

		if (ok)
			continue;
		bp_err("program '%s': parameter %d%s%s%s is %s, but it receives %s: write it as %s\n",
		       p->name, k + 1, pname && *pname ? " '" : "", pname ? pname : "",
		       pname && *pname ? "'" : "", kind_name(t), want, abi);
		return -EINVAL;
	}
	if (check_names(btf, p, params, have, abi))
		return -EINVAL;
	/* the prologue then sets only what the program reads */
	p->proto_unread = BP_UNREAD_PARAMS(have);
	return 0;
}
