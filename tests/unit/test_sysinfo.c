// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests for the kernel-record readers behind `bpfprobe list` and
 * `bpfprobe monitor` (sysinfo/) and the metadata format (loader/metadata.c):
 * everything that is decoding, on synthetic records laid out as the 6.18
 * kernel writes them, and the uprobe symbolizer against the test targets.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <bpfprobe/bpfprobe.h>

#include "loader/metadata.h"
#include "sysinfo/attach_info.h"
#include "sysinfo/bpf_events.h"
#include "sysinfo/fd_refs.h"
#include "sysinfo/usym.h"
#include "tests/unit/test.h"

static const char *fmt(const struct bp_attach *a)
{
	static char buf[512];

	bp_attach__format(a, buf, sizeof(buf));
	return buf;
}

/* ---- uapi layout --------------------------------------------------------- */

static void test_link_info_layout(void)
{
	/* the byte offsets the 6.18 kernel uses (its BTF says so) */
	CHECK_INT(offsetof(struct bp_link_info, perf_event.type), 16);
	CHECK_INT(offsetof(struct bp_link_info, perf_event.uprobe.file_name), 24);
	CHECK_INT(offsetof(struct bp_link_info, perf_event.uprobe.name_len), 32);
	CHECK_INT(offsetof(struct bp_link_info, perf_event.uprobe.offset), 36);
	CHECK_INT(offsetof(struct bp_link_info, perf_event.uprobe.cookie), 40);
	CHECK_INT(offsetof(struct bp_link_info, perf_event.kprobe.addr), 40);
	CHECK_INT(offsetof(struct bp_link_info, raw_tracepoint.tp_name_len), 24);
	CHECK_INT(offsetof(struct bp_link_info, uprobe_multi.count), 52);
	CHECK_INT(offsetof(struct bp_link_info, kprobe_multi.flags), 28);
	CHECK_INT(sizeof(struct bp_link_info), 64);
}

/* ---- link info decoding --------------------------------------------------- */

static void test_link_uprobe(void)
{
	struct bp_link_info info = { .type = BP_LINK_TYPE_PERF_EVENT, .id = 7, .prog_id = 42 };
	char name[] = "/usr/bin/app";
	struct bp_attach a;

	info.perf_event.type = BP_PERF_EVENT_UPROBE;
	info.perf_event.uprobe.file_name = (__u64)(unsigned long)name;
	info.perf_event.uprobe.name_len = sizeof(name);
	info.perf_event.uprobe.offset = 0x1440;
	info.perf_event.uprobe.cookie = 99;
	CHECK_INT(bp_attach__from_link(&info, &a), 0);
	CHECK_INT(a.kind, BP_ATTACH_UPROBE);
	CHECK(!a.is_return, "entry probe");
	CHECK_STR(a.target, "/usr/bin/app");
	CHECK_INT(a.offset, 0x1440);
	CHECK_INT(a.cookie, 99);
	CHECK_INT(a.link_id, 7);
	CHECK_INT(a.prog_id, 42);
	CHECK(!a.pid_known, "a perf link does not say its task");
	CHECK_STR(fmt(&a), "uprobe:/usr/bin/app:0x1440");
	a.symbol = strdup("handle_req");
	a.sym_off = 4;
	CHECK_STR(fmt(&a), "uprobe:/usr/bin/app:handle_req+0x4");
	a.sym_off = 0;
	CHECK_STR(fmt(&a), "uprobe:/usr/bin/app:handle_req");
	bp_attach__free(&a);

	info.perf_event.type = BP_PERF_EVENT_URETPROBE;
	CHECK_INT(bp_attach__from_link(&info, &a), 0);
	CHECK(a.is_return, "uretprobe is a return probe");
	CHECK_STR(bp_attach__kind_str(&a), "uretprobe");
	bp_attach__free(&a);
}

static void test_link_kprobe_tracepoint_event(void)
{
	struct bp_link_info info = { .type = BP_LINK_TYPE_PERF_EVENT, .id = 1, .prog_id = 2 };
	char func[] = "do_sys_openat2", tp[] = "sched_switch";
	struct bp_attach a;

	info.perf_event.type = BP_PERF_EVENT_KRETPROBE;
	info.perf_event.kprobe.func_name = (__u64)(unsigned long)func;
	info.perf_event.kprobe.offset = 8;
	info.perf_event.kprobe.addr = 0xffffffff816d2230ull;
	CHECK_INT(bp_attach__from_link(&info, &a), 0);
	CHECK_INT(a.kind, BP_ATTACH_KPROBE);
	CHECK(a.is_return, "kretprobe");
	CHECK_INT(a.addr, 0xffffffff816d2230ull);
	CHECK_STR(fmt(&a), "kretprobe:do_sys_openat2+0x8");
	bp_attach__free(&a);

	memset(&info.perf_event, 0, sizeof(info.perf_event));
	info.perf_event.type = BP_PERF_EVENT_TRACEPOINT;
	info.perf_event.tracepoint.tp_name = (__u64)(unsigned long)tp;
	CHECK_INT(bp_attach__from_link(&info, &a), 0);
	CHECK_STR(fmt(&a), "tracepoint:sched_switch");
	bp_attach__free(&a);

	memset(&info.perf_event, 0, sizeof(info.perf_event));
	info.perf_event.type = BP_PERF_EVENT_EVENT;
	info.perf_event.event.type = PERF_TYPE_SOFTWARE;
	info.perf_event.event.config = PERF_COUNT_SW_CPU_CLOCK;
	CHECK_INT(bp_attach__from_link(&info, &a), 0);
	CHECK_STR(fmt(&a), "perf_event:type=1,config=0");
	bp_attach__free(&a);

	/* a kernel before 6.6: a perf link without details */
	memset(&info.perf_event, 0, sizeof(info.perf_event));
	CHECK_INT(bp_attach__from_link(&info, &a), 0);
	CHECK_INT(a.kind, BP_ATTACH_UNKNOWN);
	CHECK_STR(fmt(&a), "link:perf_event");
	bp_attach__free(&a);
}

static void test_link_raw_tracing_other(void)
{
	struct bp_link_info info = { .type = BP_LINK_TYPE_RAW_TRACEPOINT, .id = 3, .prog_id = 4 };
	char tp[] = "sched_process_exec";
	struct bp_attach a;

	info.raw_tracepoint.tp_name = (__u64)(unsigned long)tp;
	CHECK_INT(bp_attach__from_link(&info, &a), 0);
	CHECK_STR(fmt(&a), "raw_tracepoint:sched_process_exec");
	CHECK(a.pid_known && a.pid == -1, "raw tracepoints run in every task");
	bp_attach__free(&a);

	memset(&info, 0, sizeof(info));
	info.type = BP_LINK_TYPE_TRACING;
	info.tracing.attach_type = BPF_TRACE_FEXIT;
	CHECK_INT(bp_attach__from_link(&info, &a), 0);
	a.target = strdup("vfs_read");	/* the caller resolves BTF names */
	CHECK_STR(fmt(&a), "fexit:vfs_read");
	CHECK(a.is_return, "fexit is a return probe");
	bp_attach__free(&a);

	info.tracing.attach_type = BPF_MODIFY_RETURN;
	CHECK_INT(bp_attach__from_link(&info, &a), 0);
	CHECK_STR(bp_attach__kind_str(&a), "fmod_ret");
	bp_attach__free(&a);

	info.tracing.attach_type = BPF_TRACE_ITER;
	CHECK_INT(bp_attach__from_link(&info, &a), -ENOTSUP);

	memset(&info, 0, sizeof(info));
	info.type = BPF_LINK_TYPE_CGROUP;
	CHECK_INT(bp_attach__from_link(&info, &a), -ENOTSUP);
}

static void test_task_fd_query(void)
{
	struct bp_attach a, b;

	CHECK_INT(bp_attach__from_task_fd(5, BPF_FD_TYPE_URETPROBE, "/bin/app", 0x40, 0, &a), 0);
	CHECK_INT(a.kind, BP_ATTACH_UPROBE);
	CHECK(a.is_return, "uretprobe");
	CHECK_INT(a.link_id, 0);
	CHECK_STR(fmt(&a), "uretprobe:/bin/app:0x40");

	/* the same point from a link: told to be the same */
	CHECK_INT(bp_attach__copy(&b, &a), 0);
	b.link_id = 9;
	CHECK(bp_attach__same_point(&a, &b), "same point");
	b.offset = 0x44;
	CHECK(!bp_attach__same_point(&a, &b), "other offset");
	bp_attach__free(&a);
	bp_attach__free(&b);

	/* a kprobe by address has no name */
	CHECK_INT(bp_attach__from_task_fd(5, BPF_FD_TYPE_KPROBE, "", 0, 0xffffffff81000000ull, &a), 0);
	CHECK_STR(fmt(&a), "kprobe:0xffffffff81000000");
	bp_attach__free(&a);

	CHECK_INT(bp_attach__from_task_fd(5, BPF_FD_TYPE_TRACEPOINT, "sched_process_fork", 0, 0, &a), 0);
	CHECK_STR(fmt(&a), "tracepoint:sched_process_fork");
	bp_attach__free(&a);

	CHECK_INT(bp_attach__from_task_fd(5, 77, "", 0, 0, &a), -ENOTSUP);
}

/* ---- fdinfo ---------------------------------------------------------------- */

static void test_fdinfo(void)
{
	/* a perf link's fdinfo on 6.18 */
	const char *text = "pos:\t0\nflags:\t02000000\nmnt_id:\t17\nino:\t1038\n"
			   "link_type:\tperf\nlink_id:\t2406\nprog_tag:\tdcb5dcfb64469032\n"
			   "prog_id:\t5610\nname:\t/work/app\noffset:\t0x1440\n";
	unsigned long long v = 0;

	CHECK_INT(bp_fdinfo__field(text, "link_id", &v), 0);
	CHECK_INT(v, 2406);
	CHECK_INT(bp_fdinfo__field(text, "prog_id", &v), 0);
	CHECK_INT(v, 5610);
	/* "id" is no prefix match of "link_id" or "mnt_id" */
	CHECK_INT(bp_fdinfo__field(text, "id", &v), -ENOENT);
	CHECK_INT(bp_fdinfo__field(text, "map_id", &v), -ENOENT);
	CHECK_INT(bp_fdinfo__field(text, "name", &v), -EINVAL);
}

/* ---- metadata -------------------------------------------------------------- */

static void test_meta_roundtrip(void)
{
	struct bp_meta m = {}, back = {};
	char buf[512];
	int n;

	CHECK_INT(bp_meta__add(&m, "object", "/tmp/odd\\name\nx.o"), 0);
	CHECK_INT(bp_meta__add(&m, "sec", "exec=/bin/app;f=func a->b c"), 0);
	CHECK_INT(bp_meta__add(&m, "arg", "a->b"), 0);
	CHECK_INT(bp_meta__add(&m, "arg", "c:u8"), 0);
	CHECK_INT(bp_meta__set(&m, "pid", "-1"), 0);
	CHECK_INT(bp_meta__set(&m, "pid", "1234"), 0);	/* replaces */
	n = bp_meta__format(&m, buf, sizeof(buf));
	CHECK(n > 0, "format: %d", n);
	CHECK(!strncmp(buf, BP_META_MAGIC, strlen(BP_META_MAGIC)), "magic first");
	CHECK(strstr(buf, "object=/tmp/odd\\\\name\\nx.o\n") != NULL, "escaped: %s", buf);
	CHECK_INT(bp_meta__parse(buf, BP_META_VALUE_SIZE < sizeof(buf) ? BP_META_VALUE_SIZE : sizeof(buf), &back), 0);
	CHECK_INT(back.n, 5);
	CHECK_STR(bp_meta__get(&back, "object", 0), "/tmp/odd\\name\nx.o");
	CHECK_STR(bp_meta__get(&back, "arg", 0), "a->b");
	CHECK_STR(bp_meta__get(&back, "arg", 1), "c:u8");
	CHECK(bp_meta__get(&back, "arg", 2) == NULL, "two args only");
	CHECK_STR(bp_meta__get(&back, "pid", 0), "1234");
	bp_meta__free(&back);

	CHECK_INT(bp_meta__format(&m, buf, 20), -E2BIG);
	CHECK_INT(bp_meta__parse("something else\nobject=x\n", 24, &back), -EINVAL);
	CHECK_INT(bp_meta__parse(BP_META_MAGIC "no equals sign\n", 32, &back), -EINVAL);
	CHECK_INT(back.n, 0);
	bp_meta__free(&m);

	CHECK_INT(bp_meta__add(&m, "Bad-Key", "x"), 0);
	CHECK_INT(bp_meta__format(&m, buf, sizeof(buf)), -EINVAL);
	bp_meta__free(&m);
}

/* ---- pin names --------------------------------------------------------------- */

static void test_pin_names(void)
{
	char longname[80];

	memset(longname, 'a', 65);
	longname[65] = '\0';
	CHECK_INT(bpfprobe_pin__exists("a/b"), -EINVAL);
	CHECK_INT(bpfprobe_pin__exists(""), -EINVAL);
	CHECK_INT(bpfprobe_pin__exists("_staging"), -EINVAL);
	CHECK_INT(bpfprobe_pin__exists("-x"), -EINVAL);
	CHECK_INT(bpfprobe_pin__exists("a.b"), -EINVAL);	/* bpffs refuses dots */
	CHECK_INT(bpfprobe_pin__exists(longname), -EINVAL);
	longname[64] = '\0';
	CHECK_INT(bpfprobe_pin__exists(longname), 0);
	CHECK_INT(bpfprobe_pin__exists("no-such-session_42"), 0);
}

/* ---- perf side-band records ------------------------------------------------------ */

/* Appends the sample_id trailer (TID, TIME, CPU) the monitor asks for. */
static size_t put_sample_id(uint8_t *p, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu)
{
	uint32_t cr[2] = { cpu, 0 }, pt[2] = { pid, tid };

	memcpy(p, pt, 8);
	memcpy(p + 8, &time, 8);
	memcpy(p + 16, cr, 8);
	return 24;
}

static void test_bpf_event_records(void)
{
	uint8_t rec[256] = {};
	struct perf_event_header h = { .type = PERF_RECORD_BPF_EVENT };
	uint16_t type = PERF_BPF_EVENT_PROG_LOAD, flags = 0;
	uint32_t id = 4242;
	uint8_t tag[8] = { 0xdc, 0xb5, 0xdc, 0xfb, 0x64, 0x46, 0x90, 0x32 };
	struct bp_bpf_event ev;
	size_t n = sizeof(h);

	memcpy(rec + n, &type, 2);
	memcpy(rec + n + 2, &flags, 2);
	memcpy(rec + n + 4, &id, 4);
	memcpy(rec + n + 8, tag, 8);
	n += 16;
	n += put_sample_id(rec + n, 100, 101, 123456789ull, 1);
	h.size = n;
	memcpy(rec, &h, sizeof(h));
	CHECK_INT(bp_bpf_event__parse(rec, n, &ev), 0);
	CHECK_INT(ev.kind, BP_EV_PROG_LOAD);
	CHECK_INT(ev.id, 4242);
	CHECK(!memcmp(ev.tag, tag, 8), "tag");
	CHECK_INT(ev.pid, 100);
	CHECK_INT(ev.tid, 101);
	CHECK_INT(ev.time, 123456789ull);
	CHECK_INT(ev.cpu, 1);
	CHECK_INT(ev.prog_fd, -1);

	type = PERF_BPF_EVENT_PROG_UNLOAD;
	memcpy(rec + sizeof(h), &type, 2);
	CHECK_INT(bp_bpf_event__parse(rec, n, &ev), 0);
	CHECK_INT(ev.kind, BP_EV_PROG_UNLOAD);
	CHECK_INT(bp_bpf_event__parse(rec, n - 1, &ev), -EINVAL);	/* cut short */

	/* a ksymbol registration: name padded to 8 bytes */
	{
		const char name[] = "bpf_prog_dcb5dcfb64469032_neg";
		uint64_t addr = 0xffffffffa0001000ull;
		uint32_t len = 80;
		uint16_t ktype = PERF_RECORD_KSYMBOL_TYPE_BPF, kflags = 0;
		size_t namesz = (sizeof(name) + 7) & ~7ul;

		memset(rec, 0, sizeof(rec));
		n = sizeof(h);
		memcpy(rec + n, &addr, 8);
		memcpy(rec + n + 8, &len, 4);
		memcpy(rec + n + 12, &ktype, 2);
		memcpy(rec + n + 14, &kflags, 2);
		memcpy(rec + n + 16, name, sizeof(name));
		n += 16 + namesz;
		n += put_sample_id(rec + n, 7, 7, 5, 0);
		h.type = PERF_RECORD_KSYMBOL;
		h.size = n;
		memcpy(rec, &h, sizeof(h));
		CHECK_INT(bp_bpf_event__parse(rec, n, &ev), 0);
		CHECK_INT(ev.kind, BP_EV_KSYM_ADD);
		CHECK_INT(ev.addr, addr);
		CHECK_STR(ev.name, name);
	}

	/* a comm record names its own pid, not the sample's */
	{
		uint32_t pt[2] = { 555, 555 };
		const char comm[16] = "blink_loader";

		memset(rec, 0, sizeof(rec));
		n = sizeof(h);
		memcpy(rec + n, pt, 8);
		memcpy(rec + n + 8, comm, 16);
		n += 24;
		n += put_sample_id(rec + n, 555, 555, 9, 0);
		h.type = PERF_RECORD_COMM;
		h.size = n;
		memcpy(rec, &h, sizeof(h));
		CHECK_INT(bp_bpf_event__parse(rec, n, &ev), 0);
		CHECK_INT(ev.kind, BP_EV_COMM);
		CHECK_INT(ev.pid, 555);
		CHECK_STR(ev.name, "blink_loader");
	}
}

/* ---- uprobe symbolizer --------------------------------------------------------- */

/* File offset of symbol name through libelf alone: what the uprobe gets. */
static int elf_sym_offset(const char *path, const char *name, uint64_t *off)
{
	int fd = open(path, O_RDONLY), found = -ENOENT;
	Elf_Scn *scn = NULL;
	uint64_t vaddr = 0;
	size_t nph;
	Elf *elf;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && (scn = elf_nextscn(elf, scn)) && found) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;

			if (gelf_getsym(d, i, &sym) && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
			    !strcmp(elf_strptr(elf, sh.sh_link, sym.st_name), name)) {
				vaddr = sym.st_value;
				found = 0;
				break;
			}
		}
	}
	if (!found) {
		found = -ENOENT;
		elf_getphdrnum(elf, &nph);
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD &&
			    vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz) {
				*off = vaddr - ph.p_vaddr + ph.p_offset;
				found = 0;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

static void test_usym_targets(void)
{
	static const char *const variants[] = { "gcc-O0", "gcc-O2", "clang-O0", "clang-O2" };
	struct bp_usym *u = bp_usym__new();
	char *name = NULL;
	uint64_t off;

	for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		char path[256];
		uint64_t foff = 0;

		snprintf(path, sizeof(path), "build/targets/args-%s", variants[i]);
		if (access(path, R_OK)) {
			CHECK(0, "%s missing (make tests-build)", path);
			continue;
		}
		CHECK_INT(elf_sym_offset(path, "neg_args", &foff), 0);
		CHECK(foff != 0, "neg_args has a file offset");
		CHECK_INT(bp_usym__lookup(u, path, foff, &name, &off), 0);
		CHECK_STR(name, "neg_args");
		CHECK_INT(off, 0);
		free(name);
		name = NULL;
		CHECK_INT(bp_usym__lookup(u, path, foff + 4, &name, &off), 0);
		CHECK_STR(name, "neg_args");
		CHECK_INT(off, 4);
		free(name);
		name = NULL;
	}
	CHECK_INT(bp_usym__lookup(u, "/nonexistent/binary", 0x1000, &name, &off), -ENOENT);
	bp_usym__free(u);
}

int main(void)
{
	bpfprobe_set_print(NULL);
	RUN(test_link_info_layout);
	RUN(test_link_uprobe);
	RUN(test_link_kprobe_tracepoint_event);
	RUN(test_link_raw_tracing_other);
	RUN(test_task_fd_query);
	RUN(test_fdinfo);
	RUN(test_meta_roundtrip);
	RUN(test_pin_names);
	RUN(test_bpf_event_records);
	RUN(test_usym_targets);
	return TEST_EXIT();
}
