/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Whether the running kernel accepts cpu v4's sign-extending instructions
 * (Linux 6.6+) in kprobe and uprobe programs, which shorten the prologues
 * (prologue/prologue.h, bp_prologue_opts.cpu_v4): asked once, by loading a
 * tiny program that uses them.
 */
#ifndef BPFPROBE_CPU_V4_H
#define BPFPROBE_CPU_V4_H

/* BPFPROBE_CPU_V4=0 in the environment: never used (the older form) */
#define BP_CPU_V4_ENV	"BPFPROBE_CPU_V4"

/*
 * 1 when the prologues may use them, 0 when not (the kernel refuses them,
 * the check itself could not load, or BP_CPU_V4_ENV is 0), which -v says
 * once; -EINVAL, after a message, for another value of BP_CPU_V4_ENV.
 */
int bp_cpu_v4__usable(void);

/*
 * What bp_cpu_v4__usable() is expected to answer, without asking the
 * kernel (for resolve, which needs no privileges and calls no bpf()): 1 on
 * Linux 6.6 and later, 0 before or with BP_CPU_V4_ENV 0; -EINVAL as above.
 */
int bp_cpu_v4__expected(void);

#endif /* BPFPROBE_CPU_V4_H */
