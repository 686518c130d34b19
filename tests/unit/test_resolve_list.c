// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests for seeing before loading: the function list (funcs), the
 * variable list (vars) and resolving an object without loading it
 * (resolve), against build/targets/{args,types}-{gcc,clang}-{O0,O2} and
 * build/bpf/args__basic-*.o. Addresses are cross-checked against the
 * resolver itself rather than hard-coded; locations were checked by hand
 * against llvm-dwarfdump (gcc 12, clang 14).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#include <bpfprobe/bpfprobe.h>

#include "prologue/arch.h"
#include "prologue/arch_x86_64.h"
#include "inspect/inspect.h"
#include "loader/object.h"
#include "probes/resolve.h"
#include "inspect/funcs_vars.h"
#include "probes/spec.h"
#include "tests/unit/test.h"
#include "tests/unit/resolve_fixture.h"

/* The entry address the resolver gives FUNC (first point). */
static uint64_t resolver_entry(const char *bin, const char *func)
{
	struct bp_resolver *r = fixture_resolver();
	struct bp_point *pts = NULL;
	struct bp_spec spec;
	char text[512], err[256];
	uint64_t addr = 0;
	int n = 0;

	snprintf(text, sizeof(text), "exec=%s;%s", bin, func);
	if (!bp_spec__parse(text, &spec, err, sizeof(err)) &&
	    !bp_resolver__resolve(r, &spec, &pts, &n) && n > 0)
		addr = pts[0].addr;
	bp_points__free(pts, n);
	bp_spec__free(&spec);
	bp_resolver__free(r);
	return addr;
}

static int vars(const char *bin, const char *point, struct bp_var_list *l)
{
	char text[512], err[256];
	struct bp_spec spec;
	int ret;

	snprintf(text, sizeof(text), "exec=%s;%s", bin, point);
	msgs[0] = '\0';
	ret = bp_spec__parse(text, &spec, err, sizeof(err));
	if (!ret)
		ret = bp_var_list__collect(l, &spec, getenv("TEST_NO_CACHE") != NULL, 0);
	else
		memset(l, 0, sizeof(*l));
	bp_spec__free(&spec);
	return ret;
}

static const struct bp_var_entry *var(const struct bp_var_point *vp, const char *name)
{
	for (int i = 0; i < vp->nvars; i++) {
		if (!strcmp(vp->vars[i].name, name))
			return &vp->vars[i];
	}
	return NULL;
}

/* ---- funcs -------------------------------------------------------------- */

static void test_funcs_glob(void)
{
	for (size_t v = 0; v < 4; v++) {
		struct bp_func_list l;

		cur = &variants[v];
		CHECK_INT(bp_func_list__collect(&l, target("args"), "neg*"), 0);
		CHECK(l.has_dwarf, "%s: no DWARF", cur->name);
		CHECK_INT(l.n, 1);
		if (l.n == 1) {
			const struct bp_func_entry *e = &l.funcs[0];

			CHECK_STR(e->name, "neg_args");
			CHECK_STR(e->cu, "tests/targets/args/main.c");
			CHECK(!e->is_inline && !e->from_symtab, "%s: neg_args kind", cur->name);
			CHECK_INT(e->addr, resolver_entry(target("args"), "neg_args"));
			/* a PIE's text: offset == address */
			CHECK(e->has_offset && e->offset == e->addr, "%s: offset 0x%lx",
			      cur->name, (unsigned long)e->offset);
			CHECK(e->size > 0, "%s: size 0", cur->name);
			CHECK_INT(e->decl_line, 14);
		}
		bp_func_list__free(&l);
	}
}

/* Static functions of one name: one entry per CU. */
static void test_funcs_twins(void)
{
	for (size_t v = 0; v < 4; v++) {
		struct bp_func_list l;

		cur = &variants[v];
		CHECK_INT(bp_func_list__collect(&l, target("args"), "twin"), 0);
		CHECK_INT(l.n, 2);
		if (l.n == 2) {
			CHECK(l.funcs[0].addr < l.funcs[1].addr, "%s: not by address", cur->name);
			CHECK(strstr(l.funcs[0].cu, "twin_a.c") || strstr(l.funcs[1].cu, "twin_a.c"),
			      "%s: no twin_a.c", cur->name);
			CHECK(strstr(l.funcs[0].cu, "twin_b.c") || strstr(l.funcs[1].cu, "twin_b.c"),
			      "%s: no twin_b.c", cur->name);
		}
		bp_func_list__free(&l);
	}
}

/* tiny() is always_inline: an inlined copy in locals(), at every level. */
static void test_funcs_inline(void)
{
	for (size_t v = 0; v < 4; v++) {
		struct bp_func_list l, all;
		uint64_t locals;

		cur = &variants[v];
		locals = resolver_entry(target("types"), "locals");
		CHECK_INT(bp_func_list__collect(&l, target("types"), "tiny"), 0);
		CHECK_INT(l.n, 1);
		if (l.n == 1) {
			CHECK(l.funcs[0].is_inline, "%s: tiny not inline", cur->name);
			CHECK_STR(l.funcs[0].caller, "locals");
			CHECK(l.funcs[0].addr > locals, "%s: tiny at 0x%lx, locals at 0x%lx",
			      cur->name, (unsigned long)l.funcs[0].addr, (unsigned long)locals);
		}
		bp_func_list__free(&l);

		/* no glob: everything, sorted by name */
		CHECK_INT(bp_func_list__collect(&all, target("types"), NULL), 0);
		CHECK(all.n >= 8, "%s: only %d functions", cur->name, all.n);
		for (int i = 1; i < all.n; i++)
			CHECK(strcmp(all.funcs[i - 1].name, all.funcs[i].name) <= 0,
			      "%s: %s before %s", cur->name, all.funcs[i - 1].name,
			      all.funcs[i].name);
		bp_func_list__free(&all);
	}
}

static void test_funcs_errors(void)
{
	struct bp_func_list l;

	cur = &variants[1];
	msgs[0] = '\0';
	bpfprobe_set_print(capture);
	CHECK_INT(bp_func_list__collect(&l, "/nonexistent/app", NULL), -ENOENT);
	CHECK(strstr(msgs, "/nonexistent/app"), "message: %s", msgs);
	bp_func_list__free(&l);
	/* no match is no error */
	CHECK_INT(bp_func_list__collect(&l, target("args"), "no_such_*"), 0);
	CHECK_INT(l.n, 0);
	bp_func_list__free(&l);
}

/* ---- vars --------------------------------------------------------------- */

static void test_vars_handle_req(void)
{
	for (size_t v = 0; v < 4; v++) {
		const struct bp_var_entry *req, *conn;
		struct bp_var_list l;

		cur = &variants[v];
		CHECK_INT(vars(target("args"), "handle_req", &l), 0);
		CHECK_INT(l.npoints, 1);
		if (l.npoints != 1)
			continue;
		CHECK_INT(l.points[0].nvars, 2);
		req = var(&l.points[0], "req");
		conn = var(&l.points[0], "conn");
		CHECK(req && conn, "%s: req or conn missing", cur->name);
		if (!req || !conn) {
			bp_var_list__free(&l);
			continue;
		}
		CHECK_STR(req->type_name, "req_t *");
		CHECK_STR(conn->type_name, "const struct conn *");
		CHECK_INT(req->kind, BP_VAR_PARAM);
		CHECK(req->fetchable && conn->fetchable, "%s: %s / %s", cur->name,
		      req->why ? req->why : "", conn->why ? conn->why : "");
		CHECK_INT(req->fetch->size, 8);
		CHECK(!req->fetch->is_signed, "%s: pointer signed", cur->name);
		if (cur->O0) {
			/* read from its frame slot, past the prologue */
			CHECK(req->addr > l.points[0].addr, "%s: read at the entry", cur->name);
			CHECK_INT(req->fetch->nderef, 1);
		} else {
			CHECK_STR(req->loc_desc, "reg rdi");
			CHECK_STR(conn->loc_desc, "reg rsi");
			CHECK_INT(req->fetch->base, BP_BASE_REG);
			CHECK_INT(req->fetch->reg, BP_REG_RDI);
			CHECK_INT(req->fetch->nderef, 0);
			CHECK_INT(req->addr, l.points[0].addr);
		}
		bp_var_list__free(&l);
	}
}

/* main's locals: in scope at its entry, optimized builds have them later. */
static void test_vars_locals(void)
{
	for (size_t v = 0; v < 4; v++) {
		const struct bp_var_entry *argc, *rounds, *hdr;
		struct bp_var_list l;

		cur = &variants[v];
		CHECK_INT(vars(target("args"), "main", &l), 0);
		if (l.npoints != 1) {
			CHECK_INT(l.npoints, 1);
			continue;
		}
		argc = var(&l.points[0], "argc");
		rounds = var(&l.points[0], "rounds");
		hdr = var(&l.points[0], "hdr");
		CHECK(argc && rounds && hdr, "%s: argc/rounds/hdr missing", cur->name);
		if (argc && rounds && hdr) {
			CHECK_INT(argc->kind, BP_VAR_PARAM);
			CHECK_INT(rounds->kind, BP_VAR_LOCAL);
			CHECK_STR(hdr->type_name, "struct hdr");
			/* a struct; name a member (or not there yet at clang -O2) */
			CHECK(!hdr->fetchable && hdr->why, "%s: hdr fetchable", cur->name);
			if (!cur->clang || cur->O0)
				CHECK(strstr(hdr->why, "a struct; name a member"), "%s: hdr: %s",
				      cur->name, hdr->why);
			CHECK(argc->fetchable, "%s: argc: %s", cur->name, argc->why);
			if (cur->O0) {
				CHECK(rounds->fetchable, "%s: rounds: %s", cur->name, rounds->why);
			} else {
				/* assigned later: a location list that starts past the entry */
				CHECK(!rounds->fetchable && strstr(rounds->why, "optimized out"),
				      "%s: rounds: %s", cur->name, rounds->why ? rounds->why : "");
				CHECK(rounds->navail > 0 && rounds->avail[0].start > l.points[0].addr,
				      "%s: rounds has no later range", cur->name);
			}
		}
		/* parameters come first */
		CHECK_INT(l.points[0].vars[0].kind, BP_VAR_PARAM);
		bp_var_list__free(&l);
	}
}

/* Inside locals()'s loop (where tiny() is inlined), the block locals i and
 * sq are in scope besides n and acc. */
static void test_vars_blocks(void)
{
	for (size_t v = 0; v < 4; v++) {
		struct bp_func_list fl;
		struct bp_var_list l;
		char point[64];
		uint64_t locals;

		cur = &variants[v];
		locals = resolver_entry(target("types"), "locals");
		if (bp_func_list__collect(&fl, target("types"), "tiny") || fl.n != 1) {
			CHECK(0, "%s: no tiny", cur->name);
			bp_func_list__free(&fl);
			continue;
		}
		snprintf(point, sizeof(point), "locals+%lu",
			 (unsigned long)(fl.funcs[0].addr - locals));
		bp_func_list__free(&fl);
		CHECK_INT(vars(target("types"), point, &l), 0);
		if (l.npoints == 1) {
			const struct bp_var_point *vp = &l.points[0];

			CHECK(var(vp, "n") && var(vp, "acc") && var(vp, "i") && var(vp, "sq"),
			      "%s: %s lacks n/acc/i/sq (%d vars)", cur->name, point, vp->nvars);
			CHECK_INT(vp->nvars, 4);
		}
		bp_var_list__free(&l);

		/* at the entry the loop body's sq is not in scope (gcc -O2 puts the
		 * loop's block, with i = 0, around the entry already) */
		CHECK_INT(vars(target("types"), "locals", &l), 0);
		if (l.npoints == 1) {
			CHECK(var(&l.points[0], "n") && var(&l.points[0], "acc"),
			      "%s: locals lacks n/acc", cur->name);
			CHECK(!var(&l.points[0], "sq"), "%s: sq in scope at the entry", cur->name);
			CHECK_INT(l.points[0].nvars, !cur->clang && !cur->O0 ? 3 : 2);
		}
		bp_var_list__free(&l);
	}
}

/* What cannot be read says why, in the resolver's words. */
static void test_vars_unfetchable(void)
{
	for (size_t v = 0; v < 4; v++) {
		const struct bp_var_entry *d, *p, *unused;
		struct bp_var_list l;

		cur = &variants[v];
		CHECK_INT(vars(target("types"), "fp", &l), 0);
		if (l.npoints == 1) {
			d = var(&l.points[0], "d");
			p = var(&l.points[0], "p");
			CHECK(d && p, "%s: fp's d/p missing", cur->name);
			if (d && p) {
				CHECK_STR(d->type_name, "double");
				CHECK_STR(p->type_name, "struct fpair *");
				CHECK(p->fetchable, "%s: p: %s", cur->name, p->why);
				/* -O0 spills it to memory, where its bits are readable */
				if (!cur->O0)
					CHECK(!d->fetchable && strstr(d->why, "floating-point"),
					      "%s: d: %s", cur->name, d->why ? d->why : "fetchable");
				/* no prefix: the reason alone */
				CHECK(d->fetchable || !strstr(d->why, "argument 'd'"),
				      "%s: d: %s", cur->name, d->why);
			}
		}
		bp_var_list__free(&l);

		if (!cur->clang || cur->O0)
			continue;
		CHECK_INT(vars(target("args"), "opt_out", &l), 0);
		unused = l.npoints == 1 ? var(&l.points[0], "unused") : NULL;
		CHECK(unused && !unused->fetchable && strstr(unused->why, "optimized out"),
		      "%s: unused: %s", cur->name, unused && unused->why ? unused->why : "?");
		bp_var_list__free(&l);
	}
}

static void test_vars_return(void)
{
	for (size_t v = 0; v < 4; v++) {
		const struct bp_var_entry *e;
		struct bp_var_list l;

		cur = &variants[v];
		CHECK_INT(vars(target("args"), "ret_neg%return", &l), 0);
		if (l.npoints == 1 && l.points[0].nvars == 1) {
			e = &l.points[0].vars[0];
			CHECK(l.points[0].is_return, "%s: not a return", cur->name);
			CHECK_STR(e->name, "$retval");
			CHECK_INT(e->kind, BP_VAR_RETVAL);
			CHECK(e->fetchable, "%s: %s", cur->name, e->why);
			CHECK_STR(e->type_name, cur->clang ? "long" : "long int");
			CHECK_INT(e->fetch->reg, BP_REG_RAX);
			CHECK_INT(e->fetch->size, 8);
			CHECK(e->fetch->is_signed, "%s: unsigned", cur->name);
		} else {
			CHECK(0, "%s: %d points", cur->name, l.npoints);
		}
		bp_var_list__free(&l);

		CHECK_INT(vars(target("types"), "nothing%return", &l), 0);
		e = l.npoints == 1 && l.points[0].nvars == 1 ? &l.points[0].vars[0] : NULL;
		CHECK(e && !e->fetchable && strstr(e->why, "void"), "%s: void $retval: %s",
		      cur->name, e && e->why ? e->why : "?");
		if (e)
			CHECK_STR(e->type_name, "void");
		bp_var_list__free(&l);
	}
}

/* Each copy of a static function lists its own parameters. */
static void test_vars_twins(void)
{
	for (size_t v = 0; v < 4; v++) {
		struct bp_var_list l;

		cur = &variants[v];
		CHECK_INT(vars(target("args"), "twin", &l), 0);
		CHECK_INT(l.npoints, 2);
		if (l.npoints == 2) {
			int a = strstr(l.points[0].cu, "twin_a.c") ? 0 : 1;

			CHECK_INT(l.points[a].nvars, 1);
			CHECK_INT(l.points[1 - a].nvars, 2);
			CHECK(var(&l.points[1 - a], "pad") && !var(&l.points[a], "pad"),
			      "%s: pad in the wrong twin", cur->name);
			if (!cur->O0) {
				CHECK_STR(var(&l.points[a], "x")->loc_desc, "reg rdi");
				CHECK_STR(var(&l.points[1 - a], "x")->loc_desc, "reg rsi");
			}
		}
		bp_var_list__free(&l);
	}
}

static void test_vars_errors(void)
{
	struct bp_var_list l;

	cur = &variants[1];
	bpfprobe_set_print(capture);
	CHECK_INT(vars(target("args"), "no_such_function", &l), -ENOENT);
	CHECK(strstr(msgs, "no_such_function"), "message: %s", msgs);
	bp_var_list__free(&l);
	CHECK_INT(vars(target("args"), "neg_args a", &l), -EINVAL);
	CHECK(strstr(msgs, "arguments given"), "message: %s", msgs);
	bp_var_list__free(&l);
	CHECK_INT(vars(target("args"), "neg_args+100000", &l), -ERANGE);
	bp_var_list__free(&l);
}

/* ---- resolve without loading -------------------------------------------- */

static const struct bp_program *program(const struct bpfprobe_object *obj, const char *name)
{
	for (int i = 0; i < obj->nprogs; i++) {
		if (!strcmp(obj->progs[i].name, name))
			return &obj->progs[i];
	}
	return NULL;
}

static int instance_of(const struct bpfprobe_object *obj, const struct bp_point *pt)
{
	for (int i = 0; i < obj->naps; i++) {
		if (obj->aps[i].point == pt)
			return obj->aps[i].instance;
	}
	return -1;
}

static void test_resolve_object(void)
{
	for (size_t v = 0; v < 4; v++) {
		const struct bp_program *twin, *neg;
		struct bpfprobe_object *obj;
		char path[256];

		cur = &variants[v];
		snprintf(path, sizeof(path), "build/bpf/args__basic-%s.o", cur->name);
		obj = bpfprobe_object__open(path, NULL);
		CHECK(obj, "%s: open failed", path);
		if (!obj)
			continue;
		CHECK_INT(bp_inspect__resolve(obj), 0);
		CHECK(!obj->loaded, "%s: loaded", path);
		twin = program(obj, "twin");
		neg = program(obj, "neg");
		CHECK(twin && neg, "%s: programs missing", path);
		if (twin && twin->npoints == 2) {
			int i0 = instance_of(obj, &twin->points[0]);
			int i1 = instance_of(obj, &twin->points[1]);

			CHECK(i0 >= 0 && i1 >= 0 && i0 != i1, "%s: twin instances %d %d",
			      path, i0, i1);
			if (i0 >= 0 && i1 >= 0) {
				CHECK_STR(obj->insts[i0].name, "twin");
				CHECK_STR(obj->insts[i1].name, "twin_1");
			}
		} else {
			CHECK(0, "%s: twin has %d points", path, twin ? twin->npoints : -1);
		}
		if (neg && neg->npoints == 1) {
			const struct bp_point *pt = &neg->points[0];

			CHECK_STR(pt->type_name[0], "int");
			CHECK_INT(pt->plan.args[0].size, 4);
			CHECK(pt->plan.args[0].is_signed, "%s: a unsigned", path);
			if (!cur->O0)
				CHECK_STR(pt->loc_desc[0], "reg rdi");
			/* nothing was handed to the kernel */
			for (int i = 0; i < obj->ninsts; i++)
				CHECK_INT(obj->insts[i].fd, -1);
		}
		bpfprobe_object__destroy(obj);
	}
}

static void test_resolve_sec_text(void)
{
	struct bpfprobe_object *obj;
	char text[512];

	cur = &variants[1];
	snprintf(text, sizeof(text), "exec=%s;ev=twin x", target("args"));
	CHECK_INT(bp_inspect__resolve_sec(text, NULL, &obj), 0);
	if (obj) {
		CHECK_INT(obj->nprogs, 1);
		CHECK_STR(obj->progs[0].name, "ev");
		CHECK_INT(obj->progs[0].npoints, 2);
		CHECK_INT(obj->ninsts, 2);
		bpfprobe_object__destroy(obj);
	}
	/* a bad text gives the parser's or resolver's message, and no object */
	msgs[0] = '\0';
	bpfprobe_set_print(capture);
	snprintf(text, sizeof(text), "exec=%s;handle_req req->lenn", target("args"));
	CHECK_INT(bp_inspect__resolve_sec(text, NULL, &obj), -ENOENT);
	CHECK(!obj, "an object on error");
	CHECK(strstr(msgs, "lenn") && strstr(msgs, "struct req"), "message: %s", msgs);
}

int main(void)
{
	bpfprobe_set_print(capture);
	RUN(test_funcs_glob);
	RUN(test_funcs_twins);
	RUN(test_funcs_inline);
	RUN(test_funcs_errors);
	RUN(test_vars_handle_req);
	RUN(test_vars_locals);
	RUN(test_vars_blocks);
	RUN(test_vars_unfetchable);
	RUN(test_vars_return);
	RUN(test_vars_twins);
	RUN(test_vars_errors);
	RUN(test_resolve_object);
	RUN(test_resolve_sec_text);
	return TEST_EXIT();
}
