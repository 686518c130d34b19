/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `bpfprobe trace SPEC...`: BPF programs generated from SEC texts, with
 * no C and no compiler. Each SPEC is resolved first without loading
 * (inspect.h), which gives every argument's type; then one program per
 * SPEC is written as a BPF ELF object (instructions, BTF, maps) that the
 * library opens, loads and attaches as it would a compiled one:
 *
 *	int bp_trace_N(void *ctx, struct bp_trace_N_args *a)
 *
 * receives its record through the record ABI (probes/record.h), the
 * members typed after the arguments (an integer of the value's size and
 * sign, a pointer, char[strlen] for NAME:string, __u64 err). Its body
 * reserves a slot of the ring buffer BP_TRACE_MAP_EVENTS, writes a
 * struct bp_trace_hdr (time, pid, comm, the probe point's index read from
 * its attach cookie, the program's index) and a copy of the record after
 * it, and submits it. With count set, the body only adds 1 to the
 * per-CPU counter of its probe point in BP_TRACE_MAP_COUNTS.
 */
#ifndef BPFPROBE_TRACE_H
#define BPFPROBE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>

/* Arguments a SPEC may give: a record's (probes/spec.h BP_SPEC_MAX_ARGS). */
#define BP_TRACE_MAX_ARGS	16
/* SPECs one session takes */
#define BP_TRACE_MAX_SPECS	64
/* Bytes of a NAME:string member, its NUL included, unless told. */
#define BP_TRACE_STRLEN		64
/* The largest string member: the record lives in the 512-byte BPF stack. */
#define BP_TRACE_MAX_STRLEN	448

#define BP_TRACE_MAP_EVENTS	"trace_events"	/* ring buffer of hits */
#define BP_TRACE_MAP_LOST	"trace_lost"	/* per-CPU: hits the full ring dropped */
#define BP_TRACE_MAP_COUNTS	"trace_counts"	/* per-CPU, one per probe point (count) */
#define BP_TRACE_MAP_HIST	"trace_hist"	/* per-CPU, BP_TRACE_HIST_SLOTS per point (hist) */

/*
 * With hist, each probe point's power-of-two histogram of one member:
 * slot 0 counts negative values, 1 zeros, k + 2 the values in
 * [2^k, 2^(k+1)) (k up to 63: an unsigned member's top bit), and the
 * last slot the hits whose value could not be read.
 */
#define BP_TRACE_HIST_VALUES	66
#define BP_TRACE_HIST_SLOTS	(BP_TRACE_HIST_VALUES + 1)

/* What each hit's ring buffer record starts with; the record follows. */
struct bp_trace_hdr {
	__u64 time_ns;		/* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 tid;		/* bpf_get_current_pid_tgid(): the thread */
	__u32 pid;		/* and its process */
	char comm[16];		/* bpf_get_current_comm() */
	__u32 point;		/* the probe point's index: its attach cookie */
	__u32 prog;		/* the program's index: the SPEC's */
};

/* How a member prints. */
enum bp_trace_kind {
	BP_TRACE_SINT,		/* signed integer, decimal */
	BP_TRACE_UINT,		/* unsigned integer, decimal */
	BP_TRACE_PTR,		/* an address (a pointer type), hex */
	BP_TRACE_HEX,		/* an integer cast with :xNN, hex */
	BP_TRACE_STR,		/* NAME:string: char[size], quoted */
	BP_TRACE_STACK,		/* $ustack, $kstack: a stack id, its frames under the line */
};

/* One argument's member of a program's record. */
struct bp_trace_member {
	char name[64];		/* the member's: NAME= or the expression's last name */
	char type[32];		/* its C type, for -v: "int", "char[64]" */
	uint8_t kind;		/* enum bp_trace_kind */
	uint8_t arg;		/* the argument's index: its bit in err */
	uint16_t off;
	uint16_t size;
};

/* A probe point as resolved, with its name in the lines (POINT). */
struct bp_trace_point {
	char *label;		/* "func", "func%return", "func+0x10", "f.c:42", "func@0xADDR" */
	char *binary;
	uint64_t offset;	/* file offset (uprobes); the kernel's offset */
	uint64_t addr;
	bool is_return;
};

/* One SPEC's program. */
struct bp_trace_prog {
	char *sec;		/* the SPEC: the program's SEC text */
	char name[24];		/* "bp_trace_N" */
	struct bp_trace_member members[BP_TRACE_MAX_ARGS];
	int nmembers;
	int err_off;		/* the __u64 err member's offset; -1: none */
	uint32_t rec_size;	/* the record's size, a multiple of 8 */
	struct bp_trace_point *points;
	int npoints;
	int hist_member;	/* the member hist names; -1: none */
};

struct bp_trace {
	struct bp_trace_prog *progs;
	int nprogs;
	bool count;
	char *hist;		/* the member whose histogram is kept, or NULL */
	bool folded;		/* count the stacks, print them folded at exit */
	unsigned int strlen;
	uint32_t ring_size;	/* bytes of BP_TRACE_MAP_EVENTS */
	uint32_t npoints;	/* over every program: BP_TRACE_MAP_COUNTS's entries */
};

struct bp_trace_opts {
	size_t sz;		/* sizeof(struct bp_trace_opts) */
	bool count;		/* count hits per point instead of recording them */
	const char *hist;	/* a histogram per point of this member instead */
	bool ustack;		/* each hit's user stack ($ustack) */
	bool kstack;		/* each hit's kernel stack ($kstack) */
	bool folded;		/* the stacks counted, not a line per hit */
	unsigned int strlen;	/* bytes of a string member; 0: BP_TRACE_STRLEN */
	uint32_t ring_size;	/* bytes of the ring buffer, a power of 2; 0: 4 MiB */
	const char *vmlinux;	/* kernel DWARF (bpfprobe_open_opts) */
	bool no_cache;
};

/*
 * Resolves each SPEC without loading anything and decides its program's
 * record (trace_types.c). What is wrong (a SPEC that does not parse or
 * resolve, an argument that is a struct, two arguments of one name) is
 * said once on stderr, naming the SPEC. 0 or a negative errno; *out is
 * freed with bp_trace__free() either way.
 */
int bp_trace__new(const char *const *specs, int n, const struct bp_trace_opts *opts,
		  struct bp_trace **out);
void bp_trace__free(struct bp_trace *t);

/* Program i's record as C, for -v ("struct bp_trace_0_args { ... };"). */
void bp_trace__print_record(const struct bp_trace *t, int i, FILE *f);

/*
 * Writes the BPF ELF object of t's programs to fd (trace_elf.c): 0 or a
 * negative errno after a message.
 */
int bp_trace__write_object(const struct bp_trace *t, int fd);

#endif /* BPFPROBE_TRACE_H */
