// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The library's promises to a careless or newer caller, for
 * tests/e2e/lib_hardening.sh, which passes an object with a hash map and a
 * ring buffer on the args target, the target, a FIFO's path and an object
 * whose only output is printk. Prints PASS/FAIL lines.
 *
 *  - a second bpfprobe_object__attach() is -EBUSY and leaves no link
 *    behind after detach;
 *  - options structs with a larger sz are accepted when the bytes past the
 *    known fields are zero, refused (-EINVAL) when not;
 *  - bpfprobe_output__new() refuses an object not loaded; an output holds
 *    its object, so destroy before dump_maps/poll/free is safe;
 *  - an object path that is a FIFO fails at once.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpfprobe/bpfprobe.h>

static int failed;

static void result(const char *name, bool ok, const char *why)
{
	if (ok) {
		printf("PASS %s\n", name);
	} else {
		printf("FAIL %s: %s\n", name, why);
		failed = 1;
	}
	fflush(stdout);
}

static int quiet(enum bpfprobe_print_level level, const char *fmt, va_list ap)
{
	return level == BPFPROBE_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

static struct bpfprobe_object *loaded(const char *path)
{
	struct bpfprobe_object *obj = bpfprobe_object__open(path, NULL);

	if (obj && bpfprobe_object__load(obj)) {
		bpfprobe_object__destroy(obj);
		return NULL;
	}
	return obj;
}

/* Links whose program is one of the object's instances (waiting up to 5 s
 * for want at most: a closed link's id goes after an RCU grace period). */
static int count_links(const struct bpfprobe_object *obj, int want)
{
	__u32 ids[64];
	int n = 0, count = 0;

	for (size_t i = 0; i < bpfprobe_object__instance_cnt(obj) && n < 64; i++) {
		struct bpfprobe_instance_info in = { .sz = sizeof(in) };
		struct bpf_prog_info pi = {};
		__u32 len = sizeof(pi);

		if (!bpfprobe_object__instance_info(obj, i, &in) &&
		    !bpf_obj_get_info_by_fd(in.prog_fd, &pi, &len))
			ids[n++] = pi.id;
	}
	for (int tries = 0; tries < 50; tries++) {
		__u32 id = 0;

		count = 0;
		while (!bpf_link_get_next_id(id, &id)) {
			struct bpf_link_info li = {};
			__u32 len = sizeof(li);
			int fd = bpf_link_get_fd_by_id(id);

			if (fd < 0)
				continue;
			if (!bpf_obj_get_info_by_fd(fd, &li, &len))
				for (int k = 0; k < n; k++)
					count += li.prog_id == ids[k];
			close(fd);
		}
		if (count <= want)
			break;
		usleep(100000);
	}
	return count;
}

static void attach_twice(const char *path)
{
	struct bpfprobe_attach_opts ao = { .sz = sizeof(ao), .pid = getpid() };
	struct bpfprobe_object *obj = loaded(path);
	char why[160];
	int first, second, err2, links, links2, after;

	if (!obj) {
		result("lib_attach_twice_ebusy", false, "open/load failed");
		return;
	}
	first = bpfprobe_object__attach(obj, &ao);
	links = count_links(obj, 1000);
	second = bpfprobe_object__attach(obj, &ao);
	err2 = errno;
	links2 = count_links(obj, 1000);
	bpfprobe_object__detach(obj);
	after = count_links(obj, 0);
	snprintf(why, sizeof(why), "attach %d (%d links), again %d errno %d (%d links), %d links after detach",
		 first, links, second, err2, links2, after);
	result("lib_attach_twice_ebusy", !first && links > 0 && second == -EBUSY && err2 == EBUSY &&
	       links2 == links && after == 0, why);
	bpfprobe_object__destroy(obj);
}

/* Each options struct, sz 16 bytes past what the library knows: zero
 * bytes there are fine, one non-zero byte is refused. */
static void opts_unknown_bytes(const char *path)
{
	struct { struct bpfprobe_open_opts o; char more[16]; } oo = { { .sz = sizeof(oo) } };
	struct { struct bpfprobe_attach_opts o; char more[16]; } ao = { { .sz = sizeof(ao), .pid = getpid() } };
	struct { struct bpfprobe_output_opts o; char more[16]; } uo = { { .sz = sizeof(uo) } };
	struct { struct bpfprobe_pin_opts o; char more[16]; } po = { { .sz = sizeof(po) } };
	struct bpfprobe_object *obj, *bad;
	struct bpfprobe_output *out;
	char why[200];
	int attach_bad, attach_ok, pin_bad, e1, e2, e3, e4;

	obj = bpfprobe_object__open(path, &oo.o);
	oo.more[7] = 1;
	bad = bpfprobe_object__open(path, &oo.o);
	e1 = errno;
	if (!obj || bpfprobe_object__load(obj)) {
		result("lib_opts_unknown_bytes", false, "open with zero extra bytes failed");
		bpfprobe_object__destroy(obj);
		return;
	}
	ao.more[0] = 1;
	attach_bad = bpfprobe_object__attach(obj, &ao.o);
	e2 = errno;
	ao.more[0] = 0;
	attach_ok = bpfprobe_object__attach(obj, &ao.o);
	uo.more[15] = 0xff;
	out = bpfprobe_output__new(obj, &uo.o);
	e3 = errno;
	po.more[3] = 1;
	pin_bad = bpfprobe_object__pin(obj, "lib-hardening-never", &po.o);
	e4 = errno;
	snprintf(why, sizeof(why), "open %p errno %d, attach %d errno %d (zero bytes: %d), output %p errno %d, pin %d errno %d",
		 (void *)bad, e1, attach_bad, e2, attach_ok, (void *)out, e3, pin_bad, e4);
	result("lib_opts_unknown_bytes", !bad && e1 == EINVAL && attach_bad == -EINVAL &&
	       e2 == EINVAL && !attach_ok && !out && e3 == EINVAL && pin_bad == -EINVAL &&
	       e4 == EINVAL, why);
	bpfprobe_object__destroy(bad);
	bpfprobe_output__free(out);
	bpfprobe_object__destroy(obj);
}

/* An object not loaded (one with maps, one with printk alone, which used to
 * give an output that silently did nothing) gets no output. */
static void output_needs_loaded(const char *path, const char *plain)
{
	struct bpfprobe_object *obj = bpfprobe_object__open(path, NULL);
	struct bpfprobe_object *obj2 = bpfprobe_object__open(plain, NULL);
	struct bpfprobe_output *out, *out2;
	char why[160];
	int e, e2;

	out = obj ? bpfprobe_output__new(obj, NULL) : NULL;
	e = errno;
	out2 = obj2 ? bpfprobe_output__new(obj2, NULL) : NULL;
	e2 = errno;
	snprintf(why, sizeof(why), "outputs of objects not loaded: %p errno %d, %p errno %d",
		 (void *)out, e, (void *)out2, e2);
	result("lib_output_needs_loaded_object", obj && obj2 && !out && e == EINVAL && !out2 &&
	       e2 == EINVAL, why);
	bpfprobe_output__free(out);
	bpfprobe_output__free(out2);
	bpfprobe_object__destroy(obj);
	bpfprobe_object__destroy(obj2);
}

static void output_lifetime(const char *path, const char *target)
{
	struct bpfprobe_object *obj = bpfprobe_object__open(path, NULL);
	struct bpfprobe_attach_opts ao = { .sz = sizeof(ao), .pid = -1 };
	struct bpfprobe_output *out;
	char why[160];
	int n, dumped, polled;
	FILE *f = tmpfile();

	if (!obj || !f) {
		result("lib_output_outlives_object", false, "open failed");
		return;
	}

	if (bpfprobe_object__load(obj)) {
		result("lib_output_outlives_object", false, "load failed");
		bpfprobe_object__destroy(obj);
		return;
	}
	struct bpfprobe_output_opts oo = { .sz = sizeof(oo), .file = f };
	out = bpfprobe_output__new(obj, &oo);
	if (!out || bpfprobe_object__attach(obj, &ao)) {
		result("lib_output_outlives_object", false, "output or attach failed");
		bpfprobe_output__free(out);
		bpfprobe_object__destroy(obj);
		return;
	}
	/* one call of the probed function fills the map and the ring buffer */
	snprintf(why, sizeof(why), "%s >/dev/null", target);
	if (system(why) == -1)
		perror(target);
	bpfprobe_object__destroy(obj);
	polled = bpfprobe_output__poll(out, 100);
	dumped = bpfprobe_output__dump_maps(out);
	bpfprobe_output__free(out);
	fflush(f);
	rewind(f);
	n = 0;
	{
		char line[512];
		bool rec = false, map = false;

		while (fgets(line, sizeof(line), f)) {
			n++;
			rec |= !!strstr(line, "events: { .a = -5");
			map |= !!strstr(line, "@calls[");
		}
		snprintf(why, sizeof(why), "after destroy: poll %d, dump %d, %d lines (record %d, map %d)",
			 polled, dumped, n, rec, map);
		result("lib_output_outlives_object", polled >= 1 && dumped == 1 && rec && map, why);
	}
	fclose(f);
}

static void fifo_path(const char *fifo)
{
	struct bpfprobe_object *obj;
	int e;

	alarm(10);	/* the old open() blocked for good */
	obj = bpfprobe_object__open(fifo, NULL);
	e = errno;
	alarm(0);
	result("lib_open_fifo_fails", !obj && e == EINVAL, "a FIFO opened, or a wrong errno");
	bpfprobe_object__destroy(obj);
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: api_hardening OBJ TARGET FIFO PRINTK_OBJ\n");
		return 2;
	}
	bpfprobe_set_print(quiet);
	attach_twice(argv[1]);
	opts_unknown_bytes(argv[1]);
	output_needs_loaded(argv[1], argv[4]);
	output_lifetime(argv[1], argv[2]);
	fifo_path(argv[3]);
	return failed;
}
