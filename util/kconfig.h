/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The running kernel's build configuration, to explain what it lacks. */
#ifndef BPFPROBE_KERNEL_CONFIG_H
#define BPFPROBE_KERNEL_CONFIG_H

/*
 * Whether option (e.g. "CONFIG_KPROBES") is set (=y or =m) in the running
 * kernel's configuration, read from /proc/config.gz or
 * /boot/config-$(uname -r). Returns 1 set, 0 not set, -ENOENT unknown (no
 * configuration to read).
 */
int bp_kconfig__get(const char *option);

#endif /* BPFPROBE_KERNEL_CONFIG_H */
