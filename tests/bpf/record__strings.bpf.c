/* The record ABI: strings into char arrays: a short one, one longer than
 * its member, NULL, an unmapped pointer and bytes that are not UTF-8 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct args {
	char s1[32];
	char s2[16];
	char s3[16];
	char s4[16];
	char s5[8];
	__u64 err;
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

SEC("exec=" TARGET ";func=strs s1 s2 s3 s4 s5")
int strings(void *ctx, struct args *a)
{
	bpf_ringbuf_output(&events, a, sizeof(*a), 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
