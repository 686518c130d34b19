// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Changes BPF maps with known keys, values and flags, and writes what a
 * map-tracing program must see as "TRUTH ..." lines (to $KT_TRUTH, else
 * stdout): in the "GOT ..." form of tests/kernel/bpf/maptrace.bpf.c, and as
 * "TRUTH mon ..." lines in the form `bpfprobe monitor --map` prints.
 *
 *   kt_maps setup OBJ   loads OBJ (kt_maps_def.bpf.o) and pins its maps and
 *                       its XDP program under /sys/fs/bpf/kt_maps
 *   kt_maps run         user-space updates and deletes (single, batch,
 *                       lookup-and-delete, failing ones), then the XDP
 *                       program's helper calls (BPF_PROG_TEST_RUN)
 *   kt_maps helper      only the XDP program's
 *   kt_maps cleanup     removes the pins
 *
 * Every change of kt_other is one nobody may see.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "../bpf/kt_maps.h"

static FILE *truth;
static int fd_hash, fd_other, fd_arr, fd_pcpu;

static const char *flag_name(__u64 f)
{
	switch (f) {
	case BPF_ANY: return "BPF_ANY";
	case BPF_NOEXIST: return "BPF_NOEXIST";
	case BPF_EXIST: return "BPF_EXIST";
	default: return "?";
	}
}

static void mon_val(const struct kt_val *v, char *buf, size_t len)
{
	snprintf(buf, len, "{ .hits = %llu, .delta = %d, .tag = \"%s\" }",
		 (unsigned long long)v->hits, v->delta, v->tag);
}

/* one update of kt_hash through the syscall */
static void hash_update(int fd, __u32 port, __u32 proto, __u64 hits, __s32 delta,
			const char *tag, __u64 flags)
{
	struct kt_key k = { .port = port, .proto = proto };
	struct kt_val v = { .hits = hits, .delta = delta };
	char vs[128];
	int r;

	snprintf(v.tag, sizeof(v.tag), "%s", tag);
	r = bpf_map_update_elem(fd, &k, &v, flags);
	if (fd != fd_hash)
		return;
	fprintf(truth, "TRUTH hash_update port=%u hits=%llu flags=%llu\n", port,
		(unsigned long long)hits, (unsigned long long)flags);
	fprintf(truth, "TRUTH hash_update2 proto=%u delta=%d tag0=%d\n", proto, delta, tag[0]);
	mon_val(&v, vs, sizeof(vs));
	fprintf(truth, "TRUTH mon update key={ .port = %u, .proto = %u } value=%s flags=%s\n",
		port, proto, vs, flag_name(flags));
	fprintf(stderr, "kt_maps: update kt_hash {%u, %u}: %s\n", port, proto,
		r ? strerror(errno) : "ok");
}

static void hash_delete(int fd, __u32 port, __u32 proto)
{
	struct kt_key k = { .port = port, .proto = proto };
	int r = bpf_map_delete_elem(fd, &k);

	if (fd != fd_hash)
		return;
	fprintf(truth, "TRUTH hash_delete port=%u proto=%u\n", port, proto);
	fprintf(truth, "TRUTH mon delete key={ .port = %u, .proto = %u }\n", port, proto);
	fprintf(stderr, "kt_maps: delete kt_hash {%u, %u}: %s\n", port, proto,
		r ? strerror(errno) : "ok");
}

static void arr_update(__u32 key, __u64 value, __u64 flags)
{
	int r = bpf_map_update_elem(fd_arr, &key, &value, flags);

	fprintf(truth, "TRUTH arr_update key=%u value=%llu flags=%llu\n", key,
		(unsigned long long)value, (unsigned long long)flags);
	fprintf(stderr, "kt_maps: update kt_arr [%u]: %s\n", key, r ? strerror(errno) : "ok");
}

static void user_space(void)
{
	struct kt_key keys[2] = { { 3, 6 }, { 4, 6 } };
	struct kt_val vals[2] = { { 30, 1, "d" }, { 40, 2, "e" } };
	struct kt_val out;
	__u32 count = 2, key;
	int ncpu = libbpf_num_possible_cpus();
	struct kt_pval *pv;
	char vs[128];
	int r;

	/* kt_hash: each flag, an update that fails (the key exists), a
	 * batch, deletes that work and one that fails, lookup-and-delete */
	hash_update(fd_hash, 1, 6, 10, -3, "a", BPF_NOEXIST);
	hash_update(fd_hash, 1, 6, 11, -4, "b", BPF_EXIST);
	hash_update(fd_hash, 2, 17, 20, 7, "c", BPF_ANY);
	hash_update(fd_hash, 1, 6, 12, -5, "f", BPF_NOEXIST);
	LIBBPF_OPTS(bpf_map_batch_opts, bo, .elem_flags = BPF_ANY);
	r = bpf_map_update_batch(fd_hash, keys, vals, &count, &bo);
	fprintf(stderr, "kt_maps: batch update of kt_hash: %s\n", r ? strerror(errno) : "ok");
	for (int i = 0; i < 2; i++) {
		fprintf(truth, "TRUTH hash_update port=%u hits=%llu flags=0\n", keys[i].port,
			(unsigned long long)vals[i].hits);
		fprintf(truth, "TRUTH hash_update2 proto=%u delta=%d tag0=%d\n", keys[i].proto,
			vals[i].delta, vals[i].tag[0]);
		mon_val(&vals[i], vs, sizeof(vs));
		fprintf(truth, "TRUTH mon update key={ .port = %u, .proto = %u } value=%s flags=BPF_ANY\n",
			keys[i].port, keys[i].proto, vs);
	}
	hash_delete(fd_hash, 2, 17);
	hash_delete(fd_hash, 9, 9);
	r = bpf_map_lookup_and_delete_elem(fd_hash, &keys[0], &out);
	fprintf(stderr, "kt_maps: lookup-and-delete kt_hash {3, 6}: %s\n", r ? strerror(errno) : "ok");
	fprintf(truth, "TRUTH hash_delete port=3 proto=6\n");
	fprintf(truth, "TRUTH mon delete key={ .port = 3, .proto = 6 }\n");
	count = 1;
	r = bpf_map_delete_batch(fd_hash, &keys[1], &count, NULL);
	fprintf(stderr, "kt_maps: batch delete of kt_hash: %s\n", r ? strerror(errno) : "ok");
	fprintf(truth, "TRUTH hash_delete port=4 proto=6\n");
	fprintf(truth, "TRUTH mon delete key={ .port = 4, .proto = 6 }\n");

	/* kt_other: the same, never seen */
	hash_update(fd_other, 5555, 6, 1, 1, "o", BPF_ANY);
	hash_delete(fd_other, 5555, 6);

	/* kt_arr: an update past its end fails; deleting from an array
	 * fails always; both are still seen */
	arr_update(3, 333, BPF_ANY);
	arr_update(5, 555, BPF_EXIST);
	arr_update(KT_ARR_ENTRIES + 1, 999, BPF_ANY);
	key = 3;
	r = bpf_map_delete_elem(fd_arr, &key);
	fprintf(stderr, "kt_maps: delete kt_arr [3]: %s\n", r ? strerror(errno) : "ok");
	fprintf(truth, "TRUTH arr_delete key=3\n");

	/* kt_pcpu: user space gives every possible CPU's value */
	pv = calloc(ncpu > 0 ? ncpu : 1, sizeof(*pv));
	if (!pv)
		return;
	for (int i = 0; i < ncpu; i++)
		pv[i].bytes = 4000 + i;
	key = 4;
	r = bpf_map_update_elem(fd_pcpu, &key, pv, BPF_ANY);
	fprintf(stderr, "kt_maps: update kt_pcpu [4] on %d CPUs: %s\n", ncpu,
		r ? strerror(errno) : "ok");
	fprintf(truth, "TRUTH pcpu_update key=4 bytes=4000 flags=0\n");
	fprintf(truth, "TRUTH mon update key=4 values=[");
	for (int i = 0; i < ncpu; i++)
		fprintf(truth, "%s{ .bytes = %d }", i ? ", " : "", 4000 + i);
	fprintf(truth, "] flags=BPF_ANY\n");
	r = bpf_map_delete_elem(fd_pcpu, &key);
	fprintf(stderr, "kt_maps: delete kt_pcpu [4]: %s\n", r ? strerror(errno) : "ok");
	fprintf(truth, "TRUTH pcpu_delete key=4\n");
	fprintf(truth, "TRUTH mon delete key=4\n");
	free(pv);
}

/* The XDP program's helper calls, once. */
static int helper(void)
{
	char pkt[64] = {};
	struct kt_val v = { .hits = 99, .delta = 5, .tag = "x" };
	char vs[128];
	int fd = bpf_obj_get(KT_MAPS_DIR "/kt_helper"), r;

	if (fd < 0) {
		perror(KT_MAPS_DIR "/kt_helper");
		return 1;
	}
	LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);
	r = bpf_prog_test_run_opts(fd, &t);
	close(fd);
	fprintf(stderr, "kt_maps: XDP test run: %s (retval %u)\n", r ? strerror(errno) : "ok",
		t.retval);
	if (r)
		return 1;
	fprintf(truth, "TRUTH hash_update port=%d hits=99 flags=0\n", KT_HELPER_PORT);
	fprintf(truth, "TRUTH hash_update2 proto=17 delta=5 tag0=%d\n", 'x');
	mon_val(&v, vs, sizeof(vs));
	fprintf(truth, "TRUTH mon update key={ .port = %d, .proto = 17 } value=%s flags=BPF_ANY\n",
		KT_HELPER_PORT, vs);
	fprintf(truth, "TRUTH hash_delete port=%d proto=17\n", KT_HELPER_PORT + 1);
	fprintf(truth, "TRUTH mon delete key={ .port = %d, .proto = 17 }\n", KT_HELPER_PORT + 1);
	return 0;
}

static int open_pins(void)
{
	fd_hash = bpf_obj_get(KT_MAPS_DIR "/kt_hash");
	fd_other = bpf_obj_get(KT_MAPS_DIR "/kt_other");
	fd_arr = bpf_obj_get(KT_MAPS_DIR "/kt_arr");
	fd_pcpu = bpf_obj_get(KT_MAPS_DIR "/kt_pcpu");
	if (fd_hash < 0 || fd_other < 0 || fd_arr < 0 || fd_pcpu < 0) {
		perror("kt_maps: the pins under " KT_MAPS_DIR " (kt_maps setup)");
		return 1;
	}
	return 0;
}

static int setup(const char *path)
{
	struct bpf_object *obj;
	struct bpf_map *map;
	char pin[256];

	mkdir(KT_MAPS_DIR, 0700);
	obj = bpf_object__open_file(path, NULL);
	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "kt_maps: cannot load %s: %s\n", path, strerror(errno));
		return 1;
	}
	bpf_object__for_each_map(map, obj) {
		if (strchr(bpf_map__name(map), '.'))
			continue;	/* .rodata: bpffs takes no '.' */
		snprintf(pin, sizeof(pin), "%s/%s", KT_MAPS_DIR, bpf_map__name(map));
		if (bpf_map__pin(map, pin))
			return 1;
	}
	if (bpf_program__pin(bpf_object__find_program_by_name(obj, "kt_helper"),
			     KT_MAPS_DIR "/kt_helper"))
		return 1;
	bpf_object__close(obj);
	return 0;
}

static int cleanup(void)
{
	const char *names[] = { "kt_hash", "kt_other", "kt_arr", "kt_pcpu", "kt_helper" };
	char pin[256];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(pin, sizeof(pin), "%s/%s", KT_MAPS_DIR, names[i]);
		unlink(pin);
	}
	return rmdir(KT_MAPS_DIR) ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *path = getenv("KT_TRUTH");

	if (argc < 2) {
		fprintf(stderr, "usage: kt_maps setup OBJ | run | helper | cleanup\n");
		return 2;
	}
	if (!strcmp(argv[1], "setup"))
		return argc == 3 ? setup(argv[2]) : 2;
	if (!strcmp(argv[1], "cleanup"))
		return cleanup();
	truth = path ? fopen(path, "a") : stdout;
	if (!truth || open_pins())
		return 1;
	setvbuf(truth, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "run")) {
		user_space();
		return helper();
	}
	if (!strcmp(argv[1], "helper"))
		return helper();
	return 2;
}
