/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A variable's location (DW_AT_location) read even where libdw refuses it.
 *
 * gcc writes DW_OP_GNU_uninit (0xf0, no operand) after a location whose
 * variable is not initialized yet: "DW_OP_reg0; DW_OP_GNU_uninit", also
 * before a piece ("DW_OP_reg13; DW_OP_GNU_uninit; DW_OP_piece 8; ...").
 * Debian's libdw 0.188 does not know that op: it fails ("invalid DWARF")
 * on every location list entry that holds one, so
 * dwarf_getlocation_addr() fails at the addresses such an entry covers
 * and dwarf_getlocations() stops at the first one.
 *
 * These functions ask libdw first; where it fails, they read the list
 * from its section themselves (.debug_loclists for DWARF 5: every
 * DW_LLE_* kind, addresses by index through .debug_addr, DW_FORM_loclistx
 * through the unit's DW_AT_loclists_base; .debug_loc before DWARF 5),
 * decode the expression op by op with each op's operand sizes, and leave
 * out DW_OP_GNU_uninit ops (a 0xf0 byte inside an operand stays). The
 * ops decoded here carry what libdw's would (operands, byte offsets,
 * DW_OP_entry_value / DW_OP_implicit_value / DW_OP_const_type blocks as
 * pointers into the section), so dwarf_getlocation_attr() and
 * dwarf_getlocation_die() work on them with the same attribute.
 *
 * A value DWARF marks uninitialized is still where its location says:
 * gdb prints it too. The caller learns it through 'uninit'.
 */
#ifndef BPFPROBE_DWARF_LOCLIST_H
#define BPFPROBE_DWARF_LOCLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

#define BP_LOCLIST_MAX_OPS	64

/* Room for the ops of one expression decoded here: the ops returned
 * point into it, so it must outlive their use. */
struct bp_loclist_ops {
	Dwarf_Op ops[BP_LOCLIST_MAX_OPS];
	/* the expression returned had DW_OP_GNU_uninit (left out) */
	bool uninit;
	/* why the location could not be read, after a failure */
	char err[160];
};

/* What decoding an expression needs of its unit. */
struct bp_loclist_unit {
	int version;
	int addr_size;		/* DW_OP_addr */
	int offset_size;	/* DW_OP_call_ref, DW_OP_implicit_pointer: 4 or 8 */
};

/*
 * dwarf_getlocation_addr(attr, addr, ops, nops, 1) that does not fail on
 * DW_OP_GNU_uninit: 1 with the expression of the first entry covering
 * addr, 0 when none does, -1 with buf->err set.
 */
int bp_loclist__at(Dwarf_Attribute *attr, Dwarf_Addr addr, Dwarf_Op **ops, size_t *nops,
		   struct bp_loclist_ops *buf);

/*
 * dwarf_getlocations(): the entry at or after off (0: the first) into
 * start, end and ops; returns the offset of the next (> 0), 0 at the end,
 * -1 with buf->err set. A single expression is one entry [0, -1).
 */
ptrdiff_t bp_loclist__next(Dwarf_Attribute *attr, ptrdiff_t off, Dwarf_Addr *base,
			   Dwarf_Addr *start, Dwarf_Addr *end, Dwarf_Op **ops,
			   size_t *nops, struct bp_loclist_ops *buf);

/*
 * Decodes the expression of len bytes at data as libdw would, into at
 * most max ops, leaving DW_OP_GNU_uninit out (*uninit says whether there
 * was one). Returns 0, or -EINVAL (an op unknown, an operand past the
 * end) / -E2BIG with the reason in err.
 */
int bp_loclist__decode(const struct bp_loclist_unit *u, const unsigned char *data,
		       size_t len, Dwarf_Op *ops, size_t max, size_t *nops, bool *uninit,
		       char *err, size_t errlen);

/*
 * Location views (gcc's DW_AT_GNU_locviews): at one address several
 * entries may hold, each for a span of views [vbegin, vend) there (an
 * empty range [addr, addr) holds only between its views). One entry of
 * var's list that holds at addr, its place in the list and its views.
 */
struct bp_loclist_cand {
	int index;		/* the entry's place in the list (from 0) */
	bool empty;		/* [addr, addr): between views only */
	bool has_views;		/* the list has views (else vbegin, vend are 0) */
	uint64_t vbegin, vend;	/* its views at addr: vend 0 is none (to the end) */
};

/*
 * The entries of var's location attr that hold at addr: those whose
 * range covers it, and the empty ranges at addr, in list order, with
 * their views when var has DW_AT_GNU_locviews. Returns how many (at most
 * max), or -1 with buf->err set.
 */
int bp_loclist__cands(Dwarf_Die *var, Dwarf_Attribute *attr, Dwarf_Addr addr,
		      struct bp_loclist_cand *v, int max, struct bp_loclist_ops *buf);

/* The expression of the entry at index in attr's list: 1 with ops, 0
 * when there is no such entry, -1 with buf->err set. */
int bp_loclist__nth(Dwarf_Attribute *attr, int index, Dwarf_Op **ops, size_t *nops,
		    struct bp_loclist_ops *buf);

#endif /* BPFPROBE_DWARF_LOCLIST_H */
