/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The kernel's verifier log, which ends with what went wrong ("cannot call
 * GPL-restricted function from non-GPL compatible program", "back-edge
 * from insn 7 to 5", "unknown func bpf_foo#99") before its statistics.
 */
#ifndef BPFPROBE_VERIFIER_LOG_H
#define BPFPROBE_VERIFIER_LOG_H

#include <stddef.h>

/*
 * The line of log that says why the program was refused: the last line
 * that is not a statistic, an instruction or a register state. Writes
 * it to buf (cut to len) and returns its length, 0 when the log says
 * nothing (empty).
 */
size_t bp_verifier_log__reason(const char *log, char *buf, size_t len);

#endif /* BPFPROBE_VERIFIER_LOG_H */
