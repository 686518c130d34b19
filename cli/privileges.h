/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Commands that load, attach or read the kernel's BPF state check first. */
#ifndef BPFPROBE_CLI_PRIVILEGES_H
#define BPFPROBE_CLI_PRIVILEGES_H

/*
 * 0 when the process has CAP_SYS_ADMIN, or CAP_BPF and CAP_PERFMON;
 * else says so, as the only message of command cmd, and returns -EPERM.
 */
int bp_cli__check_privileges(const char *cmd);

#endif /* BPFPROBE_CLI_PRIVILEGES_H */
