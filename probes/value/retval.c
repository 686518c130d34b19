// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * $retval: the return register (rax) at a return probe, for every source of the function's type
 * (DWARF in dwarf_resolve.c, kernel BTF in probes/kernel/btf.c, or none for a
 * function known only from the symbol table).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probes/value/value.h"
#include "prologue/arch.h"

int bp_retval__value(const struct bp_arg_ctx *c, const struct bp_spec *spec,
		     enum bp_ret_kind kind, struct bp_val *val, char *desc,
		     size_t desclen)
{
	if (!spec->is_return) {
		bp_arg_fail(c, "$retval is only known in a return probe (%s%%return)", spec->func);
		return -EINVAL;
	}
	switch (kind) {
	case BP_RET_VOID:
		bp_arg_fail(c, "%s returns void: there is no $retval", spec->func);
		return -EINVAL;
	case BP_RET_FLOAT:
		bp_arg_fail(c, "%s returns a floating-point value (in xmm0): floating-point registers are not readable from a probe",
			    spec->func);
		return -EOPNOTSUPP;
	case BP_RET_RECORD:
		bp_arg_fail(c, "%s returns a struct by value: not supported", spec->func);
		return -EOPNOTSUPP;
	case BP_RET_VALUE:
		break;
	}
	memset(val, 0, sizeof(*val));
	val->f.base = BP_BASE_REG;
	val->f.reg = bp_arch__ret_reg();
	snprintf(desc, desclen, "reg %s (return value)", bp_arch__reg_name(val->f.reg));
	return 0;
}
