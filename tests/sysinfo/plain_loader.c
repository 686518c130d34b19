// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A plain libbpf loader for the `bpfprobe list` test:
 *	plain_loader OBJ TARGET PID
 * attaches plain_up to TARGET:neg_args in PID and plain_uret to
 * TARGET:ret_neg in every process (bpf_links), plain_tp to
 * sched:sched_process_fork with PERF_EVENT_IOC_SET_BPF (no link),
 * plain_raw (raw tracepoint link) and plain_fentry/plain_fexit to vfs_read
 * (when the kernel accepts BPF trampolines). Prints "FENTRY" or "NOFENTRY",
 * then "READY", and waits for SIGTERM.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static volatile sig_atomic_t stop;

static void on_term(int sig __attribute__((unused)))
{
	stop = 1;
}

static struct bpf_link *uprobe(struct bpf_object *obj, const char *prog, const char *target,
			       const char *func, pid_t pid, bool ret)
{
	LIBBPF_OPTS(bpf_uprobe_opts, o, .func_name = func, .retprobe = ret);
	struct bpf_program *p = bpf_object__find_program_by_name(obj, prog);

	return p ? bpf_program__attach_uprobe_opts(p, pid, target, 0, &o) : NULL;
}

/* The old way, without a bpf_link: only the perf event fd holds it. */
static int ioctl_tracepoint(struct bpf_object *obj, const char *prog, const char *tp)
{
	struct bpf_program *p = bpf_object__find_program_by_name(obj, prog);
	struct perf_event_attr attr = { .type = PERF_TYPE_TRACEPOINT, .size = sizeof(attr),
					.sample_period = 1, .wakeup_events = 1 };
	char path[256];
	FILE *f;
	int fd, id = -1;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/id", tp);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%d", &id) != 1) {
		fprintf(stderr, "plain_loader: no tracepoint id in %s\n", path);
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	attr.config = id;
	fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 || ioctl(fd, PERF_EVENT_IOC_SET_BPF, bpf_program__fd(p)) ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		fprintf(stderr, "plain_loader: ioctl attach to %s: %s\n", tp, strerror(errno));
		return -1;
	}
	return fd;
}

/* Opens and loads OBJ; with fentry false, without the trampoline programs. */
static struct bpf_object *load(const char *path, bool fentry)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);

	if (!obj)
		return NULL;
	bpf_program__set_autoload(bpf_object__find_program_by_name(obj, "plain_fentry"), fentry);
	bpf_program__set_autoload(bpf_object__find_program_by_name(obj, "plain_fexit"), fentry);
	if (bpf_object__load(obj)) {
		int err = errno;

		bpf_object__close(obj);
		errno = err;
		return NULL;
	}
	return obj;
}

int main(int argc, char **argv)
{
	struct bpf_link *up, *uret, *raw, *fentry = NULL, *fexit = NULL;
	struct bpf_object *obj;
	char nofentry[128] = "";
	bool with_fentry = true;
	int tp_fd;

	if (argc != 4) {
		fprintf(stderr, "usage: plain_loader OBJ TARGET PID\n");
		return 2;
	}
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	obj = load(argv[1], true);
	if (!obj) {
		/* fentry needs BPF trampolines, which some kernels refuse */
		with_fentry = false;
		snprintf(nofentry, sizeof(nofentry), " (loading fentry: %s)", strerror(errno));
		obj = load(argv[1], false);
	}
	if (!obj) {
		fprintf(stderr, "plain_loader: cannot load %s\n", argv[1]);
		return 1;
	}
	up = uprobe(obj, "plain_up", argv[2], "neg_args", atoi(argv[3]), false);
	uret = uprobe(obj, "plain_uret", argv[2], "ret_neg", -1, true);
	raw = bpf_program__attach(bpf_object__find_program_by_name(obj, "plain_raw"));
	if (with_fentry) {
		fentry = bpf_program__attach(bpf_object__find_program_by_name(obj, "plain_fentry"));
		fexit = bpf_program__attach(bpf_object__find_program_by_name(obj, "plain_fexit"));
	}
	tp_fd = ioctl_tracepoint(obj, "plain_tp", "sched/sched_process_fork");
	if (!up || !uret || !raw || tp_fd < 0 || (with_fentry && (!fentry || !fexit))) {
		fprintf(stderr, "plain_loader: attach failed: up=%p uret=%p raw=%p fentry=%p fexit=%p tp=%d\n",
			(void *)up, (void *)uret, (void *)raw, (void *)fentry, (void *)fexit, tp_fd);
		return 1;
	}
	printf("%s%s\nREADY\n", with_fentry ? "FENTRY" : "NOFENTRY", nofentry);
	fflush(stdout);
	while (!stop)
		pause();
	close(tp_fd);
	bpf_link__destroy(fexit);
	bpf_link__destroy(fentry);
	bpf_link__destroy(raw);
	bpf_link__destroy(uret);
	bpf_link__destroy(up);
	bpf_object__close(obj);
	return 0;
}
