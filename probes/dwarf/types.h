/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Small helpers over DWARF type DIEs: following DW_AT_type, stripping
 * typedefs and qualifiers, C-like names, DWARF op names for messages.
 *
 * A type is a Dwarf_Die plus a "void" state: DW_AT_type is absent for void
 * (and for a void pointer's target), so helpers take a pointer that may be
 * NULL to mean void.
 */
#ifndef BPFPROBE_DWARF_TYPES_H
#define BPFPROBE_DWARF_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <dwarf.h>
#include <elfutils/libdw.h>

/* Name of die following DW_AT_abstract_origin/DW_AT_specification, or NULL. */
const char *bp_die_name(Dwarf_Die *die);

/* die's DW_AT_type (followed through origins) into *type. Returns NULL
 * (void) when there is none. */
Dwarf_Die *bp_die_type(Dwarf_Die *die, Dwarf_Die *type);

/* Strips typedef, const, volatile, restrict and _Atomic. type NULL (void)
 * stays NULL; otherwise the result is written to *out and returned. */
Dwarf_Die *bp_type_peel(Dwarf_Die *type, Dwarf_Die *out);

static inline int bp_type_tag(Dwarf_Die *type)
{
	return type ? dwarf_tag(type) : 0;
}

/* DIEs that may hold code-bearing children: functions, blocks, inlined
 * copies, and the namespaces and classes functions are defined in. */
static inline bool bp_tag_holds_code(int tag)
{
	switch (tag) {
	case DW_TAG_subprogram:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_lexical_block:
	case DW_TAG_namespace:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_module:
		return true;
	default:
		return false;
	}
}

static inline bool bp_tag_is_record(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

static inline bool bp_tag_is_pointer(int tag)
{
	return tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
	       tag == DW_TAG_rvalue_reference_type;
}

/* Size in bytes (dwarf_aggregate_size) or -1; void is -1. */
long bp_type_size(Dwarf_Die *type);

/* C-like name: "int", "struct req *", "req_t *", "const char *", "int[4]".
 * Writes at most len bytes, always NUL-terminated. */
void bp_type_name(Dwarf_Die *type, char *buf, size_t len);

/* "DW_OP_piece", or "DW_OP_0x%x" into buf for unknown ops. */
const char *bp_dw_op_name(unsigned int op, char *buf, size_t len);

#endif /* BPFPROBE_DWARF_TYPES_H */
