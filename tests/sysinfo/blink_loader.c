// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * For the `bpfprobe monitor` test: loads a program named "blink" that uses
 * an array map "blink_map", prints "ID <prog id>", closes it 10 ms later
 * (the kernel unloads it then) and exits at once.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

int main(void)
{
	struct timespec ten_ms = { 0, 10 * 1000 * 1000 };
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int map_fd, fd;

	map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "blink_map", 4, 8, 1, NULL);
	if (map_fd < 0) {
		perror("blink_loader: map");
		return 1;
	}
	/* r1 = map (ld_imm64), r0 = 0, exit */
	struct bpf_insn insns[] = {
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_FD, .imm = map_fd },
		{ 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "blink", "GPL", insns, 4, NULL);
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len)) {
		perror("blink_loader: prog");
		return 1;
	}
	close(map_fd);	/* the program holds it */
	printf("ID %u\n", info.id);
	fflush(stdout);
	nanosleep(&ten_ms, NULL);
	close(fd);
	return 0;
}
