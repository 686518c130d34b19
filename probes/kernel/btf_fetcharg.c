// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf's fetch arguments at a kernel function known from BTF (or from
 * kallsyms only): $argN by the calling convention at the entry, typed by
 * the prototype when it can be, %REG anywhere, and the +OFFS(...) reads
 * over them, of kernel memory unless @user or +uOFFS say user memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>

#include "probes/kernel/kernel.h"
#include "probes/value/fetcharg.h"
#include "probes/value/value.h"

/*
 * The BTF type of the parameter $argN reads, and its name: when it and
 * every parameter before it are an integer, enum or pointer of up to 8
 * bytes (one register or stack slot each), and the function returns no
 * struct (which may take rdi). 0: none known.
 */
static __u32 argn_type(const struct btf *btf, const struct btf_type *proto, int n,
		       const char **name)
{
	const struct btf_param *p;
	int i;

	int ret;

	if (!btf || !proto || n < 1 || n > btf_vlen(proto))
		return 0;
	/* a struct returned in memory takes rdi for its address */
	ret = proto->type ? btf__resolve_type(btf, proto->type) : 0;
	if (ret > 0 && btf_is_composite(btf__type_by_id(btf, ret)))
		return 0;
	p = btf_params(proto);
	for (i = 0; i < n; i++, p++) {
		int id = p->type ? btf__resolve_type(btf, p->type) : 0;
		const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;

		if (!t)
			return 0;	/* "...", or void */
		switch (btf_kind(t)) {
		case BTF_KIND_PTR:
			break;
		case BTF_KIND_INT:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			if (t->size > 8)
				return 0;
			break;
		default:
			return 0;
		}
	}
	p--;
	*name = btf__name_by_offset(btf, p->name_off);
	if (*name && !**name)
		*name = NULL;
	return p->type;
}

static int no_entry(const struct bp_spec *spec, struct bp_arg_ctx *c,
		    const struct bp_arg_spec *arg, const char *pname)
{
	char point[300];

	if (spec->is_return)
		snprintf(point, sizeof(point), "the return of %s (%%return)", spec->func);
	else
		snprintf(point, sizeof(point), "%s+0x%" PRIx64, spec->func, spec->offset);
	/* at the return, the parameter is gone too */
	return bp_fetcharg__not_entry(c, arg, point, spec->is_return ? NULL : pname);
}

int bp_kbtf__fetcharg(const struct btf *btf, const struct btf_type *proto,
		      const struct bp_spec *spec, struct bp_arg_ctx *c,
		      const struct bp_arg_spec *arg, struct bp_fetch *out,
		      char **type_name, char *desc, size_t desclen)
{
	const char *pname = NULL;
	struct bp_val val;
	__u32 type;
	size_t n;
	int err;

	c->kernel = true;
	switch (arg->farg) {
	case BP_FARG_USTACK:
	case BP_FARG_KSTACK:
		return bp_fetcharg__stack(arg, out, type_name, desc, desclen);
	case BP_FARG_ARGN:
		type = argn_type(btf, proto, arg->argn, &pname);
		if (spec->is_return || (spec->has_offset && spec->offset))
			return no_entry(spec, c, arg, pname);
		err = bp_fetcharg__argn(c, arg->argn, &val, desc, desclen);
		if (err)
			return err;
		if (!type || arg->nreads)
			break;
		n = strlen(desc);
		if (pname && n + 1 < desclen)
			snprintf(desc + n - 1, desclen - n + 1, ", parameter '%s')", pname);
		/* the stack slot is the kernel's; the chain may be user memory */
		c->first_user_deref = val.lvalue ? 1 : 0;
		c->user = arg->user;
		return bp_kbtf__compile_val(btf, type, c, arg, &val, out, type_name);
	case BP_FARG_REG:
		err = bp_fetcharg__reg(c, arg->reg, &val, desc, desclen);
		if (err)
			return err;
		break;
	default:
		bp_arg_fail(c, "a symbol's memory (@SYM) is not supported in kernel probes yet");
		return -EOPNOTSUPP;
	}
	if (arg->nsteps) {
		bp_arg_fail(c, "%s has no type here (%s): its members cannot be found; name the parameter, or read memory with +OFFS(%s)",
			    arg->var, btf ? "its parameter does not arrive alone in that register or stack slot" :
			    "no BTF for the function", arg->var);
		return -EINVAL;
	}
	return bp_fetcharg__compile(c, arg, &val, false, out, type_name, desc, desclen);
}
