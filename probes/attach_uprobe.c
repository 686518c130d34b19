// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "probes/attach.h"
#include "util/log.h"

#define PMU_DIR "/sys/bus/event_source/devices/uprobe"

static int read_pmu_type(void)
{
	FILE *f = fopen(PMU_DIR "/type", "re");
	int type = -1;

	if (!f)
		return -errno;
	if (fscanf(f, "%d", &type) != 1)
		type = -EINVAL;
	fclose(f);
	return type;
}

/* The retprobe flag's bit in config, as the PMU's format file says ("config:0"). */
static int read_retprobe_bit(void)
{
	FILE *f = fopen(PMU_DIR "/format/retprobe", "re");
	int bit = 0;

	if (!f)
		return 0;
	if (fscanf(f, "config:%d", &bit) != 1)
		bit = 0;
	fclose(f);
	return bit;
}

static int open_uprobe_event(const struct bp_uprobe_target *t)
{
	struct perf_event_attr attr = {};
	int type = read_pmu_type();
	int fd;

	if (type < 0) {
		bp_err("this kernel has no uprobe PMU (%s/type: %s): CONFIG_UPROBE_EVENTS is needed\n",
		       PMU_DIR, strerror(-type));
		return type;
	}
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = t->retprobe ? 1ull << read_retprobe_bit() : 0;
	attr.config1 = (uint64_t)(uintptr_t)t->path;
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
	int pfd, lfd, err;

	*perf_fd = *link_fd = -1;
	pfd = open_uprobe_event(t);
	if (pfd < 0) {
		err = pfd;
		if (err == -EACCES || err == -EPERM)
			bp_err("no permission to create a uprobe on %s+0x%llx: CAP_PERFMON (or CAP_SYS_ADMIN) is needed\n",
			       t->path, (unsigned long long)t->offset);
		else
			bp_err("cannot create a uprobe on %s+0x%llx: %s\n", t->path,
			       (unsigned long long)t->offset, strerror(-err));
		return err;
	}
	lfd = bpf_link_create(prog_fd, pfd, BPF_PERF_EVENT, NULL);
	if (lfd >= 0) {
		*perf_fd = pfd;
		*link_fd = lfd;
		return 0;
	}
	/* kernels before 5.15 have no perf bpf_link: attach the old way */
	if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog_fd) < 0 ||
	    ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		err = -errno;
		bp_err("cannot attach the program to the uprobe on %s+0x%llx: %s\n",
		       t->path, (unsigned long long)t->offset, strerror(-err));
		close(pfd);
		return err;
	}
	*perf_fd = pfd;
	return 0;
}
