/* The record ABI: a struct passed by value and one through a pointer,
 * copied whole into struct members */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct big {
	long a;
	int b;
	char name[12];
};

struct args {
	struct big v;
	struct big p;
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

SEC("exec=" TARGET ";func=structs v p=*p")
int structs(void *ctx, struct args *a)
{
	bpf_ringbuf_output(&events, a, sizeof(*a), 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
