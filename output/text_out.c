// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Human output: printk lines as `TIME COMM PID CPU: message`, records as
 * `MAP: { .field = value, ... }`, maps at exit as `@MAP[key]: value`
 * (bpftrace's form). Values are C-like: strings quoted, pointers in hex.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "output/btf_record.h"
#include "output/hist.h"
#include "output/stack_print.h"
#include "output/text_out.h"
#include "util/utf8.h"

#define MAX_NEST 64

struct text_sink {
	struct bp_value_sink base;
	FILE *f;
	int depth;
	bool after_member;
	bool first[MAX_NEST + 1];
};

static struct text_sink *ts(struct bp_value_sink *s)
{
	return (struct text_sink *)s;
}

/* The separator before an array element or the top value. */
static void pre_value(struct text_sink *t)
{
	if (t->after_member) {
		t->after_member = false;
		return;
	}
	if (t->depth > 0 && !t->first[t->depth])
		fputs(", ", t->f);
	t->first[t->depth] = false;
}

static void t_open(struct bp_value_sink *s, bool array)
{
	struct text_sink *t = ts(s);

	pre_value(t);
	fputs(array ? "[" : "{", t->f);
	if (t->depth < MAX_NEST)
		t->depth++;
	t->first[t->depth] = true;
}

static void t_close(struct bp_value_sink *s, bool array)
{
	struct text_sink *t = ts(s);
	bool empty = t->first[t->depth];

	if (t->depth > 0)
		t->depth--;
	if (array)
		fputs("]", t->f);
	else
		fputs(empty ? "}" : " }", t->f);
}

static void t_member(struct bp_value_sink *s, const char *name)
{
	struct text_sink *t = ts(s);

	fputs(t->first[t->depth] ? " " : ", ", t->f);
	t->first[t->depth] = false;
	fputc('.', t->f);
	bp_utf8__fputs(t->f, name);
	fputs(" = ", t->f);
	t->after_member = true;
}

static void t_sint(struct bp_value_sink *s, long long v)
{
	pre_value(ts(s));
	fprintf(ts(s)->f, "%lld", v);
}

static void t_uint(struct bp_value_sink *s, unsigned long long v)
{
	pre_value(ts(s));
	fprintf(ts(s)->f, "%llu", v);
}

static void t_ptr(struct bp_value_sink *s, unsigned long long v)
{
	pre_value(ts(s));
	fprintf(ts(s)->f, "0x%llx", v);
}

static void t_real(struct bp_value_sink *s, double v)
{
	pre_value(ts(s));
	fprintf(ts(s)->f, "%g", v);
}

static void t_bool(struct bp_value_sink *s, bool v)
{
	pre_value(ts(s));
	fputs(v ? "true" : "false", ts(s)->f);
}

static void put_quoted(FILE *f, const char *p, size_t len)
{
	fputc('"', f);
	bp_utf8__fput(f, p, len, BP_ESC_QUOTED);
	fputc('"', f);
}

static void t_str(struct bp_value_sink *s, const char *p, size_t len)
{
	pre_value(ts(s));
	put_quoted(ts(s)->f, p, len);
}

static void t_enumerator(struct bp_value_sink *s, const char *name)
{
	pre_value(ts(s));
	bp_utf8__fputs(ts(s)->f, name);
}

/* "xx xx ...": formatted in pieces of 64 bytes, one fwrite each (a
 * fprintf per byte was half the consumer's CPU at 40k records/s) */
static void put_hex(FILE *f, const void *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *b = p;
	char buf[3 * 64];
	size_t i = 0, n;

	while (i < len) {
		for (n = 0; i < len && n + 3 <= sizeof(buf); i++) {
			if (i)
				buf[n++] = ' ';
			buf[n++] = digits[b[i] >> 4];
			buf[n++] = digits[b[i] & 15];
		}
		fwrite(buf, 1, n, f);
	}
}

static void t_bytes(struct bp_value_sink *s, const void *p, size_t len)
{
	struct text_sink *t = ts(s);

	pre_value(t);
	/* inside a value the bytes stay one item */
	if (t->depth)
		fputs("[", t->f);
	put_hex(t->f, p, len);
	if (t->depth)
		fputs("]", t->f);
}

static void t_stack(struct bp_value_sink *s, unsigned long long id)
{
	pre_value(ts(s));
	bp_stack__text(ts(s)->f, s->stacks, id, "    ");
}

static const struct bp_value_sink_ops text_ops = {
	.open = t_open, .close = t_close, .member = t_member, .sint = t_sint,
	.uint = t_uint, .ptr = t_ptr, .real = t_real, .boolean = t_bool, .str = t_str,
	.enumerator = t_enumerator, .bytes = t_bytes, .stack = t_stack,
};

void bp_text__value(FILE *f, const struct bp_typed *v)
{
	struct text_sink t = { .base.ops = &text_ops, .f = f };

	bp_btf_value__write(v, &t.base);
}

void bp_text__printk(FILE *f, const struct bp_printk_msg *m, bool quiet_meta)
{
	if (!quiet_meta) {
		fprintf(f, "%" PRIu64 ".%06" PRIu64 " ", (uint64_t)(m->ts_ns / 1000000000),
			(uint64_t)(m->ts_ns % 1000000000 / 1000));
		bp_utf8__fputs(f, m->comm);
		fprintf(f, " %d %d: ", m->pid, m->cpu);
	}
	bp_utf8__fput(f, m->msg, m->len, 0);
	fputc('\n', f);
}

void bp_text__record(FILE *f, const struct bp_record *r, bool quiet_meta)
{
	if (!quiet_meta) {
		bp_utf8__fputs(f, r->map);
		fputs(": ", f);
	}
	if (r->text)
		bp_utf8__fput(f, r->val.data, strnlen(r->val.data, r->val.size), 0);
	else
		bp_text__value(f, &r->val);
	fputc('\n', f);
}

void bp_text__lost(FILE *f, const struct bp_lost *l)
{
	if (l->count)
		fprintf(f, "bpfprobe: lost %" PRIu64 " records of %s on CPU %d\n",
			(uint64_t)l->count, l->source, l->cpu);
	else
		fprintf(f, "bpfprobe: lost records of %s on CPU %d (the kernel did not say how many)\n",
			l->source, l->cpu);
}

void bp_text__map_entry(FILE *f, const struct bp_map_head *h, const struct bp_typed *key,
			const struct bp_typed *values, int nvalues)
{
	fputc('@', f);
	bp_utf8__fputs(f, h->name);
	fputc('[', f);
	bp_text__value(f, key);
	fputs("]: ", f);
	if (nvalues == 1) {
		bp_text__value(f, &values[0]);
	} else {
		/* per CPU, when the value does not add up */
		fputs("per-CPU [", f);
		for (int i = 0; i < nvalues; i++) {
			if (i)
				fputs(", ", f);
			bp_text__value(f, &values[i]);
		}
		fputs("]", f);
	}
	fputc('\n', f);
}

void bp_text__map_hist(FILE *f, const struct bp_map_head *h, const struct bp_typed *key,
		       const struct bp_hist *hist)
{
	fputc('@', f);
	bp_utf8__fputs(f, h->name);
	fputc('[', f);
	bp_text__value(f, key);
	fputs("]:\n", f);
	bp_hist__print(f, hist);
	fputc('\n', f);
}
