/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Typed records: walks a value by its BTF type and hands the pieces
 * (struct members by name, array elements, scalars) to a value sink,
 * which text_out.c and json_out.c implement. Also the convention by which
 * a program names the record type of a ring buffer or perf buffer map:
 *
 *	struct event *__bpfprobe_record_<map name>;
 *
 * a global variable whose (pointed-to) type is the record type. Ring
 * buffer and perf event array maps cannot carry a value type themselves
 * (the kernel wants value_size 0 and 4), so the type rides on a variable
 * that is never used: clang keeps its BTF, libbpf puts it in .bss.
 */
#ifndef BPFPROBE_BTF_RECORD_H
#define BPFPROBE_BTF_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "output/record.h"

#define BP_RECORD_VAR_PREFIX "__bpfprobe_record_"

struct bp_value_sink;

struct bp_value_sink_ops {
	void (*open)(struct bp_value_sink *s, bool array);
	void (*close)(struct bp_value_sink *s, bool array);
	void (*member)(struct bp_value_sink *s, const char *name);	/* before its value */
	void (*sint)(struct bp_value_sink *s, long long v);
	void (*uint)(struct bp_value_sink *s, unsigned long long v);
	void (*ptr)(struct bp_value_sink *s, unsigned long long v);
	void (*real)(struct bp_value_sink *s, double v);
	void (*boolean)(struct bp_value_sink *s, bool v);
	void (*str)(struct bp_value_sink *s, const char *p, size_t len);
	void (*enumerator)(struct bp_value_sink *s, const char *name);
	void (*bytes)(struct bp_value_sink *s, const void *p, size_t len);
	/* a bpfprobe_stack_t, when the value has stacks to look it up in */
	void (*stack)(struct bp_value_sink *s, unsigned long long id);
};

struct bp_value_sink {
	const struct bp_value_sink_ops *ops;
	struct bp_stacks *stacks;	/* the value's (bp_typed.stacks) */
};

/* The type a program gives stack ids (bpfprobe/bpf.h). */
#define BP_STACK_TYPE_NAME "bpfprobe_stack_t"

struct btf;
/* Whether type id is BP_STACK_TYPE_NAME (through qualifiers, typedefs). */
bool bp_btf__is_stack(const struct btf *btf, __u32 id);

/*
 * Writes v through s: by its BTF type when it has one and the data covers
 * it (extra trailing bytes are ignored: perf pads records to 8 bytes),
 * else as bytes.
 */
void bp_btf_value__write(const struct bp_typed *v, struct bp_value_sink *s);

/* Whether v would be written by type (not as bytes). */
bool bp_btf_value__typed(const struct bp_typed *v);

/* The record type named for map_name by the convention above, or 0. */
__u32 bp_btf_record__type(const struct btf *btf, const char *map_name);

struct bpf_object;

/*
 * The record ABI's struct (int prog(void *ctx, struct S *a)): what the one
 * ring buffer or perf event array of obj that names no record type
 * carries, by default, when every such program receives the same S
 * (bpf_ringbuf_output(a, sizeof(*a), 0)). 0 otherwise.
 */
__u32 bp_btf_record__abi_type(const struct bpf_object *obj);

/*
 * Sums ncpu per-CPU copies of a value (copy i at percpu + i * stride) into
 * out (size bytes): integers and floats member by member. Returns 0, or
 * -EOPNOTSUPP when the type holds something that does not add up
 * (pointers, unions, bitfields, enums, chars) and nothing was written.
 */
int bp_btf_value__sum(const struct btf *btf, __u32 type_id, const void *percpu, int ncpu,
		      size_t stride, void *out, size_t size);

#endif /* BPFPROBE_BTF_RECORD_H */
