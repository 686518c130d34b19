/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The SEC() grammar (perf-compatible):
 *   [key=value;]... [EVENT=]POINT [ARG ...]
 *   keys:  exec=PATH module=NAME inlines=BOOL force=BOOL map=MAP copies=BOOL
 *          ustack=auto|fp|dwarf
 *   POINT: FUNC[@SRC][+OFFS | %return | :RLN | ;PTN]  |  SRC:ALN  |  SRC;PTN
 *          |  %PROVIDER:NAME (an SDT marker; %sdt_PROVIDER:NAME and
 *          sdt_PROVIDER:NAME too)
 *          FUNC may be a glob (* ? [...]); SRC is a file name ending in a
 *          source extension (.c .h .cc .cpp .S ...), matched against the
 *          tail of DWARF file names at a '/'; ALN counts from 1, RLN from
 *          FUNC's declaration line (FUNC:0 is FUNC, as in perf); PTN is a
 *          glob matched against whole
 *          source lines with whitespace removed (perf's lazy pattern).
 *   ARG:   [NAME=]EXPR[:TYPE][@user]
 *   EXPR:  VAR or @GLOBAL followed by any chain of ->field .field [N],
 *          or $retval, or $params (every parameter), or a FETCHARG
 *   FETCHARG (perf's and ftrace's fetch arguments, no DWARF needed):
 *          $argN    the N-th integer argument (from 1) at a function's
 *                   entry, by the calling convention; DWARF types it and
 *                   then member chains may follow it
 *          %REG     a register at the probe: %di %ax %ip %flags, %rdi ...
 *          @SYM+OFFS, @SYM-OFFS   memory at a symbol (+ OFFS)
 *          +OFFS(FETCHARG), -OFFS(FETCHARG)   memory at FETCHARG + OFFS;
 *                   +uOFFS(...) reads user memory (kernel probes);
 *                   inside, @SYM is the memory at SYM too
 *          A bare @SYM is a typed global from DWARF, or the symbol
 *          table's when DWARF has none of that name.
 *   TYPE:  u8..u64 s8..s64 x8..x64, string, ustring
 *
 * Telling ';' apart: the text is cut at ';' from the left, and a piece
 * KEY=VALUE whose KEY is one of the keys above is a config term. The
 * first other piece starts the definition; a ';' in its first token is
 * POINT;PTN, and PTN runs to the token's end (it may hold '=' and ';').
 * So an event cannot be named like a key, and EVENT=POINT;PTN whose
 * EVENT is one typo away from a key is reported as an unknown key.
 *
 * Map tracing: map=MAP;update ARG... or map=MAP;delete ARG... runs the
 * program on every update (delete) of the BPF map MAP (a pinned path,
 * id:N or name:NAME); func is "update" or "delete", the arguments name
 * key, value and flags (update only) with the usual member chains.
 *
 * inlines=no: only out-of-line copies of FUNC (and only lines outside
 * inlined copies); default yes: every inlined copy is a probe point too.
 * force=yes: probe points that cannot be resolved are skipped (and said
 * so) instead of failing the whole program.
 */
#ifndef BPFPROBE_SPEC_H
#define BPFPROBE_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Arguments a SEC may name: a record's (the record ABI, struct bp_record);
 * a program of the register ABI takes BP_SPEC_REG_ARGS, in R3..R5. */
#define BP_SPEC_MAX_ARGS 16
#define BP_SPEC_REG_ARGS 3
/* +OFFS(...) reads around one FETCHARG */
#define BP_SPEC_MAX_READS 8

enum bp_step_kind {
	BP_STEP_ARROW,	/* ->field */
	BP_STEP_DOT,	/* .field */
	BP_STEP_INDEX,	/* [N] */
};

struct bp_arg_step {
	enum bp_step_kind kind;
	char *field;	/* ARROW, DOT */
	long index;	/* INDEX */
};

/* What a perf fetch argument's innermost FETCHARG is (bp_arg_spec's farg). */
enum bp_farg_kind {
	BP_FARG_NONE = 0,	/* no fetch argument: a variable, $retval, $params */
	BP_FARG_ARGN,		/* $argN */
	BP_FARG_REG,		/* %REG */
	BP_FARG_SYM,		/* @SYM+OFFS, or @SYM inside +OFFS(...) */
	BP_FARG_SDT,		/* argN of an SDT marker (from 1, argn) */
	BP_FARG_USTACK,		/* $ustack: the user stack, copied (its id) */
	BP_FARG_KSTACK,		/* $kstack: the kernel stack (its id) */
};

struct bp_arg_spec {
	char *text;	/* the argument as written */
	char *name;	/* NAME= if given, else the expression text */
	char *var;	/* first identifier, "$retval", "$params", or a fetch
			 * argument's innermost FETCHARG ("$arg2", "%di", SYM) */
	bool global;	/* @var: a global or static variable */
	struct bp_arg_step *steps;
	int nsteps;
	bool user;	/* @user given */
	bool has_type;	/* :TYPE given */
	uint8_t type_size;	/* bytes */
	bool type_signed;
	bool type_hex;
	/*
	 * A perf fetch argument (see FETCHARG above): farg says what its
	 * innermost FETCHARG is, var holds it as written ("$arg2", "%di", or
	 * SYM with global set). BP_FARG_NONE: a variable, $retval, $params.
	 */
	enum bp_farg_kind farg;
	int argn;		/* $argN: N (from 1) */
	int reg;		/* %REG: its DWARF number (prologue/arch.h) */
	int64_t sym_off;	/* @SYM+OFFS: OFFS */
	/* the +OFFS(...) around it, innermost first: the 8 bytes (the
	 * outermost: :TYPE's size) at the value inside + off */
	int nreads;
	int64_t read_off[BP_SPEC_MAX_READS];
	uint8_t read_user;	/* bit i: read i is +uOFFS (user memory) */
	/* :string, :ustring: the value is the string's address (the
	 * pointer, or where a char array is) */
	bool string;
	bool ustring;
	/*
	 * The record ABI (struct bp_record): what the member this argument
	 * fills wants, set before resolving it (probes/record_plan.h): a value,
	 * or (enum bp_fetch_kind) a string or bytes of want_len bytes.
	 */
	uint8_t want;
	uint16_t want_len;
};

struct bp_record;

/* ustack=: the way $ustack takes a user stack */
enum bp_ustack_way {
	BP_USTACK_AUTO = 0,	/* fp when the binary and its libraries all keep
				 * frame pointers, else dwarf (the default) */
	BP_USTACK_FP,		/* the kernel's frame-pointer walk (the return addresses) */
	BP_USTACK_DWARF,	/* registers and the stack copied, unwound through CFI */
};

struct bp_spec {
	char *text;	/* whole SEC text */
	char *exec;	/* exec= (NULL: kernel) */
	char *module;	/* module= */
	char *map;	/* map= (map tracing; func is "update" or "delete") */
	bool inlines;	/* default true */
	bool force;	/* default false */
	/* copies=yes: files with exec='s build ID that followed processes
	 * run or map are attached too (loader/exec_watch.h) */
	bool copies;
	/* ustack=: how $ustack is taken (docs/output.md, "Stacks") */
	enum bp_ustack_way ustack;
	char *event;	/* EVENT= or NULL */
	char *point;	/* POINT as written (with ;PTN), for messages */
	char *func;	/* FUNC (may be a glob); NULL for SRC:ALN and SRC;PTN */
	bool func_glob;	/* func holds * ? or [...] */
	char *src;	/* SRC of FUNC@SRC, SRC:ALN or SRC;PTN; else NULL */
	int line;	/* ALN (no func) or RLN (with func), when has_line */
	bool has_line;
	char *lazy;	/* PTN of POINT;PTN, or NULL */
	uint64_t offset;	/* FUNC+OFFS */
	bool has_offset;
	bool is_return;	/* FUNC%return */
	/* %PROVIDER:NAME (also perf's %sdt_PROVIDER:NAME, sdt_PROVIDER:NAME):
	 * the SDT markers of exec=, PROVIDER in provider and NAME in func
	 * (either may be a glob); their arguments are arg1, arg2, ... */
	bool sdt;
	char *provider;
	struct bp_arg_spec *args;
	int nargs;
	/* the record the program receives (the record ABI), or NULL: the
	 * register ABI, at most BP_SPEC_REG_ARGS values in R3..R5 */
	const struct bp_record *record;
};

/*
 * Parses text into spec. On error returns -EINVAL and writes a message
 * naming the culprit into err. spec must be bp_spec__free()d either way.
 */
int bp_spec__parse(const char *text, struct bp_spec *spec, char *err, size_t errlen);
void bp_spec__free(struct bp_spec *spec);

/* How many arguments a point of spec may fetch: a record's, or R3..R5's. */
static inline int bp_spec__max_args(const struct bp_spec *spec)
{
	return spec->record ? BP_SPEC_MAX_ARGS : BP_SPEC_REG_ARGS;
}

/* Whether arg needs DWARF to be found: a variable or a member chain does;
 * $retval (rax, untyped without DWARF), $argN, %REG, +OFFS(...),
 * @SYM+OFFS and a bare @SYM (the symbol table's without DWARF) do not. */
bool bp_arg_spec__needs_dwarf(const struct bp_arg_spec *arg);
/* The first of spec's arguments that needs DWARF, or NULL. */
const struct bp_arg_spec *bp_spec__needs_dwarf(const struct bp_spec *spec);

/*
 * The C identifier a record member for arg would be named: NAME= when it
 * is one, else the last identifier of the expression ("req->hdr->len":
 * "len", "$retval": "retval", "$arg2": "arg2", "%di" and "+8(%di)": "di",
 * "@sym": "sym", "arr[3]": "arr"). Returns buf, or NULL when the
 * expression has no identifier or it does not fit in len bytes.
 */
const char *bp_arg_spec__c_name(const struct bp_arg_spec *arg, char *buf, size_t len);

#endif /* BPFPROBE_SPEC_H */
