// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * An object's uprobe points through uprobe_multi links: the points of one
 * instance in one binary, all entries or all returns, share one link
 * (attach_uprobe_multi.c), which the first of them holds; the others
 * point at it (bp_attach_point.multi_of). A thousand points of a glob are
 * then one system call to attach and one close to detach.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/attach_probe.h"
#include "loader/object.h"
#include "util/log.h"
#include "util/stop.h"

static bool is_uprobe(const struct bp_attach_point *ap)
{
	return !ap->point->kernel;
}

/* Points i and j go through one link. */
static bool same_group(const struct bp_attach_point *a, const struct bp_attach_point *b)
{
	return a->instance == b->instance && a->point->is_return == b->point->is_return &&
	       !strcmp(a->point->binary, b->point->binary);
}

/* One link for the group point first starts; the file offsets of its
 * members are in offs, their cookies (their indexes) in cookies, their
 * SDT semaphores in refs (room for n each). */
static int attach_group(struct bpfprobe_object *obj, int first, pid_t pid, uint64_t *offs,
			uint64_t *cookies, uint64_t *refs)
{
	struct bp_attach_point *head = &obj->aps[first];
	bool semaphores = false;
	size_t cnt = 0;
	int fd;

	for (int i = first; i < obj->naps; i++) {
		struct bp_attach_point *ap = &obj->aps[i];

		if (is_uprobe(ap) && ap->multi_of < 0 && ap->link_fd < 0 && same_group(head, ap)) {
			cookies[cnt] = (uint64_t)i;
			refs[cnt] = ap->point->ref_ctr_offset;
			semaphores |= refs[cnt] != 0;
			offs[cnt++] = ap->point->offset;
		}
	}
	fd = bp_uprobe_multi__attach(obj->insts[head->instance].fd, head->point->binary,
				     bp_attach_binaries__path(obj, head->point->binary), offs,
				     cookies, semaphores ? refs : NULL, cnt,
				     head->point->is_return, pid);
	if (fd < 0)
		return fd;
	head->link_fd = fd;
	for (int i = first + 1; i < obj->naps; i++) {
		struct bp_attach_point *ap = &obj->aps[i];

		if (is_uprobe(ap) && ap->multi_of < 0 && ap->link_fd < 0 && same_group(head, ap))
			ap->multi_of = first;
	}
	return 0;
}

int bp_attach_points__uprobe_multi(struct bpfprobe_object *obj, pid_t pid)
{
	uint64_t *offs;
	int err = 0, nlinks = 0, npoints = 0;

	/* the offsets, then the cookies, then the semaphores */
	offs = calloc(obj->naps ? 3 * obj->naps : 3, sizeof(*offs));
	if (!offs)
		return -ENOMEM;
	for (int i = 0; i < obj->naps && !err; i++) {
		struct bp_attach_point *ap = &obj->aps[i];

		if (!is_uprobe(ap))
			continue;
		npoints++;
		if (ap->multi_of >= 0 || ap->link_fd >= 0)
			continue;
		if (bp_stop__requested()) {
			err = -EINTR;
			break;
		}
		err = attach_group(obj, i, pid, offs, offs + obj->naps, offs + 2 * obj->naps);
		if (err)
			bp_err("program '%s': cannot attach to %s:%s\n", ap->owner->name,
			       ap->point->binary, ap->point->func);
		nlinks++;
	}
	free(offs);
	if (!err)
		bp_info("%d uprobe point%s attached through %d uprobe_multi link%s\n", npoints,
			npoints == 1 ? "" : "s", nlinks, nlinks == 1 ? "" : "s");
	return err;
}
