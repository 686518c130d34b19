/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Side-band records of the kernel's perf events: one event per CPU, all
 * opened from one attr (a dummy software event whose flags say which
 * records), each with its ring mapped, read in time order across CPUs.
 *
 * The attr must have sample_id_all with PERF_SAMPLE_TIME in sample_type:
 * every record then ends with its time (where in its sample_id the other
 * bits of sample_type say). A CPU that is offline when opened has no
 * event.
 */
#ifndef BPFPROBE_PERF_SIDEBAND_H
#define BPFPROBE_PERF_SIDEBAND_H

#include <stddef.h>
#include <linux/perf_event.h>
#include <linux/types.h>

struct bp_sideband;

/*
 * Opens attr's event on every CPU with a ring of pages data pages (a
 * power of two). 0, or a negative errno (nothing is printed: -EACCES
 * and -EPERM when perf_event_paranoid or the capabilities refuse,
 * -EINVAL for an attr the kernel does not know).
 */
int bp_sideband__open(const struct perf_event_attr *attr, size_t pages, struct bp_sideband **out);
void bp_sideband__free(struct bp_sideband *sb);

/*
 * Hands every record waiting in every ring to cb (the record, header
 * included, and its size; a record that wraps around its ring is given
 * whole), in time order: records of one time keep their CPU's order.
 * The records are taken off the rings before the first cb. Returns how
 * many, cb's first non-zero return, or -ENOMEM.
 */
int bp_sideband__read(struct bp_sideband *sb, int (*cb)(const void *rec, size_t size, void *ctx),
		      void *ctx);

/* The events' fds, to poll (each wakes as attr's watermark or
 * wakeup_events say); how many. */
int bp_sideband__fds(const struct bp_sideband *sb, const int **fds);

#endif /* BPFPROBE_PERF_SIDEBAND_H */
