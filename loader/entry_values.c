// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Entry values: the map, the companion program and its probes (see
 * entry_values.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "loader/attach_probe.h"
#include "loader/entry_values.h"
#include "loader/object.h"
#include "prologue/entry_save.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/stop.h"

struct bp_entry_values {
	int map_fd;
	int prog_fd;
	/* one per distinct entry; owner and point NULL */
	struct bp_attach_point *saves;
	const char **binaries;	/* saves[i]'s binary (the points' strings) */
	uint64_t *offsets;
	int nsaves;
	size_t cap, bcap, ocap;
};

static bool needs_entry_values(const struct bpfprobe_object *obj)
{
	for (int i = 0; i < obj->nprogs; i++)
		for (int j = 0; j < obj->progs[i].npoints; j++)
			if (obj->progs[i].points[j].nentries)
				return true;
	return false;
}

/* Adds (binary, offset) unless it is there. */
static int add_save(struct bp_entry_values *ev, const char *binary, uint64_t offset)
{
	for (int i = 0; i < ev->nsaves; i++)
		if (ev->offsets[i] == offset && !strcmp(ev->binaries[i], binary))
			return 0;
	if (bp_grow((void **)&ev->saves, ev->nsaves, &ev->cap, sizeof(*ev->saves), 8) ||
	    bp_grow((void **)&ev->binaries, ev->nsaves, &ev->bcap, sizeof(*ev->binaries), 8) ||
	    bp_grow((void **)&ev->offsets, ev->nsaves, &ev->ocap, sizeof(*ev->offsets), 8))
		return -ENOMEM;
	ev->saves[ev->nsaves] = (struct bp_attach_point){ .instance = -1, .perf_fd = -1,
							   .link_fd = -1 };
	ev->binaries[ev->nsaves] = binary;
	ev->offsets[ev->nsaves] = offset;
	ev->nsaves++;
	return 0;
}

static int collect_saves(struct bpfprobe_object *obj, struct bp_entry_values *ev)
{
	int err = 0;

	for (int i = 0; i < obj->nprogs && !err; i++) {
		const struct bp_program *p = &obj->progs[i];

		for (int j = 0; j < p->npoints && !err; j++)
			for (int k = 0; k < p->points[j].nentries && !err; k++)
				err = add_save(ev, p->points[j].binary, p->points[j].entry_offsets[k]);
	}
	return err;
}

static int load_prog(struct bpfprobe_object *obj, struct bp_entry_values *ev)
{
	struct bpf_insn insns[BP_ENTRY_SAVE_MAX_INSNS];
	char errbuf[128];
	int n;

	n = bp_entry_save__gen(ev->map_fd, insns, BP_ENTRY_SAVE_MAX_INSNS);
	if (n < 0)
		return n;
	ev->prog_fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "bp_entry_save", obj->license,
				    insns, n, NULL);
	if (ev->prog_fd < 0) {
		int err = -errno;

		libbpf_strerror(err, errbuf, sizeof(errbuf));
		bp_err("loading the entry-value probe (it saves registers at function entries for arguments that need their entry values) failed: %s\n",
		       errbuf);
		return err;
	}
	return 0;
}

int bp_entry_values__load(struct bpfprobe_object *obj)
{
	struct bp_entry_values *ev;
	char errbuf[128];
	int err;

	if (obj->entry || !needs_entry_values(obj))
		return 0;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	ev->map_fd = ev->prog_fd = -1;
	obj->entry = ev;
	err = collect_saves(obj, ev);
	if (err)
		goto fail;
	ev->map_fd = bpf_map_create(BPF_MAP_TYPE_LRU_HASH, "bp_entry_vals",
				    sizeof(struct bp_entry_key), bp_entry__value_size(),
				    BP_ENTRY_MAP_ENTRIES, NULL);
	if (ev->map_fd < 0) {
		err = -errno;
		libbpf_strerror(err, errbuf, sizeof(errbuf));
		bp_err("creating the entry-value map failed: %s\n", errbuf);
		goto fail;
	}
	err = load_prog(obj, ev);
	if (err)
		goto fail;
	bp_info("entry values: a companion probe saves registers at %d function entr%s\n",
		ev->nsaves, ev->nsaves == 1 ? "y" : "ies");
	return 0;
fail:
	bp_entry_values__close(obj);
	return err;
}

int bp_entry_values__map_fd(const struct bpfprobe_object *obj)
{
	return obj->entry ? obj->entry->map_fd : -1;
}

int bp_entry_values__attach(struct bpfprobe_object *obj, pid_t pid)
{
	struct bp_entry_values *ev = obj->entry;
	int err = 0;

	for (int i = 0; ev && i < ev->nsaves && !err; i++) {
		struct bp_uprobe_target t = {
			.path = ev->binaries[i],
			.file = bp_attach_binaries__path(obj, ev->binaries[i]),
			.offset = ev->offsets[i],
			.pid = pid,
		};

		if (bp_stop__requested()) {
			err = -EINTR;
			break;
		}
		err = bp_uprobe__attach(ev->prog_fd, &t, &ev->saves[i].perf_fd,
					&ev->saves[i].link_fd);
		if (err)
			bp_err("cannot attach the entry-value probe to %s at file offset 0x%llx\n",
			       t.path, (unsigned long long)t.offset);
	}
	return err;
}

void bp_entry_values__detach(struct bpfprobe_object *obj)
{
	if (obj->entry)
		bp_attach_points__close(obj->entry->saves, obj->entry->nsaves);
}

void bp_entry_values__close(struct bpfprobe_object *obj)
{
	struct bp_entry_values *ev = obj->entry;

	if (!ev)
		return;
	bp_entry_values__detach(obj);
	if (ev->prog_fd >= 0)
		close(ev->prog_fd);
	if (ev->map_fd >= 0)
		close(ev->map_fd);
	free(ev->saves);
	free(ev->binaries);
	free(ev->offsets);
	free(ev);
	obj->entry = NULL;
}
