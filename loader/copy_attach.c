// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A copy of a probed binary (exec_watch.h) attached like the binary: each
 * of the binary's points at the same file offset of the copy, to the same
 * instance, with the same BPF cookie (the point's index, so a program
 * tells its points apart the same way there); through uprobe_multi links
 * when the object's uprobes use them, else a perf event per point. Every
 * process may hit them: the followed set's guard picks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/attach_probe.h"
#include "loader/exec_watch.h"
#include "loader/metadata.h"
#include "loader/object.h"
#include "util/log.h"

/* The binary's points, as the copy's attachments (not attached yet). */
static int copy_points(struct bpfprobe_object *obj, struct bp_copy *c)
{
	const char *bin = obj->watch.bins[c->bin].path;
	int n = 0;

	for (int i = 0; i < obj->naps; i++)
		n += !obj->aps[i].point->kernel && !strcmp(obj->aps[i].point->binary, bin);
	c->aps = calloc(n ? n : 1, sizeof(*c->aps));
	c->of = calloc(n ? n : 1, sizeof(*c->of));
	if (!c->aps || !c->of)
		return -ENOMEM;
	for (int i = 0; i < obj->naps; i++) {
		const struct bp_attach_point *ap = &obj->aps[i];

		if (ap->point->kernel || strcmp(ap->point->binary, bin))
			continue;
		c->aps[c->naps] = (struct bp_attach_point){
			.owner = ap->owner, .point = ap->point, .instance = ap->instance,
			.perf_fd = -1, .link_fd = -1, .multi_of = -1,
		};
		c->of[c->naps++] = i;
	}
	return 0;
}

/* The points of one instance and direction in one uprobe_multi link, held
 * by the first of them. */
static int attach_multi(struct bpfprobe_object *obj, struct bp_copy *c, int first,
			uint64_t *offs, uint64_t *cookies, uint64_t *refs)
{
	struct bp_attach_point *head = &c->aps[first];
	bool semaphores = false;
	size_t cnt = 0;
	int fd;

	for (int k = first; k < c->naps; k++) {
		struct bp_attach_point *ap = &c->aps[k];

		if (ap->multi_of >= 0 || ap->link_fd >= 0 || ap->instance != head->instance ||
		    ap->point->is_return != head->point->is_return)
			continue;
		offs[cnt] = ap->point->offset;
		cookies[cnt] = (uint64_t)c->of[k];
		refs[cnt] = ap->point->ref_ctr_offset;
		semaphores |= refs[cnt++] != 0;
		if (k != first)
			ap->multi_of = first;
	}
	/* a copy is attached by the path it was found at (not held open) */
	fd = bp_uprobe_multi__attach(obj->insts[head->instance].fd, c->path, NULL, offs, cookies,
				     semaphores ? refs : NULL, cnt, head->point->is_return, -1);
	if (fd < 0)
		return fd;
	head->link_fd = fd;
	return 0;
}

int bp_copy__attach(struct bpfprobe_object *obj, struct bp_copy *c)
{
	uint64_t *buf = NULL;
	int err;

	err = copy_points(obj, c);
	if (!err && obj->uprobe_multi) {
		buf = calloc(3 * (c->naps ? c->naps : 1), sizeof(*buf));
		if (!buf)
			err = -ENOMEM;
	}
	for (int k = 0; k < c->naps && !err; k++) {
		struct bp_attach_point *ap = &c->aps[k];
		struct bp_uprobe_target t = {
			.path = c->path,
			.offset = ap->point->offset,
			.retprobe = ap->point->is_return,
			.pid = -1,
			.cookie = (uint64_t)c->of[k],
			.ref_ctr_offset = ap->point->ref_ctr_offset,
		};

		if (obj->uprobe_multi && (ap->multi_of >= 0 || ap->link_fd >= 0))
			continue;
		if (obj->uprobe_multi)
			err = attach_multi(obj, c, k, buf, buf + c->naps, buf + 2 * c->naps);
		else
			err = bp_uprobe__attach(obj->insts[ap->instance].fd, &t, &ap->perf_fd,
						&ap->link_fd);
		if (err)
			bp_err("program '%s': cannot attach to %s:%s, a copy of %s: %s\n",
			       ap->owner->name, c->path, ap->point->func,
			       obj->watch.bins[c->bin].path, strerror(-err));
	}
	free(buf);
	if (err) {
		bp_copy__detach(c);
		return err;
	}
	/* `bpfprobe list` names it under each instance it runs */
	for (int k = 0; k < c->naps; k++) {
		bool again = false;

		for (int j = 0; j < k && !again; j++)
			again = c->aps[j].instance == c->aps[k].instance;
		if (!again)
			bp_meta__add_instance(obj, c->aps[k].instance, "copy", c->path);
	}
	return 0;
}

void bp_copy__detach(struct bp_copy *c)
{
	bp_attach_points__close(c->aps, c->naps);
	c->attached = false;
}
