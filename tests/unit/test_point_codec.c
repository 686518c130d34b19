// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests for probe points as bytes (probes/point_codec.c): points come
 * back field for field, kernel points do not encode, and every truncation
 * or damaged field of the bytes is refused without reading past them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probes/point_codec.h"
#include "tests/unit/test.h"

static char *dup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Two points: every string set or NULL, a plan with a register, a deref
 * chain and an expression. */
static void fill(struct bp_point *p)
{
	memset(p, 0, 2 * sizeof(*p));
	p[0].binary = dup("/usr/bin/app");
	p[0].func = dup("handle_req");
	p[0].cu = dup("app.c");
	p[0].source = dup("DWARF /usr/lib/debug/app.debug");
	p[0].src_file = dup("/src/app.c");
	p[0].src_line = 42;
	p[0].symbol = dup("handle_req.constprop.0");
	p[0].addr = 0x401136;
	p[0].offset = 0x1136;
	p[0].die_off = 0x2b;
	p[0].is_return = true;
	p[0].nentries = 1;
	p[0].entry_offsets[0] = 0x1130;
	p[0].plan.nargs = 3;
	p[0].plan.args[0] = (struct bp_fetch){ .base = BP_BASE_REG, .reg = 5, .size = 4,
					       .is_signed = true };
	p[0].plan.args[1] = (struct bp_fetch){ .base = BP_BASE_REG, .reg = 4, .add = -8,
					       .nderef = 2, .deref_off = { 8, 16 },
					       .user_mask = 3, .size = 2, .bit_off = 3,
					       .bit_size = 5 };
	p[0].plan.args[2] = (struct bp_fetch){ .base = BP_BASE_EXPR, .size = 8,
					       .anchor = 0x401136,
					       .anchor_kind = BP_ANCHOR_FUNC_IP };
	p[0].plan.args[2].expr.nops = 2;
	p[0].plan.args[2].expr.ops[0] = (struct bp_expr_op){ .op = BP_XOP_REG, .reg = 7,
							     .imm = 16 };
	p[0].plan.args[2].expr.ops[1] = (struct bp_expr_op){ .op = BP_XOP_DEREF, .size = 8,
							     .flags = BP_XF_USER };
	for (int k = 0; k < 3; k++) {
		char b[32];

		snprintf(b, sizeof(b), "arg%d", k);
		p[0].arg_name[k] = dup(b);
		p[0].type_name[k] = dup(k ? "long int" : "int");
		p[0].loc_desc[k] = dup("reg rdi");
	}
	p[1].binary = dup("/usr/bin/app");
	p[1].func = dup("helper");
	p[1].is_inline = true;
	p[1].caller = dup("main");
	p[1].addr = 0x401200;
	p[1].offset = 0x1200;
}

/* what fill() gave, freed */
static void unfill(struct bp_point *p)
{
	for (int i = 0; i < 2; i++)
		bp_point__clear(&p[i]);
}

static void same_point(const struct bp_point *a, const struct bp_point *b)
{
	const char *sa[] = { a->binary, a->func, a->cu, a->source, a->src_file, a->caller,
			     a->symbol };
	const char *sb[] = { b->binary, b->func, b->cu, b->source, b->src_file, b->caller,
			     b->symbol };

	for (size_t i = 0; i < sizeof(sa) / sizeof(sa[0]); i++)
		CHECK(sa[i] && sb[i] ? !strcmp(sa[i], sb[i]) : sa[i] == sb[i],
		      "string %zu: '%s' against '%s'", i, sa[i] ? sa[i] : "(null)",
		      sb[i] ? sb[i] : "(null)");
	for (int k = 0; k < BP_MAX_ARGS; k++) {
		CHECK(!a->arg_name[k] == !b->arg_name[k], "arg_name %d", k);
		if (a->arg_name[k] && b->arg_name[k])
			CHECK_STR(b->arg_name[k], a->arg_name[k]);
		if (a->type_name[k] && b->type_name[k])
			CHECK_STR(b->type_name[k], a->type_name[k]);
		if (a->loc_desc[k] && b->loc_desc[k])
			CHECK_STR(b->loc_desc[k], a->loc_desc[k]);
	}
	CHECK_INT(b->addr, a->addr);
	CHECK_INT(b->offset, a->offset);
	CHECK_INT(b->die_off, a->die_off);
	CHECK_INT(b->is_return, a->is_return);
	CHECK_INT(b->is_inline, a->is_inline);
	CHECK_INT(b->src_line, a->src_line);
	CHECK_INT(b->nentries, a->nentries);
	CHECK(!memcmp(b->entry_offsets, a->entry_offsets, sizeof(a->entry_offsets)),
	      "entry offsets differ");
	CHECK(bp_plan__equal(&a->plan, &b->plan), "plans differ");
	for (int k = 0; k < a->plan.nargs; k++)
		CHECK_INT(b->plan.args[k].bit_off, a->plan.args[k].bit_off);
}

static void test_round_trip(void)
{
	struct bp_point in[2], *out = NULL;
	struct bp_bytes b = {};
	struct bp_bytes_reader r;

	fill(in);
	CHECK_INT(bp_points__encode(in, 2, &b), 0);
	r = (struct bp_bytes_reader){ .p = b.data, .size = b.len };
	CHECK_INT(bp_points__decode(&r, 2, &out), 0);
	CHECK_INT(r.off, b.len);
	if (out) {
		same_point(&in[0], &out[0]);
		same_point(&in[1], &out[1]);
	}
	bp_points__free(out, 2);
	unfill(in);
	bp_bytes__free(&b);
}

static void test_kernel_points_do_not_encode(void)
{
	struct bp_point in[2];
	struct bp_bytes b = {};

	fill(in);
	in[1].kernel = true;
	CHECK(!bp_points__encodable(in, 2), "a kernel point is encodable");
	CHECK_INT(bp_points__encode(in, 2, &b), -EINVAL);
	in[1].kernel = false;
	in[1].map.on = true;
	CHECK(!bp_points__encodable(in, 2), "a map-tracing point is encodable");
	unfill(in);
	bp_bytes__free(&b);
}

/* Every prefix of the bytes is refused (from a copy of exactly that size,
 * so that ASan sees any read past it). */
static void test_truncated(void)
{
	struct bp_point in[2], *out;
	struct bp_bytes b = {};

	fill(in);
	bp_points__encode(in, 2, &b);
	for (size_t n = 0; n < b.len; n++) {
		unsigned char *copy = malloc(n ? n : 1);
		struct bp_bytes_reader r = { .p = copy, .size = n };

		memcpy(copy, b.data, n);
		out = NULL;
		CHECK_INT(bp_points__decode(&r, 2, &out), -EINVAL);
		CHECK(!out, "points from %zu bytes", n);
		free(copy);
	}
	unfill(in);
	bp_bytes__free(&b);
}

/* Each byte set to 0xff in turn: a decode that succeeds still gives plans
 * in range (what the prologue generator is given). */
static void test_damaged_bytes(void)
{
	struct bp_point in[2], *out;
	struct bp_bytes b = {};
	int refused = 0;

	fill(in);
	bp_points__encode(in, 2, &b);
	for (size_t i = 0; i < b.len; i++) {
		unsigned char *copy = malloc(b.len);
		struct bp_bytes_reader r = { .p = copy, .size = b.len };

		memcpy(copy, b.data, b.len);
		copy[i] = 0xff;
		out = NULL;
		if (bp_points__decode(&r, 2, &out)) {
			refused++;
		} else {
			for (int p = 0; p < 2; p++) {
				const struct bp_plan *pl = &out[p].plan;

				CHECK(pl->nargs >= 0 && pl->nargs <= BP_MAX_ARGS, "nargs %d", pl->nargs);
				for (int k = 0; k < pl->nargs; k++) {
					const struct bp_fetch *f = &pl->args[k];

					CHECK(f->nderef <= BP_MAX_DEREFS && f->expr.nops <= BP_EXPR_MAX_OPS &&
					      (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8),
					      "byte %zu: a fetch out of range", i);
				}
			}
			bp_points__free(out, 2);
		}
		free(copy);
	}
	CHECK(refused > 0, "no damaged byte was refused");
	unfill(in);
	bp_bytes__free(&b);
}

static void test_count_past_the_bytes(void)
{
	struct bp_point in[2], *out = NULL;
	struct bp_bytes b = {};
	struct bp_bytes_reader r;

	fill(in);
	bp_points__encode(in, 2, &b);
	r = (struct bp_bytes_reader){ .p = b.data, .size = b.len };
	CHECK_INT(bp_points__decode(&r, 1 << 30, &out), -EINVAL);
	r.off = 0;
	CHECK_INT(bp_points__decode(&r, 0, &out), -EINVAL);
	CHECK(!out, "points from a count of 0");
	unfill(in);
	bp_bytes__free(&b);
}

int main(void)
{
	RUN(test_round_trip);
	RUN(test_kernel_points_do_not_encode);
	RUN(test_truncated);
	RUN(test_damaged_bytes);
	RUN(test_count_past_the_bytes);
	return TEST_EXIT();
}
