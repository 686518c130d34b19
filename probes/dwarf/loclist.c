// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Location lists and expressions read from their sections where libdw
 * refuses them (see loclist.h): the list's entries as DWARF 5
 * (.debug_loclists, DW_LLE_*) or DWARF 2-4 (.debug_loc) write them, each
 * expression op by op.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <dwarf.h>
#include <gelf.h>

#include "probes/dwarf/loclist.h"
#include "probes/dwarf/types.h"

/* --- bytes --------------------------------------------------------------- */

/* A little-endian reader that notes reading past its end. */
struct rd {
	const unsigned char *p, *end;
	bool bad;
};

static bool rd_has(struct rd *r, uint64_t n)
{
	if (r->bad || (uint64_t)(r->end - r->p) < n)
		r->bad = true;
	return !r->bad;
}

static uint64_t rd_fixed(struct rd *r, int n)
{
	uint64_t v = 0;
	int i;

	if (!rd_has(r, n))
		return 0;
	for (i = 0; i < n; i++)
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static uint64_t rd_leb(struct rd *r, bool sign)
{
	unsigned int shift = 0;
	uint64_t v = 0;
	unsigned char b;

	do {
		if (!rd_has(r, 1))
			return 0;
		b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (sign && shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return v;
}

static uint64_t rd_uleb(struct rd *r)
{
	return rd_leb(r, false);
}

static uint64_t rd_sleb(struct rd *r)
{
	return rd_leb(r, true);
}

static void rd_skip(struct rd *r, uint64_t n)
{
	if (rd_has(r, n))
		r->p += n;
}

/* --- one expression ------------------------------------------------------ */

/* The size of a reference to a DIE: DWARF 2 wrote an address. */
static int ref_size(const struct bp_loclist_unit *u)
{
	return u->version == 2 ? u->addr_size : u->offset_size;
}

/* Ops of one fixed-size operand: its size, negative when signed; 0 for
 * other ops. */
static int fixed_operand(unsigned int a)
{
	switch (a) {
	case DW_OP_const1u: case DW_OP_pick: case DW_OP_deref_size:
	case DW_OP_xderef_size:
		return 1;
	case DW_OP_const1s:
		return -1;
	case DW_OP_const2u:
		return 2;
	case DW_OP_const2s: case DW_OP_skip: case DW_OP_bra: case DW_OP_call2:
		return -2;
	case DW_OP_const4u:
		return 4;
	case DW_OP_const4s: case DW_OP_call4: case DW_OP_GNU_parameter_ref:
		return -4;
	case DW_OP_const8u: case DW_OP_const8s:
		return 8;
	default:
		return 0;
	}
}

static bool no_operand(unsigned int a)
{
	if ((a >= DW_OP_lit0 && a <= DW_OP_lit31) || (a >= DW_OP_reg0 && a <= DW_OP_reg31))
		return true;
	switch (a) {
	case DW_OP_deref: case DW_OP_dup: case DW_OP_drop: case DW_OP_over:
	case DW_OP_swap: case DW_OP_rot: case DW_OP_xderef: case DW_OP_abs:
	case DW_OP_and: case DW_OP_div: case DW_OP_minus: case DW_OP_mod:
	case DW_OP_mul: case DW_OP_neg: case DW_OP_not: case DW_OP_or:
	case DW_OP_plus: case DW_OP_shl: case DW_OP_shr: case DW_OP_shra:
	case DW_OP_xor: case DW_OP_eq: case DW_OP_ge: case DW_OP_gt:
	case DW_OP_le: case DW_OP_lt: case DW_OP_ne: case DW_OP_nop:
	case DW_OP_push_object_address: case DW_OP_call_frame_cfa:
	case DW_OP_form_tls_address: case DW_OP_GNU_push_tls_address:
	case DW_OP_stack_value:
		return true;
	default:
		return false;
	}
}

/* The operands of op o->atom into o, as libdw fills them; false for an op
 * it does not know. */
static bool operands(const struct bp_loclist_unit *u, struct rd *r, Dwarf_Op *o)
{
	unsigned int a = o->atom;
	int size = fixed_operand(a);
	uint64_t v;

	if (no_operand(a))
		return true;
	if (size) {
		v = rd_fixed(r, size < 0 ? -size : size);
		/* sign-extended from its size */
		if (size < 0 && size > -8 && (v >> (-size * 8 - 1)) & 1)
			v |= ~(uint64_t)0 << (-size * 8);
		o->number = v;
		return true;
	}
	if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
		o->number = rd_sleb(r);
		return true;
	}
	switch (a) {
	case DW_OP_addr:
		o->number = rd_fixed(r, u->addr_size);
		return true;
	case DW_OP_call_ref: case DW_OP_GNU_variable_value:
		o->number = rd_fixed(r, ref_size(u));
		return true;
	case DW_OP_constu: case DW_OP_plus_uconst: case DW_OP_regx: case DW_OP_piece:
	case DW_OP_convert: case DW_OP_GNU_convert: case DW_OP_reinterpret:
	case DW_OP_GNU_reinterpret: case DW_OP_addrx: case DW_OP_GNU_addr_index:
	case DW_OP_constx: case DW_OP_GNU_const_index:
		o->number = rd_uleb(r);
		return true;
	case DW_OP_consts: case DW_OP_fbreg:
		o->number = rd_sleb(r);
		return true;
	case DW_OP_bregx:
		o->number = rd_uleb(r);
		o->number2 = rd_sleb(r);
		return true;
	case DW_OP_bit_piece: case DW_OP_regval_type: case DW_OP_GNU_regval_type:
		o->number = rd_uleb(r);
		o->number2 = rd_uleb(r);
		return true;
	case DW_OP_implicit_value: case DW_OP_entry_value: case DW_OP_GNU_entry_value:
		/* the block with its length, where it is in the section */
		o->number2 = (uintptr_t)r->p;
		o->number = rd_uleb(r);
		rd_skip(r, o->number);
		return true;
	case DW_OP_implicit_pointer: case DW_OP_GNU_implicit_pointer:
		o->number = rd_fixed(r, ref_size(u));
		o->number2 = rd_sleb(r);
		return true;
	case DW_OP_deref_type: case DW_OP_GNU_deref_type: case DW_OP_xderef_type:
		o->number = rd_fixed(r, 1);
		o->number2 = rd_uleb(r);
		return true;
	case DW_OP_const_type: case DW_OP_GNU_const_type:
		o->number = rd_uleb(r);
		/* the constant with its 1-byte size */
		o->number2 = (uintptr_t)r->p;
		rd_skip(r, rd_fixed(r, 1));
		return true;
	default:
		return false;
	}
}

int bp_loclist__decode(const struct bp_loclist_unit *u, const unsigned char *data,
		       size_t len, Dwarf_Op *ops, size_t max, size_t *nops, bool *uninit,
		       char *err, size_t errlen)
{
	struct rd r = { .p = data, .end = data + len };
	char name[32];
	size_t n = 0;
	Dwarf_Op o;

	*uninit = false;
	while (r.p < r.end) {
		memset(&o, 0, sizeof(o));
		o.offset = r.p - data;
		o.atom = *r.p++;
		if (o.atom == DW_OP_GNU_uninit) {
			*uninit = true;
			continue;
		}
		if (!operands(u, &r, &o)) {
			snprintf(err, errlen, "%s (byte %" PRIu64 " of an expression) is an op bpfprobe does not know",
				 bp_dw_op_name(o.atom, name, sizeof(name)), (uint64_t)o.offset);
			return -EINVAL;
		}
		if (r.bad) {
			snprintf(err, errlen, "the operands of %s (byte %" PRIu64 ") run past the end of its expression",
				 bp_dw_op_name(o.atom, name, sizeof(name)), (uint64_t)o.offset);
			return -EINVAL;
		}
		if (n == max) {
			snprintf(err, errlen, "an expression of more than %zu ops", max);
			return -E2BIG;
		}
		ops[n++] = o;
	}
	*nops = n;
	return 0;
}

/* --- the list ------------------------------------------------------------ */

struct list {
	Dwarf_Attribute *attr;
	struct bp_loclist_unit u;
	Dwarf_Die cudie;
	struct bp_loclist_ops *buf;	/* the ops and the message */
	/* a single expression (exprloc, block): its bytes */
	bool single;
	Dwarf_Block block;
	/* a list: its section */
	Elf_Data *sec;
};

/* What went wrong reading it here, after what libdw said. Returns -1. */
__attribute__((format(printf, 2, 3)))
static int fail(struct list *l, const char *fmt, ...)
{
	size_t len = strlen(l->buf->err), room = sizeof(l->buf->err);
	va_list ap;

	if (len + 20 >= room)
		return -1;
	len += snprintf(l->buf->err + len, room - len, "; read directly: ");
	va_start(ap, fmt);
	vsnprintf(l->buf->err + len, room - len, fmt, ap);
	va_end(ap);
	return -1;
}

/* The section called name (or its .zdebug_ form), as libdw decompressed
 * it when it opened the file. */
static Elf_Data *section(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	size_t shstrndx;
	const char *n;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    (sh.sh_flags & SHF_COMPRESSED))
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!n || (strcmp(n, name) && (strncmp(n, ".z", 2) || strcmp(n + 2, name + 1))))
			continue;
		data = elf_getdata(scn, NULL);
		/* a .zdebug_ section libdw did not inflate */
		if (!data || !data->d_buf || (data->d_size >= 4 && !memcmp(data->d_buf, "ZLIB", 4)))
			return NULL;
		return data;
	}
	return NULL;
}

static int list_open(Dwarf_Attribute *attr, struct list *l, struct bp_loclist_ops *buf)
{
	const char *name;
	Dwarf_Half version;
	uint8_t asize, osize;
	char *ident;
	Elf *elf;

	memset(l, 0, sizeof(*l));
	l->attr = attr;
	l->buf = buf;
	if (!dwarf_cu_die(attr->cu, &l->cudie, &version, NULL, &asize, &osize, NULL, NULL))
		return fail(l, "its unit cannot be read (%s)", dwarf_errmsg(-1));
	l->u.version = version;
	l->u.addr_size = asize;
	l->u.offset_size = osize;
	switch (attr->form) {
	case DW_FORM_exprloc: case DW_FORM_block: case DW_FORM_block1:
	case DW_FORM_block2: case DW_FORM_block4:
		l->single = true;
		if (dwarf_formblock(attr, &l->block))
			return fail(l, "its expression cannot be read (%s)", dwarf_errmsg(-1));
		return 0;
	}
	if (asize != 4 && asize != 8)
		return fail(l, "a unit of %u-byte addresses", asize);
	elf = dwarf_getelf(dwarf_cu_getdwarf(attr->cu));
	ident = elf ? elf_getident(elf, NULL) : NULL;
	if (!ident || ident[EI_DATA] != ELFDATA2LSB)
		return fail(l, "only little-endian DWARF is read");
	name = version >= 5 ? ".debug_loclists" : ".debug_loc";
	l->sec = section(elf, name);
	if (!l->sec)
		return fail(l, "no %s section", name);
	return 0;
}

/* An address from .debug_addr, by index: libdw finds it through the
 * unit's DW_AT_addr_base, as for DW_OP_addrx. */
static int addrx(struct list *l, uint64_t idx, uint64_t *addr)
{
	Dwarf_Op op = { .atom = DW_OP_addrx, .number = idx };
	Dwarf_Attribute res;
	Dwarf_Addr a;

	if (dwarf_getlocation_attr(l->attr, &op, &res) || dwarf_formaddr(&res, &a))
		return fail(l, "address %" PRIu64 " of .debug_addr cannot be read (%s)", idx,
			    dwarf_errmsg(-1));
	*addr = a;
	return 0;
}

/* DW_AT_loclists_base; without one, the offsets that follow the
 * section's first header (as libdw takes it). */
static uint64_t loclists_base(struct list *l)
{
	struct rd r = { .p = l->sec->d_buf, .end = (unsigned char *)l->sec->d_buf + l->sec->d_size };
	Dwarf_Attribute attr;
	Dwarf_Word v;

	if (dwarf_attr(&l->cudie, DW_AT_loclists_base, &attr) && !dwarf_formudata(&attr, &v))
		return v;
	/* unit length (4, or 0xffffffff + 8), version 2, sizes 1 + 1, count 4 */
	return rd_fixed(&r, 4) == 0xffffffff ? 20 : 12;
}

/* The unit's base address: DW_AT_low_pc, else DW_AT_entry_pc, else 0. */
static uint64_t unit_base(struct list *l)
{
	Dwarf_Attribute attr;
	Dwarf_Addr a;

	if (!dwarf_lowpc(&l->cudie, &a))
		return a;
	if (dwarf_attr(&l->cudie, DW_AT_entry_pc, &attr) && !dwarf_formaddr(&attr, &a))
		return a;
	return 0;
}

/* Where the list starts in its section, and the base it starts with. */
static int list_first(struct list *l, size_t *off, uint64_t *base)
{
	size_t size = l->sec->d_size;
	Dwarf_Word v;
	uint64_t lb;
	struct rd r;

	if (dwarf_formudata(l->attr, &v))
		return fail(l, "its list's offset cannot be read (%s)", dwarf_errmsg(-1));
	if (l->attr->form == DW_FORM_loclistx) {
		/* an index into the offsets at the unit's loclists base,
		 * each relative to that base */
		lb = loclists_base(l);
		if (lb > size || v > (size - lb) / l->u.offset_size)
			return fail(l, "list index %" PRIu64 " past .debug_loclists", v);
		r.p = (unsigned char *)l->sec->d_buf + lb + v * l->u.offset_size;
		r.end = (unsigned char *)l->sec->d_buf + size;
		r.bad = false;
		v = rd_fixed(&r, l->u.offset_size);
		if (r.bad || v > size - lb)
			return fail(l, "list index %" PRIu64 " points past .debug_loclists", v);
		v += lb;
	}
	if (v >= size)
		return fail(l, "its list's offset 0x%" PRIx64 " is past the section", v);
	*off = v;
	*base = unit_base(l);
	return 0;
}

/* DWARF 2-4: pairs of addresses (relative to the base), a 2-byte length. */
static int entry_v4(struct list *l, struct rd *r, uint64_t *base, uint64_t *start,
		    uint64_t *end, uint64_t *len)
{
	uint64_t all = l->u.addr_size == 8 ? UINT64_MAX : UINT32_MAX, a, b;

	for (;;) {
		a = rd_fixed(r, l->u.addr_size);
		b = rd_fixed(r, l->u.addr_size);
		if (r->bad)
			return 0;
		if (!a && !b)
			return 0;
		if (a != all)
			break;
		*base = b;	/* a base address selection entry */
	}
	*start = a + *base;
	*end = b + *base;
	*len = rd_fixed(r, 2);
	return 1;
}

/* DWARF 5: DW_LLE_* entries, a ULEB128 length. */
static int entry_v5(struct list *l, struct rd *r, uint64_t *base, uint64_t *start,
		    uint64_t *end, uint64_t *len)
{
	unsigned int kind;
	uint64_t x;

	for (;;) {
		kind = rd_fixed(r, 1);
		if (r->bad)
			return 0;
		switch (kind) {
		case DW_LLE_end_of_list:
			return 0;
		case DW_LLE_base_addressx:
			x = rd_uleb(r);
			if (r->bad || addrx(l, x, base))
				return r->bad ? 0 : -1;
			continue;
		case DW_LLE_base_address:
			*base = rd_fixed(r, l->u.addr_size);
			continue;
		case DW_LLE_GNU_view_pair:
			rd_uleb(r);
			rd_uleb(r);
			continue;
		case DW_LLE_startx_endx:
		case DW_LLE_startx_length:
			x = rd_uleb(r);
			if (r->bad || addrx(l, x, start))
				return r->bad ? 0 : -1;
			x = rd_uleb(r);
			if (kind == DW_LLE_startx_length)
				*end = *start + x;
			else if (!r->bad && addrx(l, x, end))
				return -1;
			break;
		case DW_LLE_offset_pair:
			*start = rd_uleb(r) + *base;
			*end = rd_uleb(r) + *base;
			break;
		case DW_LLE_default_location:
			*start = 0;
			*end = UINT64_MAX;
			break;
		case DW_LLE_start_end:
			*start = rd_fixed(r, l->u.addr_size);
			*end = rd_fixed(r, l->u.addr_size);
			break;
		case DW_LLE_start_length:
			*start = rd_fixed(r, l->u.addr_size);
			*end = *start + rd_uleb(r);
			break;
		default:
			return fail(l, "a list entry of unknown kind 0x%x", kind);
		}
		*len = rd_uleb(r);
		return 1;
	}
}

/*
 * The entry at *off (base entries taken on the way): 1 with its range and
 * expression, *off moved past it; 0 at the end of the list; -1.
 */
static int list_entry(struct list *l, size_t *off, uint64_t *base, uint64_t *start,
		      uint64_t *end, Dwarf_Block *expr)
{
	unsigned char *sec = l->sec->d_buf;
	struct rd r = { .p = sec + *off, .end = sec + l->sec->d_size };
	uint64_t len = 0;
	int n;

	n = l->u.version >= 5 ? entry_v5(l, &r, base, start, end, &len) :
				entry_v4(l, &r, base, start, end, &len);
	if (n < 0)
		return n;
	if (r.bad || (n && !rd_has(&r, len)))
		return fail(l, "its list runs past the end of its section");
	expr->data = (unsigned char *)r.p;
	expr->length = n ? len : 0;
	*off = r.p + expr->length - sec;
	return n;
}

static int decode(struct list *l, const Dwarf_Block *b, Dwarf_Op **ops, size_t *nops)
{
	char why[128];

	if (bp_loclist__decode(&l->u, b->data, b->length, l->buf->ops, BP_LOCLIST_MAX_OPS,
			       nops, &l->buf->uninit, why, sizeof(why)))
		return fail(l, "%s", why);
	*ops = l->buf->ops;
	return 0;
}

/* libdw failed: what it said starts the message. */
static void libdw_failed(struct bp_loclist_ops *buf)
{
	snprintf(buf->err, sizeof(buf->err), "libdw: %s", dwarf_errmsg(-1));
}

int bp_loclist__at(Dwarf_Attribute *attr, Dwarf_Addr addr, Dwarf_Op **ops, size_t *nops,
		   struct bp_loclist_ops *buf)
{
	uint64_t base, start, end;
	Dwarf_Block expr;
	struct list l;
	size_t off;
	int n;

	buf->uninit = false;
	buf->err[0] = '\0';
	n = dwarf_getlocation_addr(attr, addr, ops, nops, 1);
	if (n >= 0)
		return n;
	libdw_failed(buf);
	if (list_open(attr, &l, buf))
		return -1;
	if (l.single)
		return decode(&l, &l.block, ops, nops) ? -1 : *nops ? 1 : 0;
	if (list_first(&l, &off, &base))
		return -1;
	while ((n = list_entry(&l, &off, &base, &start, &end, &expr)) > 0) {
		if (addr >= start && addr < end)
			return decode(&l, &expr, ops, nops) ? -1 : 1;
	}
	return n;
}

ptrdiff_t bp_loclist__next(Dwarf_Attribute *attr, ptrdiff_t off, Dwarf_Addr *base,
			   Dwarf_Addr *start, Dwarf_Addr *end, Dwarf_Op **ops,
			   size_t *nops, struct bp_loclist_ops *buf)
{
	Dwarf_Block expr;
	struct list l;
	ptrdiff_t r;
	size_t at = off;
	uint64_t b = *base, s, e;
	int n;

	buf->uninit = false;
	buf->err[0] = '\0';
	r = dwarf_getlocations(attr, off, base, start, end, ops, nops);
	if (r >= 0)
		return r;
	libdw_failed(buf);
	if (list_open(attr, &l, buf))
		return -1;
	if (l.single) {
		/* one expression, everywhere: the one entry at offset 0 */
		if (off)
			return 0;
		if (decode(&l, &l.block, ops, nops))
			return -1;
		*start = 0;
		*end = (Dwarf_Addr)-1;
		return 1;
	}
	if (!off && list_first(&l, &at, &b))
		return -1;
	n = list_entry(&l, &at, &b, &s, &e, &expr);
	if (n <= 0)
		return n;
	if (decode(&l, &expr, ops, nops))
		return -1;
	*base = b;
	*start = s;
	*end = e;
	return (ptrdiff_t)at;
}

/* --- views ------------------------------------------------------------------ */

/*
 * gcc's DW_AT_GNU_locviews: where in the list's section a pair of view
 * numbers (ULEB128) for each entry of the list is, in order (base
 * address entries have none). False when var has none, or it cannot be
 * read.
 */
static bool views_open(Dwarf_Die *var, Dwarf_Attribute *attr, struct list *l, struct rd *r,
		       struct bp_loclist_ops *buf)
{
	Dwarf_Attribute va;
	Dwarf_Word off;

	if (!dwarf_attr_integrate(var, DW_AT_GNU_locviews, &va) || dwarf_formudata(&va, &off))
		return false;
	if (list_open(attr, l, buf) || l->single || off >= l->sec->d_size) {
		buf->err[0] = '\0';
		return false;
	}
	r->p = (unsigned char *)l->sec->d_buf + off;
	r->end = (unsigned char *)l->sec->d_buf + l->sec->d_size;
	r->bad = false;
	return true;
}

int bp_loclist__cands(Dwarf_Die *var, Dwarf_Attribute *attr, Dwarf_Addr addr,
		      struct bp_loclist_cand *v, int max, struct bp_loclist_ops *buf)
{
	Dwarf_Addr base, start, end;
	Dwarf_Op *ops;
	size_t nops;
	ptrdiff_t off = 0;
	struct list l;
	struct rd r;
	bool views;
	int i = 0, n = 0;

	if (attr->form == DW_FORM_exprloc || attr->form == DW_FORM_block1 ||
	    attr->form == DW_FORM_block)
		return 0;
	views = views_open(var, attr, &l, &r, buf);
	while ((off = bp_loclist__next(attr, off, &base, &start, &end, &ops, &nops, buf)) > 0) {
		uint64_t vb = 0, ve = 0;

		if (views) {
			vb = rd_uleb(&r);
			ve = rd_uleb(&r);
			/* the views ran out: the list is read without them */
			if (r.bad)
				views = false;
		}
		if (nops && n < max && ((start == addr && end == addr) ||
					(addr >= start && addr < end))) {
			v[n] = (struct bp_loclist_cand){
				.index = i, .empty = start == end, .has_views = views,
				.vbegin = start == addr ? vb : 0,
				.vend = end == addr ? ve : 0,
			};
			n++;
		}
		i++;
	}
	if (off < 0)
		return -1;
	/* a list whose views ran out half way has none */
	for (i = 0; i < n; i++)
		if (!views)
			v[i].has_views = false, v[i].vbegin = v[i].vend = 0;
	return n;
}

int bp_loclist__nth(Dwarf_Attribute *attr, int index, Dwarf_Op **ops, size_t *nops,
		    struct bp_loclist_ops *buf)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;
	int i = 0;

	while ((off = bp_loclist__next(attr, off, &base, &start, &end, ops, nops, buf)) > 0) {
		if (i++ == index)
			return 1;
	}
	return off < 0 ? -1 : 0;
}
