/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the output channels read and hand on to be printed: a
 * bpf_trace_printk line (printk_raw.c), a record of a ring buffer or perf
 * buffer map (ringbuf.c, perfbuf.c), a count of lost records, and a map
 * dumped at exit with its typed keys and values (map_dump.c). Plain data:
 * the channels fill them in, the emitter (emitter.h) prints them.
 */
#ifndef BPFPROBE_RECORD_H
#define BPFPROBE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct btf;
struct bp_stacks;

/* One bpf_trace_printk line. msg is not NUL-terminated; no trailing '\n'. */
struct bp_printk_msg {
	__u64 ts_ns;		/* trace clock "mono": CLOCK_MONOTONIC */
	int cpu;
	int pid;		/* the thread that ran the program */
	const char *comm;
	const char *msg;
	size_t len;
};

/* A value with its BTF type; type_id 0 (or no btf) means raw bytes. */
struct bp_typed {
	const struct btf *btf;
	__u32 type_id;
	const void *data;
	size_t size;
	/* where its bpfprobe_stack_t ids are unwound (stack_cache.h);
	 * NULL: printed as numbers */
	struct bp_stacks *stacks;
};

/* One record from a ring buffer or perf buffer map. */
struct bp_record {
	const char *map;
	int cpu;		/* perf buffers; -1 for ring buffers */
	bool text;		/* perf's __bpf_stdout__: a string, not a struct */
	struct bp_typed val;
};

/* Records the kernel could not deliver. */
struct bp_lost {
	const char *source;	/* map name, or "printk" */
	int cpu;
	__u64 count;		/* 0: some, the kernel did not say how many */
};

/* One map at exit: entries follow through bp_emit__map_entry. */
struct bp_map_head {
	const char *name;
	const char *kind;	/* "hash", "array", "percpu_hash", ... */
	bool percpu;
};

#endif /* BPFPROBE_RECORD_H */
