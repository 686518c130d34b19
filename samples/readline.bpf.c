// SPDX-License-Identifier: GPL-2.0
/*
 * Every line interactive bash reads, from readline's return value. bash has
 * no DWARF on Debian: $retval is then rax as an untyped 64-bit value, which
 * is the line's address here.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("exec=/bin/bash;readline%return $retval")
int bash_readline(void *ctx, int err, const char *line)
{
	char buf[80];

	if (err || !line)
		return 0;
	if (bpf_probe_read_user_str(buf, sizeof(buf), line) < 0)
		return 0;
	bpf_printk("readline: %s", buf);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
