// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: the SEC() text parser (probes/spec.c).
 *
 * Beyond "no crash, no leak, no hang" it checks the parser's contract: a
 * success yields a point (a function or a source file) and at most
 * BP_SPEC_MAX_ARGS well-formed arguments; a failure returns a negative
 * errno with a one-line message.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "probes/spec.h"

static void check(int cond)
{
	if (!cond)
		abort();	/* libFuzzer reports it as a crash with the input */
}

static void check_arg(const struct bp_arg_spec *a)
{
	check(a->name && a->var && a->var[0]);
	check(a->nsteps >= 0 && (a->nsteps == 0 || a->steps));
	for (int i = 0; i < a->nsteps; i++) {
		if (a->steps[i].kind == BP_STEP_INDEX)
			continue;
		check(a->steps[i].field && a->steps[i].field[0]);
	}
	if (a->has_type)
		check(a->type_size == 1 || a->type_size == 2 ||
		      a->type_size == 4 || a->type_size == 8);
	/* one type at most; perf's fetch arguments well-formed */
	check(a->has_type + a->string + a->ustring <= 1);
	check(a->nreads >= 0 && a->nreads <= BP_SPEC_MAX_READS);
	check(a->farg != BP_FARG_NONE || !a->nreads);
	if (a->farg == BP_FARG_ARGN)
		check(a->argn >= 1);
	if (a->farg == BP_FARG_SYM)
		check(a->global);
	{
		char name[64];
		const char *n = bp_arg_spec__c_name(a, name, sizeof(name));

		check(!n || (n == name && name[0]));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bp_spec spec;
	char err[256];
	char *text;
	int ret;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ret = bp_spec__parse(text, &spec, err, sizeof(err));
	if (ret == 0) {
		/* a point names a function, or a source file (SRC:ALN, SRC;PTN) */
		check((spec.func && spec.func[0]) || (spec.src && spec.src[0]));
		check(!spec.func_glob || spec.func);
		check(spec.nargs >= 0 && spec.nargs <= BP_SPEC_MAX_ARGS);
		for (int i = 0; i < spec.nargs; i++)
			check_arg(&spec.args[i]);
	} else {
		check(ret == -EINVAL || ret == -ENOMEM);
		check(err[0] != '\0' && !strchr(err, '\n'));
	}
	bp_spec__free(&spec);
	free(text);
	return 0;
}
