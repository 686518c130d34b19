/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The command's stdout and stderr (std_streams.c). Everything it prints
 * goes through streams that
 *
 *  - show control characters escaped (util/utf8.h): a DWARF name, a
 *    process's name, a SEC text or a string read from a traced process
 *    that holds ESC cannot drive the terminal. Newlines and tabs pass.
 *    JSON passes as it is: its writer escapes every control character
 *    itself, and a C1 control it leaves raw becomes \u00NN, the same
 *    character to a JSON reader;
 *  - keep the first write to stdout that failed, and its errno, for the
 *    command to say once what was lost (-EPIPE: the reader went away).
 *    From then on nothing more is written to stdout.
 *
 * Set up once, first thing in main(); stdout's and stderr's descriptors
 * stay 1 and 2 (what is written there directly, by a child or by `trace`'s
 * own writer, is not escaped by these streams), but fileno(stdout) is -1.
 */
#ifndef BPFPROBE_CLI_STD_STREAMS_H
#define BPFPROBE_CLI_STD_STREAMS_H

#include <stdbool.h>

/*
 * Replaces stdout and stderr. stdout is line-buffered, or block-buffered
 * when block and it is no terminal; stderr is unbuffered. Returns 0 or
 * -ENOMEM (then they stay as they were).
 */
int bp_stdio__init(bool block);

/* The first write to stdout that failed, as a negative errno; 0: none. */
int bp_stdio__out_error(void);

/* The command has said what a failed write to stdout lost: the end of
 * the command says nothing more of it. */
void bp_stdio__said(void);

/*
 * At the end of the command named cmd, which returns code: flushes, and
 * when a write to stdout failed and nothing said so yet, says so (not for
 * EPIPE: a reader that went away wants nothing more). Returns the exit
 * code: code, or when it is 0 and stdout failed, 141 (128 + SIGPIPE, as
 * a shell shows a writer SIGPIPE killed) for EPIPE and 1 for any other
 * error.
 */
int bp_stdio__finish(const char *cmd, int code);

#endif /* BPFPROBE_CLI_STD_STREAMS_H */
