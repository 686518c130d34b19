// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What uprobes and kprobes share: their PMU's facts in sysfs, and running
 * a program on an opened probe event (a bpf_link where the kernel has one).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <bpf/bpf.h>
#include "loader/attach_probe.h"

static int read_int(const char *pmu, const char *file, const char *fmt, int *v)
{
	char path[128];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/%s", pmu, file);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	ret = fscanf(f, fmt, v) == 1 ? 0 : -EINVAL;
	fclose(f);
	return ret;
}

int bp_pmu__type(const char *pmu)
{
	int type, err = read_int(pmu, "type", "%d", &type);

	return err ? err : type;
}

int bp_pmu__retprobe_bit(const char *pmu)
{
	int bit;

	/* the format file says "config:0"; 0 is also the historical bit */
	return read_int(pmu, "format/retprobe", "config:%d", &bit) ? 0 : bit;
}

int bp_pmu__ref_ctr_shift(const char *pmu)
{
	int bit, err = read_int(pmu, "format/ref_ctr_offset", "config:%d", &bit);

	return err ? -ENOENT : bit;
}

int bp_perf_event__run_prog(int perf_fd, int prog_fd, uint64_t cookie, int *link_fd)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts, .perf_event.bpf_cookie = cookie);

	/* without a cookie, no opts: what kernels before 5.15's cookies take */
	*link_fd = bpf_link_create(prog_fd, perf_fd, BPF_PERF_EVENT, cookie ? &opts : NULL);
	if (*link_fd >= 0)
		return 0;
	*link_fd = -1;
	/* kernels before 5.15 have no perf bpf_link: attach the old way */
	if (ioctl(perf_fd, PERF_EVENT_IOC_SET_BPF, prog_fd) < 0 ||
	    ioctl(perf_fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		return -errno;
	return 0;
}
