/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Attaching a loaded program instance to a probe point through the
 * uprobe/kprobe PMU: the probe lives only as long as its perf fd, so a
 * killed bpfprobe leaves no named tracefs event behind.
 */
#ifndef BPFPROBE_ATTACH_PROBE_H
#define BPFPROBE_ATTACH_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>

struct bp_uprobe_target {
	const char *path;	/* the binary, as messages name it */
	/* what the kernel opens: the file held since it was resolved
	 * (/proc/self/fd/N, loader/attach_binaries.c); NULL: path */
	const char *file;
	uint64_t offset;	/* file offset */
	bool retprobe;
	pid_t pid;		/* -1: every process */
	uint64_t cookie;	/* what bpf_get_attach_cookie() gives the program */
	/* an SDT marker's semaphore (file offset): raised while attached */
	uint64_t ref_ctr_offset;
};

/*
 * Opens the perf event and links prog_fd to it. On success returns 0 and
 * sets *perf_fd and *link_fd (-1 when the kernel has no perf bpf_link and
 * the program was attached with PERF_EVENT_IOC_SET_BPF instead).
 */
int bp_uprobe__attach(int prog_fd, const struct bp_uprobe_target *t,
		      int *perf_fd, int *link_fd);

/* A kernel function: by symbol and offset, or by address when the
 * symbol names several functions (func NULL). */
struct bp_kprobe_target {
	const char *func;
	uint64_t offset;	/* from func */
	uint64_t addr;		/* run-time address, when func is NULL */
	bool retprobe;
	uint64_t cookie;	/* what bpf_get_attach_cookie() gives the program */
};

/*
 * 0 when the kernel has the kprobe PMU; else logs why kernel functions
 * cannot be probed (e.g. CONFIG_KPROBES off), naming what (a function).
 */
int bp_kprobe__check_available(const char *what);

/*
 * Opens a kprobe perf event (system-wide: the kernel runs a kprobe's BPF
 * program in every task anyway) and links prog_fd to it, as for uprobes.
 */
int bp_kprobe__attach(int prog_fd, const struct bp_kprobe_target *t,
		      int *perf_fd, int *link_fd);

/* loader/attach_uprobe_multi.c: many offsets of one file, one link */

/* The attach type of a program loaded for uprobe_multi links (Linux 6.6+;
 * Debian's 6.1 uapi headers lack it). */
#define BP_TRACE_UPROBE_MULTI	48

/* Whether this kernel has uprobe_multi links (probed once, said at -v). */
bool bp_uprobe_multi__supported(void);

/*
 * Attaches prog_fd (loaded with expected_attach_type BP_TRACE_UPROBE_MULTI)
 * at offsets[0..cnt) of path, as return probes when retprobe, in the
 * process pid only (compared by its mm: from its exec on) or, pid <= 0,
 * in every process; the program at offsets[i] reads cookies[i] with
 * bpf_get_attach_cookie() (cookies NULL: 0), and the semaphore at file
 * offset ref_ctr_offsets[i] (0: none; the array NULL: none at all) is
 * raised while it is attached. Returns the link fd, or -errno after a
 * message.
 */
int bp_uprobe_multi__attach(int prog_fd, const char *path, const char *file,
			    const uint64_t *offsets,
			    const uint64_t *cookies, const uint64_t *ref_ctr_offsets, size_t cnt,
			    bool retprobe, pid_t pid);

/* loader/attach_perf.c: what both PMUs share */

/* The PMU's type for perf_event_attr (pmu: "uprobe", "kprobe"), or -errno. */
int bp_pmu__type(const char *pmu);
/* The bit of config that makes a return probe. */
int bp_pmu__retprobe_bit(const char *pmu);
/* The first bit of config that holds a uprobe's reference counter offset
 * (an SDT semaphore, Linux 4.20+), or -ENOENT when the PMU has none. */
int bp_pmu__ref_ctr_shift(const char *pmu);
/* Runs prog_fd on the opened probe event perf_fd: through a bpf_link (*link_fd)
 * whose BPF cookie is cookie or, on kernels without perf links,
 * PERF_EVENT_IOC_SET_BPF (*link_fd = -1, no cookie). Returns 0 or -errno;
 * perf_fd stays the caller's. */
int bp_perf_event__run_prog(int perf_fd, int prog_fd, uint64_t cookie, int *link_fd);

/* loader/attach_fentry.c: kernel functions through BPF trampolines */

/* Whether this kernel loads an fentry program for BTF function btf_id:
 * 0, or the -errno it refuses with (no message). */
int bp_fentry__probe(__u32 btf_id);
/* Attaches prog_fd, a tracing program loaded for func, as a bpf_link
 * (*link_fd). Returns 0 or -errno after a message naming func. */
int bp_fentry__attach(int prog_fd, const char *func, int *link_fd);

#endif /* BPFPROBE_ATTACH_PROBE_H */
