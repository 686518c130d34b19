// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The two forms of a uprobe instance (loader/follow.h), for
 * tests/e2e/follow.sh: loaded without the followed-set check (open opts
 * follow false), attached with follow, which loads it again with the
 * check; the target's forked children are followed and the program runs;
 * detached and attached without follow, which loads it without again.
 *   follow_forms OBJ TARGET    prints "form FOLLOW xlated=N fd_changed=B"
 *                              lines, "ran=B", and "ok" at the end
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpfprobe/bpfprobe.h>

static int prog_fd(const struct bpfprobe_object *obj)
{
	struct bpfprobe_instance_info in = { .sz = sizeof(in) };

	return bpfprobe_object__instance_info(obj, 0, &in) ? -1 : in.prog_fd;
}

static unsigned int xlated(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.xlated_prog_len / 8;
}

static void report(const struct bpfprobe_object *obj, const char *form, int *fd)
{
	int now = prog_fd(obj);

	printf("form %s xlated=%u fd_changed=%d\n", form, xlated(now), now != *fd);
	*fd = now;
}

int main(int argc, char **argv)
{
	struct bpfprobe_open_opts oo = { .sz = sizeof(oo), .follow = false };
	struct bpfprobe_attach_opts ao = { .sz = sizeof(ao) };
	struct bpfprobe_program_stats st = { .sz = sizeof(st) };
	struct bpfprobe_object *obj;
	int go[2], fd, status;
	pid_t child;
	char c = 0;

	if (argc != 3 || pipe(go))
		return 2;
	obj = bpfprobe_object__open(argv[1], &oo);
	if (!obj || bpfprobe_object__load(obj))
		return 1;
	fd = prog_fd(obj);
	report(obj, "loaded", &fd);
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		execl(argv[2], argv[2], "forks", "2", (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	ao.pid = child;
	ao.follow = true;
	if (bpfprobe_object__attach(obj, &ao))
		return 1;
	report(obj, "follow", &fd);
	/* the check lets the child's children through: they call work() */
	if (write(go[1], &c, 1) != 1 || waitpid(child, &status, 0) != child)
		return 1;
	if (bpfprobe_object__program_stats(obj, 0, &st))
		return 1;
	printf("ran=%d refused=%llu\n", st.ran, (unsigned long long)st.refused);
	bpfprobe_object__detach(obj);
	ao.pid = -1;
	ao.follow = false;
	if (bpfprobe_object__attach(obj, &ao))
		return 1;
	report(obj, "no-follow", &fd);
	bpfprobe_object__detach(obj);
	bpfprobe_object__destroy(obj);
	printf("ok\n");
	return 0;
}
