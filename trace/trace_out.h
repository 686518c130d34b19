/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What `bpfprobe trace` prints (trace_out.c): a line per hit read from the
 * generated object's ring buffer,
 *
 *	TIME COMM PID POINT name=value ...
 *
 * (TIME local HH:MM:SS.uuuuuu; integers in decimal, pointers and :xNN
 * casts in hex, strings quoted with \" \\ \n \t and \xNN for other
 * control bytes and bytes that are not UTF-8; a value that could not be
 * read is (fault)), or with json one JSON object per hit:
 *
 *	{"time": "2026-12-05T10:00:00.000001Z", "time_ns": MONO, "comm": "app",
 *	 "pid": 1, "tid": 1, "point": "func", "args": {"name": value, ...}}
 *
 * (numbers as numbers, pointers and casts as "0x..." strings, strings as
 * JSON strings with bytes that are not UTF-8 as U+FFFD, a value that
 * could not be read as null). With count, the counts per probe point at
 * the end instead: "POINT COUNT" lines, or {"point": P, "count": N}.
 *
 * Lines are written whole: a write holds whole lines and at most
 * PIPE_BUF bytes when it can, so a pipe shared with the workload never
 * gets a line cut by one of its own. The programs wake the reader only
 * when a quarter of the ring waits (trace_insns.c): each poll reads the
 * ring whether woken or not.
 */
#ifndef BPFPROBE_TRACE_OUT_H
#define BPFPROBE_TRACE_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include "trace/trace.h"

struct bpfprobe_object;
struct bp_trace_out;

struct bp_trace_out_opts {
	size_t sz;		/* sizeof(struct bp_trace_out_opts) */
	int fd;			/* where lines go */
	bool json;
};

/*
 * For t's object obj, loaded (its point indexes, its maps). Returns 0 or a
 * negative errno after a message; *out is freed with bp_trace_out__free().
 */
int bp_trace_out__new(const struct bp_trace *t, struct bpfprobe_object *obj,
		      const struct bp_trace_out_opts *opts, struct bp_trace_out **out);
/* Waits up to timeout_ms for a wakeup, then prints every hit waiting.
 * Returns how many, or a negative errno (-EINTR: a signal; once a write
 * failed, bp_trace_out__write_error()'s). */
int bp_trace_out__poll(struct bp_trace_out *o, int timeout_ms);
/* An fd readable when records wait (epoll), or -1 (nothing to read: -c). */
int bp_trace_out__fd(const struct bp_trace_out *o);
/* The first write that failed (-EPIPE, -ENOSPC, ...), or 0; from then on
 * nothing is written, and lines are counted: bp_trace_out__unwritten(). */
int bp_trace_out__write_error(const struct bp_trace_out *o);
uint64_t bp_trace_out__unwritten(const struct bp_trace_out *o);
/* Prints what is left; with count, the counts. Says on stderr how many hits
 * the full ring buffer dropped, if any. 0 or a negative errno (a write failed). */
int bp_trace_out__finish(struct bp_trace_out *o);
void bp_trace_out__free(struct bp_trace_out *o);

#endif /* BPFPROBE_TRACE_OUT_H */
