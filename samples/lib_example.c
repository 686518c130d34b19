// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Embedding libbpfprobe: load an annotated object, attach it to one
 * command's process, read its ring buffer map "events" with libbpf, print.
 *
 *   cc lib_example.c $(pkg-config --cflags --libs bpfprobe) -o lib_example
 *   ./lib_example lib_ringbuf.bpf.o ./demo_app
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpfprobe/bpfprobe.h>

struct event {
	long id;
	long len;
	long fd;
};

static int on_event(void *ctx, void *data, size_t size)
{
	const struct event *e = data;

	if (size < sizeof(*e))
		return 0;
	printf("event id=%ld len=%ld fd=%ld\n", e->id, e->len, e->fd);
	return 0;
}

/* Starts argv held on a pipe so the probes are attached before it runs. */
static pid_t spawn_held(char **argv, int *go)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

int main(int argc, char **argv)
{
	struct bpfprobe_attach_opts opts = { .sz = sizeof(opts) };
	struct bpfprobe_object *obj;
	struct ring_buffer *rb = NULL;
	struct bpf_map *map;
	int status = 0, go = -1, err = 1;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: %s OBJ.o CMD [ARGS...]\n", argv[0]);
		return 2;
	}
	obj = bpfprobe_object__open(argv[1], NULL);
	if (!obj || bpfprobe_object__load(obj))
		goto out;
	map = bpf_object__find_map_by_name(bpfprobe_object__bpf_object(obj), "events");
	if (!map) {
		fprintf(stderr, "%s has no map named 'events'\n", argv[1]);
		goto out;
	}
	rb = ring_buffer__new(bpf_map__fd(map), on_event, NULL, NULL);
	pid = spawn_held(&argv[2], &go);
	if (!rb || pid < 0)
		goto out;
	opts.pid = pid;
	if (bpfprobe_object__attach(obj, &opts)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		goto out;
	}
	if (write(go, "g", 1) != 1)
		goto out;
	close(go);
	while (waitpid(pid, &status, WNOHANG) == 0)
		ring_buffer__poll(rb, 100);
	ring_buffer__consume(rb);
	err = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
out:
	ring_buffer__free(rb);
	bpfprobe_object__destroy(obj);
	return err;
}
