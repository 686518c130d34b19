// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Source lines as probe points: SRC:ALN, FUNC:RLN and the lazy patterns
 * FUNC;PTN and SRC;PTN, found in the DWARF line tables.
 *
 * A line usually has several rows (addresses): a loop's test, code the
 * scheduler moved. Like a debugger's breakpoint, a line gives one probe
 * point per function copy it has code in (the out-of-line copy and every
 * inlined copy, each with its own variables), at the lowest address of
 * its is_stmt rows there. The copy a row belongs to is the innermost
 * function scope at its address: a row of an inlined callee belongs to
 * the callee's copy, not to its caller.
 *
 * A lazy pattern is perf's: a glob matched against each whole source line
 * with all whitespace removed from the line (the pattern has none, being
 * one token), so ";sink=*" matches "	sink = r + 1;". The source file is read
 * from the path the line table names.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/types.h"
#include "util/grow.h"
#include "util/stop.h"

/* a source line longer than this is matched on its first bytes only */
#define MAX_LINE_LEN	4096
/* what a lazy pattern reads of a source file at most (sqlite3.c, the
 * largest C file in common use, is 9 MB and 250,000 lines) */
#define MAX_SRC_BYTES	(64 << 20)
#define MAX_SRC_LINES	(1 << 21)

/* --- file names ----------------------------------------------------------- */

/* path made absolute against the CU's DW_AT_comp_dir when it is relative
 * (gcc names files relative to the directory it ran in). */
static const char *abs_path(const char *comp_dir, const char *path, char *buf,
			    size_t len)
{
	if (!path || path[0] == '/' || !comp_dir)
		return path;
	snprintf(buf, len, "%s/%s", comp_dir, path);
	return buf;
}

static const char *comp_dir_of(Dwarf_Die *cudie)
{
	Dwarf_Attribute attr;

	return dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &attr));
}

const char *bp_die_decl_file(Dwarf_Die *die, char *buf, size_t len)
{
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	Dwarf_Die cudie;
	Dwarf_Word idx;
	size_t nfiles;
	const char *name;

	/* the attribute may come from an abstract origin in another unit,
	 * whose file table its index refers to */
	if (!dwarf_attr_integrate(die, DW_AT_decl_file, &attr) ||
	    dwarf_formudata(&attr, &idx) || !dwarf_cu_die(attr.cu, &cudie, NULL,
							  NULL, NULL, NULL, NULL, NULL) ||
	    dwarf_getsrcfiles(&cudie, &files, &nfiles) || idx >= nfiles)
		return NULL;
	/* libdw 0.188's dwarf_decl_file() takes index 0 for "none", but in
	 * DWARF 5 it is the primary source file (clang uses it) */
	name = dwarf_filesrc(files, idx, NULL, NULL);
	return abs_path(comp_dir_of(&cudie), name, buf, len);
}

/* --- source files for lazy patterns ---------------------------------------- */

struct src_file {
	char *path;
	char **lines;		/* whitespace removed; lines[0] is line 1 */
	int n;
	int err;		/* reading failed: -errno */
	const char *why;	/* or this, when it is not an errno's story */
	struct src_file *next;
};

struct line_query {
	const struct bp_spec *spec;
	int line;		/* the line asked for, when !spec->lazy */
	struct src_file *files;	/* lazy: sources read so far */
};

static void strip_space(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r' &&
		    *s != '\f' && *s != '\v')
			*d++ = *s;
	}
	*d = '\0';
}

/* Only a regular file, and only so much of it: DWARF names the source, and
 * a hostile or odd one names /dev/zero or a FIFO. */
static int src_read(struct src_file *f)
{
	char buf[MAX_LINE_LEN];
	size_t cap = 0, total = 0;
	struct stat st;
	int err = 0, fd;
	FILE *fp;

	fd = open(f->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (!S_ISREG(st.st_mode))
		err = -EINVAL, f->why = "not a regular file";
	else if (st.st_size > MAX_SRC_BYTES)
		err = -EFBIG, f->why = "larger than 64 MiB";
	if (err) {
		close(fd);
		return err;
	}
	fp = fdopen(fd, "r");
	if (!fp) {
		close(fd);
		return -errno;
	}
	while (fgets(buf, sizeof(buf), fp)) {
		size_t len = strlen(buf);

		total += len;
		/* the rest of an over-long line is not a line of its own */
		if (len == sizeof(buf) - 1 && buf[len - 1] != '\n') {
			int c;

			while ((c = fgetc(fp)) != EOF && c != '\n')
				total++;
		}
		if (total > MAX_SRC_BYTES || f->n >= MAX_SRC_LINES) {
			f->why = total > MAX_SRC_BYTES ? "larger than 64 MiB" : "more than 2097152 lines";
			err = -EFBIG;
			break;
		}
		if (bp_grow((void **)&f->lines, f->n, &cap, sizeof(*f->lines), 256)) {
			err = -ENOMEM;
			break;
		}
		strip_space(buf);
		f->lines[f->n] = strdup(buf);
		if (!f->lines[f->n]) {
			err = -ENOMEM;
			break;
		}
		f->n++;
	}
	fclose(fp);
	return err;
}

static struct src_file *src_get(struct line_query *q, const char *path)
{
	struct src_file *f;

	for (f = q->files; f; f = f->next) {
		if (!strcmp(f->path, path))
			return f;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->path = strdup(path);
	f->err = f->path ? src_read(f) : -ENOMEM;
	f->next = q->files;
	q->files = f;
	return f;
}

static void src_free(struct line_query *q)
{
	struct src_file *f, *next;
	int i;

	for (f = q->files; f; f = next) {
		next = f->next;
		for (i = 0; i < f->n; i++)
			free(f->lines[i]);
		free(f->lines);
		free(f->path);
		free(f);
	}
	q->files = NULL;
}

/*
 * Whether line of path is asked for: the line number, or (lazy) its text
 * matching the pattern. An unreadable source is an error for a pattern.
 */
static int line_wanted(struct line_query *q, const char *path, int line)
{
	struct src_file *f;

	if (!q->spec->lazy)
		return line == q->line;
	f = src_get(q, path);
	if (!f)
		return -ENOMEM;
	if (f->err)
		return f->err;
	if (line < 1 || line > f->n)
		return 0;
	return !fnmatch(q->spec->lazy, f->lines[line - 1], 0);
}

static void report_src_err(const struct line_query *q, const char *where,
			   struct bp_diag *d)
{
	const struct src_file *f;

	for (f = q->files; f; f = f->next) {
		if (f->err && f->err != -ENOMEM) {
			bp_diag__set(d, "%s: cannot read source file %s for the lazy pattern '%s': %s (the pattern is matched against the source text)",
				     where, f->path, q->spec->lazy,
				     f->why ? f->why : strerror(-f->err));
			return;
		}
	}
}

/* --- rows, grouped per copy and line -------------------------------------- */

/* The lowest address of one line in one function copy. */
struct line_group {
	Dwarf_Off scope;	/* DIE offset of the copy */
	int line;
	const char *file;
	Dwarf_Addr addr;	/* lowest is_stmt row; else lowest row */
	bool stmt;
	struct bp_func fn;
};

struct groups {
	struct line_group *v;
	int n;
	size_t cap;
	/* for messages: rows of the file at all, and the lines nearest
	 * to the one asked for */
	bool file_seen;
	int below, above;
	int inline_skipped;	/* rows only in copies inlines=no excludes */
};

static int group_add(struct groups *g, Dwarf_Off scope, int line,
		     const char *file, Dwarf_Addr addr, bool stmt,
		     const struct bp_func *fn)
{
	struct line_group *e;
	int i;

	for (i = 0; i < g->n; i++) {
		e = &g->v[i];
		if (e->scope != scope || e->line != line)
			continue;
		/* a statement row wins over any other; then the lowest */
		if ((stmt && !e->stmt) || (stmt == e->stmt && addr < e->addr)) {
			e->addr = addr;
			e->stmt = stmt;
			e->file = file;
		}
		return 0;
	}
	if (bp_grow((void **)&g->v, g->n, &g->cap, sizeof(*g->v), 8))
		return -ENOMEM;
	e = &g->v[g->n++];
	e->scope = scope;
	e->line = line;
	e->file = file;
	e->addr = addr;
	e->stmt = stmt;
	e->fn = *fn;
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct line_group *ga = a, *gb = b;

	if (ga->addr != gb->addr)
		return ga->addr < gb->addr ? -1 : 1;
	return ga->line - gb->line;
}

struct frame_at {
	Dwarf_Addr addr;
	Dwarf_Die die;
	bool found;
};

static int frame_at_cb(Dwarf_Die *die, void *arg)
{
	struct frame_at *fa = arg;

	if (dwarf_tag(die) != DW_TAG_subprogram || dwarf_haspc(die, fa->addr) <= 0)
		return DWARF_CB_OK;
	fa->die = *die;
	fa->found = true;
	return DWARF_CB_ABORT;
}

/* The innermost inlined copy at addr below parent, or false. */
static bool inner_inline(Dwarf_Die *parent, Dwarf_Addr addr, Dwarf_Die *out)
{
	Dwarf_Die child, cur = *parent;
	bool found = false;
	int depth = 0;

	/* each level holds addr in at most one child block or inlined copy */
	while (depth++ < 64 && !dwarf_child(&cur, &child)) {
		bool deeper = false;

		do {
			int tag = dwarf_tag(&child);

			if ((tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block) &&
			    dwarf_haspc(&child, addr) > 0) {
				if (tag == DW_TAG_inlined_subroutine) {
					*out = child;
					found = true;
				}
				cur = child;
				deeper = true;
				break;
			}
		} while (!dwarf_siblingof(&child, &child));
		if (!deeper)
			break;
	}
	return found;
}

/*
 * The function copy the code at addr belongs to: the innermost inlined
 * copy around it, or the out-of-line function, which is its frame either
 * way. (Not dwarf_getscopes(): past an inlined copy it goes on with the
 * scopes of the copy's abstract origin, not with its caller.)
 */
static bool copy_at(Dwarf_Die *cudie, Dwarf_Addr addr, const char *cu_name,
		    struct bp_func *fn)
{
	struct frame_at fa = { .addr = addr };

	dwarf_getfuncs(cudie, frame_at_cb, &fa, 0);
	if (!fa.found)
		return false;
	memset(fn, 0, sizeof(*fn));
	fn->frame = fa.die;
	fn->has_die = true;
	fn->cu_name = cu_name;
	fn->is_inline = inner_inline(&fa.die, addr, &fn->die);
	if (!fn->is_inline)
		fn->die = fa.die;
	fn->name = bp_die_name(&fn->die);
	if (!bp_func__code(&fn->frame, &fn->frame_entry, &fn->end))
		return false;
	if (!fn->is_inline) {
		fn->entry = fn->frame_entry;
		return true;
	}
	return bp_inline__code(&fn->die, &fn->entry, &fn->end);
}

static bool same_die(Dwarf_Die *a, Dwarf_Die *b)
{
	return dwarf_dieoffset(a) == dwarf_dieoffset(b);
}

static void note_near(struct groups *g, int want, int line)
{
	if (line < want && line > g->below)
		g->below = line;
	if (line > want && (!g->above || line < g->above))
		g->above = line;
}

/*
 * Scans one unit's line table. With fn, only rows of fn's declaration
 * file that belong to fn itself count; else rows of spec->src anywhere.
 */
static int scan_unit(struct line_query *q, Dwarf_Die *cudie, const char *cu_name,
		     const struct bp_func *fn, const char *decl_file,
		     struct groups *g)
{
	const struct bp_spec *spec = q->spec;
	const char *comp_dir = comp_dir_of(cudie);
	char absbuf[PATH_MAX];
	Dwarf_Lines *lines;
	size_t nlines, i;
	int err;

	if (dwarf_getsrclines(cudie, &lines, &nlines))
		return 0;	/* no line table: nothing of ours here */
	for (i = 0; i < nlines; i++) {
		Dwarf_Line *row = dwarf_onesrcline(lines, i);
		const char *file, *abs;
		struct bp_func copy;
		Dwarf_Addr addr;
		bool flag = false, stmt = false;
		int lineno;

		if (!row || dwarf_lineaddr(row, &addr) || dwarf_lineno(row, &lineno) ||
		    !(file = dwarf_linesrc(row, NULL, NULL)))
			continue;
		if (!dwarf_lineendsequence(row, &flag) && flag)
			continue;
		abs = abs_path(comp_dir, file, absbuf, sizeof(absbuf));
		if (fn ? strcmp(abs, decl_file) : !bp_path__matches(abs, spec->src))
			continue;
		if (fn && dwarf_haspc((Dwarf_Die *)&fn->die, addr) <= 0)
			continue;
		g->file_seen = true;
		err = line_wanted(q, abs, lineno);
		if (err < 0)
			return err == -ENOMEM ? err : 0;
		if (!err) {
			if (!spec->lazy)
				note_near(g, q->line, lineno);
			continue;
		}
		if (!copy_at(cudie, addr, cu_name, &copy))
			continue;
		if (fn && !same_die(&copy.die, (Dwarf_Die *)&fn->die))
			continue;	/* code of a callee inlined into fn */
		if (!fn && copy.is_inline && (!spec->inlines || !spec->exec)) {
			g->inline_skipped++;
			continue;
		}
		dwarf_linebeginstatement(row, &stmt);
		err = group_add(g, dwarf_dieoffset(&copy.die), lineno, file, addr,
				stmt, &copy);
		if (err)
			return err;
	}
	return 0;
}

static int groups_to_sites(const struct bp_debuginfo *di, struct groups *g,
			   struct bp_site_list *l)
{
	char fwhere[256];
	int i;

	bp_sort(g->v, g->n, sizeof(*g->v), by_addr);
	for (i = 0; i < g->n; i++) {
		struct line_group *e = &g->v[i];
		struct bp_site *s = bp_site_list__add(l);
		const char *base;

		if (!s)
			return -ENOMEM;
		s->fn = e->fn;
		s->addr = e->addr;
		s->at_entry = !e->fn.is_inline && e->addr == e->fn.entry;
		s->file = e->file;
		s->line = e->line;
		base = strrchr(e->file, '/');
		base = base ? base + 1 : e->file;
		bp_func__where(di, &e->fn, false, fwhere, sizeof(fwhere));
		snprintf(s->where, sizeof(s->where), "%s:%d in %s", base, e->line,
			 fwhere);
	}
	return 0;
}

/* --- FUNC:RLN and FUNC;PTN ------------------------------------------------- */

int bp_lines__in_func(const struct bp_debuginfo *di, const struct bp_spec *spec,
		      const struct bp_func *fn, struct bp_site_list *l,
		      struct bp_diag *d)
{
	struct line_query q = { .spec = spec };
	struct groups g = {};
	char where[256];
	char declbuf[PATH_MAX];
	Dwarf_Die cudie;
	const char *decl_file;
	int decl_line = 0, err;

	bp_func__where(di, fn, true, where, sizeof(where));
	if (!fn->has_die) {
		bp_diag__set(d, "%s: no debug info (DWARF), which source lines need", where);
		return -ENODATA;
	}
	decl_file = bp_die_decl_file((Dwarf_Die *)&fn->die, declbuf, sizeof(declbuf));
	if (!decl_file || dwarf_decl_line((Dwarf_Die *)&fn->die, &decl_line) ||
	    !dwarf_diecu((Dwarf_Die *)&fn->die, &cudie, NULL, NULL)) {
		bp_diag__set(d, "%s: DWARF does not say where it is declared (DW_AT_decl_file/line), which %s needs",
			     where, spec->lazy ? "a lazy pattern" : "FUNC:RLN");
		return -ENOENT;
	}
	q.line = decl_line + spec->line;
	err = scan_unit(&q, &cudie, fn->cu_name, fn, decl_file, &g);
	if (!err && !g.n) {
		err = -ENOENT;
		if (spec->lazy && q.files && q.files->err)
			report_src_err(&q, where, d);
		else if (spec->lazy)
			bp_diag__set(d, "%s: no line of it matches the lazy pattern '%s' (matched against %s, whitespace removed)",
				     where, spec->lazy, decl_file);
		else
			bp_diag__set(d, "%s: line %d of %s (its line %d + %d) has no code in it%s",
				     where, q.line, decl_file, decl_line, spec->line,
				     g.file_seen ? "" : " (no line of it has code here)");
	}
	if (!err)
		err = groups_to_sites(di, &g, l);
	if (err == -ENOMEM)
		bp_diag__add(d, "%s: out of memory reading line tables", where);
	free(g.v);
	src_free(&q);
	return err;
}

/* --- SRC:ALN and SRC;PTN --------------------------------------------------- */

static void report_no_line(const struct bp_debuginfo *di, struct line_query *q,
			   const struct groups *g, struct bp_diag *d)
{
	const struct bp_spec *spec = q->spec;

	if (!g->file_seen) {
		bp_diag__set(d, "%s: no source file '%s' has code in %s (a file is matched by its path's tail, e.g. 'dir/file.c')",
			     spec->point, spec->src, di->path);
	} else if (g->inline_skipped) {
		bp_diag__set(d, "%s: the code of %s in %s is all in inlined copies, which %s excludes",
			     spec->point, spec->lazy ? "the matching lines" : "this line",
			     di->path, spec->exec ? "inlines=no" : "a kernel probe");
	} else if (spec->lazy && q->files && q->files->err) {
		report_src_err(q, spec->point, d);
	} else if (spec->lazy) {
		bp_diag__set(d, "%s: no line with code in %s of %s matches the lazy pattern '%s' (whitespace removed)",
			     spec->point, spec->src, di->path, spec->lazy);
	} else if (g->below || g->above) {
		char near[64] = "";

		if (g->below && g->above)
			snprintf(near, sizeof(near), "%d or %d", g->below, g->above);
		else
			snprintf(near, sizeof(near), "%d", g->below ? g->below : g->above);
		bp_diag__set(d, "%s: line %d of %s has no code in %s (nearest lines with code: %s)",
			     spec->point, q->line, spec->src, di->path, near);
	} else {
		bp_diag__set(d, "%s: line %d of %s has no code in %s",
			     spec->point, q->line, spec->src, di->path);
	}
}

int bp_lines__in_file(const struct bp_debuginfo *di, const struct bp_spec *spec,
		      struct bp_site_list *l, struct bp_diag *d)
{
	struct line_query q = { .spec = spec, .line = spec->line };
	Dwarf_Die cudie, subdie, *unit;
	struct groups g = {};
	Dwarf_CU *cu = NULL;
	uint8_t unit_type;
	int err = 0;

	if (!di->dwarf) {
		bp_diag__set(d, "%s: %s has no debug info (DWARF), which source lines need: rebuild it with -g, or install its debug info",
			     spec->point, di->path);
		return -ENODATA;
	}
	while (!err && !dwarf_get_units(di->dwarf, cu, &cu, NULL, &unit_type,
					&cudie, &subdie)) {
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			continue;
		unit = unit_type == DW_UT_skeleton ? &subdie : &cudie;
		if (!dwarf_tag(unit))
			continue;
		err = bp_stop__requested() ? -EINTR :
		      scan_unit(&q, unit, dwarf_diename(unit), NULL, NULL, &g);
	}
	if (!err && !g.n) {
		report_no_line(di, &q, &g, d);
		err = -ENOENT;
	}
	if (!err)
		err = groups_to_sites(di, &g, l);
	if (err == -ENOMEM)
		bp_diag__add(d, "%s: out of memory reading line tables of %s", spec->point,
			     di->path);
	free(g.v);
	src_free(&q);
	return err;
}
