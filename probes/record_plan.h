/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The record ABI: a program written as int prog(void *ctx, struct S *a)
 * receives in a a record the prologue filled, one member per SEC argument
 * (the member of the argument's name), of any number of arguments up to
 * BP_SPEC_MAX_ARGS. The member's type decides what is fetched:
 *   an integer (1, 2, 4 or 8 bytes)   the value, converted as C converts it
 *   char m[N]                         a NUL-terminated string of at most N-1
 *                                     bytes (a char pointer or char array)
 *   another array, a struct, a union  sizeof(m) bytes of the object the
 *                                     argument designates
 * An optional __u64 err member, named by no argument, gets bit i set when
 * argument i (0-based, in SEC order) could not be fetched; that member is
 * then zero. The loader reads the record from the program's BTF
 * (loader/btf_proto.c); the resolvers ask it what each argument's member
 * wants; bp_record__place() puts each point's fetches in it.
 */
#ifndef BPFPROBE_RECORD_PLAN_H
#define BPFPROBE_RECORD_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/diag.h"
#include "probes/point.h"
#include "probes/report.h"
#include "probes/spec.h"

/* Past this a record does not fit in the BPF stack, where it lives. */
#define BP_RECORD_MAX_SIZE	512

struct bp_record_member {
	char *name;
	char *type_name;	/* its C type, for messages: "__u32", "char[64]" */
	uint32_t off;		/* bytes from the record's start */
	uint32_t size;
	uint8_t kind;		/* enum bp_fetch_kind (prologue/plan.h) */
	bool is_signed;		/* an integer */
};

struct bp_record {
	char *type_name;	/* "struct args", for messages */
	uint32_t size;
	struct bp_record_member *members;
	int nmembers;
	int err_member;		/* the __u64 err no argument names; -1: none */
};

void bp_record__free(struct bp_record *r);

/* The member called name, or NULL. */
const struct bp_record_member *bp_record__find(const struct bp_record *r, const char *name);

/* "a, b, c" (at most len bytes): the members' names, for messages. */
void bp_record__member_names(const struct bp_record *r, char *buf, size_t len);

/*
 * The C identifier the member an argument fills is called by
 * (bp_arg_spec__c_name(): req->hdr->len: len, $retval: retval, $arg2:
 * arg2, %di: di); "" when it has none.
 */
void bp_record__arg_name(const struct bp_arg_spec *a, char *buf, size_t len);

/*
 * What the member of arg's name wants (arg->want, want_len). -ENOENT when
 * r has no such member, recorded in d: "WHERE: argument 'X' fills member
 * 'N' of struct S, which has none (members: ...)".
 */
int bp_record__want(const struct bp_record *r, struct bp_arg_spec *arg, const char *where,
		    struct bp_diag *d);

/*
 * After resolving: each fetch of each point lands in its member (rec_off,
 * and how: a value's store size; a string read at a value that is an
 * address), the plan says where the record and its err member are. Every
 * member but err must be filled by an argument of every point. What is
 * wrong is said once, naming where (the program), the member and the
 * point's arguments. 0 or a negative errno.
 */
int bp_record__place(const struct bp_record *r, const char *where, const struct bp_spec *spec,
		     struct bp_point *pts, int n, struct bp_report *rep);

#endif /* BPFPROBE_RECORD_PLAN_H */
