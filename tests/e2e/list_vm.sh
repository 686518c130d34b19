# bpfprobe list on a kernel with kprobes and before 6.6: this host's kernel
# has no kprobes, so this runs in the qemu VM of tests/vm (Debian's 6.1).
# There, a libbpf kprobe and kretprobe are listed with their function, and
# perf links (whose info 6.1 does not detail) get their uprobe file and
# offset from the perf event fds their owner holds (BPF_TASK_FD_QUERY).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

if [ "${BPFPROBE_VM:-}" != 1 ]; then
	why=$(uprobe_unavailable)
	if [ -n "$why" ]; then
		skip list_vm "$why"
		exit 0
	fi
	out=$(BPFPROBE_VM_TIMEOUT=300 tests/vm/run.sh bash tests/e2e/list_vm.sh 2>&1)
	rc=$?
	if [ $rc -eq 125 ]; then
		skip list_vm "no VM with a kprobe kernel to run in: $(tail -1 <<<"$out")"
	elif ! grep -Eq '^(PASS|FAIL|SKIP) ' <<<"$out"; then
		fail list_vm "the VM run reported nothing (exit $rc): $(tail -3 <<<"$out")"
	else
		grep -E '^(PASS|FAIL|SKIP) ' <<<"$out"
	fi
	exit 0
fi

# ---- inside the VM ----------------------------------------------------------
tmp=$(mktemp -d)
pids=()
trap '[ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
TGT=$PWD/build/targets/args-gcc-O2
[ -e /sys/bus/event_source/devices/kprobe/type ] ||
	{ skip list_vm_kprobe "the VM kernel $(uname -r) has no kprobe PMU"; exit 0; }

$TGT 100000 50 >/dev/null &
tpid=$!
pids+=($tpid)
build/sysinfo-tests/attach_all build/sysinfo-tests/kprobe.bpf.o >"$tmp/kp.out" 2>"$tmp/kp.err" &
kp=$!
pids+=($kp)
build/sysinfo-tests/plain_loader build/sysinfo-tests/plain.bpf.o $TGT $tpid >"$tmp/pl.out" 2>"$tmp/pl.err" &
pl=$!
pids+=($pl)
for _ in $(seq 600); do
	grep -q READY "$tmp/kp.out" && grep -q READY "$tmp/pl.out" && break
	sleep 0.1
done
if ! grep -q READY "$tmp/kp.out"; then
	fail list_vm_setup "kprobe loader: $(cat "$tmp/kp.err")"
	exit 0
fi
"$BPFPROBE" list --json >"$tmp/list.json" 2>"$tmp/list.err"

check() {
	local name=$1 filter=$2
	shift 2
	if jq -e "$@" "$filter" "$tmp/list.json" >/dev/null 2>&1; then
		pass "$name"
	else
		fail "$name" "$(uname -r): not true: $filter"
	fi
}
KP='.programs[] | select(.owners == [{"pid": $kp, "comm": "attach_all"}])'
check list_vm_kprobe "[$KP | select(.name == \"kp_entry\") | .type == \"kprobe\" and .bpfprobe == null and
	(.attach | length) == 1 and (.attach[0] | .kind == \"kprobe\" and .target == \"do_sys_openat2\"
	 and .return == false and .text == \"kprobe:do_sys_openat2\" and (.link_id | type) == \"number\")] == [true]" \
	--argjson kp $kp
check list_vm_kretprobe "[$KP | select(.name == \"kp_return\") | .attach[0] |
	.kind == \"kretprobe\" and .return and .target == \"do_sys_openat2\"] == [true]" --argjson kp $kp
# 6.1's link info says "perf_event link" and nothing more: the owner's perf fd tells the rest
check list_vm_perf_link_fallback "[.programs[] | select(.name == \"plain_up\" and .owners[0].pid == \$pl) |
	(.attach | length) == 1 and (.attach[0] | .kind == \"uprobe\" and .target == \$tgt
	 and .symbol == \"neg_args\" and (.link_id | type) == \"number\")] == [true]" \
	--argjson pl $pl --arg tgt "$TGT"
if grep -q '^FENTRY' "$tmp/pl.out"; then
	check list_vm_fentry_fexit "[.programs[] | select(.owners[0].pid == \$pl and (.name == \"plain_fentry\" or .name == \"plain_fexit\"))
		| .attach[0] | [.text, .return, .pid]] | sort == [[\"fentry:vfs_read\", false, -1], [\"fexit:vfs_read\", true, -1]]" \
		--argjson pl $pl
else
	skip list_vm_fentry_fexit "the VM kernel refuses BPF trampoline programs: $(sed -n 's/^NOFENTRY *//p' "$tmp/pl.out")"
fi
