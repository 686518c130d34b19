// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "sysinfo/libbpf_probes.h"

#define CALL(fn)	{ .code = BPF_JMP | BPF_CALL, .imm = (fn) }
#define EXIT		{ .code = BPF_JMP | BPF_EXIT }
#define RET0		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 }

static void add_tag(struct bp_libbpf_probes *p, enum bpf_prog_type type,
		    const struct bpf_insn *insns, __u32 n)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int fd = bpf_prog_load(type, NULL, "GPL", insns, n, NULL);

	if (fd < 0)
		return;
	if (!bpf_obj_get_info_by_fd(fd, &info, &len) && p->n < BP_LIBBPF_PROBES_MAX &&
	    !bp_libbpf_probes__match(p, info.tag))
		memcpy(p->tags[p->n++], info.tag, 8);
	close(fd);
}

void bp_libbpf_probes__init(struct bp_libbpf_probes *p)
{
	/* "can load at all", program names, bind map, perf links: return 0 */
	const struct bpf_insn ret0[] = { RET0, EXIT };
	/* memcg-accounted memory (no RLIMIT_MEMLOCK bump needed) */
	const struct bpf_insn memcg[] = { CALL(BPF_FUNC_ktime_get_coarse_ns), EXIT };
	/* bpf_probe_read_kernel() */
	const struct bpf_insn readk[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_1, .src_reg = BPF_REG_10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_1, .imm = -8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_2, .imm = 8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_3, .imm = 0 },
		CALL(BPF_FUNC_probe_read_kernel),
		EXIT,
	};
	/* BPF cookies */
	const struct bpf_insn cookie[] = { CALL(BPF_FUNC_get_attach_cookie), EXIT };
	int map;

	memset(p, 0, sizeof(*p));
	add_tag(p, BPF_PROG_TYPE_SOCKET_FILTER, ret0, 2);
	add_tag(p, BPF_PROG_TYPE_SOCKET_FILTER, memcg, 2);
	add_tag(p, BPF_PROG_TYPE_TRACEPOINT, readk, 6);
	add_tag(p, BPF_PROG_TYPE_KPROBE, cookie, 2);
	/* global data: a store into an array map's value (the map's fd
	 * and the offset are not part of the tag) */
	map = bpf_map_create(BPF_MAP_TYPE_ARRAY, "libbpf_global", 4, 32, 1, NULL);
	if (map >= 0) {
		const struct bpf_insn global[] = {
			{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
			  .src_reg = BPF_PSEUDO_MAP_VALUE, .imm = map },
			{ .imm = 16 },
			{ .code = BPF_ST | BPF_DW | BPF_MEM, .dst_reg = BPF_REG_1, .imm = 42 },
			RET0,
			EXIT,
		};

		add_tag(p, BPF_PROG_TYPE_SOCKET_FILTER, global, 5);
		close(map);
	}
}

bool bp_libbpf_probes__match(const struct bp_libbpf_probes *p, const uint8_t tag[8])
{
	for (int i = 0; i < p->n; i++)
		if (!memcmp(p->tags[i], tag, 8))
			return true;
	return false;
}
