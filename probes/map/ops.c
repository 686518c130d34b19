// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Which functions the map's ops table points to for updates and deletes,
 * asked of the verifier: with the BPF JIT on, it replaces a program's call
 * of the bpf_map_update_elem() / bpf_map_delete_elem() helpers on a known
 * map by a direct call of map->ops->map_update_elem / ->map_delete_elem,
 * and the program's final instructions, read back, hold those calls as
 * offsets from __bpf_call_base. So a small program that calls both on the
 * map, loaded (as a socket filter: it never runs and is closed at once),
 * tells the functions the kernel really calls for this very map, whatever
 * its version names them.
 *
 *	*(u64 *)(r10 - K + i) = 0	; the key, zeroed, K bytes
 *	r1 = map ll
 *	r2 = r10 - K
 *	call bpf_map_lookup_elem	; a value pointer of the right size
 *	if r0 == 0 goto out
 *	r3 = r0
 *	r1 = map ll
 *	r2 = r10 - K
 *	r4 = 0
 *	call bpf_map_update_elem	; -> ops->map_update_elem
 *	r1 = map ll
 *	r2 = r10 - K
 *	call bpf_map_delete_elem	; -> ops->map_delete_elem
 *   out:
 *	r0 = 0
 *	exit
 *
 * The update and delete calls are the program's last two calls (a lookup
 * may be inlined into calls of its own, all before them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "probes/map/map.h"
#include "prologue/insn.h"

#define MAX_KEY		512	/* the BPF stack, which holds the key */
#define MAX_INSNS	(MAX_KEY / 8 + 32)
#define LOG_SIZE	65536

/* r1 = map; r2 = r10 - koff */
static int emit_map_key(struct bpf_insn *p, int n, int fd, int koff)
{
	p[n++] = LD_MAP_FD_0(BPF_REG_1, fd);
	p[n++] = LD_MAP_FD_1();
	p[n++] = MOV64_REG(BPF_REG_2, BPF_REG_10);
	p[n++] = ALU64_IMM(BPF_ADD, BPF_REG_2, -koff);
	return n;
}

static int build(struct bpf_insn *p, int fd, __u32 key_size)
{
	int koff = (key_size + 7) / 8 * 8, n = 0, skip;

	for (int off = 0; off < koff; off += 8)
		p[n++] = ST_MEM(BPF_DW, BPF_REG_10, off - koff, 0);
	n = emit_map_key(p, n, fd, koff);
	p[n++] = CALL_HELPER(BPF_FUNC_map_lookup_elem);
	skip = n++;
	p[n++] = MOV64_REG(BPF_REG_3, BPF_REG_0);
	n = emit_map_key(p, n, fd, koff);
	p[n++] = MOV64_IMM(BPF_REG_4, 0);
	p[n++] = CALL_HELPER(BPF_FUNC_map_update_elem);
	n = emit_map_key(p, n, fd, koff);
	p[n++] = CALL_HELPER(BPF_FUNC_map_delete_elem);
	p[skip] = JMP_IMM(BPF_JEQ, BPF_REG_0, 0, n - skip - 1);
	p[n++] = MOV64_IMM(BPF_REG_0, 0);
	p[n++] = EXIT_INSN();
	return n;
}

/* The verifier's last lines: why it refused. */
static const char *log_tail(const char *log)
{
	const char *end = log + strlen(log), *p = end;
	int lines = 0;

	while (p > log && lines < 3)
		if (*--p == '\n' && p + 1 < end)
			lines++;
	return p == log ? p : p + 1;
}

static int load(const struct bp_map_target *t, char *log, struct bp_diag *d)
{
	struct bpf_insn insns[MAX_INSNS];
	int n, fd, err;

	if (t->info.key_size > MAX_KEY) {
		bp_diag__set(d, "map %u: key size %u is over %d bytes", t->info.id,
			     t->info.key_size, MAX_KEY);
		return -E2BIG;
	}
	n = build(insns, t->fd, t->info.key_size);
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = LOG_SIZE,
		    .log_level = 1);
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "bpfprobe_ops", "GPL", insns, n, &opts);
	if (fd >= 0)
		return fd;
	err = -errno;
	if (err == -EPERM || err == -EACCES)
		bp_diag__set(d, "map %u: loading a BPF program to find its update and delete functions is not permitted (%s): run bpfprobe as root",
			     t->info.id, strerror(-err));
	else
		bp_diag__set(d, "map %u: the verifier refuses the program that finds its update and delete functions (%s): %s",
			     t->info.id, strerror(-err), log_tail(log));
	return err;
}

/* The last two calls of the final instructions: update, then delete. */
static int read_calls(int fd, int32_t imm[2], struct bp_diag *d)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info), cnt;
	struct bpf_insn *x;
	int found = 0, err = 0;

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		goto fail;
	cnt = info.xlated_prog_len / sizeof(*x);
	x = calloc(cnt ? cnt : 1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = cnt * sizeof(*x);
	info.xlated_prog_insns = (__u64)(unsigned long)x;
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		free(x);
		goto fail;
	}
	for (int i = (int)cnt - 1; i >= 0 && found < 2; i--)
		if (x[i].code == (BPF_JMP | BPF_CALL) && x[i].src_reg == 0)
			imm[1 - found++] = x[i].imm;
	free(x);
	if (found < 2) {
		bp_diag__set(d, "the verified program that finds a map's update and delete functions lost its calls");
		return -EINVAL;
	}
	if (!imm[0] || !imm[1]) {
		bp_diag__set(d, "the kernel hides the calls of verified programs (kernel.kptr_restrict; CAP_SYSLOG needed), so the map's update and delete functions cannot be found");
		return -EPERM;
	}
	return 0;
fail:
	err = -errno;
	bp_diag__set(d, "cannot read back a verified program's instructions: %s", strerror(-err));
	return err;
}

int bp_map_ops__resolve(const struct bp_map_target *t, uint64_t call_base,
			uint64_t *update, uint64_t *delete, struct bp_diag *d)
{
	char *log = calloc(1, LOG_SIZE);
	int32_t imm[2] = { 0, 0 };
	int fd, err;

	if (!log)
		return -ENOMEM;
	fd = load(t, log, d);
	free(log);
	if (fd < 0)
		return fd;
	err = read_calls(fd, imm, d);
	close(fd);
	if (err)
		return err;
	*update = call_base + (int64_t)imm[0];
	*delete = call_base + (int64_t)imm[1];
	return 0;
}
