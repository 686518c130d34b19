// SPDX-License-Identifier: GPL-2.0
/*
 * diff_resolve BIN: the differential test's questions to bpfprobe's
 * resolver about one binary (tests/diff/diff_gdb.py), answered in one
 * process so that the binary's DWARF is opened once. Reads requests on
 * stdin, one a line, and answers each with lines ending in ".":
 *
 *   V POINT ADDR    the address of every copy POINT names, "p ADDR", and
 *                   the variables bpfprobe sees at the one at (ELF)
 *                   address ADDR: "v NAME CLASS TYPE WHY" (tab-separated),
 *                   or "E why"
 *   R POINT ADDR ARG  ARG resolved at that copy, alone: "a SIZE SIGNED
 *                   BITS TYPE LOCATION" or "E why" (what load would say)
 *
 * POINT is what follows exec=BIN; in a SEC (inlines=no;force=yes;
 * FUNC@FILE+OFF); fields are tab-separated. The resolver is the
 * library's (bp_resolver__resolve_report, bp_var_list__collect), as load
 * and vars use it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfprobe/bpfprobe.h>

#include "inspect/funcs_vars.h"
#include "probes/point.h"
#include "probes/report.h"
#include "probes/resolve.h"
#include "probes/spec.h"

static char msgs[4096];

static int capture(enum bpfprobe_print_level level, const char *fmt, va_list ap)
{
	size_t n = strlen(msgs);

	if (level != BPFPROBE_WARN || n >= sizeof(msgs) - 1)
		return 0;
	return vsnprintf(msgs + n, sizeof(msgs) - n, fmt, ap);
}

/* No tabs or newlines in a field. */
static void put_field(const char *s)
{
	for (; s && *s; s++)
		putchar(*s == '\t' || *s == '\n' ? ' ' : *s);
}

static const char *bin;

static int parse(const char *point, const char *arg, struct bp_spec *spec)
{
	char *text, err[512];
	int r;

	if (asprintf(&text, "exec=%s;%s%s%s", bin, point, arg ? " " : "", arg ? arg : "") < 0)
		return -ENOMEM;
	memset(spec, 0, sizeof(*spec));
	r = bp_spec__parse(text, spec, err, sizeof(err));
	free(text);
	if (r) {
		printf("E parse: ");
		put_field(err);
		putchar('\n');
	}
	return r;
}

static void vars(const char *point, uint64_t addr)
{
	struct bp_var_list l = {};
	struct bp_spec spec;
	int i, k;
	bool found = false;

	if (parse(point, NULL, &spec))
		return;
	msgs[0] = '\0';
	if (bp_var_list__collect(&l, &spec, false)) {
		printf("E ");
		put_field(msgs);
		putchar('\n');
	}
	/* every copy the point names: the test probes them all */
	for (i = 0; i < l.npoints; i++)
		printf("p\t0x%" PRIx64 "\n", l.points[i].addr);
	for (i = 0; i < l.npoints && !found; i++) {
		const struct bp_var_point *p = &l.points[i];

		if (p->addr != addr)
			continue;
		found = true;
		if (p->error) {
			printf("E ");
			put_field(p->error);
			putchar('\n');
			continue;
		}
		for (k = 0; k < p->nvars; k++) {
			printf("v\t");
			put_field(p->vars[k].name);
			printf("\t%s\t", bp_var_class__name(p->vars[k].cls));
			put_field(p->vars[k].type_name);
			printf("\t");
			put_field(p->vars[k].why);
			putchar('\n');
		}
	}
	if (!found && l.npoints)
		printf("E no point at 0x%" PRIx64 "\n", addr);
	bp_var_list__free(&l);
	bp_spec__free(&spec);
}

static void resolve(struct bp_resolver *r, const char *point, uint64_t addr, const char *arg)
{
	struct bp_report rep = {};
	struct bp_point *pts = NULL;
	struct bp_spec spec;
	int n = 0, i;

	if (parse(point, arg, &spec))
		return;
	if (bp_resolver__resolve_report(r, &spec, &pts, &n, &rep))
		n = 0;
	for (i = 0; i < n && pts[i].addr != addr; i++)
		;
	if (i < n) {
		const struct bp_fetch *f = &pts[i].plan.args[0];

		printf("a\t%u\t%d\t%u\t", f->size, f->is_signed, f->bit_size);
		put_field(pts[i].type_name[0]);
		putchar('\t');
		put_field(pts[i].loc_desc[0]);
		putchar('\n');
	} else {
		printf("E ");
		put_field(rep.len ? rep.text : "not resolved at this copy");
		putchar('\n');
	}
	bp_points__free(pts, n);
	bp_spec__free(&spec);
}

int main(int argc, char **argv)
{
	struct bp_resolver *r;
	char *line = NULL, *f[4];
	size_t cap = 0;
	ssize_t len;
	int nf;

	if (argc != 2) {
		fprintf(stderr, "usage: diff_resolve BIN\n");
		return 2;
	}
	bin = argv[1];
	bpfprobe_set_print(capture);
	r = bp_resolver__new();
	if (!r)
		return 1;
	while ((len = getline(&line, &cap, stdin)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		nf = 0;
		for (char *s = line, *t; nf < 4 && (t = strsep(&s, "\t"));)
			f[nf++] = t;
		if (nf == 3 && !strcmp(f[0], "V"))
			vars(f[1], strtoull(f[2], NULL, 0));
		else if (nf == 4 && !strcmp(f[0], "R"))
			resolve(r, f[1], strtoull(f[2], NULL, 0), f[3]);
		else
			printf("E bad request\n");
		printf(".\n");
		fflush(stdout);
	}
	free(line);
	bp_resolver__free(r);
	return 0;
}
