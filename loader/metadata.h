/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What bpfprobe loaded, told to `bpfprobe list`: every program bpfprobe
 * loads gets a one-entry BPF array map named "bpfprobe_meta", bound to it
 * with BPF_PROG_BIND_MAP. The map lives exactly as long as the program
 * (pinned or not), and any reader finds it among the program's map ids.
 *
 * Its value is text:
 *	bpfprobe-meta 1\n
 *	key=value\n ...
 * Keys are [a-z_]+ and may repeat (arg); in values '\' and newline are
 * escaped as \\ and \n. Keys written: object, program, instance, sec, arg,
 * loader_pid, pid (the pid filter, -1 for none, set at attach), pin;
 * seen_as, seen_by and binary when exec= was looked up as another process
 * sees it (its path there, that process, ours); copy (one per copy of the
 * binary attached while running, copies=yes); for
 * map tracing map_id, map_name, map_type, map_op, map_func (loader/map_trace.h).
 */
#ifndef BPFPROBE_METADATA_H
#define BPFPROBE_METADATA_H

#include <stdbool.h>
#include <stddef.h>

#define BP_META_MAP_NAME	"bpfprobe_meta"
#define BP_META_MAGIC		"bpfprobe-meta 1\n"
#define BP_META_VALUE_SIZE	4096
#define BP_META_MAX_KEYS	32

struct bp_meta {
	int n;
	char *key[BP_META_MAX_KEYS];
	char *val[BP_META_MAX_KEYS];
};

/* Appends key=val. Returns 0, -E2BIG (too many keys) or -ENOMEM. */
int bp_meta__add(struct bp_meta *m, const char *key, const char *val);

struct bp_point;
/* The keys of a map-tracing program (points tracing a map): map_id,
 * map_name, map_type, map_op and one map_func per point ("fentry:FUNC" or
 * "kprobe:FUNC"). Nothing for points that trace no map. */
int bp_meta__add_map_trace(struct bp_meta *m, const struct bp_point *points, int npoints,
			   const char *op);
/* Replaces the first key=..., or appends it. */
int bp_meta__set(struct bp_meta *m, const char *key, const char *val);
/* The nth (0-based) value of key, or NULL. */
const char *bp_meta__get(const struct bp_meta *m, const char *key, int nth);
void bp_meta__free(struct bp_meta *m);

/* Writes the text form into buf (NUL-terminated). Returns its length,
 * -E2BIG when it does not fit, -EINVAL for a bad key. */
int bp_meta__format(const struct bp_meta *m, char *buf, size_t len);
/* Parses len bytes (stops at a NUL). -EINVAL when it is not our format. */
int bp_meta__parse(const char *buf, size_t len, struct bp_meta *m);

/* The bound metadata map of a program: a new fd, or -ENOENT. */
int bp_meta__find_map(int prog_fd);
/* Reads and parses the value of a metadata map. */
int bp_meta__read_map(int map_fd, struct bp_meta *m);
/* Creates the map holding m and binds it to prog_fd. */
int bp_meta__bind(int prog_fd, const struct bp_meta *m);

struct bpfprobe_object;

/* Binds metadata to every instance and standard program of a loaded
 * object. Failures (kernels before 5.10) only lose the listing's extras. */
void bp_meta__bind_object(struct bpfprobe_object *obj);
struct bp_instance;
/* The same for one instance loaded again (a new fd). */
void bp_meta__bind_instance(struct bpfprobe_object *obj, const struct bp_instance *inst);
/* Sets key=val in the metadata of every program instance of the object
 * and, unless instances_only, of its standard libbpf programs too. */
void bp_meta__update_object(struct bpfprobe_object *obj, const char *key, const char *val,
			    bool instances_only);

/* Appends key=val to the metadata of the object's program instance i. */
void bp_meta__add_instance(struct bpfprobe_object *obj, int i, const char *key, const char *val);

#endif /* BPFPROBE_METADATA_H */
