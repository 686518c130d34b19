// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * From SPECs to programs' records (trace.h): each SPEC is resolved once
 * without loading, as the record ABI's program it will be, with a
 * provisional record (a string member for each NAME:string, else an
 * unsigned long); the plans then give each value's size and sign and the
 * DWARF types which values are addresses, and the final record is laid
 * out from them, in SEC order, each member at its natural alignment, then
 * __u64 err. The points resolved are named here too, for the lines.
 */
#define _GNU_SOURCE		/* asprintf */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include "inspect/inspect.h"
#include "probes/spec.h"
#include "trace/trace_gen.h"

#define DEFAULT_RING_SIZE	(4u << 20)
#define BPF_STACK_BYTES		512	/* the kernel's MAX_BPF_STACK */

/* Lays out p's members in order, then err; sets rec_size. */
static void layout(struct bp_trace_prog *p)
{
	uint32_t off = 0;

	for (int i = 0; i < p->nmembers; i++) {
		struct bp_trace_member *m = &p->members[i];
		uint32_t align = m->kind == BP_TRACE_STR ? 1 : m->size;

		off = (off + align - 1) & ~(align - 1);
		m->off = off;
		off += m->size;
	}
	if (p->err_off >= 0) {
		off = (off + 7) & ~7u;
		p->err_off = (int)off;
		off += 8;
	}
	p->rec_size = (off + 7) & ~7u;
	if (!p->rec_size)
		p->rec_size = 8;
}

static void type_text(struct bp_trace_member *m)
{
	static const char *const names[2][9] = {
		{ [1] = "unsigned char", [2] = "unsigned short", [4] = "unsigned int",
		  [8] = "unsigned long" },
		{ [1] = "signed char", [2] = "short", [4] = "int", [8] = "long" },
	};

	if (m->kind == BP_TRACE_STR)
		snprintf(m->type, sizeof(m->type), "char[%u]", m->size);
	else if (m->kind == BP_TRACE_STACK)
		snprintf(m->type, sizeof(m->type), "bpfprobe_stack_t");
	else if (m->kind == BP_TRACE_PTR)
		snprintf(m->type, sizeof(m->type), "void *");
	else if (m->size <= 8 && names[m->kind == BP_TRACE_SINT][m->size])
		snprintf(m->type, sizeof(m->type), "%s", names[m->kind == BP_TRACE_SINT][m->size]);
}

/* The members of spec's arguments, as strings or unsigned longs for now. */
static int first_members(const char *what, const struct bp_spec *spec, struct bp_trace_prog *p,
			 unsigned int strlen_)
{
	bool err_is_arg = false;

	for (int k = 0; k < spec->nargs; k++) {
		const struct bp_arg_spec *a = &spec->args[k];
		struct bp_trace_member *m = &p->members[k];

		if (!strcmp(a->var, "$params")) {
			fprintf(stderr, "bpfprobe trace: %s: $params is not supported here: name the parameters (bpfprobe vars BIN POINT lists them)\n",
				what);
			return -EINVAL;
		}
		if (!bp_arg_spec__c_name(a, m->name, sizeof(m->name))) {
			fprintf(stderr, "bpfprobe trace: %s: argument '%s' has no name to print it by: write NAME=%s\n",
				what, a->text, a->text);
			return -EINVAL;
		}
		for (int j = 0; j < k; j++) {
			if (strcmp(p->members[j].name, m->name))
				continue;
			fprintf(stderr, "bpfprobe trace: %s: arguments '%s' and '%s' are both called '%s': name one of them (NAME=EXPR)\n",
				what, spec->args[j].text, a->text, m->name);
			return -EINVAL;
		}
		err_is_arg |= !strcmp(m->name, "err");
		m->arg = (uint8_t)k;
		/* NAME:string, NAME:ustring: a char array asks for the string */
		if (a->farg == BP_FARG_USTACK || a->farg == BP_FARG_KSTACK) {
			m->kind = BP_TRACE_STACK;
			m->size = 8;
		} else if (a->string || a->ustring) {
			m->kind = BP_TRACE_STR;
			m->size = (uint16_t)strlen_;
		} else {
			m->kind = BP_TRACE_UINT;
			m->size = 8;
		}
	}
	p->nmembers = spec->nargs;
	p->err_off = err_is_arg ? -1 : 0;
	layout(p);
	return 0;
}

/* Argument k's member from what the points' plans say of it. */
static void final_member(const struct bp_arg_spec *a, const struct bp_inspect_program *ip, int k,
			 struct bp_trace_member *m)
{
	bool is_signed = false, ptr = false;
	unsigned int size = 0;

	if (m->kind == BP_TRACE_STR || m->kind == BP_TRACE_STACK)
		return;
	if (a->has_type) {
		m->kind = a->type_hex ? BP_TRACE_HEX : a->type_signed ? BP_TRACE_SINT : BP_TRACE_UINT;
		m->size = a->type_size;
		return;
	}
	for (int j = 0; j < ip->npoints; j++) {
		const struct bp_point *pt = &ip->points[j];
		const struct bp_fetch *f = k < pt->plan.nargs ? &pt->plan.args[k] : NULL;
		const char *tn = pt->type_name[k];

		if (!f)
			continue;
		if (f->size > size)
			size = f->size;
		is_signed |= f->is_signed;
		/* "char *", "struct req *", "int (*)(int)": an address */
		ptr |= tn && strchr(tn, '*') && !strchr(tn, '[');
	}
	if (size != 1 && size != 2 && size != 4)
		size = 8;
	m->size = (uint16_t)size;
	m->kind = ptr ? BP_TRACE_PTR : is_signed ? BP_TRACE_SINT : BP_TRACE_UINT;
	if (ptr)
		m->size = 8;
}

static int keep_points(struct bp_trace_prog *p, const struct bp_inspect_program *ip)
{
	p->points = calloc(ip->npoints ? ip->npoints : 1, sizeof(*p->points));
	if (!p->points)
		return -ENOMEM;
	for (int j = 0; j < ip->npoints; j++) {
		const struct bp_point *pt = &ip->points[j];
		struct bp_trace_point *tp = &p->points[p->npoints++];

		tp->binary = strdup(pt->binary ? pt->binary : "");
		if (!tp->binary)
			return -ENOMEM;
		tp->offset = pt->offset;
		tp->addr = pt->addr;
		tp->is_return = pt->is_return;
	}
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path ? path : "?";
}

/* What point j of p is called before telling equal names apart. */
static int first_label(const struct bp_spec *spec, const struct bp_point *pt, char **out)
{
	const char *func = pt->func ? pt->func : "?";
	const char *ret = pt->is_return ? "%return" : "";
	int n;

	if (spec->has_offset)
		n = asprintf(out, "%s+0x%llx%s", func, (unsigned long long)spec->offset, ret);
	else if ((spec->has_line || spec->lazy || !spec->func) && pt->src_file && pt->src_line)
		n = asprintf(out, "%s:%d", base_name(pt->src_file), pt->src_line);
	else
		n = asprintf(out, "%s%s", func, ret);
	if (n < 0)
		*out = NULL;
	return n < 0 ? -ENOMEM : 0;
}

/* Resolves SPEC i into t->progs[i]. */
static int prepare_one(struct bp_trace *t, int i, const char *spec_text,
		       const struct bp_trace_opts *o)
{
	struct bpfprobe_open_opts oopts = {
		.sz = sizeof(oopts), .vmlinux = o ? o->vmlinux : NULL,
		.no_cache = o && o->no_cache,
	};
	struct bp_trace_prog *p = &t->progs[i];
	struct bpfprobe_object *obj = NULL;
	struct bp_inspect_program ip;
	struct bp_spec spec = {};
	struct btf *btf = NULL;
	char what[64], msg[512], *text = NULL;
	int err, sid;

	snprintf(what, sizeof(what), "SPEC %d", i + 1);
	/* --stack, --folded: the stacks are arguments the SPEC did not name */
	if (asprintf(&text, "%s%s%s", spec_text, o && o->kstack ? " $kstack" : "",
		     o && o->ustack ? " $ustack" : "") < 0) {
		text = NULL;
		err = -ENOMEM;
		goto out;
	}
	/* the program's SEC: what it fetches, the stacks included */
	p->sec = strdup(text);
	if (!p->sec) {
		err = -ENOMEM;
		goto out;
	}
	snprintf(p->name, sizeof(p->name), "bp_trace_%d", i);

	err = bp_spec__parse(text, &spec, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "bpfprobe trace: %s ('%s'): %s\n", what, spec_text, msg);
		goto out;
	}
	if (spec.map) {
		fprintf(stderr, "bpfprobe trace: %s ('%s'): map tracing is not traced here: bpfprobe monitor --map %s shows a map's changes\n",
			what, spec_text, spec.map);
		err = -EINVAL;
		goto out;
	}
	err = first_members(what, &spec, p, t->strlen);
	if (err)
		goto out;
	/* the record shares the BPF stack with the body's 8 bytes */
	if (p->rec_size > BPF_STACK_BYTES - 8) {
		fprintf(stderr, "bpfprobe trace: %s ('%s'): its values take %u bytes, but they live in the BPF stack, %d bytes in all: give fewer arguments or a smaller --strlen (%u now)\n",
			what, spec_text, p->rec_size, BPF_STACK_BYTES, t->strlen);
		err = -E2BIG;
		goto out;
	}
	btf = btf__new_empty();
	sid = btf ? bp_trace__btf_record(btf, "bp_trace_args", p->members, p->nmembers,
					 p->err_off, p->rec_size) : -ENOMEM;
	if (sid < 0) {
		err = sid;
		goto out;
	}
	err = bp_inspect__resolve_sec_record(text, &oopts, btf, sid, &obj);
	if (err) {
		fprintf(stderr, "bpfprobe trace: %s ('%s') does not resolve\n", what, spec_text);
		goto out;
	}
	err = bp_inspect__program(obj, 0, &ip);
	if (!err && !ip.npoints) {
		fprintf(stderr, "bpfprobe trace: %s ('%s') has no probe point\n", what, spec_text);
		err = -ENOENT;
	}
	for (int k = 0; !err && k < p->nmembers; k++)
		final_member(&spec.args[k], &ip, k, &p->members[k]);
	for (int k = 0; !err && k < p->nmembers; k++)
		type_text(&p->members[k]);
	if (!err) {
		if (p->err_off >= 0)
			p->err_off = 0;
		layout(p);
		err = keep_points(p, &ip);
	}
	for (int j = 0; !err && j < ip.npoints; j++)
		err = first_label(&spec, &ip.points[j], &p->points[j].label);
out:
	if (err == -ENOMEM)
		fprintf(stderr, "bpfprobe trace: out of memory\n");
	bpfprobe_object__destroy(obj);
	btf__free(btf);
	bp_spec__free(&spec);
	free(text);
	return err;
}

/* Points called alike (a static function's copies, inlined copies) get
 * their address, and their binary's name when that is not enough. */
static int tell_apart(struct bp_trace *t)
{
	struct bp_trace_point **all = calloc(t->npoints ? t->npoints : 1, sizeof(*all));
	uint8_t *rename = calloc(t->npoints ? t->npoints : 1, sizeof(*rename));
	int n = 0, err = 0;

	if (!all || !rename) {
		err = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < t->nprogs; i++)
		for (int j = 0; j < t->progs[i].npoints; j++)
			all[n++] = &t->progs[i].points[j];
	/* the same name, another place: 1 in the same binary, 2 in another */
	for (int a = 0; a < n; a++) {
		for (int b = 0; b < n; b++) {
			if (strcmp(all[a]->label, all[b]->label))
				continue;
			if (strcmp(all[a]->binary, all[b]->binary))
				rename[a] = 2;
			else if (all[a]->addr != all[b]->addr && !rename[a])
				rename[a] = 1;
		}
	}
	for (int a = 0; a < n && !err; a++) {
		struct bp_trace_point *pt = all[a];
		char *label;
		int r;

		if (!rename[a])
			continue;
		if (rename[a] == 2)
			r = asprintf(&label, "%s@%s:0x%llx", pt->label, base_name(pt->binary),
				     (unsigned long long)pt->addr);
		else
			r = asprintf(&label, "%s@0x%llx", pt->label, (unsigned long long)pt->addr);
		if (r < 0) {
			err = -ENOMEM;
			break;
		}
		free(pt->label);
		pt->label = label;
	}
out:
	free(all);
	free(rename);
	return err;
}

/* Which member of each program --hist names: a number in every one. */
static int find_hist(struct bp_trace *t, const char *name)
{
	t->hist = strdup(name);
	if (!t->hist)
		return -ENOMEM;
	for (int i = 0; i < t->nprogs; i++) {
		struct bp_trace_prog *p = &t->progs[i];

		for (int k = 0; k < p->nmembers; k++)
			if (!strcmp(p->members[k].name, name))
				p->hist_member = k;
		if (p->hist_member < 0) {
			fprintf(stderr, "bpfprobe trace: --hist %s: '%s' names no argument %s (",
				name, p->sec, name);
			for (int k = 0; k < p->nmembers; k++)
				fprintf(stderr, "%s%s", k ? ", " : "", p->members[k].name);
			fprintf(stderr, "%s)\n", p->nmembers ? "" : "it has none");
			return -EINVAL;
		}
		if (p->members[p->hist_member].kind == BP_TRACE_STR) {
			fprintf(stderr, "bpfprobe trace: --hist %s: in '%s' %s is a string; a histogram counts numbers\n",
				name, p->sec, name);
			return -EINVAL;
		}
	}
	return 0;
}

int bp_trace__new(const char *const *specs, int n, const struct bp_trace_opts *opts,
		  struct bp_trace **out)
{
	struct bp_trace *t = calloc(1, sizeof(*t));
	int err = 0;

	*out = t;
	if (!t)
		return -ENOMEM;
	if (n > BP_TRACE_MAX_SPECS) {
		fprintf(stderr, "bpfprobe trace: %d SPECs given, at most %d fit in one session\n", n,
			BP_TRACE_MAX_SPECS);
		return -E2BIG;
	}
	t->count = opts && opts->count;
	t->folded = opts && opts->folded;
	t->strlen = opts && opts->strlen ? opts->strlen : BP_TRACE_STRLEN;
	t->ring_size = opts && opts->ring_size ? opts->ring_size : DEFAULT_RING_SIZE;
	t->progs = calloc(n ? n : 1, sizeof(*t->progs));
	if (!t->progs)
		return -ENOMEM;
	for (int i = 0; i < n && !err; i++) {
		t->nprogs++;
		t->progs[i].err_off = -1;
		t->progs[i].hist_member = -1;
		err = prepare_one(t, i, specs[i], opts);
		t->npoints += t->progs[i].npoints;
	}
	if (!err)
		err = tell_apart(t);
	if (!err && opts && opts->hist)
		err = find_hist(t, opts->hist);
	return err;
}

void bp_trace__free(struct bp_trace *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->nprogs; i++) {
		struct bp_trace_prog *p = &t->progs[i];

		for (int j = 0; j < p->npoints; j++) {
			free(p->points[j].label);
			free(p->points[j].binary);
		}
		free(p->points);
		free(p->sec);
	}
	free(t->hist);
	free(t->progs);
	free(t);
}

void bp_trace__print_record(const struct bp_trace *t, int i, FILE *f)
{
	const struct bp_trace_prog *p = &t->progs[i];

	fprintf(f, "bpfprobe trace: program %s for '%s' receives\n  struct %s_args {", p->name,
		p->sec, p->name);
	for (int k = 0; k < p->nmembers; k++) {
		const struct bp_trace_member *m = &p->members[k];

		if (m->kind == BP_TRACE_STR)
			fprintf(f, " char %s[%u];", m->name, m->size);
		else
			fprintf(f, " %s%s%s;", m->type, m->kind == BP_TRACE_PTR ? "" : " ", m->name);
	}
	if (p->err_off >= 0)
		fprintf(f, " __u64 err;");
	fprintf(f, " };  /* %u bytes */\n", p->rec_size);
}
