/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the resolver's unit tests (tests/unit/test_resolve*.c) share: the
 * capture of the library's messages their checks read, the builds of a
 * test target (build/targets/NAME-VARIANT) and resolving SEC text against
 * one. The harness is tests/unit/test.h. Not every test uses every part:
 * what one may leave unused is marked so.
 *
 * A test whose messages run long defines FIXTURE_MSGS_SIZE first.
 */
#ifndef BPFPROBE_RESOLVE_FIXTURE_H
#define BPFPROBE_RESOLVE_FIXTURE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfprobe/bpfprobe.h>

#include "probes/resolve.h"
#include "probes/spec.h"
#include "tests/unit/test.h"

#define FIXTURE_UNUSED	__attribute__((unused))

/* ---- messages ------------------------------------------------------------- */

#ifndef FIXTURE_MSGS_SIZE
#define FIXTURE_MSGS_SIZE	4096
#endif

/* Every WARN message since the last reset: what a user would see. */
static char msgs[FIXTURE_MSGS_SIZE];

/* The print callback (bpfprobe_set_print): WARN messages into msgs; with
 * TEST_VERBOSE set, every message on stderr too. */
static int capture(enum bpfprobe_print_level level, const char *fmt, va_list ap)
{
	size_t n = strlen(msgs);

	if (getenv("TEST_VERBOSE")) {
		va_list aq;

		va_copy(aq, ap);
		vfprintf(stderr, fmt, aq);
		va_end(aq);
	}
	if (level != BPFPROBE_WARN || n >= sizeof(msgs) - 1)
		return 0;
	return vsnprintf(msgs + n, sizeof(msgs) - n, fmt, ap);
}

/* ---- the builds of a test target ------------------------------------------ */

struct variant {
	const char *name;	/* "gcc-O2" */
	bool clang;
	bool O0;
};

/* The compilers and levels every target is built with (tests/tests.mk). */
static const struct variant variants[] FIXTURE_UNUSED = {
	{ "gcc-O0", false, true },
	{ "gcc-O2", false, false },
	{ "clang-O0", true, true },
	{ "clang-O2", true, false },
};

/* The build the running test looks at. */
static const struct variant *cur FIXTURE_UNUSED;

/* "build/targets/NAME-VARIANT[SUFFIX]" of cur (a few stay valid at once) */
static FIXTURE_UNUSED char *target_sfx(const char *name, const char *suffix)
{
	static char paths[4][256];
	static int next;
	char *path = paths[next++ % 4];

	snprintf(path, sizeof(paths[0]), "build/targets/%s-%s%s", name, cur->name, suffix);
	return path;
}

static FIXTURE_UNUSED char *target(const char *name)
{
	return target_sfx(name, "");
}

/* RUN with the build in the name: "test_lines[gcc-O2]" */
#define RUN_IN_VARIANT(fn, vname) do {						\
	static char name_[96];							\
	snprintf(name_, sizeof(name_), "%s[%s]", #fn, vname);			\
	RUN_AS(fn, name_);							\
} while (0)

/* ---- resolving SEC text --------------------------------------------------- */

static struct bp_resolver *resolver FIXTURE_UNUSED;

/* A resolver; with TEST_NO_CACHE set in the environment, one that walks
 * the DWARF without its index, so that the tests run both ways. */
static FIXTURE_UNUSED struct bp_resolver *fixture_resolver(void)
{
	struct bp_resolver *r = bp_resolver__new();

	if (r && getenv("TEST_NO_CACHE"))
		bp_resolver__set_no_cache(r, true);
	return r;
}

/* Parses "exec=PATH;REST" into spec (to be freed either way) and resets
 * msgs; a parse error fails the test. */
static FIXTURE_UNUSED int parse_in(const char *path, const char *rest, struct bp_spec *spec)
{
	char text[512], err[256] = "";
	int ret;

	snprintf(text, sizeof(text), "exec=%s;%s", path, rest);
	msgs[0] = '\0';
	ret = bp_spec__parse(text, spec, err, sizeof(err));
	CHECK(ret == 0, "parse(\"%s\"): %s", text, err);
	return ret;
}

/* Resolves SEC text "exec=PATH;REST"; returns the resolver's result. */
static FIXTURE_UNUSED int resolve_in(const char *path, const char *rest,
				     struct bp_point **pts, int *n)
{
	struct bp_spec spec;
	int ret;

	*pts = NULL;
	*n = 0;
	ret = parse_in(path, rest, &spec);
	if (!ret)
		ret = bp_resolver__resolve(resolver, &spec, pts, n);
	bp_spec__free(&spec);
	return ret;
}

/* Must resolve to npoints points; the caller frees them. */
static FIXTURE_UNUSED struct bp_point *resolve_ok_in(const char *path, const char *rest,
						     int npoints)
{
	struct bp_point *pts;
	int n, ret;

	ret = resolve_in(path, rest, &pts, &n);
	CHECK(ret == 0, "'%s' in %s: %d: %s", rest, path, ret, msgs);
	if (ret)
		return NULL;
	CHECK_INT(n, npoints);
	if (n != npoints) {
		bp_points__free(pts, n);
		return NULL;
	}
	return pts;
}

/* Must fail with err and one line of message holding every string in
 * want (NULL-terminated). */
static FIXTURE_UNUSED void expect_err_v(const char *path, const char *rest, int err,
					const char *const *want)
{
	struct bp_point *pts;
	int n, ret;

	ret = resolve_in(path, rest, &pts, &n);
	CHECK(ret == err, "'%s' in %s: got %d, want %d (%s)", rest, path, ret, err, msgs);
	if (!ret)
		bp_points__free(pts, n);
	CHECK(msgs[0], "'%s': no message", rest);
	/* one line, naming the culprit */
	CHECK(strchr(msgs, '\n') == msgs + strlen(msgs) - 1, "'%s': not one line: '%s'",
	      rest, msgs);
	for (; *want; want++)
		CHECK(strstr(msgs, *want), "'%s': message '%s' lacks '%s'", rest, msgs, *want);
}

#define expect_err(path, rest, err, ...) \
	expect_err_v(path, rest, err, (const char *const[]){ __VA_ARGS__, NULL })

#endif /* BPFPROBE_RESOLVE_FIXTURE_H */
