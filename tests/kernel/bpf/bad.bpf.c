// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Bad kernel-probe inputs, one object each: built with -DBAD_<case>
 * (tests/kernel/kernel.mk); tests/vm/kernel-tests.sh and
 * tests/e2e/kernel_host.sh check the messages.
 */
#include "ktest.h"

#if defined(BAD_nofunc)
#define SPEC "func=no_such_function_bpfprobe"
#elif defined(BAD_nomodule)
#define SPEC "module=no_such_module;func=no_such_function_bpfprobe"
#elif defined(BAD_nomember)
#define SPEC "func=do_sched_setscheduler param->nope@user"
#elif defined(BAD_nonptr)
#define SPEC "func=do_sched_setscheduler policy->x"
#elif defined(BAD_noparam)
#define SPEC "func=do_sched_setscheduler nope"
#elif defined(BAD_stack_param)
#define SPEC "func=do_mmap populate"
#elif defined(BAD_notscalar)
#define SPEC "func=null_lseek file->f_path"
#elif defined(BAD_retval_entry)
#define SPEC "func=do_sched_setscheduler $retval"
#elif defined(BAD_param_return)
#define SPEC "func=do_sched_setscheduler%return pid"
#elif defined(BAD_offset_args)
#define SPEC "func=do_sched_setscheduler+4 pid"
#elif defined(BAD_notrace)
#define SPEC "func=__schedule"
#elif defined(BAD_blacklist)
#define SPEC "func=notify_die"
#elif defined(BAD_badoffset)
#define SPEC "func=do_sched_setscheduler+1"
#elif defined(BAD_toomany)
#define SPEC "func=do_sched_setscheduler pid policy param pid"
#else
#error "which bad input? -DBAD_<case>"
#endif

/* the cases that fetch nothing take only ctx */
#if defined(BAD_nofunc) || defined(BAD_nomodule) || defined(BAD_notrace) || \
	defined(BAD_blacklist) || defined(BAD_badoffset)
SEC(SPEC)
int badprog(void *ctx)
{
	return 0;
}
#else
SEC(SPEC)
int badprog(void *ctx, int err, long a)
{
	return 0;
}
#endif

char LICENSE[] SEC("license") = "GPL";
