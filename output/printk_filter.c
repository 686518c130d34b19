// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include "output/printk_filter.h"
#include "util/log.h"

/* bpf_trace_printk() output is cut at BPF_TRACE_PRINTK_SIZE (1024): a line
 * that long may miss its format's tail, so it is not matched. */
#define PRINTK_MAX 1023

struct bp_printk_filter {
	char **globs;
	size_t n;
	bool all;
};

struct bp_printk_filter *bp_printk_filter__new(void)
{
	return calloc(1, sizeof(struct bp_printk_filter));
}

void bp_printk_filter__free(struct bp_printk_filter *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		free(f->globs[i]);
	free(f->globs);
	free(f);
}

/* Skips one conversion after '%': flags, width, precision, length, type. */
static size_t skip_conversion(const char *fmt, size_t i, size_t len)
{
	while (i < len && strchr("-+ #0", fmt[i]))
		i++;
	while (i < len && (isdigit((unsigned char)fmt[i]) || fmt[i] == '.' || fmt[i] == '*'))
		i++;
	while (i < len && strchr("hlLqjzt", fmt[i]))
		i++;
	if (i < len && fmt[i] == 'p') {
		/* %pK %pS %pks %pI4 ...: the suffix is consumed too; taking
		 * more letters than the kernel does only widens the glob */
		i++;
		while (i < len && isalnum((unsigned char)fmt[i]))
			i++;
		return i;
	}
	return i < len ? i + 1 : i;
}

char *bp_printk_format__glob(const char *fmt, size_t len)
{
	char *g = malloc(2 * len + 2), *o = g;
	bool wild = false;	/* the last thing written is a '*' wildcard */

	if (!g)
		return NULL;
	len = strnlen(fmt, len);
	while (len && fmt[len - 1] == '\n')
		len--;
	for (size_t i = 0; i < len;) {
		char c = fmt[i];

		if (c == '%' && i + 1 < len && fmt[i + 1] == '%') {
			*o++ = '%';
			wild = false;
			i += 2;
		} else if (c == '%') {
			if (!wild)
				*o++ = '*';
			wild = true;
			i = skip_conversion(fmt, i + 1, len);
		} else {
			if (strchr("*?[\\", c))
				*o++ = '\\';
			*o++ = c;
			wild = false;
			i++;
		}
	}
	*o = '\0';
	return g;
}

int bp_printk_filter__add_format(struct bp_printk_filter *f, const char *fmt, size_t len)
{
	char **tmp, *g;

	g = bp_printk_format__glob(fmt, len);
	if (!g)
		return -ENOMEM;
	for (size_t i = 0; i < f->n; i++) {
		if (!strcmp(f->globs[i], g)) {
			free(g);
			return 0;
		}
	}
	tmp = realloc(f->globs, (f->n + 1) * sizeof(*tmp));
	if (!tmp) {
		free(g);
		return -ENOMEM;
	}
	f->globs = tmp;
	f->globs[f->n++] = g;
	return 0;
}

void bp_printk_filter__allow_all(struct bp_printk_filter *f)
{
	f->all = true;
}

bool bp_printk_filter__allows_all(const struct bp_printk_filter *f)
{
	return f->all;
}

bool bp_printk_filter__match(const struct bp_printk_filter *f, const char *msg, size_t len)
{
	char buf[PRINTK_MAX + 1];

	if (f->all || len >= PRINTK_MAX)
		return true;
	memcpy(buf, msg, len);
	buf[len] = '\0';
	for (size_t i = 0; i < f->n; i++)
		if (!fnmatch(f->globs[i], buf, 0))
			return true;
	return false;
}

/* --- formats from loaded instructions --- */

static bool is_ldimm64(const struct bpf_insn *in)
{
	return in->code == (BPF_LD | BPF_IMM | BPF_DW);
}

static bool is_printk_call(const struct bpf_insn *in)
{
	return in->code == (BPF_JMP | BPF_CALL) && in->src_reg == 0 &&
	       (in->imm == BPF_FUNC_trace_printk || in->imm == BPF_FUNC_trace_vprintk);
}

/* The read-only internal map (.rodata*) whose fd is fd, or NULL. */
static struct bpf_map *rodata_map(struct bpf_object *obj, int fd)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj)
		if (bpf_map__fd(map) == fd && bpf_map__is_internal(map) &&
		    (bpf_map__map_flags(map) & BPF_F_RDONLY_PROG))
			return map;
	return NULL;
}

/* A string constant at (map fd, offset), as an ldimm64 of a map value loads it. */
static int add_string_at(struct bp_printk_filter *f, struct bpf_object *obj, int fd, __u32 off)
{
	struct bpf_map *map = rodata_map(obj, fd);
	const char *data;
	size_t size;

	if (!map)
		return -ENOENT;
	data = bpf_map__initial_value(map, &size);
	if (!data || off >= size)
		return -ENOENT;
	return bp_printk_filter__add_format(f, data + off, size - off);
}

/*
 * Where R1 comes from at insns[at]: walks back through straight moves to
 * an ldimm64 of a read-only map value. Returns its index or -1. Branches
 * joining in between are not followed: every map value ldimm64 of the
 * program is added anyway, this only checks the argument is one.
 */
static int r1_source(const struct bpf_insn *insns, const bool *second, int at)
{
	int reg = BPF_REG_1;

	for (int i = at - 1; i >= 0; i--) {
		const struct bpf_insn *in = &insns[i];

		if (second[i])
			continue;
		if (in->code == (BPF_JMP | BPF_CALL))
			return -1;	/* R1..R5 do not survive a call */
		if (in->dst_reg != reg)
			continue;
		if (is_ldimm64(in))
			return in->src_reg == BPF_PSEUDO_MAP_VALUE ? i : -1;
		if (in->code == (BPF_ALU64 | BPF_MOV | BPF_X)) {
			reg = in->src_reg;
			continue;
		}
		if (BPF_CLASS(in->code) == BPF_JMP || BPF_CLASS(in->code) == BPF_JMP32 ||
		    BPF_CLASS(in->code) == BPF_STX || BPF_CLASS(in->code) == BPF_ST)
			continue;	/* do not write dst_reg */
		return -1;
	}
	return -1;
}

static int scan_program(struct bp_printk_filter *f, struct bpf_object *obj,
			const struct bpf_program *prog, bool *unresolved)
{
	const struct bpf_insn *insns = bpf_program__insns(prog);
	size_t n = bpf_program__insn_cnt(prog);
	bool *second = calloc(n + 1, sizeof(bool));
	int calls = 0;

	if (!second)
		return -ENOMEM;
	for (size_t i = 0; i + 1 < n; i++)
		if (is_ldimm64(&insns[i]) && !second[i])
			second[i + 1] = true;
	for (size_t i = 0; i < n; i++) {
		const struct bpf_insn *in = &insns[i];
		int src;

		if (!second[i] && is_ldimm64(in) && in->src_reg == BPF_PSEUDO_MAP_VALUE && i + 1 < n)
			add_string_at(f, obj, in->imm, insns[i + 1].imm);
		if (!is_printk_call(in))
			continue;
		calls++;
		src = r1_source(insns, second, i);

		if (src < 0 || !rodata_map(obj, insns[src].imm)) {
			bp_debug("printk filter: program '%s' insn %zu: format not in .rodata\n",
				 bpf_program__name(prog), i);
			*unresolved = true;
		}
	}
	free(second);
	return calls;
}

int bp_printk_filter__from_object(struct bp_printk_filter *f, struct bpf_object *obj)
{
	struct bpf_program *prog;
	bool unresolved = false;
	int calls = 0;

	bpf_object__for_each_program(prog, obj) {
		int n;

		if (!bpf_program__autoload(prog) || !bpf_program__insns(prog))
			continue;
		n = scan_program(f, obj, prog, &unresolved);
		if (n < 0)
			return n;
		calls += n;
	}
	if (unresolved) {
		bp_info("printk: a format string is not a .rodata constant: showing every bpf_trace_printk line of the traced processes\n");
		bp_printk_filter__allow_all(f);
	}
	return calls;
}
