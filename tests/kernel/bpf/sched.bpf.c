// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The seed example and more of do_sched_setscheduler(pid_t pid,
 * int policy, struct sched_param __user *param): a user pointer read with
 * @user, sign-extended register arguments (and narrow unsigned reads of
 * them), a failing fetch (err), and the
 * return value of a kretprobe; perf's fetch arguments ($arg1, %si,
 * +0(%dx)). tests/kernel/progs/kt_sched.c prints the
 * truth in the same form.
 */
#include "ktest.h"

SEC("func=do_sched_setscheduler param->sched_priority@user")
int prog(void *ctx, int err, __u64 prio)
{
	if (from_test_helper())
		bpf_printk("GOT seed err=%d prio=%lld", err != 0, prio);
	return 0;
}

SEC("func=do_sched_setscheduler pid policy param->sched_priority@user")
int sched_args(void *ctx, int err, long pid, long policy, long prio)
{
	if (from_test_helper())
		bpf_printk("GOT args err=%d pid=%ld policy=%ld prio=%ld", err != 0, pid,
			   policy, prio);
	return 0;
}

/* the same registers read narrow and unsigned (type overrides): a load of
 * their low bytes, which kernels without cpu v4 take too */
SEC("func=do_sched_setscheduler pid:u32 policy:u16 policy:u8")
int sched_uargs(void *ctx, int err, __u64 pid, __u64 p16, __u64 p8)
{
	if (from_test_helper())
		bpf_printk("GOT uargs err=%d pid=%llu p16=%llu p8=%llu", err != 0, pid, p16, p8);
	return 0;
}

/* perf's fetch arguments: $arg1 typed by BTF (pid_t, sign-extended), a
 * register narrowed by a cast, and a read of user memory at a register */
SEC("func=do_sched_setscheduler $arg1 %si:s32 +0(%dx):s32@user")
int sched_fargs(void *ctx, int err, long pid, long policy, long prio)
{
	if (from_test_helper())
		bpf_printk("GOT fargs err=%d pid=%ld policy=%ld prio=%ld", err != 0, pid,
			   policy, prio);
	return 0;
}

SEC("func=do_sched_setscheduler%return $retval")
int sched_ret(void *ctx, int err, long ret)
{
	if (from_test_helper())
		bpf_printk("GOT ret err=%d ret=%ld", err != 0, ret);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
