/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The kernel's stream of BPF program loads and unloads: one dummy software
 * perf event per CPU with attr.bpf_event and attr.ksymbol (and attr.comm,
 * to name loaders that exit quickly), read from their mmap'ed rings.
 * Records arrive within microseconds of the load, before the loader even
 * gets its fd, so a caller that fetches the program by id at once still
 * finds a program that lives only milliseconds.
 */
#ifndef BPFPROBE_SYSINFO_BPF_EVENTS_H
#define BPFPROBE_SYSINFO_BPF_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/bpf.h>

enum bp_bpf_event_kind {
	BP_EV_OTHER,
	BP_EV_PROG_LOAD,
	BP_EV_PROG_UNLOAD,
	BP_EV_KSYM_ADD,
	BP_EV_KSYM_DEL,
	BP_EV_COMM,		/* a process's name (at exec or prctl) */
	BP_EV_LOST,		/* records dropped: the ring was full */
};

struct bp_bpf_event {
	enum bp_bpf_event_kind kind;
	uint32_t id;			/* PROG_*: program id */
	uint8_t tag[BPF_TAG_SIZE];	/* PROG_* */
	uint64_t addr;			/* KSYM_* */
	uint32_t len;			/* KSYM_* */
	char name[128];			/* KSYM_*: symbol; COMM: comm */
	uint64_t lost;			/* LOST */
	/* sample_id: who and when */
	pid_t pid, tid;
	uint64_t time;			/* CLOCK_MONOTONIC ns */
	uint32_t cpu;
	int prog_fd;			/* PROG_LOAD: the program, opened by id as
					 * soon as its record was read; -1 if it
					 * was gone already. Closed after the cb. */
};

/*
 * Decodes one ring record (header included) written with this module's
 * attr (sample_id_all with TID, TIME and CPU). Returns 0, or -EINVAL when
 * it is too short for its kind.
 */
int bp_bpf_event__parse(const void *rec, size_t len, struct bp_bpf_event *ev);

struct bp_bpf_events;

/* Opens the per-CPU events. Returns 0 or a negative errno (logged). */
int bp_bpf_events__open(struct bp_bpf_events **out);
void bp_bpf_events__close(struct bp_bpf_events *e);

/*
 * Waits up to timeout_ms for records, then hands every record available
 * on every CPU to cb in time order. Every loaded program is opened by id
 * while the rings are read, before any cb runs: holding it keeps it
 * (and its maps) readable; a program that would live less than that
 * takes lives that much longer. Returns the number handed, -EINTR when
 * a signal came, or cb's first non-zero result.
 */
int bp_bpf_events__poll(struct bp_bpf_events *e, int timeout_ms,
			int (*cb)(const struct bp_bpf_event *ev, void *ctx), void *ctx);

#endif /* BPFPROBE_SYSINFO_BPF_EVENTS_H */
