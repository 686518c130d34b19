// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The maps stack fetches write (stack_maps.h). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "loader/object.h"
#include "loader/stack_maps.h"
#include "util/log.h"
#include "util/stack_sample.h"

/* Samples of about 8 KiB each: room for some thousand before the
 * reader drains them. */
#define SAMPLES_BYTES	(16u << 20)
/* Distinct kernel stacks, of at most 127 frames (perf_event_max_stack). */
#define KSTACKS		16384
#define KSTACK_DEPTH	127

static bool needs(const struct bpfprobe_object *obj, int kind)
{
	for (int i = 0; i < obj->ninsts; i++)
		for (int k = 0; k < obj->insts[i].plan.nargs; k++)
			if (obj->insts[i].plan.args[k].kind == kind)
				return true;
	return false;
}

int bp_stack_maps__create(struct bpfprobe_object *obj)
{
	int fd, err;

	if (needs(obj, BP_FETCH_USTACK)) {
		fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "bp_ustacks", 0, 0, SAMPLES_BYTES, NULL);
		if (fd < 0) {
			err = -errno;
			bp_err("cannot create the ring buffer of $ustack's samples: %s\n",
			       strerror(-err));
			return err;
		}
		obj->stack_samples_fd = fd;
	}
	if (needs(obj, BP_FETCH_KSTACK)) {
		fd = bpf_map_create(BPF_MAP_TYPE_STACK_TRACE, "bp_kstacks", 4, 8 * KSTACK_DEPTH,
				    KSTACKS, NULL);
		if (fd < 0) {
			err = -errno;
			bp_err("cannot create the stack map of $kstack: %s\n", strerror(-err));
			return err;
		}
		obj->stack_map_fd = fd;
	}
	return 0;
}

void bp_stack_maps__close(struct bpfprobe_object *obj)
{
	if (obj->stack_samples_fd >= 0)
		close(obj->stack_samples_fd);
	if (obj->stack_map_fd >= 0)
		close(obj->stack_map_fd);
	obj->stack_samples_fd = obj->stack_map_fd = -1;
}
