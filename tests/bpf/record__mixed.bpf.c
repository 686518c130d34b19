/* The record ABI: eight arguments of mixed widths and signs, each
 * converted to its member's size and sign (tests/e2e/record.sh). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct args {
	__s64 a;	/* int8_t: sign-extended */
	__u16 b;
	__u16 c;	/* int32_t: its low 16 bits */
	__u8 d;		/* uint64_t: its low byte */
	__s64 e;
	char pad;
	__s8 f;
	__u32 g;
	short h;
	__u64 err;
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

SEC("exec=" TARGET ";func=mixed8 a b c d e pad=f f g h")
int mixed(void *ctx, struct args *a)
{
	bpf_ringbuf_output(&events, a, sizeof(*a), 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
