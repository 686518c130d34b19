# The library against careless and newer callers (tests/lib/api_hardening.c
# prints the PASS/FAIL lines): a second attach, options structs with
# unknown non-zero bytes, an output that outlives its object or is made
# from one not loaded, an object path that is a FIFO.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fault_helpers.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip lib_hardening "$why"
	exit 0
fi
fault_setup
# a pin root of our own: the refused pin must not land anywhere else if
# it were taken
export BPFPROBE_PIN_ROOT=/sys/fs/bpf/bpfprobe-libh-$$
trap '"$BPFPROBE" unload --all >/dev/null 2>&1; rmdir "$BPFPROBE_PIN_ROOT" 2>/dev/null; rm -rf "$tmp"' EXIT
# the library next to the tool under test: build/asan's for make test-asan
lib=$(dirname "$BPFPROBE")/libbpfprobe.a
cc=gcc
case "$BPFPROBE" in */asan/*) cc="clang -fsanitize=address,undefined -fno-omit-frame-pointer" ;; esac
$cc -g -Iinclude -o "$tmp/api_hardening" tests/lib/api_hardening.c "$lib" \
	-lbpf -ldw -lelf -lz -ltraceevent || { fail lib_hardening_build "cc failed"; exit 0; }
mkobj "$tmp/obj.o" <<EOC
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct event { long a; };
struct event *__bpfprobe_record_events;
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, long);
} calls SEC(".maps");
SEC("exec=$V;p=neg_args a")
int ${P}_neg(void *ctx, int err, long a)
{
	__u32 k = 1;
	long one = 1, *v = bpf_map_lookup_elem(&calls, &k);
	struct event e = { .a = a };

	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&calls, &k, &one, BPF_ANY);
	bpf_ringbuf_output(&events, &e, sizeof(e), 0);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOC
mkfifo "$tmp/fifo.o"
# MALLOC_PERTURB_: memory read after free holds junk, not what it held
MALLOC_PERTURB_=165 timeout 120 "$tmp/api_hardening" "$tmp/obj.o" "$V" "$tmp/fifo.o" \
	build/bpf/args__basic-gcc-O2.o 2>"$tmp/err"
rc=$?
[ $rc -gt 1 ] && fail lib_hardening "exit status $rc: $(tail -5 "$tmp/err")"
exit 0
