/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the output channels (printk, ring buffers, perf buffers, map dump)
 * hand to the emitters, and the emitters themselves: text (text_out.c)
 * and JSON Lines (json_out.c). output.c picks one per bpfprobe_output.
 */
#ifndef BPFPROBE_OUTPUT_H
#define BPFPROBE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

struct btf;

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

struct bp_emitter {
	FILE *out;		/* records */
	FILE *diag;		/* text mode's lost-record notes (stderr) */
	bool json;
	bool quiet_meta;
	struct bp_json *j;	/* json mode */
};

int bp_emitter__init(struct bp_emitter *em, FILE *out, bool json, bool quiet_meta);
void bp_emitter__fini(struct bp_emitter *em);

void bp_emit__printk(struct bp_emitter *em, const struct bp_printk_msg *m);
void bp_emit__record(struct bp_emitter *em, const struct bp_record *r);
void bp_emit__lost(struct bp_emitter *em, const struct bp_lost *l);
/*
 * values: the value, or for a per-CPU map that could not be summed one
 * value per CPU (nvalues > 1).
 */
void bp_emit__map_begin(struct bp_emitter *em, const struct bp_map_head *h);
void bp_emit__map_entry(struct bp_emitter *em, const struct bp_map_head *h,
			const struct bp_typed *key, const struct bp_typed *values, int nvalues);
void bp_emit__map_end(struct bp_emitter *em, const struct bp_map_head *h, size_t nentries);

/* text_out.c */
void bp_text__printk(FILE *f, const struct bp_printk_msg *m, bool quiet_meta);
void bp_text__record(FILE *f, const struct bp_record *r, bool quiet_meta);
void bp_text__lost(FILE *f, const struct bp_lost *l);
void bp_text__map_entry(FILE *f, const struct bp_map_head *h, const struct bp_typed *key,
			const struct bp_typed *values, int nvalues);

/* json_out.c */
void bp_jsonout__printk(struct bp_json *j, const struct bp_printk_msg *m);
void bp_jsonout__record(struct bp_json *j, const struct bp_record *r);
void bp_jsonout__lost(struct bp_json *j, const struct bp_lost *l);
void bp_jsonout__map_begin(struct bp_json *j, const struct bp_map_head *h);
void bp_jsonout__map_entry(struct bp_json *j, const struct bp_typed *key,
			   const struct bp_typed *values, int nvalues);
void bp_jsonout__map_end(struct bp_json *j);

#endif /* BPFPROBE_OUTPUT_H */
