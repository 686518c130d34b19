/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Clocks and the times the monitors print. */
#ifndef BPFPROBE_CLOCK_TEXT_H
#define BPFPROBE_CLOCK_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Nanoseconds of clock c. */
uint64_t bp_clock__ns(clockid_t c);

/*
 * A CLOCK_MONOTONIC time (bpf_ktime_get_ns(), perf records) as wall clock
 * time, mono_to_real being CLOCK_REALTIME - CLOCK_MONOTONIC: local
 * "HH:MM:SS.uuuuuu", or with iso UTC "YYYY-MM-DDTHH:MM:SS.uuuuuuZ".
 */
void bp_clock__text(uint64_t mono, uint64_t mono_to_real, bool iso, char *buf, size_t len);

#endif /* BPFPROBE_CLOCK_TEXT_H */
