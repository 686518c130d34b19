// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* DWARF type DIE helpers: peeling, sizes, C-like names, op names. */
#include <stdio.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/known-dwarf.h>

#include "probes/dwarf/types.h"

/* typedef chains and qualifiers nest a few levels, never hundreds: a cycle
 * in broken DWARF must not hang us */
#define MAX_TYPE_DEPTH	32

const char *bp_die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	if (!dwarf_attr_integrate(die, DW_AT_name, &attr))
		return NULL;
	return dwarf_formstring(&attr);
}

Dwarf_Die *bp_die_type(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr))
		return NULL;
	return dwarf_formref_die(&attr, type);
}

static bool is_alias_or_qualifier(int tag)
{
	switch (tag) {
	case DW_TAG_typedef:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		return true;
	default:
		return false;
	}
}

Dwarf_Die *bp_type_peel(Dwarf_Die *type, Dwarf_Die *out)
{
	int depth;

	if (!type)
		return NULL;
	*out = *type;
	for (depth = 0; depth < MAX_TYPE_DEPTH; depth++) {
		if (!is_alias_or_qualifier(dwarf_tag(out)))
			return out;
		/* "const void" etc.: no DW_AT_type */
		if (!bp_die_type(out, out))
			return NULL;
	}
	return out;
}

long bp_type_size(Dwarf_Die *type)
{
	Dwarf_Word size;

	if (!type || dwarf_aggregate_size(type, &size))
		return -1;
	return (long)size;
}

static bool ends_with_star(const char *s)
{
	size_t n = strlen(s);

	return n && s[n - 1] == '*';
}

static void type_name(Dwarf_Die *type, char *buf, size_t len, int depth);

/* "int (*)(int, char *)": the parameter list of a subroutine type */
static void params_name(Dwarf_Die *fn, char *buf, size_t len, int depth)
{
	char one[128];
	size_t pos = 0;
	Dwarf_Die child;
	bool first = true;

	buf[0] = '\0';
	if (dwarf_child(fn, &child))
		return;
	do {
		Dwarf_Die tmem;
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_formal_parameter)
			type_name(bp_die_type(&child, &tmem), one, sizeof(one), depth + 1);
		else if (tag == DW_TAG_unspecified_parameters)
			snprintf(one, sizeof(one), "...");
		else
			continue;
		if (pos < len)
			pos += snprintf(buf + pos, len - pos, "%s%s", first ? "" : ", ", one);
		first = false;
	} while (!dwarf_siblingof(&child, &child));
}

static void array_dims(Dwarf_Die *arr, char *buf, size_t len)
{
	size_t pos = 0;
	Dwarf_Die child;

	buf[0] = '\0';
	if (dwarf_child(arr, &child))
		return;
	do {
		Dwarf_Attribute attr;
		Dwarf_Word n;

		if (dwarf_tag(&child) != DW_TAG_subrange_type || pos >= len)
			continue;
		if (dwarf_attr_integrate(&child, DW_AT_count, &attr) &&
		    !dwarf_formudata(&attr, &n))
			pos += snprintf(buf + pos, len - pos, "[%llu]", (unsigned long long)n);
		else if (dwarf_attr_integrate(&child, DW_AT_upper_bound, &attr) &&
			 !dwarf_formudata(&attr, &n))
			pos += snprintf(buf + pos, len - pos, "[%llu]", (unsigned long long)n + 1);
		else
			pos += snprintf(buf + pos, len - pos, "[]");
	} while (!dwarf_siblingof(&child, &child));
}

static const char *record_kw(int tag)
{
	switch (tag) {
	case DW_TAG_structure_type:	return "struct";
	case DW_TAG_union_type:		return "union";
	case DW_TAG_class_type:		return "class";
	case DW_TAG_enumeration_type:	return "enum";
	default:			return NULL;
	}
}

static const char *qualifier_kw(int tag)
{
	switch (tag) {
	case DW_TAG_const_type:		return "const";
	case DW_TAG_volatile_type:	return "volatile";
	case DW_TAG_restrict_type:	return "restrict";
	case DW_TAG_atomic_type:	return "_Atomic";
	default:			return NULL;
	}
}

static void type_name(Dwarf_Die *type, char *buf, size_t len, int depth)
{
	char inner[256], extra[128];
	Dwarf_Die tmem, *t;
	const char *name, *kw;
	int tag;

	if (!type) {
		snprintf(buf, len, "void");
		return;
	}
	if (depth > MAX_TYPE_DEPTH) {
		snprintf(buf, len, "...");
		return;
	}
	tag = dwarf_tag(type);
	name = bp_die_name(type);
	t = bp_die_type(type, &tmem);

	if ((kw = record_kw(tag))) {
		snprintf(buf, len, "%s %s", kw, name ? name : "<anonymous>");
	} else if ((kw = qualifier_kw(tag))) {
		type_name(t, inner, sizeof(inner), depth + 1);
		/* const on an array of const elements (gcc writes both): once */
		if (!strncmp(inner, kw, strlen(kw)) && inner[strlen(kw)] == ' ')
			snprintf(buf, len, "%s", inner);
		/* a qualified pointer reads "char * const" */
		else if (ends_with_star(inner) || tag == DW_TAG_restrict_type)
			snprintf(buf, len, "%s %s", inner, kw);
		else
			snprintf(buf, len, "%s %s", kw, inner);
	} else if (bp_tag_is_pointer(tag)) {
		const char *sym = tag == DW_TAG_pointer_type ? "*" :
				  tag == DW_TAG_reference_type ? "&" : "&&";

		if (t && dwarf_tag(t) == DW_TAG_subroutine_type) {
			Dwarf_Die rmem;

			type_name(bp_die_type(t, &rmem), inner, sizeof(inner), depth + 1);
			params_name(t, extra, sizeof(extra), depth);
			snprintf(buf, len, "%s (%s)(%s)", inner, sym, extra);
		} else {
			type_name(t, inner, sizeof(inner), depth + 1);
			snprintf(buf, len, "%s%s%s", inner,
				 ends_with_star(inner) ? "" : " ", sym);
		}
	} else if (tag == DW_TAG_array_type) {
		type_name(t, inner, sizeof(inner), depth + 1);
		array_dims(type, extra, sizeof(extra));
		snprintf(buf, len, "%s%s", inner, extra);
	} else if (tag == DW_TAG_subroutine_type) {
		type_name(t, inner, sizeof(inner), depth + 1);
		params_name(type, extra, sizeof(extra), depth);
		snprintf(buf, len, "%s (%s)", inner, extra);
	} else {
		/* base types and typedefs carry their own name */
		snprintf(buf, len, "%s", name ? name : "?");
	}
}

void bp_type_name(Dwarf_Die *type, char *buf, size_t len)
{
	if (!len)
		return;
	type_name(type, buf, len, 0);
}

const char *bp_dw_op_name(unsigned int op, char *buf, size_t len)
{
	switch (op) {
#define DWARF_ONE_KNOWN_DW_OP(NAME, CODE) case CODE: return #CODE;
	DWARF_ALL_KNOWN_DW_OP
#undef DWARF_ONE_KNOWN_DW_OP
	default:
		snprintf(buf, len, "DW_OP_0x%x", op);
		return buf;
	}
}
