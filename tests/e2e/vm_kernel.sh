# Kernel probes (kprobes, kretprobes, module functions) run in the qemu VM
# of tests/vm, whose Debian 6.1 kernel has kprobes: this host's kernel may
# not. tests/vm/kernel-tests.sh runs there; its PASS/FAIL/SKIP lines are
# relayed with a "vm:" prefix, so the runner counts each kernel case.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

if ! command -v qemu-system-x86_64 >/dev/null; then
	skip vm_kernel "qemu-system-x86_64 is not installed (make deps installs qemu-system-x86)"
	exit 0
fi
if [ ! -e build/kernel/bad_toomany.o ] || [ ! -x build/kernel/kt_sched ]; then
	fail vm_kernel "build/kernel/* is missing: make tests-build (or make kernel-tests-build)"
	exit 0
fi
out=$(BPFPROBE_VM_TIMEOUT=${BPFPROBE_VM_TIMEOUT:-600} tests/vm/run.sh tests/vm/kernel-tests.sh 2>&1)
rc=$?
lines=$(grep -aE '^(PASS|FAIL|SKIP) ' <<<"$out" | sed -E 's/^(PASS|FAIL|SKIP) /\1 vm:/')
if [ $rc -eq 125 ] && [ -z "$lines" ]; then
	# no kernel to boot (e.g. no network for the first download)
	skip vm_kernel "no VM with a kprobe kernel to run in: $(tail -n 1 <<<"$out")"
elif [ -z "$lines" ]; then
	fail vm_kernel "the VM run reported nothing (exit $rc): $(tail -n 3 <<<"$out" | tr '\n' ' ')"
else
	printf '%s\n' "$lines"
	# a failure the suite did not report as a line (e.g. a timeout)
	if [ $rc -ne 0 ] && ! grep -q '^FAIL ' <<<"$lines"; then
		fail vm_kernel "the VM run exited $rc: $(tail -n 3 <<<"$out" | tr '\n' ' ')"
	fi
fi
exit 0
