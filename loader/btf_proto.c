// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Checks a program's C prototype against its SEC(): the ABI is
 * int prog(void *ctx, int err, u64 a1, u64 a2, u64 a3), so a program may
 * take fewer parameters than 2 + nargs (it ignores the rest) but a
 * parameter beyond that would read a register nothing fills.
 */
#include <errno.h>
#include <string.h>
#include <bpf/btf.h>
#include "loader/object.h"
#include "prologue/prologue.h"
#include "util/log.h"

int bp_btf__check_prototype(const struct bpf_object *obj, struct bp_program *p)
{
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_type *fn, *proto;
	int id, have, max = 2 + p->spec.nargs;

	/* $params is as many arguments as the function has, up to the limit */
	for (id = 0; id < p->spec.nargs; id++) {
		if (!strcmp(p->spec.args[id].var, "$params"))
			max = 2 + BP_MAX_ARGS;
	}

	if (!btf)
		return 0;	/* no BTF: nothing to check against */
	id = btf__find_by_name_kind(btf, p->name, BTF_KIND_FUNC);
	if (id < 0)
		return 0;
	fn = btf__type_by_id(btf, id);
	proto = fn ? btf__type_by_id(btf, fn->type) : NULL;
	if (!proto || !btf_is_func_proto(proto))
		return 0;
	have = btf_vlen(proto);
	if (have <= max) {
		/* the prologue then sets only what the program reads */
		p->proto_unread = BP_UNREAD_PARAMS(have);
		return 0;
	}
	bp_err("program '%s' takes %d parameters, but SEC(\"%s\") provides only %d: ctx, err%s (%d fetched argument%s); the ABI is int %s(void *ctx, int err, u64 arg1, u64 arg2, u64 arg3)\n",
	       p->name, have, p->sec, max, p->spec.nargs ? " and the arguments" : "",
	       p->spec.nargs, p->spec.nargs == 1 ? "" : "s", p->name);
	return -EINVAL;
}
