/* The record ABI: $params fills one member per parameter, each as its
 * member's type says (e, a char *, as a string) */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct args {
	int a;
	long b;
	unsigned int c;
	short d;
	char e[16];
	long f;
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

SEC("exec=" TARGET ";func=six $params")
int params(void *ctx, struct args *a)
{
	bpf_ringbuf_output(&events, a, sizeof(*a), 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
