// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What the library tells its users about an object: counts, programs,
 * probe points and instances. Each info struct is filled only as far as the
 * caller's sz reaches, so older callers keep working.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpfprobe/bpfprobe.h>
#include "loader/object.h"
#include "prologue/follow_progs.h"
#include "util/pidns.h"
#include "util/opts.h"

#define FILL(info, full) \
	memcpy((info), &(full), (info)->sz < sizeof(full) ? (info)->sz : sizeof(full))

struct bpf_object *bpfprobe_object__bpf_object(const struct bpfprobe_object *obj)
{
	return obj ? obj->obj : NULL;
}

int bpfprobe_object__stack_fds(const struct bpfprobe_object *obj, int *samples_fd,
			       int *kstacks_fd)
{
	if (!obj || !obj->loaded)
		return bp_api_err(-EINVAL);
	if (samples_fd)
		*samples_fd = obj->stack_samples_fd;
	if (kstacks_fd)
		*kstacks_fd = obj->stack_map_fd;
	return 0;
}

size_t bpfprobe_object__program_cnt(const struct bpfprobe_object *obj)
{
	return obj ? obj->nprogs : 0;
}

size_t bpfprobe_object__point_cnt(const struct bpfprobe_object *obj)
{
	return obj ? obj->naps : 0;
}

size_t bpfprobe_object__instance_cnt(const struct bpfprobe_object *obj)
{
	return obj ? obj->ninsts : 0;
}

static int object_point_info(const struct bpfprobe_object *obj, size_t i,
			     struct bpfprobe_point_info *info)
{
	const struct bp_attach_point *ap;

	if (!obj || !info || i >= (size_t)obj->naps)
		return -ENOENT;
	ap = &obj->aps[i];
	struct bpfprobe_point_info full = {
		.sz = info->sz,
		.program = ap->owner->name,
		.sec = ap->owner->sec,
		.binary = ap->point->binary,
		.func = ap->point->func,
		.addr = ap->point->addr,
		.offset = ap->point->offset,
		.is_return = ap->point->is_return,
		.instance = ap->instance,
		.prog_fd = obj->insts[ap->instance].fd,
	};
	FILL(info, full);
	return 0;
}

static int object_program_info(const struct bpfprobe_object *obj, size_t i,
			       struct bpfprobe_program_info *info)
{
	const struct bp_program *p;

	if (!obj || !info || i >= (size_t)obj->nprogs)
		return -ENOENT;
	p = &obj->progs[i];
	struct bpfprobe_program_info full = {
		.sz = info->sz,
		.name = p->name,
		.sec = p->sec,
		.kernel = !p->spec.exec,
		.arg_cnt = p->npoints ? p->points[0].plan.nargs : p->spec.nargs,
		.point_cnt = p->npoints,
	};
	FILL(info, full);
	return 0;
}

static int object_instance_info(const struct bpfprobe_object *obj, size_t i,
				struct bpfprobe_instance_info *info)
{
	const struct bp_instance *inst;

	if (!obj || !info || i >= (size_t)obj->ninsts)
		return -ENOENT;
	inst = &obj->insts[i];
	struct bpfprobe_instance_info full = {
		.sz = info->sz,
		.name = inst->name,
		.program = inst->owner->name,
		.prog_fd = inst->fd,
		.prologue_len = inst->prologue_len,
		.arg_cnt = inst->plan.nargs,
	};
	for (int k = 0; k < inst->plan.nargs && k < 3; k++)
		full.arg_plan[k] = inst->plan_text[k];
	FILL(info, full);
	return 0;
}

int bpfprobe_object__point_info(const struct bpfprobe_object *obj, size_t i,
				struct bpfprobe_point_info *info)
{
	return bp_api_err(object_point_info(obj, i, info));
}

int bpfprobe_object__program_info(const struct bpfprobe_object *obj, size_t i,
				  struct bpfprobe_program_info *info)
{
	return bp_api_err(object_program_info(obj, i, info));
}

int bpfprobe_object__instance_info(const struct bpfprobe_object *obj, size_t i,
				   struct bpfprobe_instance_info *info)
{
	return bp_api_err(object_instance_info(obj, i, info));
}

static int object_program_stats(const struct bpfprobe_object *obj, size_t i,
				struct bpfprobe_program_stats *stats)
{
	struct bpfprobe_program_stats full = {};

	if (!obj || !stats || !obj->loaded)
		return -EINVAL;
	if (i >= (size_t)obj->nprogs)
		return -ENOENT;
	full.sz = stats->sz;
	for (int k = 0; k < obj->ninsts; k++) {
		uint64_t refused;
		bool ran;
		int err;

		if (obj->insts[k].owner != &obj->progs[i])
			continue;
		err = bp_follow__hits(&obj->follow, k, &ran, &refused);
		if (err)
			return err;
		full.ran |= ran;
		full.refused += refused;
	}
	FILL(stats, full);
	return 0;
}

int bpfprobe_object__program_stats(const struct bpfprobe_object *obj, size_t i,
				   struct bpfprobe_program_stats *stats)
{
	return bp_api_err(object_program_stats(obj, i, stats));
}

int bpfprobe_object__follow_stats(const struct bpfprobe_object *obj,
				  struct bpfprobe_follow_stats *stats)
{
	struct bpfprobe_follow_stats full = {};

	if (!obj || !stats || !obj->loaded)
		return bp_api_err(-EINVAL);
	full.sz = stats->sz;
	full.joined = bp_follow__stat(&obj->follow, BP_FOLLOW_STAT_FORKS);
	full.missed = bp_follow__stat(&obj->follow, BP_FOLLOW_STAT_FULL);
	FILL(stats, full);
	return 0;
}

int bpfprobe_object__for_each_followed_exec(const struct bpfprobe_object *obj,
					    int (*cb)(const char *comm, void *ctx), void *ctx)
{
	if (!obj || !cb)
		return bp_api_err(-EINVAL);
	return bp_follow__for_each_exec(&obj->follow, cb, ctx);
}

pid_t bpfprobe_pid__global(void)
{
	if (bp_pidns__is_initial())
		return getpid();
	return bp_api_err(bp_pidns__self_global());
}
