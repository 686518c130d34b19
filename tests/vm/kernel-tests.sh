#!/usr/bin/env bash
# Kernel-probe tests, run inside the VM (tests/vm/run.sh; `make vmtest`;
# tests/e2e/vm_kernel.sh). Run on the host, it starts the VM and re-runs
# itself there. Needs `make kernel-tests-build` (build/bpfprobe and
# build/kernel/*, from tests/kernel). Prints facts about the guest kernel,
# then lines
#   PASS name | FAIL name: why | SKIP name: why
# and exits 1 if anything failed.
#
# Values are compared with what the helper programs (tests/kernel/progs)
# did: they write "TRUTH ..." lines to $KT_TRUTH, the BPF programs
# (tests/kernel/bpf) print "GOT ..." lines in the same form. Arguments come from the kernel's
# BTF: the VM has no vmlinux debug info.
#
# Under TCG every exec costs about a second, so this script keeps to bash
# builtins where it can (no grep/sed/sort/sleep in loops).
set -u
if [ "${BPFPROBE_VM:-}" != 1 ]; then
	exec "$(dirname "$0")/run.sh" "$0" "$@"
fi

top=$(cd "$(dirname "$0")/../.." && pwd -P)
cd "$top" || exit 1
BPFPROBE=$top/build/bpfprobe
K=$top/build/kernel
kplist=/sys/kernel/debug/kprobes/list
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass() { echo "PASS $1"; }
fail() {
	echo "FAIL $1: $2"
	failed=1
}
skip() { echo "SKIP $1: $2"; }

echo "kernel: $(uname -r) ($(uname -v))"
for f in /sys/bus/event_source/devices/kprobe/type /sys/kernel/btf/vmlinux \
	"/usr/lib/debug/boot/vmlinux-$(uname -r)" "/boot/vmlinux-$(uname -r)"; do
	[ -e "$f" ] && echo "present: $f" || echo "absent: $f"
done

for f in "$BPFPROBE" "$K/sched.bpf.o" "$K/kt_sched" "$K/bad_nofunc.o"; do
	if [ ! -e "$f" ]; then
		fail kernel_tests_built "$f is missing: run make kernel-tests-build on the host"
		exit 1
	fi
done
if [ ! -e /sys/bus/event_source/devices/kprobe/type ]; then
	fail vm_kprobe_pmu "no /sys/bus/event_source/devices/kprobe/type in the VM kernel"
	exit 1
fi

# --- helpers (builtins only) --------------------------------------------------

mkfifo "$tmp/never"
exec 9<>"$tmp/never"
nap() { read -r -t "$1" -u 9 _; }

# contents of a file, without cat
slurp() {
	local v=
	IFS= read -r -d '' v <"$1" 2>/dev/null
	printf '%s' "$v"
}

# has TEXT SUBSTRING
has() { [[ $1 == *"$2"* ]]; }

# line_has TEXT A B: some line of TEXT holds both A and B
line_has() {
	local line
	while IFS= read -r line; do
		[[ $line == *"$2"* && $line == *"$3"* ]] && return 0
	done <<<"$1"
	return 1
}

# count TEXT SUBSTRING: lines of TEXT holding SUBSTRING
count() {
	local line n=0
	while IFS= read -r line; do
		[[ $line == *"$2"* ]] && n=$((n + 1))
	done <<<"$1"
	echo "$n"
}

# load NAME OBJ [CMD...]: bpfprobe load -v OBJ -- CMD; sets $out (stdout:
# printk lines and CMD's output), $err (stderr), and the GOT/TRUTH tallies.
declare -A got truth
load() {
	local name=$1 obj=$2 line k rc
	shift 2
	: >"$tmp/truth"
	KT_TRUTH=$tmp/truth "$BPFPROBE" load -v "$obj" -- "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(slurp "$tmp/out")
	err=$(slurp "$tmp/err")
	got=()
	truth=()
	while IFS= read -r line; do
		if [[ $line == TRUTH\ * ]]; then
			k=${line#TRUTH }
			truth[$k]=$((${truth[$k]:-0} + 1))
		fi
	done <"$tmp/truth"
	while IFS= read -r line; do
		if [[ $line == *"GOT "* ]]; then
			# printk metadata may come first on the line
			k=${line#*GOT }
			got[$k]=$((${got[$k]:-0} + 1))
		fi
	done <<<"$out"
	if [ "$rc" -ne 0 ]; then
		fail "$name" "bpfprobe exited $rc: ${err: -600}"
		return 1
	fi
}

# compare NAME KIND: the GOT and TRUTH lines "KIND ..." must be the same multiset
compare() {
	local name=$1 kind=$2 k diffs= n=0
	for k in "${!truth[@]}"; do
		[[ $k == "$kind "* ]] || continue
		n=$((n + truth[$k]))
		[ "${got[$k]:-0}" = "${truth[$k]}" ] ||
			diffs+=" [want ${truth[$k]} x '$k', got ${got[$k]:-0}]"
	done
	for k in "${!got[@]}"; do
		[[ $k == "$kind "* ]] && [ -z "${truth[$k]:-}" ] &&
			diffs+=" [unexpected ${got[$k]} x '$k']"
	done
	if [ "$n" = 0 ]; then
		fail "$name" "the helper printed no TRUTH $kind lines"
	elif [ -n "$diffs" ]; then
		fail "$name" "fetched values differ:${diffs:0:600}"
	else
		pass "$name"
	fi
}

# exactly NAME N 'KIND VALUES': N GOT lines of KIND, all of them these
exactly() {
	local name=$1 n=$2 want=$3 kind=${3%% *} k total=0
	for k in "${!got[@]}"; do
		[[ $k == "$kind "* ]] && total=$((total + got[$k]))
	done
	if [ "${got[$want]:-0}" = "$n" ] && [ "$total" = "$n" ]; then
		pass "$name"
	else
		fail "$name" "want $n x '$want', got ${got[$want]:-0} of those among $total '$kind' lines"
	fi
}

# kprobe_gone NAME FUNC: no kprobe on FUNC any more
kprobe_gone() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		has "$(slurp "$kplist")" "$2" || {
			pass "$1"
			return
		}
		nap 0.2
	done
	fail "$1" "a kprobe on $2 is left: $(slurp "$kplist")"
}

# --- the issue's seed: do_sched_setscheduler param->sched_priority@user ------

if load kernel_sched "$K/sched.bpf.o" "$K/kt_sched"; then
	compare kernel_seed_setscheduler seed
	compare kernel_args_sign_extended args
	compare kernel_args_narrow_unsigned uargs
	compare kernel_kretprobe_retval ret
	compare kernel_fetchargs fargs
	# Linux 6.1 predates cpu v4: the check says so, and the prologues
	# extend the signed int arguments with shifts (kernel_args_sign_extended
	# says they are right), never with the newer instructions
	IFS=. read -r kmaj kmin _ <<<"$(uname -r)"
	if [ "$kmaj" -gt 6 ] || { [ "$kmaj" -eq 6 ] && [ "${kmin%%[!0-9]*}" -ge 6 ]; }; then
		skip kernel_cpu_v4_fallback "this kernel ($(uname -r)) has cpu v4"
	elif has "$err" "cpu v4 instructions (sign-extending loads and moves, Linux 6.6+): refused by this kernel" &&
		has "$err" "s>>= 32" && ! has "$err" " = *(s32 *)(" && ! has "$err" " = (s32)r"; then
		pass kernel_cpu_v4_fallback
	else
		fail kernel_cpu_v4_fallback "load -v does not show the older form: ${err:0:1500}"
	fi
	# BTF-only resolution: no debug info in the VM
	if line_has "$err" 'probe point kernel do_sched_setscheduler+0x0 ' \
		'(arguments from BTF /sys/kernel/btf/vmlinux)'; then
		pass kernel_btf_source
	else
		fail kernel_btf_source "load -v does not say the arguments came from BTF"
	fi
	if has "$err" bpf_probe_read_user && has "$err" '[user]'; then
		pass kernel_user_deref
	else
		fail kernel_user_deref "param->sched_priority@user is not read with bpf_probe_read_user"
	fi
	kprobe_gone kernel_sched_detached do_sched_setscheduler
fi

# --- samples/setscheduler.bpf.c: the seed as a user writes it ---------------

S=$top/build/samples
if [ -e "$S/setscheduler.bpf.o" ] && [ -e "$S/setscheduler_app" ]; then
	"$BPFPROBE" load --quiet-meta "$S/setscheduler.bpf.o" -- "$S/setscheduler_app" \
		>"$tmp/sample" 2>"$tmp/sample.err"
	rc=$?
	sample=$(slurp "$tmp/sample")
	# every priority the app asked for, in order, as the program printed it
	want=$'prio: 10\nprio: 20\nprio: 30\nprio: 0'
	gotp=
	while IFS= read -r line; do
		[[ $line == "prio: "* ]] && gotp+=${gotp:+$'\n'}$line
	done <<<"$sample"
	if [ $rc -eq 0 ] && [ "$gotp" = "$want" ]; then
		pass sample_setscheduler
	else
		fail sample_setscheduler "exit $rc, printed: $gotp; $(slurp "$tmp/sample.err")"
	fi
else
	fail sample_setscheduler "build/samples/setscheduler* missing: run make samples"
fi

# --- perf's prologue test: func=null_lseek file->f_mode offset orig ----------

if load kernel_prologue "$K/prologue.bpf.o" "$K/kt_lseek"; then
	compare kernel_prologue_values lseek
	n=$(count "$out" 'SAMPLE null_lseek')
	# perf's tests/bpf.c: expect_result = (NR_ITERS + 1) / 4, NR_ITERS 111
	if [ "$n" -eq $(((111 + 1) / 4)) ]; then
		pass kernel_prologue_perf_count
	else
		fail kernel_prologue_perf_count "$n samples, perf's test expects 28"
	fi
	if has "$err" bpf_probe_read_kernel; then
		pass kernel_kernel_deref
	else
		fail kernel_kernel_deref "file->f_mode is not read with bpf_probe_read_kernel"
	fi
	kprobe_gone kernel_prologue_detached null_lseek
fi

# --- a module function (dummy.ko, BTF split from vmlinux's) ------------------

mod=${BPFPROBE_VM_MODULES:-/nonexistent}/kernel/drivers/net/dummy.ko
if [ ! -f "$mod" ]; then
	skip kernel_module "no dummy.ko in the VM (${BPFPROBE_VM_MODULES:-BPFPROBE_VM_MODULES unset})"
elif ! busybox insmod "$mod" 2>/dev/null || [ ! -e /sys/class/net/dummy0 ]; then
	fail kernel_module "cannot insmod $mod"
else
	ip link set dummy0 mtu 1234
	ifindex=$(slurp /sys/class/net/dummy0/ifindex)
	ifindex=${ifindex%$'\n'}
	stats=/sys/class/net/dummy0/statistics/tx_packets
	# each read of a statistics file calls dummy_get_stats64 once
	if load kernel_module "$K/module.bpf.o" cat "$stats" "$stats" "$stats"; then
		exactly kernel_module_function 3 "mod err=0 ifindex=$ifindex mtu=1234"
		exactly kernel_module_from_kallsyms 3 "auto err=0 mtu=1234"
		if line_has "$err" 'probe point kernel dummy:dummy_get_stats64+0x0 ' \
			'(arguments from BTF /sys/kernel/btf/dummy)'; then
			pass kernel_module_btf
		else
			fail kernel_module_btf "not resolved from /sys/kernel/btf/dummy"
		fi
		kprobe_gone kernel_module_detached dummy_get_stats64
	fi
	busybox rmmod dummy 2>/dev/null
fi

# --- a name two kernel functions share: probed by address --------------------

if [ "$(grep -cw address_show /proc/kallsyms)" -lt 2 ]; then
	skip kernel_dup_name "address_show is not a name two functions share in this kernel"
elif load kernel_dup_name "$K/dup.bpf.o" cat "$kplist" /sys/class/net/lo/address \
	/sys/class/net/lo/address /sys/class/net/lo/address; then
	points=$(count "$err" 'probe point kernel address_show+0x0')
	attached=$(count "$out" 'address_show+0x0')
	if [ "$points" = 2 ] && [ "$attached" = 2 ]; then
		pass kernel_dup_name_points
	else
		fail kernel_dup_name_points "$points probe points resolved, $attached kprobes attached; want 2 and 2"
	fi
	# the net-sysfs attribute is read-only: mode 0444
	exactly kernel_dup_name_values 3 "dup err=0 mode=292"
	kprobe_gone kernel_dup_name_detached address_show
fi

# --- a killed bpfprobe leaves nothing behind ---------------------------------

"$BPFPROBE" load "$K/sched.bpf.o" >/dev/null 2>&1 &
pid=$!
for i in {1..50}; do
	has "$(slurp "$kplist")" do_sched_setscheduler && break
	nap 0.2
done
if ! has "$(slurp "$kplist")" do_sched_setscheduler; then
	fail kernel_sigkill "bpfprobe load never attached"
	kill "$pid" 2>/dev/null
else
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	kprobe_gone kernel_sigkill do_sched_setscheduler
fi
events=$(slurp /sys/kernel/tracing/kprobe_events)
if [ -z "$events" ]; then
	pass kernel_no_tracefs_events
else
	fail kernel_no_tracefs_events "named kprobe events were left: $events"
fi

# --- bad inputs: a message naming the culprit, non-zero exit, nothing left ---

# bad CASE PATTERN...
bad() {
	local c=$1 e rc p
	shift
	"$BPFPROBE" load "$K/bad_$c.o" -- /bin/true >/dev/null 2>"$tmp/err"
	rc=$?
	e=$(slurp "$tmp/err")
	if [ $rc -eq 0 ]; then
		fail "kernel_bad_$c" "exit status 0, want a failure; stderr: $e"
		return
	fi
	for p in "$@"; do
		if ! has "$e" "$p"; then
			fail "kernel_bad_$c" "stderr lacks '$p': $e"
			return
		fi
	done
	p=$(slurp "$kplist")
	if [ -n "$p" ]; then
		fail "kernel_bad_$c" "a kprobe stayed: $p"
		return
	fi
	pass "kernel_bad_$c"
}

bad nofunc "no_such_function_bpfprobe in the kernel: no such function"
bad nomodule "module 'no_such_module' is not loaded"
bad nomember "do_sched_setscheduler" "struct sched_param has no member 'nope' (members: sched_priority)"
bad nonptr "'->' on non-pointer 'policy' (type int)"
bad noparam "no parameter 'nope' (parameters: pid, policy, param)"
bad stack_param "parameter 7 'populate' is passed on the stack"
bad notscalar "'file->f_path' is a struct; name a member"
bad retval_entry '$retval'
bad param_return "a return probe can only fetch"
bad offset_args "only at the function's entry"
bad notrace "__schedule in the kernel: not probeable: notrace"
bad blacklist "notify_die in the kernel: on the kprobe blacklist"
bad badoffset "do_sched_setscheduler+0x1: not an instruction boundary"
bad toomany "at most 3"

# --- map tracing: map=MAP;update|delete, monitor --map, list ------------------
# tests/kernel/progs/kt_maps.c changes pinned maps (hash, array, per-CPU hash,
# and kt_other, never traced) from user space and through an XDP program's
# helpers, and says what it did as TRUTH lines; tests/kernel/bpf/maptrace.bpf.c
# prints what it was given.

# mon_compare NAME OUT KEYFORM: the monitor's lines in OUT whose key starts
# with KEYFORM ('{' or a digit) against the TRUTH mon lines of that form
mon_compare() {
	local name=$1 out=$2 form=$3 line k
	got=()
	truth=()
	while IFS= read -r line; do
		[[ $line == "TRUTH mon "* ]] || continue
		k=${line#TRUTH }
		[[ ${k#* key=} == "$form"* ]] && truth[$k]=$((${truth[$k]:-0} + 1))
	done <"$tmp/mtruth"
	while IFS= read -r line; do
		# "TIME OP key=... [value=...] [flags=...] pid=P comm=C func=F"
		k="mon ${line#* }"
		k=${k%% pid=*}
		[[ ${k#* key=} == "$form"* ]] && got[$k]=$((${got[$k]:-0} + 1))
	done <<<"$out"
	compare "$name" mon
}

# start_monitor FILE ARGS...: bpfprobe monitor in the background, $mon_pid,
# stdout in FILE, stderr in FILE.err; waits until it says it is attached
start_monitor() {
	local file=$1 i
	shift
	"$BPFPROBE" monitor "$@" >"$file" 2>"$file.err" &
	mon_pid=$!
	for ((i = 0; i < 300; i++)); do
		has "$(slurp "$file.err")" "(Ctrl-C stops)" && return 0
		kill -0 $mon_pid 2>/dev/null || return 1
		nap 0.2
	done
	return 1
}

if ! "$K/kt_maps" setup "$K/kt_maps_def.bpf.o" 2>"$tmp/kt_maps.err"; then
	fail maptrace_setup "kt_maps setup: $(slurp "$tmp/kt_maps.err")"
else
	# fentry, this kernel's way: every change from user space (single,
	# batch, lookup-and-delete, failing ones) and from the helpers
	if load maptrace "$K/maptrace.bpf.o" "$K/kt_maps" run; then
		for k in hash_update hash_update2 hash_delete arr_update arr_delete \
			pcpu_update pcpu_delete; do
			compare "maptrace_$k" "$k"
		done
		fetch_errors=
		for k in "${!got[@]}"; do
			[[ $k == "fetch_error "* ]] && fetch_errors+=" [$k]"
		done
		if [ -n "$fetch_errors" ]; then
			fail maptrace_fetch "fetches failed:$fetch_errors"
		else
			pass maptrace_fetch
		fi
		if has "$err" "using kprobes"; then
			fail maptrace_fentry "fell back to kprobes: $err"
		elif line_has "$err" "program 'hash_update': probe point kernel htab_map_update_elem" \
			"arguments from BTF"; then
			pass maptrace_fentry
		else
			fail maptrace_fentry "load -v does not show the fentry points: ${err:0:600}"
		fi
	fi
	# kprobes see BPF programs' changes only: the bpf() syscall keeps
	# kprobe programs out while it changes a map, and load says so
	export BPFPROBE_MAP_ATTACH=kprobe
	if load maptrace_kprobe "$K/maptrace.bpf.o" "$K/kt_maps" helper; then
		for k in hash_update hash_update2 hash_delete; do
			compare "maptrace_kprobe_$k" "$k"
		done
		if has "$err" "kprobes do not run while the bpf() syscall changes the map"; then
			pass maptrace_kprobe_warns
		else
			fail maptrace_kprobe_warns "no warning about what kprobes miss: ${err:0:600}"
		fi
	fi
	unset BPFPROBE_MAP_ATTACH

	# monitor --map, text and JSON, of maps kt_maps loaded (not bpfprobe)
	: >"$tmp/mtruth"
	if start_monitor "$tmp/mon" --map /sys/fs/bpf/kt_maps/kt_hash &&
		mp1=$mon_pid && start_monitor "$tmp/monp" --map name:kt_pcpu &&
		mp2=$mon_pid && start_monitor "$tmp/monj" --json --map /sys/fs/bpf/kt_maps/kt_hash; then
		mp3=$mon_pid
		KT_TRUTH=$tmp/mtruth "$K/kt_maps" run 2>/dev/null
		nap 1
		kill -INT $mp1 $mp2 $mp3
		wait $mp1 $mp2 $mp3
		mon_compare monitor_map_hash "$(slurp "$tmp/mon")" '{'
		mon_compare monitor_map_percpu "$(slurp "$tmp/monp")" '4'
		monj=$(slurp "$tmp/monj")
		if line_has "$monj" '"event":"update"' '"key":{"port":1,"proto":6},"value":{"hits":10,"delta":-3,"tag":"a"},"flags":1,"flags_text":"BPF_NOEXIST"' &&
			line_has "$monj" '"event":"delete"' '"key":{"port":3,"proto":6},"pid":' &&
			line_has "$monj" '"comm":"kt_maps"' '"func":"htab_map_lookup_and_delete_elem"' &&
			[ "$(count "$monj" '"event":')" = 12 ]; then
			pass monitor_map_json
		else
			fail monitor_map_json "${monj:0:800}"
		fi
		if has "$(slurp "$tmp/mon.err")" "map" && has "$(slurp "$tmp/mon.err")" "'kt_hash' (hash): every update and delete, with fentry on htab_map_update_elem, htab_map_delete_elem, htab_map_lookup_and_delete_elem"; then
			pass monitor_map_says_functions
		else
			fail monitor_map_says_functions "$(slurp "$tmp/mon.err")"
		fi
	else
		fail monitor_map "monitor --map did not start: $(slurp "$tmp/mon.err") $(slurp "$tmp/monp.err") $(slurp "$tmp/monj.err")"
		kill $mon_pid 2>/dev/null
	fi

	# list: a pinned map-tracing session, its map and functions
	export BPFPROBE_PIN_ROOT=/sys/fs/bpf/kt_pins
	if "$BPFPROBE" load --pin kt_mt "$K/maptrace.bpf.o" >"$tmp/pin.out" 2>&1; then
		listed=$("$BPFPROBE" list 2>&1)
		listj=$("$BPFPROBE" list --json 2>&1)
		if line_has "$listed" "traced map: id" "'kt_hash' (hash), every delete, at fentry:htab_map_delete_elem, fentry:htab_map_lookup_and_delete_elem" &&
			line_has "$listed" "traced map: id" "'kt_pcpu' (percpu_hash), every update, at fentry:htab_percpu_map_update_elem, fentry:bpf_percpu_hash_update" &&
			line_has "$listed" "hash_update " "fentry:htab_map_update_elem" &&
			has "$listj" '"name":"kt_arr","type":"array","op":"delete","functions":["fentry:array_map_delete_elem"]'; then
			pass list_map_tracing
		else
			fail list_map_tracing "${listed:0:1500}"
		fi
		"$BPFPROBE" unload kt_mt >/dev/null 2>&1
	else
		fail list_map_tracing "load --pin failed: $(slurp "$tmp/pin.out")"
	fi
	unset BPFPROBE_PIN_ROOT
	"$K/kt_maps" cleanup
fi

# --- uprobes where the kernel has no uprobe_multi links (6.1) -----------------
# A hundred functions of tests/targets/many, one perf event each: every
# argument (base -500, step 3: the first hundred the target prints).
if [ -x build/targets/many-gcc-O2 ] && [ -e build/bpf/many__some-gcc-O2.o ]; then
	if load uprobe_per_point_events build/bpf/many__some-gcc-O2.o build/targets/many-gcc-O2; then
		diffs= n=0
		for ((x = -500; x <= -203; x += 3)); do
			[ "${got[x=$x]:-0}" = 1 ] || diffs+=" x=$x:${got[x=$x]:-0}"
			n=$((n + ${got[x=$x]:-0}))
		done
		if ! has "$err" "uprobe_multi links: not available"; then
			fail uprobe_per_point_events "no word of the fallback at -v: ${err:0:300}"
		elif [ -n "$diffs" ] || [ "${#got[@]}" != 100 ]; then
			fail uprobe_per_point_events "$n of 100 values right, ${#got[@]} distinct;${diffs:0:300}"
		else
			pass uprobe_per_point_events
		fi
	fi
else
	fail uprobe_per_point_events "build/targets/many-gcc-O2 or build/bpf/many__some-gcc-O2.o is missing: make tests-build"
fi

# --- bpfprobe trace: generated programs on kprobes and 6.1's uprobes ----------
# The values of do_sched_setscheduler as kt_sched passes them, and its
# return values; kprobes and per-point uprobe events are attached through
# perf links with BPF cookies (the point's index), which -c counts by.

: >"$tmp/truth"
KT_TRUTH=$tmp/truth "$BPFPROBE" trace -q \
	'func=do_sched_setscheduler pid policy prio=param->sched_priority@user' \
	'func=do_sched_setscheduler%return $retval' -- "$K/kt_sched" >"$tmp/out" 2>"$tmp/err"
rc=$?
declare -A tgot ttruth
while IFS= read -r line; do
	[[ $line == *" kt_sched "* ]] || continue
	if [[ $line == *" do_sched_setscheduler%return retval="* ]]; then
		k="ret ${line#* retval=}"
	elif [[ $line == *" do_sched_setscheduler pid="* ]]; then
		k="args ${line#* do_sched_setscheduler }"
	else
		continue
	fi
	tgot[$k]=$((${tgot[$k]:-0} + 1))
done <"$tmp/out"
lastpid= lastpol=
while IFS= read -r line; do
	k=
	case $line in
	"TRUTH uargs err=0 pid="*)
		read -r _ _ _ lastpid lastpol _ <<<"$line"
		lastpid=${lastpid#pid=} lastpol=${lastpol#p16=} ;;
	"TRUTH args err=0 "*) k="args ${line#TRUTH args err=0 }" ;;
	"TRUTH args err=1 "*) k="args pid=$lastpid policy=$lastpol prio=(fault)" ;;
	"TRUTH ret err=0 "*) k="ret ${line#TRUTH ret err=0 ret=}" ;;
	esac
	[ -n "$k" ] && ttruth[$k]=$((${ttruth[$k]:-0} + 1))
done <"$tmp/truth"
diffs=
for k in "${!ttruth[@]}"; do
	[ "${tgot[$k]:-0}" = "${ttruth[$k]}" ] || diffs+=" [want ${ttruth[$k]} x '$k', got ${tgot[$k]:-0}]"
done
for k in "${!tgot[@]}"; do
	[ -n "${ttruth[$k]:-}" ] || diffs+=" [unexpected ${tgot[$k]} x '$k']"
done
if [ $rc -ne 0 ]; then
	fail kernel_trace_values "bpfprobe trace exited $rc: $(slurp "$tmp/err")"
elif [ "${#ttruth[@]}" = 0 ]; then
	fail kernel_trace_values "kt_sched printed no TRUTH lines"
elif [ -n "$diffs" ]; then
	fail kernel_trace_values "${diffs:0:800}"
else
	pass kernel_trace_values
fi
kprobe_gone kernel_trace_detached do_sched_setscheduler

# --- kernel stacks: trace --stack=kernel at a kprobe --------------------------
# The first hit's frames, symbolized through kallsyms, are the system call's
# path in the kernel's source: do_sched_setscheduler, called by the
# sched_setscheduler syscall's wrapper, from do_syscall_64, from the entry.
"$BPFPROBE" trace -q --stack=kernel 'func=do_sched_setscheduler pid' -- "$K/kt_sched" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
funcs= in=0
while IFS= read -r line; do
	if [[ $line == *" kt_sched "*" do_sched_setscheduler pid="* ]]; then
		[ $in = 0 ] && in=1 && continue
		break
	fi
	[ $in = 1 ] || continue
	[[ $line == "    "* ]] || break
	read -r _ f _ <<<"$line"
	funcs+="${f%%+*} "
done <"$tmp/out"
want="do_sched_setscheduler __x64_sys_sched_setscheduler do_syscall_64 entry_SYSCALL_64_after_hwframe "
if [ $rc -eq 0 ] && [ "$funcs" = "$want" ]; then
	pass kernel_trace_kstack
else
	fail kernel_trace_kstack "exit $rc; frames '$funcs', want '$want': $(slurp "$tmp/out" | head -c 600) $(slurp "$tmp/err" | head -c 300)"
fi
kprobe_gone kernel_trace_kstack_detached do_sched_setscheduler

T=$top/build/targets/trace-gcc-O2
if [ -x "$T" ]; then
	"$BPFPROBE" trace -q -c "exec=$T;tick" "exec=$T;tock%return" "exec=$T;trace_call" \
		-- "$T" calls 5 64 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	counts=
	while IFS= read -r line; do
		[[ $line == tick\ * || $line == tock%return\ * || $line == trace_call\ * ]] &&
			counts+="${line%% *}=${line##* } "
	done <"$tmp/out"
	if [ $rc -eq 0 ] && [ "$counts" = "tick=5 tock%return=11 trace_call=5 " ]; then
		pass uprobe_trace_count_cookies
	else
		fail uprobe_trace_count_cookies "exit $rc, counts '$counts': $(slurp "$tmp/err")"
	fi
else
	fail uprobe_trace_count_cookies "$T is missing: make tests-build"
fi

# --- $ustack by frame pointers on 6.1 (whose walk misses the caller at a
# function's entry: bpfprobe adds it from [rsp]), against the CFI copy
T=$top/build/targets/fpstack-freestanding-gcc
# ustack_frames FILE: the functions of the first hit's frames
ustack_frames() {
	local line in=0 f=
	while IFS= read -r line; do
		if [[ $line == *" leaf" ]]; then
			[ $in = 0 ] && in=1 && continue
			break
		fi
		[ $in = 1 ] || continue
		[[ $line == "    "* ]] || break
		read -r _ fn _ <<<"$line"
		f+="$fn "
	done <"$1"
	echo "$f"
}
if [ -x "$T" ]; then
	"$BPFPROBE" trace -q --stack "exec=$T;ustack=fp;leaf" -- "$T" 1 >"$tmp/fp.out" 2>"$tmp/fp.err"
	rc=$?
	"$BPFPROBE" trace -q --stack "exec=$T;ustack=dwarf;leaf" -- "$T" 1 >"$tmp/dw.out" 2>"$tmp/dw.err"
	rc2=$?
	fp=$(ustack_frames "$tmp/fp.out") dw=$(ustack_frames "$tmp/dw.out")
	if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ -n "$fp" ] && [ "$fp" = "$dw" ] &&
	   [[ $fp == "leaf "* ]] && [[ $fp == *" main "* ]] && [[ $fp == *" _start " ]]; then
		pass uprobe_ustack_fp
	else
		fail uprobe_ustack_fp "exit $rc/$rc2; fp '$fp', dwarf '$dw': $(slurp "$tmp/fp.err" | head -c 400)"
	fi
else
	fail uprobe_ustack_fp "$T is missing: make tests-build"
fi

# --- SDT markers on 6.1: one perf event per site, semaphores by ref_ctr_offset
T=$top/build/targets/sdt-gcc-O2
if [ -x "$T" ]; then
	"$BPFPROBE" trace -q "exec=$T;%sdt:sem arg1" "exec=$T;%sdt:sites arg1" \
		-- "$T" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(slurp "$tmp/out") err=$(slurp "$tmp/err")
	if [ $rc -ne 0 ]; then
		fail uprobe_usdt_semaphores "exit $rc: ${err:0:600}"
	elif ! has "$out$err" "TRUTH sem enabled=1"; then
		fail uprobe_usdt_semaphores "the semaphore was not raised: ${err:0:400}"
	elif ! has "$out" "sdt:sem arg1=77" || ! has "$out" " arg1=21" || ! has "$out" " arg1=63"; then
		fail uprobe_usdt_semaphores "values: ${out:0:400}"
	else
		pass uprobe_usdt_semaphores
	fi
else
	fail uprobe_usdt_semaphores "$T is missing: make tests-build"
fi

# Every program of every run above is gone (one bpftool run: execs are slow).
progs=$(bpftool prog show 2>&1)
left=
for p in prog sched_args sched_uargs sched_fargs sched_ret null_lseek_prog mod_stats mod_auto addr_show badprog \
	hash_update hash_update2 hash_delete arr_update arr_delete pcpu_update pcpu_delete \
	bpfprobe_mon some bp_trace_0 bp_trace_1 bp_trace_2; do
	[[ $progs == *"name $p "* ]] && left+=" $p"
done
if [ -z "$left" ]; then
	pass kernel_nothing_loaded
else
	fail kernel_nothing_loaded "BPF programs still loaded:$left"
fi

exit $failed
