// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * func_info/line_info bookkeeping. Both arrays carry instruction offsets;
 * putting code in front of a program moves every record but the first,
 * which must stay at offset 0 (it describes the entry function).
 * Records are walked by their rec_size, which may exceed our struct size.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "loader/object.h"
#include "prologue/prologue.h"

/* insn_off is the first field of both bpf_func_info and bpf_line_info. */
static void *copy_shifted(const void *recs, __u32 cnt, __u32 rec_size, int shift)
{
	char *copy;

	if (!recs || !cnt)
		return NULL;
	copy = malloc((size_t)cnt * rec_size);
	if (!copy)
		return NULL;
	memcpy(copy, recs, (size_t)cnt * rec_size);
	for (__u32 i = 0; i < cnt; i++) {
		__u32 *off = (__u32 *)(copy + (size_t)i * rec_size);

		if (*off)
			*off += shift;
	}
	return copy;
}

int bp_load_info__shifted(const struct bp_load_info *info, int shift,
			  void **func_info, void **line_info)
{
	*func_info = copy_shifted(info->func_info, info->func_info_cnt,
				  info->func_info_rec_size, shift);
	*line_info = copy_shifted(info->line_info, info->line_info_cnt,
				  info->line_info_rec_size, shift);
	if ((info->func_info_cnt && !*func_info) || (info->line_info_cnt && !*line_info)) {
		free(*func_info);
		free(*line_info);
		*func_info = *line_info = NULL;
		return -ENOMEM;
	}
	return 0;
}

int bp_load_info__capture(struct bp_load_info *info, const struct bpf_prog_load_opts *opts,
			  int preamble_len)
{
	struct bp_load_info shifted_src;

	bp_load_info__free(info);
	info->prog_btf_fd = opts->prog_btf_fd;
	info->kern_version = opts->kern_version;
	info->prog_flags = opts->prog_flags;
	info->expected_attach_type = opts->expected_attach_type;
	info->func_info_cnt = opts->func_info_cnt;
	info->func_info_rec_size = opts->func_info_rec_size;
	info->line_info_cnt = opts->line_info_cnt;
	info->line_info_rec_size = opts->line_info_rec_size;

	shifted_src = *info;
	shifted_src.func_info = (void *)opts->func_info;
	shifted_src.line_info = (void *)opts->line_info;
	if (bp_load_info__shifted(&shifted_src, preamble_len,
				  &info->func_info, &info->line_info))
		return -ENOMEM;
	info->captured = true;
	return 0;
}

void bp_load_info__free(struct bp_load_info *info)
{
	free(info->func_info);
	free(info->line_info);
	memset(info, 0, sizeof(*info));
}
