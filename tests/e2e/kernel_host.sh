# Kernel probes on this host, whatever its kernel: resolution from the
# running kernel's BTF (what `load -v` shows), every bad input that fails
# before anything is loaded, and, on a kernel without kprobes, the clear
# error saying so. The kprobes themselves run in the VM (vm_kernel.sh).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
K=build/kernel

if [ ! -e $K/sched.bpf.o ] || [ ! -e $K/bad_toomany.o ]; then
	fail kernel_host "build/kernel/* is missing: make tests-build (or make kernel-tests-build)"
	exit 0
fi
if [ ! -r /sys/kernel/btf/vmlinux ] || [ ! -r /proc/kallsyms ]; then
	skip kernel_host "this kernel has no BTF (/sys/kernel/btf/vmlinux) or kallsyms"
	exit 0
fi

# The issue's seed, resolved from BTF: param is the 3rd parameter (rdx),
# sched_priority at offset 0 of struct sched_param, read from user memory.
# `load -v` shows it before it stops at the missing kprobes (if it does);
# `resolve` shows every program without loading anything.
err=$(timeout 60 "$BPFPROBE" load -v $K/sched.bpf.o -- /bin/true 2>&1 >/dev/null)
rc=$?
if grep -q 'probe point kernel do_sched_setscheduler+0x0 .*(arguments from BTF /sys/kernel/btf/vmlinux)' <<<"$err" &&
	grep -qF 'param->sched_priority (int, at reg rdx (parameter 3)): s32 *(u32 *)(%rdx) [user]' <<<"$err"; then
	pass kernel_host_load_v
else
	fail kernel_host_load_v "load -v does not show the BTF plan: $(head -c 800 <<<"$err")"
fi
res=$(timeout 60 "$BPFPROBE" resolve $K/sched.bpf.o 2>&1)
if grep -qF 'BTF /sys/kernel/btf/vmlinux' <<<"$res" &&
	grep -qF 'at reg rdx (parameter 3): s32 *(u32 *)(%rdx) [user]' <<<"$res" &&
	grep -qF 'at reg rdi (parameter 1): s32 %rdi' <<<"$res" &&
	grep -qF 'at reg rsi (parameter 2): s32 %rsi' <<<"$res" &&
	grep -qF 'at reg rax (return value): s32 %rax' <<<"$res"; then
	pass kernel_host_resolve_btf
else
	fail kernel_host_resolve_btf "resolve does not show the BTF plans: $(head -c 800 <<<"$res")"
fi

if [ -e /sys/bus/event_source/devices/kprobe/type ]; then
	skip kernel_host_no_kprobes "this kernel has kprobes (the kprobe cases run in vm_kernel.sh)"
elif [ $rc -eq 0 ] || [ $rc -ge 124 ]; then
	fail kernel_host_no_kprobes "load exited $rc on a kernel without kprobes: $err"
elif ! grep -q "do_sched_setscheduler: this kernel ($(uname -r)) has no kprobes: CONFIG_KPROBE" <<<"$err"; then
	fail kernel_host_no_kprobes "no clear message: $err"
elif ! nothing_loaded prog || ! nothing_loaded sched_args; then
	fail kernel_host_no_kprobes "a program stayed loaded"
else
	# with the kernel's configuration readable, it names the option
	if zgrep -q '^# CONFIG_KPROBES is not set' /proc/config.gz 2>/dev/null &&
		! grep -q 'CONFIG_KPROBES is off' <<<"$err"; then
		fail kernel_host_no_kprobes "does not say CONFIG_KPROBES is off: $err"
	else
		pass kernel_host_no_kprobes
	fi
fi

# bad CASE PATTERN...: load fails, stderr names the culprit, nothing loaded
bad() {
	local c=$1 e rc p
	shift
	e=$(timeout 60 "$BPFPROBE" load $K/bad_$c.o -- /bin/true 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 0 ] || [ $rc -ge 124 ]; then
		fail "kernel_host_bad_$c" "exit status $rc, want a failure; stderr: $e"
		return
	fi
	for p in "$@"; do
		if ! grep -qF -- "$p" <<<"$e"; then
			fail "kernel_host_bad_$c" "stderr lacks '$p': $e"
			return
		fi
	done
	if ! nothing_loaded badprog; then
		fail "kernel_host_bad_$c" "a program stayed loaded"
		return
	fi
	pass "kernel_host_bad_$c"
}

bad nofunc "no_such_function_bpfprobe in the kernel: no such function in /proc/kallsyms"
bad nomodule "module 'no_such_module' is not loaded"
bad nomember "struct sched_param has no member 'nope' (members: sched_priority)"
bad nonptr "'->' on non-pointer 'policy' (type int)"
bad noparam "no parameter 'nope' (parameters: pid, policy, param)"
bad stack_param "'populate' is passed on the stack" "install the kernel's debug info"
bad notscalar "'file->f_path' is a struct; name a member"
bad retval_entry '$retval'
bad param_return "a return probe can only fetch"
bad offset_args "only at the function's entry"
bad toomany "at most 3"

# --vmlinux PATH names the kernel DWARF to use: a missing file, or one
# without the function, is an error naming it (no BTF fallback then)
err=$("$BPFPROBE" resolve --vmlinux /nonexistent/vmlinux 'func=do_sys_openat2 dfd' 2>&1 >/dev/null)
if [ $? -ne 0 ] && grep -q "/nonexistent/vmlinux" <<<"$err"; then
	pass kernel_host_vmlinux_missing
else
	fail kernel_host_vmlinux_missing "$err"
fi
err=$("$BPFPROBE" resolve --vmlinux build/targets/args-gcc-O2 'func=do_sys_openat2 dfd' 2>&1 >/dev/null)
if [ $? -ne 0 ] && grep -q "do_sys_openat2.*build/targets/args-gcc-O2" <<<"$err"; then
	pass kernel_host_vmlinux_used
else
	fail kernel_host_vmlinux_used "$err"
fi
exit 0
