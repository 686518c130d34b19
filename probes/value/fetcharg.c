// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf's fetch arguments as values (fetcharg.h): $argN by the calling
 * convention, %REG, the memory at a symbol, and the +OFFS(...) reads
 * around them, compiled untyped through the member-chain walk
 * (chain.c) so that :TYPE, :string and the final read work as for every
 * other argument.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "probes/value/chain.h"
#include "probes/value/fetcharg.h"
#include "prologue/arch.h"

int bp_fetcharg__argn(const struct bp_arg_ctx *c, int n, struct bp_val *val,
		      char *desc, size_t desclen)
{
	int nregs = bp_arch__nr_arg_regs();
	int64_t off;

	memset(val, 0, sizeof(*val));
	val->f.base = BP_BASE_REG;
	if (n >= 1 && n <= nregs) {
		val->f.reg = bp_arch__arg_reg(n - 1);
		snprintf(desc, desclen, "reg %s ($arg%d)", bp_arch__reg_name(val->f.reg), n);
		return 0;
	}
	if (n < 1) {
		bp_arg_fail(c, "$arg%d: arguments count from 1", n);
		return -EINVAL;
	}
	/* past the registers: 8 bytes each above the return address */
	off = bp_arch__entry_cfa_off() + 8LL * (n - nregs - 1);
	val->f.reg = bp_arch__sp_reg();
	val->off = off;
	val->lvalue = true;
	snprintf(desc, desclen, "stack %s+%" PRId64 " ($arg%d)", bp_arch__reg_name(val->f.reg),
		 off, n);
	return 0;
}

int bp_fetcharg__reg(const struct bp_arg_ctx *c, int reg, struct bp_val *val,
		     char *desc, size_t desclen)
{
	const char *name = bp_arch__reg_name(reg);

	if (!name || bp_arch__pt_regs_off(reg) < 0) {
		bp_arg_fail(c, "register DWARF %d is not in pt_regs", reg);
		return -EINVAL;
	}
	memset(val, 0, sizeof(*val));
	val->f.base = BP_BASE_REG;
	val->f.reg = (uint8_t)reg;
	snprintf(desc, desclen, "reg %s", name);
	return 0;
}

/* At a uretprobe the load bias comes from bpf_get_func_ip() (Linux 6.6+):
 * said once per process, as the location evaluator says it for globals. */
static void warn_old_kernel(const struct bp_arg_ctx *c)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2 ||
	    major > 6 || (major == 6 && minor >= 6))
		return;
	bp_diag__warn(c->diag, "uretprobe-func-ip",
		      "%s: warning: argument '%s' reads a global at a return probe, which needs bpf_get_func_ip() at uretprobes (Linux 6.6+); on this kernel (%s) that fetch fails (err != 0)",
		      c->where, c->arg, u.release);
}

int bp_fetcharg__addr(const struct bp_arg_ctx *c, uint64_t addr, struct bp_val *val)
{
	if (c->kernel) {
		bp_arg_fail(c, "a symbol's memory (@SYM) is not supported in kernel probes yet");
		return -EOPNOTSUPP;
	}
	memset(val, 0, sizeof(*val));
	val->f.base = BP_BASE_ADDR;
	val->f.add = (int64_t)addr;
	val->f.anchor = c->addr;
	val->f.anchor_kind = c->at_return ? BP_ANCHOR_FUNC_IP : BP_ANCHOR_IP;
	val->lvalue = true;
	if (c->at_return)
		warn_old_kernel(c);
	return 0;
}

/* --- the untyped walk ------------------------------------------------------ */

struct raw_walk {
	struct bp_chain ch;
	const struct bp_arg_spec *arg;
};

static struct raw_walk *raw_of(struct bp_chain *ch)
{
	return (struct raw_walk *)((char *)ch - offsetof(struct raw_walk, ch));
}

static int no_member(struct bp_chain *ch)
{
	return bp_chain__bad_step(ch, "a member or index of",
				  ": a fetch argument has no type (name the variable, which DWARF types, or read memory with +OFFS(...))");
}

static int raw_arrow(struct bp_chain *ch, const char *field)
{
	(void)field;
	return no_member(ch);
}

static int raw_index(struct bp_chain *ch, long index)
{
	(void)index;
	return no_member(ch);
}

static int raw_load_pointer(struct bp_chain *ch)
{
	return ch->val->lvalue ? bp_val__deref(ch->c, ch->val) : 0;
}

static int raw_scalar(struct bp_chain *ch, long *bytes, bool *is_signed)
{
	(void)ch;
	*bytes = 8;
	*is_signed = false;
	return 0;
}

const char *bp_fetcharg__type_text(const struct bp_arg_spec *arg, char *buf, size_t len)
{
	if (arg->string || arg->ustring)
		snprintf(buf, len, "%s", arg->ustring ? "ustring" : "string");
	else if (arg->has_type)
		snprintf(buf, len, "%c%d", arg->type_hex ? 'x' : arg->type_signed ? 's' : 'u',
			 arg->type_size * 8);
	else
		snprintf(buf, len, "u64");
	return buf;
}

static void raw_type_name(struct bp_chain *ch, char *buf, size_t len)
{
	bp_fetcharg__type_text(raw_of(ch)->arg, buf, len);
}

/* :string: the address the read would read from, or a register's value */
static int raw_string(struct bp_chain *ch, bool *is_array)
{
	*is_array = ch->val->lvalue;
	return 0;
}

static const struct bp_chain_ops raw_ops = {
	.arrow = raw_arrow,
	.dot = raw_arrow,
	.index = raw_index,
	.load_pointer = raw_load_pointer,
	.scalar = raw_scalar,
	.type_name = raw_type_name,
	.string = raw_string,
};

static bool read_is_user(const struct bp_arg_ctx *c, const struct bp_arg_spec *arg, int i)
{
	return c->user || arg->user || (arg->read_user & (1U << i));
}

/* desc wrapped in arg's reads, innermost first: "+8(+0(reg rdi))" */
static void reads_desc(const struct bp_arg_spec *arg, char *desc, size_t len)
{
	char inner[256];
	int i;

	for (i = 0; i < arg->nreads; i++) {
		snprintf(inner, sizeof(inner), "%s", desc);
		snprintf(desc, len, "%s%s%" PRIu64 "(%s)", arg->read_off[i] < 0 ? "-" : "+",
			 arg->read_user & (1U << i) ? "u" : "",
			 arg->read_off[i] < 0 ? -(uint64_t)arg->read_off[i] : (uint64_t)arg->read_off[i],
			 inner);
	}
}

int bp_fetcharg__compile(const struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
			 struct bp_val *val, bool base_user, struct bp_fetch *out,
			 char **type_name, char *desc, size_t desclen)
{
	/* each read of its own memory, user or kernel */
	struct bp_arg_ctx t = *c;
	struct raw_walk w = { .ch = { .ops = &raw_ops, .c = &t, .val = val }, .arg = arg };
	bool pending_user = base_user;
	int i, err;

	t.first_user_deref = 0;
	for (i = 0; i < arg->nreads; i++) {
		/* the value inside: 8 bytes of memory when it is some */
		if (val->lvalue) {
			t.user = pending_user;
			err = bp_val__deref(&t, val);
			if (err)
				return err;
		}
		val->off += arg->read_off[i];
		val->lvalue = true;
		pending_user = read_is_user(c, arg, i);
	}
	/* the final read (or none, for :string) */
	t.user = pending_user;
	reads_desc(arg, desc, desclen);
	return bp_chain__compile(&w.ch, arg, out, type_name);
}

int bp_fetcharg__not_entry(const struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
			   const char *point, const char *param)
{
	char hint[160];

	if (param)
		snprintf(hint, sizeof(hint), "name the parameter ('%s') instead, or read a register (%%REG) there",
			 param);
	else
		snprintf(hint, sizeof(hint), "read a register (%%REG) there instead, or fetch it at the function's entry");
	bp_arg_fail(c, "%s is only right at a function's entry (where the calling convention puts the arguments), and %s is not one: %s",
		    arg->var ? arg->var : "$argN", point, hint);
	return -EINVAL;
}

int bp_fetcharg__stack(const struct bp_arg_spec *arg, struct bp_fetch *out, char **type_name,
		       char *desc, size_t desclen)
{
	bool user = arg->farg == BP_FARG_USTACK;

	memset(out, 0, sizeof(*out));
	out->kind = user ? BP_FETCH_USTACK : BP_FETCH_KSTACK;
	out->size = 8;
	snprintf(desc, desclen, "%s", user ? "the user stack, copied (registers and up to 8 KiB)" :
		 "the kernel stack (bpf_get_stackid)");
	*type_name = strdup("bpfprobe_stack_t");
	return *type_name ? 0 : -ENOMEM;
}
