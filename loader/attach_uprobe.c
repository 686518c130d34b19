// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "loader/attach_probe.h"
#include "util/log.h"

#define PMU_DIR "/sys/bus/event_source/devices/uprobe"

static int open_uprobe_event(const struct bp_uprobe_target *t)
{
	struct perf_event_attr attr = {};
	int type = bp_pmu__type("uprobe");
	int fd;

	if (type < 0) {
		bp_err("this kernel has no uprobe PMU (%s/type: %s): CONFIG_UPROBE_EVENTS is needed\n",
		       PMU_DIR, strerror(-type));
		return type;
	}
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = t->retprobe ? 1ull << bp_pmu__retprobe_bit("uprobe") : 0;
	if (t->ref_ctr_offset) {
		int shift = bp_pmu__ref_ctr_shift("uprobe");

		if (shift < 0) {
			bp_err("this kernel's uprobes cannot raise an SDT semaphore (the uprobe PMU has no ref_ctr_offset: Linux 4.20 or later has it): %s+0x%llx is a marker behind one\n",
			       t->path, (unsigned long long)t->offset);
			return -EOPNOTSUPP;
		}
		attr.config |= t->ref_ctr_offset << shift;
	}
	attr.config1 = (uint64_t)(uintptr_t)(t->file ? t->file : t->path);
	attr.config2 = t->offset;
	/* a system-wide tracing event is opened on one cpu; it fires on all */
	fd = syscall(__NR_perf_event_open, &attr, t->pid >= 0 ? t->pid : -1,
		     t->pid >= 0 ? -1 : 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	return fd;
}

int bp_uprobe__attach(int prog_fd, const struct bp_uprobe_target *t,
		      int *perf_fd, int *link_fd)
{
	int pfd, err;

	*perf_fd = *link_fd = -1;
	pfd = open_uprobe_event(t);
	if (pfd < 0) {
		err = pfd;
		if (err == -ESRCH && t->pid >= 0)
			bp_err("cannot create a uprobe on %s+0x%llx for process %d: no such process\n",
			       t->path, (unsigned long long)t->offset, (int)t->pid);
		else if (err == -EACCES || err == -EPERM)
			bp_err("no permission to create a uprobe on %s+0x%llx: CAP_PERFMON (or CAP_SYS_ADMIN) is needed\n",
			       t->path, (unsigned long long)t->offset);
		else
			bp_err("cannot create a uprobe on %s+0x%llx: %s\n", t->path,
			       (unsigned long long)t->offset, strerror(-err));
		return err;
	}
	err = bp_perf_event__run_prog(pfd, prog_fd, t->cookie, link_fd);
	if (err) {
		bp_err("cannot attach the program to the uprobe on %s+0x%llx: %s\n",
		       t->path, (unsigned long long)t->offset, strerror(-err));
		close(pfd);
		return err;
	}
	*perf_fd = pfd;
	return 0;
}
