// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Attaching an instance to a kernel function through the kprobe PMU: the
 * kprobe exists only while its perf fd is open, so nothing named is left
 * in tracefs by a killed bpfprobe.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "loader/attach_probe.h"
#include "util/kconfig.h"
#include "util/log.h"

#define PMU_DIR "/sys/bus/event_source/devices/kprobe"

/* What the kernel lacks, from its configuration when it can be read. */
static const char *missing_config(void)
{
	if (bp_kconfig__get("CONFIG_KPROBES") == 0)
		return "CONFIG_KPROBES is off";
	if (bp_kconfig__get("CONFIG_KPROBE_EVENTS") == 0)
		return "CONFIG_KPROBE_EVENTS is off";
	if (bp_kconfig__get("CONFIG_PERF_EVENTS") == 0)
		return "CONFIG_PERF_EVENTS is off";
	return "CONFIG_KPROBES or CONFIG_KPROBE_EVENTS is off";
}

int bp_kprobe__check_available(const char *what)
{
	struct utsname u;

	if (!access(PMU_DIR "/type", R_OK))
		return 0;
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	bp_err("%s: this kernel (%s) has no kprobes: %s (no %s), so kernel functions cannot be probed here; user-space functions (exec=PATH;...) can\n",
	       what, u.release, missing_config(), PMU_DIR);
	return -EOPNOTSUPP;
}

/* "do_sys_open+0x10", or the address */
static void describe(const struct bp_kprobe_target *t, char *buf, size_t len)
{
	if (t->func && t->offset)
		snprintf(buf, len, "%s+0x%llx", t->func, (unsigned long long)t->offset);
	else if (t->func)
		snprintf(buf, len, "%s", t->func);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)t->addr);
}

static void explain(const struct bp_kprobe_target *t, int err)
{
	char where[300];

	describe(t, where, sizeof(where));
	switch (err) {
	case -EACCES:
	case -EPERM:
		bp_err("no permission to create a kprobe on %s: CAP_PERFMON (or CAP_SYS_ADMIN) is needed\n",
		       where);
		break;
	case -ENOENT:
		bp_err("cannot create a kprobe on %s: the kernel has no such function (module unloaded?)\n",
		       where);
		break;
	case -EADDRNOTAVAIL:
		bp_err("cannot create a kprobe on %s: the name matches several kernel functions\n",
		       where);
		break;
	case -EILSEQ:
		bp_err("cannot create a kprobe on %s: not an instruction boundary\n", where);
		break;
	case -EINVAL:
		bp_err("the kernel refuses a kprobe on %s: on the kprobe blacklist, notrace (not in available_filter_functions), or not a function entry for a return probe\n",
		       where);
		break;
	default:
		bp_err("cannot create a kprobe on %s: %s\n", where, strerror(-err));
	}
}

static int open_kprobe_event(const struct bp_kprobe_target *t)
{
	struct perf_event_attr attr = {};
	int type, bit = 0, fd, err;

	type = bp_pmu__type("kprobe");
	if (type < 0)
		return bp_kprobe__check_available(t->func ? t->func : "kprobe");
	bit = t->retprobe ? bp_pmu__retprobe_bit("kprobe") : 0;
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = t->retprobe ? 1ull << bit : 0;
	if (t->func) {
		attr.config1 = (uint64_t)(uintptr_t)t->func;	/* kprobe_func */
		attr.config2 = t->offset;			/* probe_offset */
	} else {
		attr.config2 = t->addr;				/* kprobe_addr */
	}
	/* one cpu of a system-wide event: the program runs on every cpu */
	fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		explain(t, err);
		return err;
	}
	return fd;
}

int bp_kprobe__attach(int prog_fd, const struct bp_kprobe_target *t,
		      int *perf_fd, int *link_fd)
{
	char where[300];
	int pfd, err;

	*perf_fd = *link_fd = -1;
	pfd = open_kprobe_event(t);
	if (pfd < 0)
		return pfd;
	err = bp_perf_event__run_prog(pfd, prog_fd, t->cookie, link_fd);
	if (err) {
		describe(t, where, sizeof(where));
		bp_err("cannot attach the program to the kprobe on %s: %s\n", where,
		       strerror(-err));
		close(pfd);
		return err;
	}
	*perf_fd = pfd;
	return 0;
}
