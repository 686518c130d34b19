// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* An SDT marker's argument specs, parsed (sdt_operand.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prologue/arch.h"
#include "probes/usdt/sdt_operand.h"

/* The arg-th whitespace-separated spec of args: its start and length. */
static int nth_spec(const char *args, int arg, const char **spec, size_t *len)
{
	const char *p = args ? args : "";

	for (int i = 0;; i++) {
		p += strspn(p, " \t");
		if (!*p)
			return -ENOENT;
		*len = strcspn(p, " \t");
		if (i == arg) {
			*spec = p;
			return 0;
		}
		p += *len;
	}
}

/* A signed number at *p (decimal, or 0x hex), moved past it. */
static bool number(const char **p, const char *end, int64_t *v)
{
	const char *s = *p;
	bool neg = false;
	char *stop, buf[32];
	size_t n;

	if (s < end && (*s == '-' || *s == '+'))
		neg = *s++ == '-';
	n = 0;
	while (s + n < end && isalnum((unsigned char)s[n]))
		n++;
	if (!n || n >= sizeof(buf) || !isdigit((unsigned char)*s))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*v = (int64_t)strtoull(buf, &stop, 0);
	if (errno || *stop)
		return false;
	if (neg)
		*v = -*v;
	*p = s + n;
	return true;
}

/* %NAME at *p: a register (part); its number, moved past it. */
static int reg_at(const char **p, const char *end, int *bytes, int *bit_off)
{
	const char *s = *p + 1;
	size_t n = 0;
	int reg;

	if (**p != '%')
		return -1;
	while (s + n < end && isalnum((unsigned char)s[n]))
		n++;
	reg = bp_arch__reg_part_by_name(s, n, bytes, bit_off);
	if (reg >= 0)
		*p = s + n;
	return reg;
}

static bool is_sym_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$' || c == '@';
}

/* DISP before '(' or alone: numbers and at most one symbol, added. */
static int displacement(const char **p, const char *end, struct bp_sdt_operand *op)
{
	const char *s = *p;
	int64_t v;

	while (s < end && *s != '(') {
		if (isdigit((unsigned char)*s) || ((*s == '-' || *s == '+') && s + 1 < end &&
						    isdigit((unsigned char)s[1]))) {
			if (!number(&s, end, &v))
				return -EINVAL;
			op->disp += v;
			continue;
		}
		if (*s == '+') {
			s++;
			continue;
		}
		if (!is_sym_char(*s) || op->sym[0])
			return -EINVAL;
		size_t n = 0;

		while (s + n < end && is_sym_char(s[n]))
			n++;
		if (n >= sizeof(op->sym))
			return -EINVAL;
		memcpy(op->sym, s, n);
		op->sym[n] = '\0';
		s += n;
	}
	*p = s;
	return 0;
}

/* (%BASE), (%BASE,%INDEX), (%BASE,%INDEX,SCALE), (,%INDEX,SCALE) */
static int parens(const char **p, const char *end, struct bp_sdt_operand *op)
{
	const char *s = *p + 1;
	int bytes, bit_off;
	int64_t scale = 1;

	if (*s != ',') {
		op->base = reg_at(&s, end, &bytes, &bit_off);
		if (op->base < 0 || (bytes != 8 && bytes != 4))
			return -EINVAL;
	}
	if (*s == ',') {
		s++;
		op->index = reg_at(&s, end, &bytes, &bit_off);
		if (op->index < 0 || op->index == bp_arch__ip_reg() || (bytes != 8 && bytes != 4))
			return -EINVAL;
		if (*s == ',') {
			s++;
			if (!number(&s, end, &scale) ||
			    (scale != 1 && scale != 2 && scale != 4 && scale != 8))
				return -EINVAL;
		}
	}
	if (s >= end || *s != ')')
		return -EINVAL;
	op->scale = (int)scale;
	*p = s + 1;
	return 0;
}

static int operand(const char *s, const char *end, struct bp_sdt_operand *op)
{
	int bytes, bit_off;

	if (*s == '%') {
		op->kind = BP_SDT_REG;
		op->reg = reg_at(&s, end, &bytes, &bit_off);
		if (op->reg < 0 || op->reg == bp_arch__ip_reg() || s != end)
			return -EINVAL;
		op->reg_bytes = bytes;
		op->reg_bit_off = bit_off;
		return 0;
	}
	if (*s == '$') {
		op->kind = BP_SDT_IMM;
		s++;
		return number(&s, end, &op->imm) && s == end ? 0 : -EINVAL;
	}
	op->kind = BP_SDT_MEM;
	op->base = op->index = -1;
	op->scale = 1;
	if (displacement(&s, end, op))
		return -EINVAL;
	if (s < end && *s == '(' && parens(&s, end, op))
		return -EINVAL;
	if (s != end)
		return -EINVAL;
	/* a symbol is rip-relative or absolute, never off another register */
	if (op->sym[0] && op->base >= 0 && op->base != bp_arch__ip_reg())
		return -EINVAL;
	/* %rip without a symbol: relative to an instruction no marker has */
	if (op->base == bp_arch__ip_reg() && (!op->sym[0] || op->index >= 0))
		return -EINVAL;
	return 0;
}

int bp_sdt_operand__parse(const char *args, int arg, struct bp_sdt_operand *op, char *why,
			  size_t len)
{
	const char *spec, *at, *end;
	size_t n;
	int64_t size;
	int err;

	memset(op, 0, sizeof(*op));
	err = nth_spec(args, arg, &spec, &n);
	if (err)
		return err;
	end = spec + n;
	at = memchr(spec, '@', n);
	op->is_signed = *spec == '-';
	if (at) {
		const char *s = spec + op->is_signed;

		if (!number(&s, at, &size) || s != at ||
		    (size != 1 && size != 2 && size != 4 && size != 8)) {
			snprintf(why, len, "'%.*s': its size is none of 1, 2, 4 or 8 bytes",
				 (int)n, spec);
			return -EINVAL;
		}
		op->size = (int)size;
		at++;
	} else {
		/* an old note without a size: 8 bytes */
		op->size = 8;
		at = spec;
	}
	if (at == end || operand(at, end, op)) {
		if (!strncmp(at, "%xmm", 4) || !strncmp(at, "%st", 3) || !strncmp(at, "%mm", 3))
			snprintf(why, len, "'%.*s' is a floating-point or vector register, which a probe cannot read",
				 (int)n, spec);
		else
			snprintf(why, len, "'%.*s' is an operand form bpfprobe cannot read", (int)n,
				 spec);
		return -EINVAL;
	}
	return 0;
}
