/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * perf's fetch arguments ($argN, %REG, @SYM+OFFS, +OFFS(FETCHARG); see
 * probes/spec.h) as values, whatever the resolver: the DWARF one
 * (probes/dwarf/perf_args.c, also for binaries known from their symbol
 * table only) and kernel BTF (probes/kernel/btf.c). What only a resolver
 * knows (whether the probe point is a function's entry, where a symbol
 * is, a parameter's type) is the resolver's; each function here records
 * its failures in c->diag and returns a negative errno.
 */
#ifndef BPFPROBE_FETCHARG_H
#define BPFPROBE_FETCHARG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/value/value.h"

/*
 * $argN at a function's entry: the N-th integer argument of the calling
 * convention (prologue/arch.h), a register (an rvalue), or past them a
 * stack slot above the return address (an lvalue: a read of user memory
 * when c->user, else of kernel memory). desc: "reg rdi ($arg1)".
 */
int bp_fetcharg__argn(const struct bp_arg_ctx *c, int n, struct bp_val *val,
		      char *desc, size_t desclen);

/* %REG: the register's value at the probe (an rvalue); desc "reg rdi". */
int bp_fetcharg__reg(const struct bp_arg_ctx *c, int reg, struct bp_val *val,
		     char *desc, size_t desclen);

/*
 * @SYM: the memory at link-time address addr of the probed object (an
 * lvalue), moved by its load bias at run time as globals are. User space
 * only: a kernel probe records a failure.
 */
int bp_fetcharg__addr(const struct bp_arg_ctx *c, uint64_t addr, struct bp_val *val);

/*
 * The rest of arg, untyped, from the value of its innermost FETCHARG
 * (val, as above): its +OFFS(...) reads, then the final value: 8 bytes,
 * or :TYPE's size and sign; with :string, the address the last read would
 * read from (a register's value when there is no read). Reads are of user
 * memory when c->user, arg->user or +uOFFS say so; base_user says it for
 * val itself when it is an lvalue. desc (where val is) becomes where the
 * argument is: "+8(reg rdi)".
 */
int bp_fetcharg__compile(const struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
			 struct bp_val *val, bool base_user, struct bp_fetch *out,
			 char **type_name, char *desc, size_t desclen);

/*
 * Records that $argN (arg) cannot be read at point ("f+0x4", "the return
 * of f (%return)", ...): only a function's entry has the calling
 * convention's registers and stack. param: the parameter it would be
 * there, suggested instead (NULL: none known). Returns -EINVAL.
 */
int bp_fetcharg__not_entry(const struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
			   const char *point, const char *param);

/*
 * $ustack and $kstack (arg->farg USTACK, KSTACK): the stack's id, a u64
 * (prologue/plan.h's BP_FETCH_USTACK, _KSTACK), whatever the probe point;
 * type "bpfprobe_stack_t", desc where it comes from. 0, or -ENOMEM.
 */
int bp_fetcharg__stack(const struct bp_arg_spec *arg, struct bp_fetch *out, char **type_name,
		       char *desc, size_t desclen);

/* "%s" for a type name: the cast (s32), "string" or "u64". */
const char *bp_fetcharg__type_text(const struct bp_arg_spec *arg, char *buf, size_t len);

#endif /* BPFPROBE_FETCHARG_H */
