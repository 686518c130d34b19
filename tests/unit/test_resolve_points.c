// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests for probe points (probes/dwarf/sites.c, inline.c,
 * line.c, libpath.c) on build/targets/points-{gcc,clang}-*:
 * globs, FUNC@SRC, inlined copies, inlines=, force=, %return on an
 * inlined copy, SRC:ALN, FUNC:RLN, lazy patterns, gcc clones, and finding
 * shared libraries like ld.so. Values fetched at run time are the e2e
 * tests' job (tests/e2e/points*.sh); this checks which points come out.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prologue/arch.h"
#include "prologue/arch_x86_64.h"
#include "probes/binary/debuginfo.h"
#include "probes/dwarf/dwarf.h"
#include "probes/binary/libpath.h"
#include "probes/report.h"
#include "probes/resolve.h"
#include "probes/spec.h"
#include "util/log.h"
#include "tests/unit/test.h"
#define FIXTURE_MSGS_SIZE	8192
#include "tests/unit/resolve_fixture.h"

/* points is built with more levels than the other targets */
static const struct variant points_variants[] = {
	{ "gcc-O0", false, true },
	{ "gcc-O2", false, false },
	{ "gcc-O3", false, false },
	{ "clang-O0", true, true },
	{ "clang-O2", true, false },
	{ "gcc-Os-nopie", false, false },
};

static bool is_O0(void)
{
	return cur->O0;
}

static bool is_gcc(void)
{
	return !cur->clang;
}

static int resolve(const char *rest, struct bp_point **pts, int *n)
{
	return resolve_in(target("points"), rest, pts, n);
}

/* Must resolve to npoints points (-1: any number); the caller frees them. */
static struct bp_point *resolve_ok(const char *rest, int npoints, int *n)
{
	struct bp_point *pts;
	int ret;

	ret = resolve(rest, &pts, n);
	CHECK(ret == 0, "[%s] '%s': %d: %s", cur->name, rest, ret, msgs);
	if (ret)
		return NULL;
	if (npoints >= 0 && *n != npoints) {
		CHECK(*n == npoints, "[%s] '%s': %d points, want %d", cur->name, rest, *n, npoints);
		bp_points__free(pts, *n);
		return NULL;
	}
	return pts;
}

static void expect_fail_v(const char *rest, const char *const *want)
{
	struct bp_point *pts;
	int n, ret;

	ret = resolve(rest, &pts, &n);
	CHECK(ret < 0, "[%s] '%s': resolved (%d points), want an error", cur->name, rest, n);
	if (!ret)
		bp_points__free(pts, n);
	CHECK(msgs[0], "[%s] '%s': no message", cur->name, rest);
	for (; *want; want++)
		CHECK(strstr(msgs, *want), "[%s] '%s': message '%s' lacks '%s'", cur->name, rest,
		      msgs, *want);
}

#define expect_fail(rest, ...) \
	expect_fail_v(rest, (const char *const[]){ __VA_ARGS__, NULL })

static int count_if(const struct bp_point *pts, int n, const char *func, int inl)
{
	int i, c = 0;

	for (i = 0; i < n; i++) {
		if ((!func || !strcmp(pts[i].func, func)) &&
		    (inl < 0 || pts[i].is_inline == inl))
			c++;
	}
	return c;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t ls = s ? strlen(s) : 0, lt = strlen(tail);

	return s && ls >= lt && !strcmp(s + ls - lt, tail);
}

/* ---- sites, before any argument: every variant ---------------------------- */

/* The sites' strings live as long as the binary's debug info. */
static struct bp_debuginfo *di;

/* bp_sites__find straight on the binary: which copies a spec names. What
 * went wrong as a whole is said (into msgs); a copy's own reason is its
 * site's msg. */
static int sites(const char *rest, struct bp_site **out, int *n)
{
	struct bp_spec spec;
	struct bp_diag d = {};
	int ret;

	*out = NULL;
	*n = 0;
	ret = parse_in(target("points"), rest, &spec);
	bp_debuginfo__free(di);
	di = NULL;
	if (!ret)
		ret = bp_debuginfo__open(target("points"), &di, &d);
	if (!ret)
		ret = bp_sites__find(di, &spec, out, n, &d);
	bp_report__diag(NULL, &d, NULL);
	bp_spec__free(&spec);
	return ret;
}

static void test_inline_sites(void)
{
	struct bp_site *s;
	int n, i, inl = 0;
	char where[sizeof(s->where)];

	/* always_inline: two inlined copies at every level, -O0 included */
	if (sites("inl_add", &s, &n)) {
		CHECK(0, "[%s] inl_add: %s", cur->name, msgs);
		return;
	}
	CHECK(n == 3, "[%s] inl_add: %d sites", cur->name, n);
	for (i = 0; i < n; i++) {
		CHECK(!s[i].err, "[%s] site %d failed", cur->name, i);
		if (!s[i].fn.is_inline) {
			CHECK(s[i].at_entry, "[%s] out-of-line entry not at_entry", cur->name);
			continue;
		}
		inl++;
		CHECK(!s[i].at_entry, "[%s] an inlined copy has no prologue", cur->name);
		CHECK(s[i].addr == s[i].fn.entry, "[%s] inlined copy not at its entry", cur->name);
		/* its frame is the caller's, whose code holds the copy */
		CHECK(s[i].fn.frame_entry <= s[i].fn.entry, "[%s] frame entry after copy",
		      cur->name);
		snprintf(where, sizeof(where), "%s", s[i].where);
		CHECK(strstr(where, "inl_add inlined into inl_caller"), "[%s] where '%s'",
		      cur->name, where);
	}
	CHECK_INT(inl, 2);
	bp_sites__free(s, n);

	/* the sites of a line inside the inline function: one per copy */
	if (!sites("funcs.c:33", &s, &n)) {
		CHECK(n == 3, "[%s] funcs.c:33: %d sites", cur->name, n);
		for (i = 0; i < n; i++) {
			CHECK(s[i].line == 33, "[%s] line %d", cur->name, s[i].line);
			CHECK(ends_with(s[i].file, "/funcs.c"), "[%s] file %s", cur->name,
			      s[i].file);
			CHECK(!strcmp(s[i].fn.name, "inl_add"), "[%s] in %s", cur->name,
			      s[i].fn.name);
		}
		bp_sites__free(s, n);
	} else {
		CHECK(0, "[%s] funcs.c:33: %s", cur->name, msgs);
	}
	if (!sites("inlines=no;funcs.c:33", &s, &n)) {
		CHECK(n == 1 && !s[0].fn.is_inline, "[%s] inlines=no line: %d sites", cur->name, n);
		bp_sites__free(s, n);
	}

	/* %return: the inlined copies cannot be placed, each saying why */
	if (!sites("inl_add%return", &s, &n)) {
		for (i = inl = 0; i < n; i++) {
			const char *why = s[i].msg ? s[i].msg : "";

			if (!s[i].fn.is_inline || s[i].err != -EINVAL)
				continue;
			inl++;
			CHECK(strstr(why, "%return cannot probe an inlined copy") &&
			      strstr(why, "inlines=no") && strstr(why, "force=yes"),
			      "[%s] message '%s'", cur->name, why);
		}
		CHECK(n == 3 && inl == 2, "[%s] %%return: %d sites, %d refused", cur->name, n, inl);
		CHECK(!msgs[0], "[%s] said while finding sites: '%s'", cur->name, msgs);
		bp_sites__free(s, n);
	}
}

static void test_lines(void)
{
	struct bp_point *pts;
	int n;

	/* SRC:ALN, named by the file's tail */
	pts = resolve_ok("lines.c:12", 1, &n);
	if (pts) {
		CHECK_STR(pts[0].func, "line_abs");
		CHECK_INT(pts[0].src_line, 12);
		CHECK(ends_with(pts[0].src_file, "tests/targets/points/lines.c"),
		      "src_file %s", pts[0].src_file);
	}
	bp_points__free(pts, n);
	pts = resolve_ok("tests/targets/points/lines.c:12", 1, &n);
	bp_points__free(pts, n);

	/* FUNC:RLN: line_abs is declared on line 8 */
	pts = resolve_ok("line_abs:5 b", 1, &n);
	if (pts)
		CHECK_INT(pts[0].src_line, 13);
	bp_points__free(pts, n);

	/* FUNC;PTN over two lines, SRC;PTN over two functions */
	pts = resolve_ok("lazy_fn;*LAZY_TWO* x", 2, &n);
	if (pts) {
		/* in address order, which need not be the lines' */
		CHECK(pts[0].src_line + pts[1].src_line == 47 &&
		      (pts[0].src_line == 23 || pts[0].src_line == 24),
		      "[%s] lines %d %d", cur->name, pts[0].src_line, pts[1].src_line);
		CHECK(pts[0].addr < pts[1].addr, "not in address order");
	}
	bp_points__free(pts, n);
	pts = resolve_ok("lines.c;*LAZY_FILE* v", 2, &n);
	if (pts) {
		CHECK(count_if(pts, n, "file_a", 0) == 1 && count_if(pts, n, "file_b", 0) == 1,
		      "functions %s %s", pts[0].func, pts[1].func);
	}
	bp_points__free(pts, n);
	/* whitespace is ignored in the line; the pattern holds '=', '+', ';' */
	pts = resolve_ok("lazy_fn;sink=r+1;*", 1, &n);
	if (pts)
		CHECK_INT(pts[0].src_line, 22);
	bp_points__free(pts, n);
	/* FUNC@SRC:RLN */
	pts = resolve_ok("twin@twin_b.c:2 v", 1, &n);
	if (pts) {
		CHECK_INT(pts[0].src_line, 6);
		CHECK(ends_with(pts[0].cu, "twin_b.c"), "cu %s", pts[0].cu);
	}
	bp_points__free(pts, n);

	/* FUNC:0 is FUNC (perf's meaning): at -O0 with arguments, past the
	 * prologue like FUNC itself */
	pts = resolve_ok("line_abs:0 b", 1, &n);
	if (pts) {
		struct bp_point *e = NULL;
		int m;

		e = resolve_ok("line_abs b", 1, &m);
		CHECK(e && pts[0].addr == e[0].addr, "line_abs:0 b is not line_abs b");
		bp_points__free(e, m);
		e = resolve_ok("line_abs", 1, &m);
		CHECK(e && (is_O0() ? pts[0].addr > e[0].addr : pts[0].addr == e[0].addr),
		      "[%s] line_abs:0 b at 0x%llx, entry 0x%llx", cur->name,
		      (unsigned long long)pts[0].addr, e ? (unsigned long long)e[0].addr : 0ULL);
		bp_points__free(e, m);
	}
	bp_points__free(pts, n);
}

static void test_line_errors(void)
{
	expect_fail("lines.c:11", "line 11 of lines.c has no code",
		    "nearest lines with code: 10 or 12");
	expect_fail("nosuch.c:3", "no source file 'nosuch.c' has code in");
	/* a tail match stops at '/': "ines.c" is not "lines.c" */
	expect_fail("ines.c:12", "no source file 'ines.c'");
	expect_fail("lazy_fn;*NOPE*", "lazy_fn", "no line of it matches the lazy pattern '*NOPE*'");
	expect_fail("lines.c;*NOPE*", "no line with code in lines.c", "'*NOPE*'");
	expect_fail("line_abs:100", "line_abs", "line 108 of", "(its line 8 + 100) has no code");
}

static void test_globs_and_files(void)
{
	struct bp_point *pts;
	int n;

	pts = resolve_ok("glob_* x", 3, &n);
	if (pts) {
		CHECK(count_if(pts, n, "glob_one", 0) && count_if(pts, n, "glob_two", 0) &&
		      count_if(pts, n, "glob_three", 0), "glob functions");
		CHECK(!count_if(pts, n, "globber", -1), "globber matched glob_*");
		/* x in three places: three plans, so three program instances */
		CHECK(!bp_plan__equal(&pts[0].plan, &pts[1].plan) &&
		      !bp_plan__equal(&pts[1].plan, &pts[2].plan) &&
		      !bp_plan__equal(&pts[0].plan, &pts[2].plan), "plans equal");
	}
	bp_points__free(pts, n);
	pts = resolve_ok("glob_[ot]*", 3, &n);
	bp_points__free(pts, n);
	pts = resolve_ok("glob_?wo", 1, &n);
	bp_points__free(pts, n);

	pts = resolve_ok("twin v", 2, &n);
	bp_points__free(pts, n);
	pts = resolve_ok("twin@twin_b.c v", 1, &n);
	if (pts)
		CHECK(ends_with(pts[0].cu, "twin_b.c"), "cu %s", pts[0].cu);
	bp_points__free(pts, n);
	pts = resolve_ok("twin@points/twin_a.c", 1, &n);
	if (pts)
		CHECK(ends_with(pts[0].cu, "twin_a.c"), "cu %s", pts[0].cu);
	bp_points__free(pts, n);

	expect_fail("nosuch_*", "no function matches 'nosuch_*'");
	expect_fail("twin@nosuch.c", "'twin' is not declared in a file matching 'nosuch.c'");
	expect_fail("twin@win_b.c", "not declared in a file matching 'win_b.c'");
}

static void test_inline_points(void)
{
	struct bp_point *pts;
	int n;

	pts = resolve_ok("inlines=no;inl_add x y", 1, &n);
	if (pts)
		CHECK(!pts[0].is_inline && !pts[0].caller, "out-of-line copy");
	bp_points__free(pts, n);
	/* at -O0 the copies' parameters are frame slots of their caller:
	 * DW_OP_fbreg against the caller's DW_AT_frame_base */
	pts = resolve_ok("inl_add x y", 3, &n);
	if (pts) {
		CHECK_INT(count_if(pts, n, "inl_add", 1), 2);
		CHECK(count_if(pts, n, "inl_add", 0) == 1, "no out-of-line copy");
		for (int i = 0; i < n; i++) {
			if (!pts[i].is_inline)
				continue;
			CHECK(pts[i].caller && !strncmp(pts[i].caller, "inl_caller", 10),
			      "caller %s", pts[i].caller);
			if (is_O0())
				CHECK(pts[i].plan.args[0].base == BP_BASE_REG &&
				      pts[i].plan.args[0].reg == BP_REG_RBP &&
				      pts[i].plan.args[0].nderef == 1,
				      "[%s] x of an inlined copy not in its caller's frame",
				      cur->name);
		}
	}
	bp_points__free(pts, n);

	expect_fail("inl_add%return $retval", "%return cannot probe an inlined copy",
		   "inl_add inlined into inl_caller");
	pts = resolve_ok("force=yes;inl_add%return $retval", 1, &n);
	if (pts)
		CHECK(!pts[0].is_inline, "return probe on an inlined copy");
	CHECK(strstr(msgs, "force=yes: skipping probe point inl_add inlined into inl_caller1") &&
	      strstr(msgs, "force=yes: skipping probe point inl_add inlined into inl_caller2"),
	      "skips not reported: %s", msgs);
	bp_points__free(pts, n);
	pts = resolve_ok("inlines=no;inl_add%return $retval", 1, &n);
	bp_points__free(pts, n);
}

static void test_force(void)
{
	struct bp_point *pts;
	int n;

	expect_fail("force_* v", "force_drop in", "'v'");
	pts = resolve_ok("force=yes;force_* v", 1, &n);
	if (pts)
		CHECK_STR(pts[0].func, "force_keep");
	CHECK(strstr(msgs, "skipping probe point force_drop in"), "skip not said: %s", msgs);
	bp_points__free(pts, n);
	/* nothing left is still an error */
	expect_fail("force=yes;force_drop v", "every probe point was skipped");
	/* a copy too short for the offset: skipped with force only */
	expect_fail("glob_*+100000", "offset +100000 is past the end of the function");
	expect_fail("force=yes;glob_*+100000", "every probe point was skipped");
}

static void test_clones(void)
{
	struct bp_point *pts;
	int n, i, clones = 0;

	pts = resolve_ok("clone_me x", -1, &n);
	for (i = 0; pts && i < n; i++) {
		CHECK_STR(pts[i].func, "clone_me");
		clones += pts[i].symbol && !strcmp(pts[i].symbol, "clone_me.constprop.0");
	}
	/* gcc -O3 specializes clone_me for mode 2 and keeps the original */
	if (!strcmp(cur->name, "gcc-O3"))
		CHECK(n == 2 && clones == 1, "[%s] %d points, %d clones", cur->name, n, clones);
	else if (pts)
		CHECK(n >= 1, "[%s] no point", cur->name);
	bp_points__free(pts, n);
	if (!strcmp(cur->name, "gcc-O3")) {
		pts = resolve_ok("clone_me.constprop.0 x", 1, &n);
		if (pts)
			CHECK_STR(pts[0].symbol ? pts[0].symbol : pts[0].func,
				  "clone_me.constprop.0");
		bp_points__free(pts, n);
	}
	/* gcc -O2 passes p->a for p: isra_me.isra.0 */
	pts = resolve_ok("isra_me", 1, &n);
	if (pts && is_gcc() && !is_O0() && strcmp(cur->name, "gcc-Os-nopie"))
		CHECK(pts[0].symbol && !strcmp(pts[0].symbol, "isra_me.isra.0"),
		      "[%s] symbol %s", cur->name, pts[0].symbol);
	bp_points__free(pts, n);
}

/* Without DWARF, a glob matches the symbol table's functions. */
static void test_symtab_glob(void)
{
	char text[512], err[256], cmd[512], path[64];
	struct bp_point *pts = NULL;
	struct bp_spec spec;
	int n = 0, ret;

	snprintf(path, sizeof(path), "/tmp/bp-points-nodwarf.%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "strip -g -o %s build/targets/points-gcc-O2", path);
	if (system(cmd)) {
		CHECK(0, "%s failed", cmd);
		return;
	}
	snprintf(text, sizeof(text), "exec=%s;glob_*", path);
	msgs[0] = '\0';
	ret = bp_spec__parse(text, &spec, err, sizeof(err));
	if (!ret)
		ret = bp_resolver__resolve(resolver, &spec, &pts, &n);
	bp_spec__free(&spec);
	CHECK(!ret && n == 3, "glob_* without DWARF: %d, %d points: %s", ret, n, msgs);
	bp_points__free(pts, n);

	/* an argument needs DWARF; so does a line */
	snprintf(text, sizeof(text), "exec=%s;glob_* x", path);
	msgs[0] = '\0';
	ret = bp_spec__parse(text, &spec, err, sizeof(err));
	if (!ret)
		ret = bp_resolver__resolve(resolver, &spec, &pts, &n);
	bp_spec__free(&spec);
	CHECK(ret < 0 && strstr(msgs, "no debug info"), "glob_* x: %d: %s", ret, msgs);
	if (!ret)
		bp_points__free(pts, n);
	snprintf(text, sizeof(text), "exec=%s;lines.c:12", path);
	msgs[0] = '\0';
	ret = bp_spec__parse(text, &spec, err, sizeof(err));
	if (!ret)
		ret = bp_resolver__resolve(resolver, &spec, &pts, &n);
	bp_spec__free(&spec);
	CHECK(ret < 0 && strstr(msgs, "no debug info (DWARF), which source lines need"),
	      "lines.c:12: %d: %s", ret, msgs);
	if (!ret)
		bp_points__free(pts, n);
	unlink(path);
}

/* ---- finding libraries ------------------------------------------------------ */

static char tmpdir[] = "/tmp/bp-libpath-XXXXXX";

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	CHECK(f && fwrite(data, 1, len, f) == len, "cannot write %s", path);
	if (f)
		fclose(f);
}

/*
 * A cache in glibc's new format: entries (name, path, flags, hwcap), with
 * the strings after them, offsets counted from the header.
 */
struct fake_entry {
	const char *key, *value;
	int32_t flags;
	uint64_t hwcap;
};

static size_t make_cache(char *buf, size_t len, const struct fake_entry *e, int n,
			 bool old_prefix)
{
	size_t hdr = 48, ent = 24, base = 0, off, str;
	int i;

	memset(buf, 0, len);
	if (old_prefix) {	/* "ld.so-1.7.0", no entries, then the new part */
		memcpy(buf, "ld.so-1.7.0", 11);
		base = 16;
	}
	memcpy(buf + base, "glibc-ld.so.cache1.1", 20);
	memcpy(buf + base + 20, &n, 4);
	str = hdr + n * ent;
	for (i = 0; i < n; i++) {
		uint32_t k, v, zero = 0;

		off = base + hdr + i * ent;
		k = str;
		strcpy(buf + base + str, e[i].key);
		str += strlen(e[i].key) + 1;
		v = str;
		strcpy(buf + base + str, e[i].value);
		str += strlen(e[i].value) + 1;
		memcpy(buf + off, &e[i].flags, 4);
		memcpy(buf + off + 4, &k, 4);
		memcpy(buf + off + 8, &v, 4);
		memcpy(buf + off + 12, &zero, 4);
		memcpy(buf + off + 16, &e[i].hwcap, 8);
	}
	return base + str;
}

static void test_libpath(void)
{
	char lib[PATH_MAX], cache[PATH_MAX + 16], dir1[PATH_MAX + 8], dir2[PATH_MAX + 8];
	char path[3 * PATH_MAX], buf[4096], *found;
	struct bp_libpath_opts o = { .sz = sizeof(o), .use_opts = true };
	const char *const dirs[] = { dir2, NULL };
	size_t len;

	if (!realpath("build/targets/pointslib-gcc-O2/libpoints.so", lib)) {
		CHECK(0, "build/targets/pointslib-gcc-O2/libpoints.so is missing");
		return;
	}
	CHECK(mkdtemp(tmpdir), "mkdtemp");
	snprintf(cache, sizeof(cache), "%s/ld.so.cache", tmpdir);
	snprintf(dir1, sizeof(dir1), "%s/d1", tmpdir);
	snprintf(dir2, sizeof(dir2), "%s/d2", tmpdir);
	mkdir(dir1, 0755);
	mkdir(dir2, 0755);

	/* the cache: a wrong-type entry and a hwcap one are passed over */
	{
		const struct fake_entry e[] = {
			{ "libpoints.so", "/nonexistent/libpoints.so", 0x0303, 0 },
			{ "libpoints.so", "/bin/sh", 0x0000, 0 },
			{ "libhw.so", lib, 0x0303, 1 },
			{ "libpoints.so", lib, 0x0303, 0 },
		};

		len = make_cache(buf, sizeof(buf), e, 4, false);
		write_file(cache, buf, len);
	}
	o.cache = cache;
	found = bp_libpath__find("libpoints.so", &o);
	CHECK(found && !strcmp(found, lib), "cache: %s", found);
	free(found);
	/* only a hwcap entry: used */
	found = bp_libpath__find("libhw.so", &o);
	CHECK(found && !strcmp(found, lib), "hwcap entry: %s", found);
	free(found);
	found = bp_libpath__find("libnone.so", &o);
	CHECK(!found, "found %s", found);
	free(found);

	/* the old format followed by the new one */
	{
		const struct fake_entry e[] = { { "libold.so.1", lib, 0x0303, 0 } };

		len = make_cache(buf, sizeof(buf), e, 1, true);
		write_file(cache, buf, len);
	}
	found = bp_libpath__find("libold.so.1", &o);
	CHECK(found && !strcmp(found, lib), "old+new cache: %s", found);
	free(found);
	/* a truncated cache is no cache */
	write_file(cache, buf, 40);
	found = bp_libpath__find("libold.so.1", &o);
	CHECK(!found, "truncated cache gave %s", found);
	free(found);

	/* LD_LIBRARY_PATH first; a non-ELF file of that name is passed over,
	 * an empty entry is the current directory; then the system dirs */
	snprintf(path, sizeof(path), "%s/libpoints.so", dir1);
	write_file(path, "not an ELF file", 15);
	snprintf(path, sizeof(path), "%s/libpoints.so", dir2);
	CHECK(!symlink(lib, path), "symlink");
	snprintf(path, sizeof(path), "%s::%s", dir1, dir2);
	o.ld_library_path = path;
	o.cache = NULL;
	found = bp_libpath__find("libpoints.so", &o);
	CHECK(found && !strcmp(found, lib), "LD_LIBRARY_PATH: %s", found);
	free(found);
	o.ld_library_path = dir1;
	o.dirs = dirs;
	found = bp_libpath__find("libpoints.so", &o);
	CHECK(found && !strcmp(found, lib), "system dirs: %s", found);
	free(found);
	found = bp_libpath__find("dir/libpoints.so", &o);
	CHECK(!found, "a path is not a bare name");
	free(found);

	CHECK(bp_libpath__is_lib_name("libc.so.6"), "libc.so.6");
	CHECK(bp_libpath__is_lib_name("libx.so"), "libx.so");
	CHECK(bp_libpath__is_lib_name("libx.so.1.2.3"), "libx.so.1.2.3");
	CHECK(!bp_libpath__is_lib_name("bash"), "bash");
	CHECK(!bp_libpath__is_lib_name("libx.so.x"), "libx.so.x");
	CHECK(!bp_libpath__is_lib_name("my.sort"), "my.sort");

	snprintf(path, sizeof(path), "rm -rf %s", tmpdir);
	CHECK(!system(path), "cleanup");
}

/* The real thing: what ldconfig's cache says, and what ld.so maps. */
static void test_libc_like_ld_so(void)
{
	char want[PATH_MAX], line[512], *found;
	bool have = false;
	FILE *p;

	/* ldconfig -p: "	libc.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libc.so.6" */
	p = popen("/sbin/ldconfig -p 2>/dev/null", "r");
	while (p && fgets(line, sizeof(line), p)) {
		char *arrow = strstr(line, "=> ");

		if (!have && arrow && strstr(line, "\tlibc.so.6 (libc6,x86-64") &&
		    realpath(strtok(arrow + 3, "\n"), want))
			have = true;
	}
	if (p)
		pclose(p);
	if (!have) {
		CHECK(0, "ldconfig -p does not list libc.so.6");
		return;
	}
	found = bp_libpath__find("libc.so.6", NULL);
	CHECK(found && !strcmp(found, want), "libc.so.6: %s, want %s", found, want);
	free(found);
	found = bp_find_binary("libc.so.6");
	CHECK(found && !strcmp(found, want), "bp_find_binary: %s, want %s", found, want);
	free(found);
	/* a program name still comes from PATH */
	found = bp_find_binary("sh");
	CHECK(found && ends_with(found, "sh"), "sh: %s", found);
	free(found);
}

/* glibc's malloc is __libc_malloc in DWARF (libc6-dbg) */
static void test_libc_malloc(void)
{
	char text[] = "exec=libc.so.6;malloc bytes";
	struct bp_point *pts = NULL;
	struct bp_spec spec;
	char err[256];
	int n = 0, ret;

	msgs[0] = '\0';
	ret = bp_spec__parse(text, &spec, err, sizeof(err));
	if (!ret)
		ret = bp_resolver__resolve(resolver, &spec, &pts, &n);
	bp_spec__free(&spec);
	CHECK(!ret && n == 1, "malloc bytes: %d, %d points: %s (is libc6-dbg installed?)",
	      ret, n, msgs);
	if (!ret && n == 1) {
		CHECK(ends_with(pts[0].binary, "/libc.so.6"), "binary %s", pts[0].binary);
		CHECK(pts[0].plan.nargs == 1 && pts[0].plan.args[0].base == BP_BASE_REG &&
		      pts[0].plan.args[0].reg == BP_REG_RDI && pts[0].plan.args[0].size == 8,
		      "bytes not in rdi");
	}
	bp_points__free(pts, n);
}

/* RUN with the variant in the name: "test_lines[gcc-O2]" */
#define RUN_VARIANT(fn) RUN_IN_VARIANT(fn, cur->name)

int main(void)
{
	size_t i;

	bpfprobe_set_print(capture);
	resolver = fixture_resolver();
	for (i = 0; i < sizeof(points_variants) / sizeof(points_variants[0]); i++) {
		cur = &points_variants[i];
		if (access(target("points"), R_OK)) {
			printf("FAIL points_target_%s: %s missing (make tests-build)\n", cur->name,
			       target("points"));
			test_total_failed++;
			continue;
		}
		RUN_VARIANT(test_inline_sites);
		RUN_VARIANT(test_lines);
		RUN_VARIANT(test_line_errors);
		RUN_VARIANT(test_globs_and_files);
		RUN_VARIANT(test_inline_points);
		RUN_VARIANT(test_force);
		RUN_VARIANT(test_clones);
	}
	RUN(test_symtab_glob);
	RUN(test_libpath);
	RUN(test_libc_like_ld_so);
	RUN(test_libc_malloc);
	bp_debuginfo__free(di);
	bp_resolver__free(resolver);
	return TEST_EXIT();
}
