// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Where the record ABI's record lives: on the BPF stack, below everything
 * the program's body and the prologue use (prologue/record_gen.c says
 * why). How much the body uses only the verifier knows: the prototype is
 * loaded with r2 pointing at an array of one record (a value the body can
 * be verified with, never run) and a log of the verifier's statistics,
 * whose "stack depth D+S1+S2" line gives the depth of the main program and
 * of each subprogram. libbpf writes each program's log into the object's
 * buffer and the next load overwrites it, so a record program's log is
 * read when the next program is prepared, or when the object's load ends.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "loader/object.h"
#include "prologue/prologue.h"
#include "util/log.h"

/* The BPF stack, in all (the kernel's MAX_BPF_STACK). */
#define BPF_STACK	512

int bp_record_stack__prepare(struct bpfprobe_object *obj)
{
	for (int i = 0; i < obj->nprogs; i++) {
		struct bp_program *p = &obj->progs[i];
		__u32 size = (p->record.size + 7) & ~7U;
		int fd, err;

		if (!p->record_abi)
			continue;
		fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bpfprobe_rec", 4, size ? size : 8, 1,
				    NULL);
		if (fd < 0) {
			err = -errno;
			bp_err("program '%s': cannot create the map its prototype is verified with: %s\n",
			       p->name, strerror(-err));
			return err;
		}
		p->record_map_fd = fd;
		p->stack_depth = -1;
		/* the verifier's statistics (BPF_LOG_STATS), and on a failure
		 * its reason; the log is the object's (loader/object.c) */
		err = bpf_program__set_log_level(p->prog, 4);
		if (err)
			return err;
	}
	return 0;
}

void bp_record_stack__expect(struct bpfprobe_object *obj, struct bp_program *p)
{
	obj->stack_pending = p;
}

void bp_record_stack__note(struct bpfprobe_object *obj)
{
	struct bp_program *p = obj ? obj->stack_pending : NULL;
	const char *s;
	char *end;
	long v;

	if (!p)
		return;
	obj->stack_pending = NULL;
	s = obj->kernel_log ? strstr(obj->kernel_log, "stack depth ") : NULL;
	if (!s)
		return;
	s += strlen("stack depth ");
	v = strtol(s, &end, 10);
	if (end == s || v < 0 || v > BPF_STACK)
		return;
	p->stack_depth = (int)v;
	p->subprog_stack = 0;
	while (*end == '+') {
		s = end + 1;
		v = strtol(s, &end, 10);
		if (end == s || v < 0 || v > BPF_STACK)
			break;
		p->subprog_stack += (int)v;
	}
	bp_debug("program '%s': the verifier saw a stack of %d bytes (subprograms %d)\n", p->name,
		 p->stack_depth, p->subprog_stack);
}

int bp_record_stack__offset(const struct bp_program *p, const struct bp_plan *plan, int *rec_off)
{
	int below = p->stack_depth, size = (int)((plan->rec_size + 7) & ~7U);

	if (p->stack_depth < 0) {
		bp_err("program '%s': the verifier did not say how much stack it uses, so its record has no place\n",
		       p->name);
		return -EINVAL;
	}
	if (below < bp_prologue__stack_use(plan))
		below = bp_prologue__stack_use(plan);
	below = (below + 7) & ~7;
	if (below + size + p->subprog_stack > BPF_STACK) {
		char subs[64] = "";

		if (p->subprog_stack)
			snprintf(subs, sizeof(subs), " (and its subprograms %d)", p->subprog_stack);
		bp_err("program '%s': its record (%s, %u bytes) does not fit in the BPF stack: %d bytes in all, of which the program uses %d%s and its prologue %d\n",
		       p->name, p->record.type_name, plan->rec_size, BPF_STACK, p->stack_depth,
		       subs, bp_prologue__stack_use(plan));
		return -E2BIG;
	}
	*rec_off = -(below + size);
	return 0;
}

void bp_record_stack__close(struct bpfprobe_object *obj)
{
	for (int i = 0; i < obj->nprogs; i++) {
		if (obj->progs[i].record_map_fd >= 0)
			close(obj->progs[i].record_map_fd);
		obj->progs[i].record_map_fd = -1;
	}
}
