#!/usr/bin/env bash
# Kernel-side tests, run inside the VM (tests/vm/run.sh; `make vmtest`).
# Run on the host, it starts the VM and re-runs itself there.
# Prints facts about the guest kernel, then lines
#   PASS name | FAIL name: why | SKIP name: why
# and exits 1 if anything failed.
# For now it checks the VM itself; the kernel-probe tests will go here.
set -u
if [ "${BPFPROBE_VM:-}" != 1 ]; then
	exec "$(dirname "$0")/run.sh" "$0" "$@"
fi

top=$(cd "$(dirname "$0")/../.." && pwd -P)
failed=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failed=1; }
skip() { echo "SKIP $1: $2"; }
exists() { [ -e "$1" ] && echo yes || echo no; }

tracing=/sys/kernel/tracing
echo "kernel: $(uname -r) ($(uname -v))"
echo "kprobe PMU: $(exists /sys/bus/event_source/devices/kprobe/type)"
echo "uprobe PMU: $(exists /sys/bus/event_source/devices/uprobe/type)"
echo "BTF: $(exists /sys/kernel/btf/vmlinux)"
echo "tracefs: $(exists $tracing/kprobe_events)"
echo "bpffs: $(grep -c ' /sys/fs/bpf bpf ' /proc/mounts)"

case $(uname -r) in
"${BPFPROBE_VM_KREL:-?}") pass vm_boot ;;
*) fail vm_boot "running $(uname -r), expected ${BPFPROBE_VM_KREL:-?}" ;;
esac

if [ -e /sys/bus/event_source/devices/kprobe/type ]; then
	pass vm_kprobe_pmu
else
	fail vm_kprobe_pmu "no /sys/bus/event_source/devices/kprobe/type"
fi

if [ -e /sys/kernel/btf/vmlinux ]; then
	pass vm_btf
else
	fail vm_btf "no /sys/kernel/btf/vmlinux"
fi

# A kprobe event through tracefs: proves kprobes really work.
if [ -w $tracing/kprobe_events ]; then
	if echo 'p:bpfprobe_vm/t do_sys_openat2' >>$tracing/kprobe_events 2>/dev/null &&
		[ -d $tracing/events/bpfprobe_vm/t ]; then
		echo '-:bpfprobe_vm/t' >>$tracing/kprobe_events
		pass vm_kprobe_event
	else
		fail vm_kprobe_event "cannot add a kprobe on do_sys_openat2"
	fi
else
	fail vm_kprobe_event "no $tracing/kprobe_events"
fi

# The repository is shared read-write.
f=$top/build/.vm-write-test.$$
mkdir -p "$top/build"
if echo ok >"$f" && [ "$(cat "$f")" = ok ] && rm -f "$f"; then
	pass vm_repo_rw
else
	fail vm_repo_rw "cannot write $f"
fi

# A small module (for module probes): dummy.ko brings dummy0 and its BTF.
mod=${BPFPROBE_VM_MODULES:-}/kernel/drivers/net/dummy.ko
if ! command -v busybox >/dev/null; then
	skip vm_module "no busybox (for insmod) on the host"
elif [ ! -f "$mod" ]; then
	skip vm_module "no $mod"
elif busybox insmod "$mod" 2>/dev/null && [ -e /sys/kernel/btf/dummy ] &&
	cat /sys/class/net/dummy0/statistics/tx_packets >/dev/null &&
	busybox rmmod dummy; then
	pass vm_module
else
	fail vm_module "insmod $mod, BTF or rmmod failed"
fi

exit $failed
