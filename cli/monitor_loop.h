/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What both monitors (program loads, map changes) run: signals and the
 * poll loop. */
#ifndef BPFPROBE_MONITOR_LOOP_H
#define BPFPROBE_MONITOR_LOOP_H

/* SIGINT and SIGTERM end the loop; SIGPIPE is ignored (a closed stdout
 * ends it too); stdout is line-buffered. Call before anything is loaded. */
void bp_monitor__setup(void);

/*
 * Calls poll(ctx, 100 ms) until a signal, duration seconds (0: none), an
 * error it returns (-EINTR is none) or a reader gone; then poll(ctx, 0)
 * once more, so what arrived is still reported. Returns the exit code.
 */
int bp_monitor__loop(double duration, int (*poll)(void *ctx, int timeout_ms), void *ctx);

#endif /* BPFPROBE_MONITOR_LOOP_H */
