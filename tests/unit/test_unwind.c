// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * unwind/ without gdb: kernel addresses symbolized through a kallsyms of
 * the test's own and through /proc/kallsyms; the forms frames are printed
 * in; a process's maps snapshot; samples of this process (taken by
 * tests/targets/unwind/capture) unwound to _start, in a thread too, in
 * children gone before they were noted (over what the kernel reported of
 * their mappings); and each reason a stack stops early. (tests/e2e/unwind.sh compares with
 * gdb.)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/wait.h>

#include "test.h"
#include "output/mmap_feed.h"
#include "tests/targets/unwind/capture/uw_capture.h"
#include "unwind/unwinder.h"
#include "unwind/uw_frames.h"
#include "unwind/uw_maps.h"
#include "util/json.h"

int main(void);

static char tmpdir[] = "/tmp/test_unwind.XXXXXX";

static const char *tmp_path(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return path;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static struct bp_unwinder *fixture_unwinder(const char *kallsyms)
{
	struct bp_unwinder_opts opts = { .sz = sizeof(opts) };
	char *ks = strdup(tmp_path("kallsyms")), *mods = strdup(tmp_path("modules"));
	struct bp_unwinder *u;

	write_file(ks, kallsyms);
	write_file(mods, "mymod 8192 0 - Live 0xffffffffc0001000\n");
	opts.kallsyms_path = ks;
	opts.modules_path = mods;
	u = bp_unwinder__new(&opts);
	free(ks);
	free(mods);
	return u;
}

static const char fixture[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81001000 t __pfx_alpha\n"
	"ffffffff81001010 t alpha_alias\n"
	"ffffffff81001010 T alpha\n"
	"ffffffff81001010 t __pfx_beta_wrong\n"
	"ffffffff81001100 T beta\n"
	"ffffffff81002000 D some_data\n"
	"ffffffff81003000 T _etext\n"
	"ffffffffc0001000 t mod_fn\t[mymod]\n"
	"ffffffffc0001200 t mod_fn2\t[mymod]\n";

static void check_frame(const struct bp_frames *f, int i, const char *func, __u64 off,
			const char *module)
{
	char buf[256];

	CHECK(i < f->n, "frame %d of %d", i, f->n);
	if (i >= f->n)
		return;
	bp_frame__snprintf(&f->frames[i], buf, sizeof(buf));
	if (!func) {
		CHECK(!f->frames[i].func, "frame %d: '%s'", i, buf);
		return;
	}
	CHECK(f->frames[i].func && !strcmp(f->frames[i].func, func) && f->frames[i].has_off &&
	      f->frames[i].func_off == off, "frame %d: '%s', want %s+0x%llx", i, buf, func,
	      (unsigned long long)off);
	CHECK((!module && !f->frames[i].module) ||
	      (module && f->frames[i].module && !strcmp(module, f->frames[i].module)),
	      "frame %d: '%s', module %s", i, buf, module ? module : "(kernel)");
}

static void test_kernel_fixture(void)
{
	const __u64 ips[] = {
		0xffffffff81001015,	/* alpha+0x5 (the first: exact) */
		0xffffffff81001100,	/* returns to beta's first byte: a call ending alpha */
		0xffffffffc0001210,	/* a module's */
		0xffffffff81002500,	/* past data, before _etext: beta's */
		0xffffffff81003500,	/* past _etext */
		0xffffffffc0003100,	/* past the module's end */
		0xffffffff81001009,	/* a return address into the padding */
		0,			/* the end */
		0xffffffff81001015,
	};
	struct bp_unwinder *u = fixture_unwinder(fixture);
	struct bp_frames f;
	char buf[256];

	CHECK(u, "bp_unwinder__new: %s", strerror(errno));
	if (!u)
		return;
	CHECK_INT(bp_unwinder__kernel(u, ips, sizeof(ips) / sizeof(ips[0]), &f), 0);
	CHECK_INT(f.n, 7);
	CHECK(f.kernel && f.stop == BP_UNWIND_END, "kernel %d stop %d", f.kernel, f.stop);
	check_frame(&f, 0, "alpha", 0x5, NULL);
	check_frame(&f, 1, "alpha", 0xf0, NULL);
	check_frame(&f, 2, "mod_fn2", 0x10, "mymod");
	check_frame(&f, 3, "beta", 0x1400, NULL);
	check_frame(&f, 4, NULL, 0, NULL);
	check_frame(&f, 5, NULL, 0, NULL);
	check_frame(&f, 6, "__pfx_alpha", 0x9, NULL);
	bp_frame__snprintf(&f.frames[0], buf, sizeof(buf));
	CHECK_STR(buf, "0xffffffff81001015 alpha+0x5");
	bp_frame__snprintf(&f.frames[2], buf, sizeof(buf));
	CHECK_STR(buf, "0xffffffffc0001210 mod_fn2+0x10 [mymod]");
	bp_frame__snprintf(&f.frames[4], buf, sizeof(buf));
	CHECK_STR(buf, "0xffffffff81003500 ??");
	bp_frames__free(&f);
	bp_unwinder__free(u);
}

static void test_kernel_hidden(void)
{
	struct bp_unwinder *u = fixture_unwinder("0000000000000000 T _stext\n"
						 "0000000000000000 T alpha\n");
	__u64 ip = 0xffffffff81001015;
	struct bp_frames f;

	if (!u)
		return;
	CHECK_INT(bp_unwinder__kernel(u, &ip, 1, &f), 0);
	CHECK_INT(f.n, 1);
	CHECK(f.stop == BP_UNWIND_ERROR && f.reason && strstr(f.reason, "kptr_restrict"),
	      "stop %d: %s", f.stop, f.reason ? f.reason : "(none)");
	bp_frames__free(&f);
	bp_unwinder__free(u);
}

/* Symbols of the running kernel, from /proc/kallsyms read here. */
static void test_kernel_real(void)
{
	unsigned long long addr, prev_addr = 0, next;
	char type, name[256], prev_name[256] = "", line[512];
	struct bp_unwinder *u;
	int checked = 0, tried = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f) {
		printf("      (no /proc/kallsyms)\n");
		return;
	}
	u = bp_unwinder__new(NULL);
	while (u && checked < 8 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || strchr(line, '['))
			continue;
		if (!addr)
			break;	/* hidden */
		next = addr;
		/* prev_name (a global function, alone at its address) ends at
		 * the next symbol, this one */
		if (prev_addr && next > prev_addr + 2 && ++tried % 997 == 0) {
			__u64 ip = prev_addr + 1;
			struct bp_frames fr;

			CHECK_INT(bp_unwinder__kernel(u, &ip, 1, &fr), 0);
			check_frame(&fr, 0, prev_name, 1, NULL);
			bp_frames__free(&fr);
			checked++;
		}
		if ((type == 'T') && strncmp(name, "__pfx_", 6) && strncmp(name, "__cfi_", 6) &&
		    addr != prev_addr) {
			prev_addr = addr;
			strcpy(prev_name, name);
		} else {
			prev_addr = 0;
		}
	}
	fclose(f);
	bp_unwinder__free(u);
	if (!checked)
		printf("      (kallsyms hides its addresses: nothing checked)\n");
	else
		CHECK(checked >= 4, "only %d symbols checked", checked);
}

static struct bp_frames sample_frames(void)
{
	static const char *files[] = { "a.c", "/src/b.c" };
	struct bp_frame fr[] = {
		{ .addr = 0x1234, .func = "inner", .inlined_into = "outer", .file = files[0],
		  .line = 12, .module = "/bin/x", .is_inline = true },
		{ .addr = 0x1234, .func = "outer", .file = files[1], .line = 34, .module = "/bin/x",
		  .has_off = true, .func_off = 0x14 },
		{ .addr = 0x5678, .module = "/lib/y.so" },
		{ .addr = 0x9abc, .func = "nodebug", .module = "/lib/y.so", .has_off = true,
		  .func_off = 0x2a },
	};
	struct bp_frames f;
	size_t i;

	uw_frames__init(&f, false);
	for (i = 0; i < sizeof(fr) / sizeof(fr[0]); i++)
		CHECK_INT(uw_frames__push(&f, &fr[i]), 0);
	return f;
}

static void test_formats(void)
{
	struct bp_frames f = sample_frames();
	char buf[256], *folded, *text = NULL, *json = NULL;
	size_t len = 0;
	struct bp_json *j;
	FILE *mem;

	bp_frame__snprintf(&f.frames[0], buf, sizeof(buf));
	CHECK_STR(buf, "0x1234 inner (inlined into outer) a.c:12 [/bin/x]");
	bp_frame__snprintf(&f.frames[1], buf, sizeof(buf));
	CHECK_STR(buf, "0x1234 outer b.c:34 [/bin/x]");
	bp_frame__snprintf(&f.frames[2], buf, sizeof(buf));
	CHECK_STR(buf, "0x5678 ?? [/lib/y.so]");
	bp_frame__snprintf(&f.frames[3], buf, sizeof(buf));
	CHECK_STR(buf, "0x9abc nodebug+0x2a [/lib/y.so]");
	CHECK_INT(bp_frame__snprintf(&f.frames[3], buf, 4), strlen("0x9abc nodebug+0x2a [/lib/y.so]"));
	CHECK_STR(buf, "0x9");
	folded = bp_frames__folded(&f);
	CHECK_STR(folded, "nodebug;??;outer;inner");
	free(folded);
	CHECK_INT(uw_frames__stop(&f, BP_UNWIND_NO_CFI, "no CFI for 0x%x in %s", 0x9abc, "/lib/y.so"), 0);
	folded = bp_frames__folded(&f);
	CHECK_STR(folded, "[unwind stopped];nodebug;??;outer;inner");
	free(folded);
	mem = open_memstream(&text, &len);
	bp_frames__fprint(&f, mem, "  ");
	fclose(mem);
	CHECK_STR(text, "  0x1234 inner (inlined into outer) a.c:12 [/bin/x]\n"
			"  0x1234 outer b.c:34 [/bin/x]\n"
			"  0x5678 ?? [/lib/y.so]\n"
			"  0x9abc nodebug+0x2a [/lib/y.so]\n"
			"  [unwind stopped: no CFI for 0x9abc in /lib/y.so]\n");
	free(text);
	mem = open_memstream(&json, &len);
	j = bp_json__new(mem, NULL);
	bp_frames__write_json(&f, j);
	CHECK_INT(bp_json__free(j), 0);
	fclose(mem);
	CHECK_STR(json, "[{\"addr\":\"0x1234\",\"func\":\"inner\",\"inlined_into\":\"outer\",\"file\":\"a.c\","
			"\"line\":12,\"module\":\"/bin/x\",\"inline\":true},"
			"{\"addr\":\"0x1234\",\"func\":\"outer\",\"offset\":20,\"file\":\"/src/b.c\","
			"\"line\":34,\"module\":\"/bin/x\",\"inline\":false},"
			"{\"addr\":\"0x5678\",\"module\":\"/lib/y.so\",\"inline\":false},"
			"{\"addr\":\"0x9abc\",\"func\":\"nodebug\",\"offset\":42,\"module\":\"/lib/y.so\","
			"\"inline\":false},"
			"{\"stopped\":\"no CFI for 0x9abc in /lib/y.so\"}]\n");
	free(json);
	bp_frames__free(&f);
	CHECK(!f.n && !f.frames && !f.strs, "freed");
}

static void test_maps_self(void)
{
	char exe[PATH_MAX];
	const struct uw_map *m;
	struct uw_maps *maps;
	bool vdso = false, libc = false;
	size_t i;
	ssize_t n;

	CHECK_INT(uw_maps__read(getpid(), &maps), 0);
	if (!maps)
		return;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	m = uw_maps__find(maps, (__u64)(unsigned long)test_maps_self);
	CHECK(m && !strcmp(m->path, exe), "%s, want %s", m ? m->path : "(none)", exe);
	/* a function of libc's that no sanitizer intercepts */
	m = uw_maps__find(maps, (__u64)(unsigned long)getpid);
	CHECK(m && strstr(m->path, "libc"), "getpid in %s", m ? m->path : "(none)");
	for (i = 0; i < maps->n; i++) {
		vdso |= maps->v[i].vdso;
		libc |= strstr(maps->v[i].path, "libc.so") != NULL;
		CHECK(!i || maps->v[i].low >= maps->v[i - 1].high, "sorted, apart");
	}
	/* (valgrind maps no vDSO) */
	CHECK((vdso || !getauxval(AT_SYSINFO_EHDR)) && libc, "vdso %d libc %d", vdso, libc);
	CHECK(uw_proc__older_than(maps->start_time, maps->taken_ns), "started before its snapshot");
	CHECK(!uw_proc__older_than(maps->start_time, 1), "started after boot");
	uw_maps__free(maps);
	CHECK_INT(uw_maps__read(INT_MAX - 7, &maps), -ESRCH);
}

/* A sample of this process, read back from the file the capture wrote. */
static struct bp_stack_sample *load_sample(const char *path, size_t *len)
{
	struct bp_stack_sample *s = malloc(sizeof(*s) + BP_STACK_MAX_BYTES);
	FILE *f = fopen(path, "rb");

	*len = 0;
	if (s && f)
		*len = fread(s, 1, sizeof(*s) + BP_STACK_MAX_BYTES, f);
	if (f)
		fclose(f);
	return s;
}

static bool has_func(const struct bp_frames *f, const char *func)
{
	int i;

	for (i = 0; i < f->n; i++)
		if (f->frames[i].func && !strcmp(f->frames[i].func, func))
			return true;
	return false;
}

static void dump(const struct bp_frames *f)
{
	bp_frames__fprint(f, stdout, "      | ");
}

__attribute__((noinline)) static int sample_here(const char *name)
{
	int err = uw_take_sample(tmp_path(name));

	asm volatile("" : : : "memory");
	return err;
}

static void test_user_self(void)
{
	struct bp_unwinder *u = bp_unwinder__new(NULL);
	struct bp_stack_sample *s;
	struct bp_frames f;
	size_t len;

	CHECK_INT(sample_here("self.sample"), 0);
	s = load_sample(tmp_path("self.sample"), &len);
	CHECK(u && s && len > sizeof(*s), "a sample of %zu bytes", len);
	if (!u || !s || len <= sizeof(*s))
		goto out;
	CHECK_INT(bp_unwinder__note_pid(u, getpid()), 0);
	CHECK_INT(bp_unwinder__user(u, s, len, &f), 0);
	CHECK(f.n > 4 && f.frames[0].func && !strcmp(f.frames[0].func, "uw_take_sample") &&
	      has_func(&f, "sample_here") && has_func(&f, "test_user_self") && has_func(&f, "main") &&
	      !strcmp(f.frames[f.n - 1].func ? f.frames[f.n - 1].func : "", "_start") &&
	      f.stop == BP_UNWIND_END, "stop %d (%s)", f.stop, f.reason ? f.reason : "");
	CHECK(f.frames[0].file && strstr(f.frames[0].file, "uw_capture.c") && f.frames[0].line > 0,
	      "frame 0 at %s:%d", f.frames[0].file ? f.frames[0].file : "?", f.frames[0].line);
	if (test_cur_failed)
		dump(&f);
	bp_frames__free(&f);

	/* the sample cut short: its stack ends */
	CHECK_INT(bp_unwinder__user(u, s, len, &f), 0);
	{
		struct bp_stack_sample *cut = malloc(len);
		int n = f.n;

		bp_frames__free(&f);
		memcpy(cut, s, len);
		cut->size = 64;
		CHECK_INT(bp_unwinder__user(u, cut, sizeof(*cut) + 64, &f), 0);
		CHECK(f.stop == BP_UNWIND_STACK_END && f.n < n && f.reason &&
		      strstr(f.reason, "the sample's stack ends at 0x"), "stop %d (%s) after %d frames",
		      f.stop, f.reason ? f.reason : "", f.n);
		bp_frames__free(&f);
		/* longer than the bytes given */
		CHECK_INT(bp_unwinder__user(u, cut, sizeof(*cut) + 32, &f), 0);
		CHECK(f.stop == BP_UNWIND_BAD_SAMPLE && f.n == 1, "stop %d, %d frames", f.stop, f.n);
		bp_frames__free(&f);
		/* a PC in no module */
		cut->regs[0] = 0x1000;
		CHECK_INT(bp_unwinder__user(u, cut, sizeof(*cut) + 64, &f), 0);
		CHECK(f.stop == BP_UNWIND_NO_MODULE && f.n == 1 && f.frames[0].addr == 0x1000 &&
		      !f.frames[0].func, "stop %d (%s), %d frames", f.stop, f.reason ? f.reason : "", f.n);
		bp_frames__free(&f);
		/* a PC in a module, where it has no CFI: its ELF header */
		{
			struct uw_maps *maps;

			if (!uw_maps__read(getpid(), &maps)) {
				const struct uw_map *m = uw_maps__find(maps, (__u64)(unsigned long)main);

				cut->regs[0] = m ? m->low + 0x10 : 0;
				uw_maps__free(maps);
			}
		}
		CHECK_INT(bp_unwinder__user(u, cut, sizeof(*cut) + 64, &f), 0);
		CHECK(f.stop == BP_UNWIND_NO_CFI && f.n == 1 && f.reason && strstr(f.reason, "no CFI for 0x"),
		      "stop %d (%s)", f.stop, f.reason ? f.reason : "");
		bp_frames__free(&f);
		/* a PC in the vDSO: its symbols come from this process's copy */
		{
			void *h = dlopen("linux-vdso.so.1", RTLD_NOW | RTLD_NOLOAD);
			void *fn = h ? dlsym(h, "__vdso_clock_gettime") : NULL;

			if (fn) {
				cut->regs[0] = (__u64)(unsigned long)fn;
				CHECK_INT(bp_unwinder__user(u, cut, sizeof(*cut) + 64, &f), 0);
				CHECK(f.n >= 1 && f.frames[0].module && !strcmp(f.frames[0].module, "[vdso]") &&
				      f.frames[0].func && strstr(f.frames[0].func, "clock_gettime") &&
				      f.frames[0].has_off && f.frames[0].func_off == 0,
				      "frame 0: %s in %s", f.n && f.frames[0].func ? f.frames[0].func : "?",
				      f.n && f.frames[0].module ? f.frames[0].module : "?");
				bp_frames__free(&f);
			} else {
				printf("      (no vDSO: not checked)\n");
			}
		}
		/* taken before this process started: another process's */
		cut->time_ns = 1;
		CHECK_INT(bp_unwinder__user(u, cut, sizeof(*cut) + 64, &f), 0);
		CHECK(f.stop == BP_UNWIND_NO_PROCESS && f.n == 1, "stop %d (%s)", f.stop,
		      f.reason ? f.reason : "");
		bp_frames__free(&f);
		free(cut);
	}
	CHECK_INT(bp_unwinder__user(u, s, sizeof(*s) - 1, &f), -EINVAL);
	bp_unwinder__forget_pid(u, getpid());
	bp_unwinder__flush(u);
	CHECK_INT(bp_unwinder__note_pid(u, -1), -EINVAL);
	CHECK_INT(bp_unwinder__note_pid(u, INT_MAX - 7), -ESRCH);
out:
	free(s);
	bp_unwinder__free(u);
}

/* A child's sample, unwound after it exited and was reaped, its modules
 * noted while it waited; then one never noted. */
static void test_user_exited(void)
{
	struct bp_unwinder_opts opts = { .sz = sizeof(opts), .max_procs = 1 };
	struct bp_unwinder *u = bp_unwinder__new(&opts);
	int go[2], status;
	struct bp_stack_sample *s;
	struct bp_frames f;
	size_t len;
	pid_t pid;
	char c;

	if (!u || pipe(go))
		return;
	for (int round = 0; round < 2; round++) {
		pid = fork();
		if (pid == 0) {
			close(go[1]);
			sample_here(round ? "child1.sample" : "child0.sample");
			read(go[0], &c, 1);
			_exit(0);
		}
		while (access(tmp_path(round ? "child1.sample" : "child0.sample"), F_OK))
			usleep(10000);
		if (round == 0)
			CHECK_INT(bp_unwinder__note_pid(u, pid), 0);
		/* noting this process evicts the child (max_procs 1) in round 1 */
		if (round == 1)
			CHECK_INT(bp_unwinder__note_pid(u, getpid()), 0);
		write(go[1], "x", 1);
		waitpid(pid, &status, 0);
		s = load_sample(tmp_path(round ? "child1.sample" : "child0.sample"), &len);
		CHECK_INT(bp_unwinder__user(u, s, len, &f), 0);
		if (round == 0) {
			CHECK(f.stop == BP_UNWIND_END && has_func(&f, "test_user_exited") &&
			      has_func(&f, "main"), "stop %d (%s)", f.stop, f.reason ? f.reason : "");
		} else {
			CHECK(f.stop == BP_UNWIND_NO_PROCESS && f.n == 1 && f.reason &&
			      strstr(f.reason, "exited before its modules were read"), "stop %d (%s)",
			      f.stop, f.reason ? f.reason : "");
		}
		if (test_cur_failed)
			dump(&f);
		bp_frames__free(&f);
		free(s);
	}
	close(go[0]);
	close(go[1]);
	bp_unwinder__free(u);
}

/*
 * Children that exited and were reaped before the unwinder heard of them,
 * never noted: unwound over what the kernel reported (a perf side-band,
 * output/mmap_feed.c). A forked child has this process's maps from the
 * fork (read from /proc, as this process is older than the reports); an
 * exec'd one (uw_target, which samples inside a qsort() comparator and
 * exits) the mappings its exec reported, libc's too.
 */
static void test_user_reported(void)
{
	static const char target[] = "build/targets/uw_target-gcc-O2";
	struct bp_unwinder *u = bp_unwinder__new(NULL);
	struct bp_mmap_feed *feed = NULL;
	struct bp_stack_sample *s = NULL;
	struct bp_frames f;
	int err, status;
	size_t len;
	pid_t pid;

	err = u ? bp_mmap_feed__open(&feed) : -ENOMEM;
	if (err) {
		printf("      (the kernel's reports of mappings: %s: not checked)\n", strerror(-err));
		goto out;
	}
	pid = fork();
	if (pid == 0) {
		sample_here("forked.sample");
		_exit(0);
	}
	waitpid(pid, &status, 0);
	CHECK(bp_mmap_feed__read(feed, u) > 0, "events read");
	s = load_sample(tmp_path("forked.sample"), &len);
	CHECK(s && s->pid == (__u32)pid, "the child's sample");
	CHECK_INT(bp_unwinder__user(u, s, len, &f), 0);
	CHECK(f.stop == BP_UNWIND_END && has_func(&f, "sample_here") &&
	      has_func(&f, "test_user_reported") && has_func(&f, "main"), "stop %d (%s)", f.stop,
	      f.reason ? f.reason : "");
	if (test_cur_failed)
		dump(&f);
	bp_frames__free(&f);
	free(s);
	s = NULL;
	CHECK(bp_unwinder__settle(u, 0) >= 1, "the child's exit");

	if (access(target, X_OK)) {
		printf("      (%s is missing: exec not checked)\n", target);
		goto out;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		/* (it says where its sample went) */
		if (null >= 0)
			dup2(null, 1);
		execl(target, target, "sort", tmp_path("exec.sample"), (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && !WEXITSTATUS(status), "%s ran", target);
	CHECK(bp_mmap_feed__read(feed, u) > 0, "events read");
	s = load_sample(tmp_path("exec.sample"), &len);
	CHECK(s && s->pid == (__u32)pid, "the exec'd child's sample");
	CHECK_INT(bp_unwinder__user(u, s, len, &f), 0);
	CHECK(f.stop == BP_UNWIND_END && has_func(&f, "weigh") && has_func(&f, "main") &&
	      f.n && f.frames[f.n - 1].func && !strcmp(f.frames[f.n - 1].func, "_start"),
	      "stop %d (%s)", f.stop, f.reason ? f.reason : "");
	{
		bool libc = false;

		for (int i = 0; i < f.n; i++)
			libc |= f.frames[i].module && strstr(f.frames[i].module, "/libc.so") &&
				f.frames[i].func;
		CHECK(libc, "libc's frames");
	}
	if (test_cur_failed)
		dump(&f);
	bp_frames__free(&f);
	CHECK(bp_unwinder__settle(u, 0) >= 1, "the child's exit");
	/* forgotten: no maps are made up for it */
	CHECK_INT(bp_unwinder__user(u, s, len, &f), 0);
	CHECK(f.stop == BP_UNWIND_NO_PROCESS && f.n == 1, "stop %d (%s)", f.stop,
	      f.reason ? f.reason : "");
	bp_frames__free(&f);
out:
	free(s);
	bp_mmap_feed__free(feed);
	bp_unwinder__free(u);
}

/*
 * A child gone since, its mappings reported by hand: each executable
 * mapping of this process's maps (the child's, forked) as an exec's
 * records would give it. Unwound through the files opened by path, their
 * spans from their headers; with the program's inode not the one
 * reported (the file replaced since), the stack stops at its first frame
 * there, which names no function: never another file's symbols.
 */
static void test_user_replaced(void)
{
	/* (not on the stack: the sample's 8 KiB must reach main) */
	static char line[512], path[PATH_MAX], self[PATH_MAX];
	struct bp_stack_sample *s = NULL;
	struct bp_frames f;
	int status, round;
	size_t len;
	ssize_t n;
	pid_t pid;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = 0;
	pid = fork();
	if (pid == 0) {
		sample_here("replaced.sample");
		_exit(0);
	}
	waitpid(pid, &status, 0);
	s = load_sample(tmp_path("replaced.sample"), &len);
	CHECK(s && len > sizeof(*s) && s->pid == (__u32)pid, "the child's sample");
	if (!s || len <= sizeof(*s))
		goto out;
	for (round = 0; round < 2; round++) {
		struct bp_unwinder *u = bp_unwinder__new(NULL);
		struct bp_proc_event ev = { .kind = BP_PROC_EXEC, .pid = pid, .time_ns = 1 };
		FILE *maps = fopen("/proc/self/maps", "r");
		int fed = 0;

		CHECK_INT(bp_unwinder__proc_event(u, &ev), 0);
		while (maps && fgets(line, sizeof(line), maps)) {
			unsigned long long lo, hi, off, ino;
			unsigned int maj, min;
			char perms[8];

			path[0] = 0;
			if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %4095s", &lo, &hi, perms, &off,
				   &maj, &min, &ino, path) < 7 || perms[2] != 'x' ||
			    (path[0] != '/' && strcmp(path, "[vdso]")))
				continue;
			ev = (struct bp_proc_event){
				.kind = BP_PROC_MMAP, .pid = pid, .time_ns = 2 + fed, .start = lo,
				.len = hi - lo, .pgoff = off, .ino = ino, .dev_major = maj,
				.dev_minor = min, .path = path,
			};
			/* round 1: another file at the program's path */
			if (round == 1 && !strcmp(path, self))
				ev.ino++;
			CHECK_INT(bp_unwinder__proc_event(u, &ev), 0);
			fed++;
		}
		if (maps)
			fclose(maps);
		CHECK(fed >= 3, "%d executable mappings", fed);
		CHECK_INT(bp_unwinder__user(u, s, len, &f), 0);
		if (round == 0)
			CHECK(f.stop == BP_UNWIND_END && has_func(&f, "sample_here") &&
			      has_func(&f, "test_user_replaced") && has_func(&f, "main"),
			      "stop %d (%s)", f.stop, f.reason ? f.reason : "");
		else
			CHECK(f.stop == BP_UNWIND_NO_ELF && f.n == 1 && !f.frames[0].func &&
			      f.reason && strstr(f.reason, "another file has its path now"),
			      "stop %d (%s), %d frames", f.stop, f.reason ? f.reason : "", f.n);
		if (test_cur_failed)
			dump(&f);
		bp_frames__free(&f);
		bp_unwinder__free(u);
	}
out:
	free(s);
}

/* 150 calls deep, small frames: all in the sample, more than are unwound */
__attribute__((noinline)) static int recurse(int n)
{
	int r;

	if (!n)
		return sample_here("deep.sample");
	r = recurse(n - 1);
	asm volatile("" : "+r"(r) : : "memory");
	return r;
}

static void test_user_limit(void)
{
	struct bp_unwinder *u = bp_unwinder__new(NULL);
	struct bp_stack_sample *s;
	struct bp_frames f;
	size_t len;
	int i, n = 0;

	if (!u)
		return;
	CHECK_INT(recurse(150), 0);
	s = load_sample(tmp_path("deep.sample"), &len);
	CHECK_INT(bp_unwinder__user(u, s, len, &f), 0);
	for (i = 0; i < f.n; i++)
		n += f.frames[i].func && !strcmp(f.frames[i].func, "recurse");
	CHECK(f.stop == BP_UNWIND_LIMIT && f.n_unwound == BP_UNWIND_MAX_FRAMES &&
	      /* (gcc makes recurse(0) jump to sample_here: a tail-call frame) */
	      n >= BP_UNWIND_MAX_FRAMES - 3 && f.reason && !strcmp(f.reason, "127 frames, the most unwound"),
	      "stop %d (%s), %d frames, %d unwound, %d of recurse", f.stop, f.reason ? f.reason : "",
	      f.n, f.n_unwound, n);
	if (test_cur_failed)
		dump(&f);
	bp_frames__free(&f);
	free(s);
	bp_unwinder__free(u);
}

static void *thread_main(void *arg)
{
	sample_here("thread.sample");
	return arg;
}

/* A thread's stack ends at its clone's CFI too. */
static void test_user_thread(void)
{
	struct bp_unwinder *u = bp_unwinder__new(NULL);
	struct bp_stack_sample *s;
	struct bp_frames f;
	pthread_t t;
	size_t len;

	if (!u || pthread_create(&t, NULL, thread_main, NULL))
		return;
	pthread_join(t, NULL);
	s = load_sample(tmp_path("thread.sample"), &len);
	CHECK(s && len > sizeof(*s) && s->tid != s->pid, "a thread's sample");
	CHECK_INT(bp_unwinder__user(u, s, len, &f), 0);
	CHECK(f.stop == BP_UNWIND_END && has_func(&f, "thread_main") && has_func(&f, "start_thread") &&
	      !has_func(&f, "main"), "stop %d (%s)", f.stop, f.reason ? f.reason : "");
	if (test_cur_failed)
		dump(&f);
	bp_frames__free(&f);
	free(s);
	bp_unwinder__free(u);
}

static void test_opts(void)
{
	struct { struct bp_unwinder_opts o; char more[8]; } big = { .o.sz = sizeof(big) };

	big.more[3] = 1;
	CHECK(!bp_unwinder__new(&big.o) && errno == EINVAL, "an unknown option is refused");
}

int main(void)
{
	char cmd[64];

	if (!mkdtemp(tmpdir)) {
		printf("FAIL test_unwind: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	RUN(test_kernel_fixture);
	RUN(test_kernel_hidden);
	RUN(test_kernel_real);
	RUN(test_formats);
	RUN(test_maps_self);
	RUN(test_user_self);
	RUN(test_user_exited);
	RUN(test_user_reported);
	RUN(test_user_replaced);
	RUN(test_user_thread);
	RUN(test_user_limit);
	RUN(test_opts);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd))
		printf("      (could not remove %s)\n", tmpdir);
	return TEST_EXIT();
}
