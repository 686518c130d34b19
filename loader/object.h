/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The library's object: annotated programs, their probe points and instances. */
#ifndef BPFPROBE_OBJECT_H
#define BPFPROBE_OBJECT_H

#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "loader/exec_watch.h"
#include "loader/follow.h"
#include "prologue/guard.h"
#include "prologue/plan.h"
#include "probes/binary_hold.h"
#include "probes/record_plan.h"
#include "probes/resolve.h"
#include "probes/spec.h"

/* What the prototype load told us, kept to load the instances alike. */
struct bp_load_info {
	int prog_btf_fd;
	__u32 kern_version;
	__u32 prog_flags;
	enum bpf_attach_type expected_attach_type;
	void *func_info;		/* copies, already shifted for the preamble */
	__u32 func_info_cnt;
	__u32 func_info_rec_size;
	void *line_info;
	__u32 line_info_cnt;
	__u32 line_info_rec_size;
	bool captured;
};

struct bp_program {
	struct bpf_program *prog;
	const char *name;
	const char *sec;
	struct bp_spec spec;
	struct bp_point *points;
	int npoints;
	struct bp_load_info info;
	/* r1..r5 its BTF prototype does not declare (BP_UNREAD_PARAMS) */
	uint8_t proto_unread;
	/* and those its final body never reads either: what its prologues
	 * need not set (bp_instances__set_body) */
	uint8_t unread;
	/*
	 * The record ABI (probes/record_plan.h): the record it receives, read from
	 * its BTF; the array of one record its prototype is loaded with;
	 * what the prototype load's verifier said of its stack: the main
	 * program's depth, and its subprograms' depths added up.
	 */
	bool record_abi;
	struct bp_record record;
	int record_map_fd;
	int stack_depth;
	int subprog_stack;
	/* instructions before its body at the prototype load */
	int preamble_len;
};

/* Keyed by plan and unread: the prologue is generated from both. */
struct bp_instance {
	struct bp_program *owner;
	struct bp_plan plan;
	uint8_t unread;
	int fd;
	int guard_len;		/* the guard's instructions, before the prologue */
	bool follow_check;	/* loaded with the followed-set check (follow.h) */
	int prologue_len;
	char name[BPF_OBJ_NAME_LEN];
	/* the plan, readable, for the library's instance info */
	char plan_text[BP_MAX_ARGS][160];
	/* checked before the prologue (a map-tracing point's map id) */
	struct bp_guards guards;
	/* fentry: loaded as a tracing program for this BTF function */
	__u32 attach_btf_id;
};

/* One probe point of one program, flattened. */
struct bp_attach_point {
	struct bp_program *owner;
	struct bp_point *point;
	int instance;
	int perf_fd;
	int link_fd;
	/* attached through the uprobe_multi link of point multi_of (which
	 * holds it, in link_fd), not a link of its own; -1: not */
	int multi_of;
};

/* Closes the points' links and events, overlapping the kernel's waits
 * (detach_points.c); leaves their fds at -1. */
void bp_attach_points__close(struct bp_attach_point *aps, int n);

struct bpfprobe_object;
/* Attaches every uprobe point of obj through uprobe_multi links, in the
 * process pid only (from its exec on) or, pid <= 0, in every process
 * (attach_multi_points.c). Returns 0 or -errno after a message. */
int bp_attach_points__uprobe_multi(struct bpfprobe_object *obj, pid_t pid);

struct bpfprobe_object {
	char *path;
	struct bpf_object *obj;
	char *license;
	char *vmlinux;		/* open opts: kernel DWARF to use */
	char *source;		/* open opts: what the object was compiled from */
	bool no_cache;		/* open opts: no DWARF index (probes/binary/index.h) */
	pid_t view_pid;		/* open opts: exec= as this process sees it; 0: ours */
	char *kernel_log;	/* libbpf's loads' verifier log, until the load ends */
	struct bp_program *progs;
	int nprogs;
	struct bp_instance *insts;
	int ninsts;
	struct bp_attach_point *aps;
	int naps;
	struct bpf_link **std_links;	/* standard libbpf sections, auto-attached */
	int nstd_links;
	struct bp_follow follow;	/* the followed set, the guards' counts */
	struct bp_exec_watch watch;	/* what followed processes exec (exec_watch.h) */
	/* open opts: load the uprobe instances with the followed-set check,
	 * as attach with follow wants them (else it loads them again) */
	bool follow_form;
	bool loaded;
	bool attached;		/* until bpfprobe_object__detach() */
	/* uprobes go through uprobe_multi links (decided at load: their
	 * programs are loaded for it), else one perf event per point */
	bool uprobe_multi;
	/* entry values' map and companion probes (entry_values.h) */
	struct bp_entry_values *entry;
	/* the record program whose prototype load's log is the one in
	 * kernel_log (record_stack.c) */
	struct bp_program *stack_pending;
	/* $ustack's samples and $kstack's stacks (stack_maps.h); -1: none */
	int stack_samples_fd;
	int stack_map_fd;
	/* the user-space binaries resolved, held open until destroy */
	struct bp_binary_holds holds;
};

/*
 * loader/attach_binaries.c: before any uprobe, every binary a uprobe point
 * names is still the file it was resolved in (0, or -ESTALE after a
 * message naming it and what changed); what to attach a point of binary
 * to: the held file's /proc/self/fd/N.
 */
int bp_attach_binaries__check(const struct bpfprobe_object *obj);
const char *bp_attach_binaries__path(const struct bpfprobe_object *obj, const char *binary);

/* loader/object.c: resolves every program (prototype check, probe points,
 * plans), logging them at -v; shared by load and `bpfprobe resolve`. */
int bp_object__resolve_programs(struct bpfprobe_object *obj);

/*
 * loader/prog_handler.c: libbpf's fallback section handler is process-wide;
 * its state (the programs it claimed, the object being loaded) is guarded
 * by one lock, held across bpf_object__open_file() and bpf_object__load()
 * of an object with annotations, so several threads may open and load
 * objects of their own at once.
 */
void bp_handler__lock(void);
void bp_handler__unlock(void);
int bp_handler__register(void);
bool bp_handler__claimed(const struct bpf_program *prog);
void bp_handler__forget(const struct bpf_program *prog);
void bp_handler__set_loading(struct bpfprobe_object *obj);

/* loader/elf_check.c */
int bp_elf__check_bpf(const char *path, char **license);

/* loader/btf_check.c: whether an object's .BTF (data, size bytes) is safe
 * for libbpf to read. 0, or -ENOEXEC after a message naming path. */
int bp_btf__check_raw(const void *data, size_t size, const char *path);

/* loader/btf_proto.c: the program's ABI from its prototype, checked
 * against its SEC; the register ABI's limits apply without BTF too */
int bp_btf__check_prototype(const struct bpf_object *obj, struct bp_program *p);

/* loader/record_abi.c: whether proto is int prog(void *ctx, struct S *a)
 * (*struct_id: S), and the record read from S, set in p's spec, with
 * what each SEC argument's member wants. */
struct btf;
struct btf_type;
bool bp_record_abi__detect(const struct btf *btf, const struct btf_type *proto, __u32 *struct_id);
int bp_record_abi__setup(const struct btf *btf, __u32 struct_id, struct bp_program *p);

/* loader/instance.c */
int bp_instances__build(struct bpfprobe_object *obj);
void bp_instances__set_body(struct bpfprobe_object *obj, struct bp_program *p,
			    const struct bpf_insn *body, size_t cnt);
int bp_instance__load(struct bpfprobe_object *obj, struct bp_instance *inst);
/* Loads again the uprobe instances whose form is not follow's (with the
 * followed-set check, or without), each replacing its fd; before attach.
 * 0, or a negative errno after a message (the old instances stay). */
int bp_instances__set_follow(struct bpfprobe_object *obj, bool follow);
void bp_instances__close(struct bpfprobe_object *obj);

/*
 * loader/record_stack.c: the record ABI's place on the stack. Before the
 * prototype load: each record program's array of one record and a
 * verifier log of its statistics (0, or a negative errno after a
 * message). During it: the stack depth the verifier saw, read from the
 * log of the program expected, when the next is prepared and after the
 * load. For an instance: where its record goes (0, or -E2BIG after a
 * message naming the sizes and the limit).
 */
int bp_record_stack__prepare(struct bpfprobe_object *obj);
void bp_record_stack__expect(struct bpfprobe_object *obj, struct bp_program *p);
void bp_record_stack__note(struct bpfprobe_object *obj);
int bp_record_stack__offset(const struct bp_program *p, const struct bp_plan *plan, int *rec_off);
void bp_record_stack__close(struct bpfprobe_object *obj);

/* loader/load_info.c */
/* opts' func/line info, shifted past a preamble of preamble_len insns */
int bp_load_info__capture(struct bp_load_info *info, const struct bpf_prog_load_opts *opts,
			  int preamble_len);
int bp_load_info__shifted(const struct bp_load_info *info, int shift,
			  void **func_info, void **line_info);
void bp_load_info__free(struct bp_load_info *info);

#endif /* BPFPROBE_OBJECT_H */
