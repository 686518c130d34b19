// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Signals and the poll loop of the monitors (monitor_loop.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/clock_text.h"
#include "cli/monitor_loop.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

void bp_monitor__setup(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
}

int bp_monitor__loop(double duration, int (*poll)(void *ctx, int timeout_ms), void *ctx)
{
	uint64_t end = 0;
	int err, code = 0;

	if (duration > 0)
		end = bp_clock__ns(CLOCK_MONOTONIC) + (uint64_t)(duration * 1e9);
	while (!stop && (!end || bp_clock__ns(CLOCK_MONOTONIC) < end)) {
		err = poll(ctx, 100);
		if (err == -EINTR)
			continue;
		if (err < 0) {
			fprintf(stderr, "bpfprobe monitor: %s\n", strerror(-err));
			code = 1;
			break;
		}
		if (ferror(stdout))
			break;	/* reader gone */
	}
	/* what already arrived is still reported */
	if (!code)
		poll(ctx, 0);
	return code;
}
