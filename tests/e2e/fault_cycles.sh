# 1000 open/load/destroy cycles in one process through the library API
# (tests/e2e/fault_cycles.c): the fd count must come back exactly, the heap
# in use and the RSS must stay flat, and nothing may stay in the kernel.
#
# Every cycle also attaches and detaches. Each detach of a uprobe costs
# the kernel a synchronous grace period under a global mutex (closing in
# parallel overlaps little of it): about 75 ms of idle wall time per probe
# point here. So the object has one probe point (with the pointer chains
# that take the prologue's helper calls), and 1000 cycles take about 80 s.
# FAULT_CYCLES=N and FAULT_ATTACH_EVERY=K (attach in every K-th cycle only)
# make quicker runs by hand.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fault_helpers.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip fault_cycles "$why"
	exit 0
fi
fault_setup
trap 'rm -rf "$tmp"' EXIT
mkobj "$tmp/obj.o" <<EOC
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$V;p=handle_req req->hdr->len conn->fd req->inner.y")
int ${P}_req(void *ctx, int err, long len, long fd, long y)
{
	bpf_printk("GOT handle_req len=%ld fd=%ld y=%ld", len, fd, y);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOC

# the library beside the tool under test; a sanitized one needs the same
# sanitizers at link time (make test-asan)
lib=$(dirname "$BPFPROBE")/libbpfprobe.a
san= cc=gcc
if nm "$lib" 2>/dev/null | grep -q __asan_; then
	san="-fsanitize=address,undefined -fno-omit-frame-pointer"
	# the same compiler: each brings its own sanitizer runtime
	readelf -p .comment "$lib" 2>/dev/null | grep -q clang && cc=clang
fi
if ! $cc $san -O2 -g -Wall -Iinclude -o "$tmp/cycles" tests/e2e/fault_cycles.c "$lib" \
	-lbpf -ldw -lelf -lz 2>"$tmp/cc.err"; then
	fail fault_cycles_build "$(head -5 "$tmp/cc.err")"
	exit 0
fi
out=$(timeout 600 "$tmp/cycles" "$tmp/obj.o" "${FAULT_CYCLES:-1000}" "${FAULT_ATTACH_EVERY:-1}" 2>&1)
rc=$?
if [ $rc -eq 0 ] && grep -q '^cycles=' <<<"$out"; then
	echo "    $(head -1 <<<"$out")"
	pass fault_cycles_flat
else
	fail fault_cycles_flat "exit $rc: $(tr '\n' ' ' <<<"$out" | cut -c1-600)"
fi
if left=$(fault_gone); then
	pass fault_cycles_kernel_clean
else
	fail fault_cycles_kernel_clean "$left"
fi
