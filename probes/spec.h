/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The SEC() grammar (perf-compatible):
 *   [key=value;]... [EVENT=]POINT [ARG ...]
 *   keys:  exec=PATH module=NAME inlines=BOOL force=BOOL
 *   POINT: FUNC | FUNC+OFFS | FUNC%return
 *   ARG:   [NAME=]EXPR[:TYPE][@user]
 *   EXPR:  VAR followed by any chain of ->field .field [N], or $retval
 *   TYPE:  u8..u64 s8..s64 x8..x64
 */
#ifndef BPFPROBE_SPEC_H
#define BPFPROBE_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BP_SPEC_MAX_ARGS 3

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

struct bp_arg_spec {
	char *text;	/* the argument as written */
	char *name;	/* NAME= if given, else the expression text */
	char *var;	/* first identifier, or "$retval" */
	struct bp_arg_step *steps;
	int nsteps;
	bool user;	/* @user given */
	bool has_type;	/* :TYPE given */
	uint8_t type_size;	/* bytes */
	bool type_signed;
	bool type_hex;
};

struct bp_spec {
	char *text;	/* whole SEC text */
	char *exec;	/* exec= (NULL: kernel) */
	char *module;	/* module= */
	bool inlines;	/* default true */
	bool force;	/* default false */
	char *event;	/* EVENT= or NULL */
	char *func;
	uint64_t offset;	/* FUNC+OFFS */
	bool has_offset;
	bool is_return;	/* FUNC%return */
	struct bp_arg_spec *args;
	int nargs;
};

/*
 * Parses text into spec. On error returns -EINVAL and writes a message
 * naming the culprit into err. spec must be bp_spec__free()d either way.
 */
int bp_spec__parse(const char *text, struct bp_spec *spec, char *err, size_t errlen);
void bp_spec__free(struct bp_spec *spec);

#endif /* BPFPROBE_SPEC_H */
