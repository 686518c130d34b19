# Map tracing on this host, whatever its kernel: resolving map=MAP specs
# (the map's update and delete functions as the verifier, kallsyms and
# kernel BTF give them; the map-id guard; key/value typed u8 without BTF),
# every bad input of the issue, and on a kernel that allows neither fentry
# nor kprobes (this host) the clear error with nothing left loaded. The
# tracing itself, with typed maps, runs in the VM (vm_kernel.sh).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

if [ "$(id -u)" -ne 0 ]; then
	skip maptrace_host "needs root (maps and programs are the kernel's)"
	exit 0
fi
if [ ! -r /sys/kernel/btf/vmlinux ]; then
	skip maptrace_host "this kernel has no BTF (/sys/kernel/btf/vmlinux)"
	exit 0
fi
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
# our own maps, pinned in our own directory (no '.' in bpffs names)
dir=/sys/fs/bpf/bpfprobe_maptrace_$$
tag=mt$$
mkdir "$dir" || { fail maptrace_host "cannot create $dir"; exit 0; }
trap 'rm -rf "$dir"' EXIT
mk() {
	bpftool map create "$dir/$1" type "$2" key "$3" value "$4" entries 8 name "$5" ||
		fail maptrace_host "bpftool map create $*"
}
mk h hash 8 16 "${tag}_h"
mk q queue 0 8 "${tag}_q"
mk d1 hash 4 8 "${tag}_d"
mk d2 array 4 8 "${tag}_d"
map_id() { bpftool map show pinned "$dir/$1" | sed -n 's/^\([0-9]*\): .*/\1/p'; }
hid=$(map_id h)

# --- resolving ---------------------------------------------------------------

res=$("$BPFPROBE" resolve "map=$dir/h;update key[0]:u64 value[1] flags" 2>&1)
if grep -qF "point 0: htab_map_update_elem in vmlinux" <<<"$res" &&
	grep -qF "key[0]: u8, at the key: argument 2 of htab_map_update_elem: u64 *(u64 *)(ctx[1])" <<<"$res" &&
	grep -qF "value[1]: u8, at the value: argument 3 of htab_map_update_elem: u8 *(u8 *)(ctx[2] + 1)" <<<"$res" &&
	grep -qF "flags: u64, at the flags: argument 4 of htab_map_update_elem: u64 ctx[3]" <<<"$res" &&
	grep -qF "if w0 == $(printf '0x%x' "$hid") goto" <<<"$res"; then
	pass maptrace_host_resolve_update
else
	fail maptrace_host_resolve_update "$res"
fi
res=$("$BPFPROBE" resolve "map=id:$hid;delete key[0]" 2>&1)
if grep -qF "point 0: htab_map_delete_elem in vmlinux" <<<"$res" &&
	grep -qF "point 1: htab_map_lookup_and_delete_elem in vmlinux" <<<"$res"; then
	pass maptrace_host_resolve_delete
else
	fail maptrace_host_resolve_delete "$res"
fi
res=$("$BPFPROBE" resolve "map=name:${tag}_h;update key[0]" 2>&1)
if grep -qF "point 0: htab_map_update_elem in vmlinux" <<<"$res"; then
	pass maptrace_host_resolve_by_name
else
	fail maptrace_host_resolve_by_name "$res"
fi

# --- bad inputs: non-zero exit, a message naming the culprit -----------------

# bad NAME SEC PATTERN...
bad() {
	local name=$1 sec=$2 e rc p
	shift 2
	e=$(timeout 60 "$BPFPROBE" resolve "$sec" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 0 ] || [ $rc -ge 124 ]; then
		fail "maptrace_host_bad_$name" "exit status $rc, want a failure; stderr: $e"
		return
	fi
	for p in "$@"; do
		if ! grep -qF -- "$p" <<<"$e"; then
			fail "maptrace_host_bad_$name" "stderr lacks '$p': $e"
			return
		fi
	done
	pass "maptrace_host_bad_$name"
}

bad missing_pin "map=$dir/nope;update" "map=$dir/nope: no such file"
bad missing_id "map=id:4000000000;update" "map=id:4000000000: no loaded BPF map has id 4000000000"
bad missing_name "map=name:${tag}_no;delete" "no loaded BPF map is named '${tag}_no'"
bad map_syntax "map=${tag}_h;update" "MAP is a pinned map's path (/sys/fs/bpf/...), id:N or name:NAME"
bad unknown_type "map=$dir/q;update" "'${tag}_q' is a queue map" "kernel $(uname -r)"
bad ambiguous "map=name:${tag}_d;update" \
	"2 loaded maps are named '${tag}_d', ids $(map_id d1) (hash), $(map_id d2) (array)" "map=id:N"
bad value_on_delete "map=$dir/h;delete key[0] value[0]" "a delete has no value, only a key"
bad flags_on_delete "map=$dir/h;delete flags" "a delete has no flags"
bad unknown_arg "map=$dir/h;update val[0]" "unknown name 'val'"
bad no_struct "map=$dir/h;update key->port" "'->' on 'key'" "which does not point to a struct"
bad bad_op "map=$dir/h;insert key[0]" "expected the operation 'update' or 'delete', got 'insert'"

# --- attaching: fentry, else kprobes, else a clear error ---------------------

obj=$(mktemp --suffix=.bpf.o)
trap 'rm -rf "$dir" "$obj"' EXIT
mkobj "$obj" <<EOC
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("map=$dir/h;update key[0] flags")
int mt_upd(void *ctx, int err, __u64 k, __u64 f)
{
	bpf_printk("upd %llu %llu", k, f);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOC
if [ -e /sys/bus/event_source/devices/kprobe/type ]; then
	skip maptrace_host_no_attach "this kernel has kprobes (map tracing attaching runs in vm_kernel.sh)"
	skip maptrace_host_monitor_no_attach "this kernel has kprobes"
else
	e=$(timeout 60 "$BPFPROBE" load "$obj" -- /bin/true 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 0 ]; then
		skip maptrace_host_no_attach "this kernel loads fentry programs (map tracing attaching runs in vm_kernel.sh)"
	elif [ $rc -ge 124 ] ||
		! grep -qF "program 'mt_upd' (map=$dir/h;update): no fentry program on htab_map_update_elem" <<<"$e" ||
		! grep -qF "this kernel ($(uname -r)) has no kprobes" <<<"$e" ||
		! grep -qF "map tracing attaches with fentry or kprobes, and this kernel ($(uname -r)) allows neither" <<<"$e"; then
		fail maptrace_host_no_attach "exit $rc, no clear message: $e"
	elif ! nothing_loaded mt_upd || ! nothing_loaded bpfprobe_ops; then
		fail maptrace_host_no_attach "a program stayed loaded"
	else
		pass maptrace_host_no_attach
	fi
	e=$(timeout 60 "$BPFPROBE" monitor --map "$dir/h" --duration 1 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 0 ]; then
		skip maptrace_host_monitor_no_attach "this kernel loads fentry programs"
	elif grep -qF "monitor --map $dir/h: map tracing attaches with fentry or kprobes, and this kernel ($(uname -r)) allows neither" <<<"$e" &&
		nothing_loaded bpfprobe_mon; then
		pass maptrace_host_monitor_no_attach
	else
		fail maptrace_host_monitor_no_attach "exit $rc: $e"
	fi
fi
e=$(timeout 60 "$BPFPROBE" monitor --map "$dir/nope" --duration 1 2>&1 >/dev/null)
if [ $? -eq 1 ] && grep -qF "map=$dir/nope: no such file" <<<"$e" &&
	grep -qF "bpfprobe monitor: cannot monitor map $dir/nope" <<<"$e"; then
	pass maptrace_host_monitor_missing
else
	fail maptrace_host_monitor_missing "$e"
fi
exit 0
