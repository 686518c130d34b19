# A thousand probe points of one plan (tests/targets/many): attached
# through one uprobe_multi link where the kernel has them (6.6+), every
# value fetched right; the per-point perf events of older kernels
# (BPFPROBE_UPROBE_MULTI=0) fetch the same; a pid-filtered attach
# (--no-follow) goes through the link's own pid filter.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip many_points "$why"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME OBJ TGT ENV...: the GOT lines against the target's TRUTH (all
# of them for many__all; many__some probes many_000..many_099, whose
# arguments are the first hundred the target prints)
run() {
	local name=$1 obj=$2 tgt=$3 rc diff
	shift 3
	env "$@" "$BPFPROBE" load -v --quiet-meta "$obj" -- "$tgt" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$name" "exit $rc: $(grep -v '^  ' "$tmp/err" | tail -3)"
		return 1
	fi
	case $obj in *many__some*) subset ;; esac
	if ! diff=$(compare_truth "$(cat "$tmp/out")" | head -20); then
		fail "$name" "values differ from the target's: $diff"
		return 1
	fi
}
# keeps the TRUTH lines of the hundred functions many__some probes
subset() {
	awk '/^TRUTH / { if (n++ >= 100) next } { print }' "$tmp/out" >"$tmp/sub" &&
		mv "$tmp/sub" "$tmp/out"
}

multi=$(BPFPROBE_UPROBE_MULTI= "$BPFPROBE" load -v build/bpf/many__some-gcc-O2.o -- /bin/true 2>&1 |
	grep -c 'uprobe_multi links: available')
for cc in gcc clang; do
	tgt=build/targets/many-$cc-O2
	name=many_points_1000_$cc
	run "$name" "build/bpf/many__all-$cc-O2.o" "$tgt" BPFPROBE_UPROBE_MULTI= || continue
	n=$(grep -c '^GOT ' "$tmp/out")
	if [ "$multi" -gt 0 ] && ! grep -q '^1000 uprobe points attached through 1 uprobe_multi link$' "$tmp/err"; then
		fail "$name" "$n values, but not through one uprobe_multi link: $(grep -i 'uprobe' "$tmp/err" | head -3)"
	elif [ "$n" -ne 1000 ]; then
		fail "$name" "$n values, want 1000"
	else
		pass "$name"
	fi
done

# the perf event path: one event per point (a hundred: each detaches in
# a grace period of its own)
if run many_points_perf_events build/bpf/many__some-gcc-O2.o build/targets/many-gcc-O2 \
	BPFPROBE_UPROBE_MULTI=0; then
	if grep -q 'uprobe_multi links: not used' "$tmp/err" && [ "$(grep -c '^GOT ' "$tmp/out")" -eq 100 ]; then
		pass many_points_perf_events
	else
		fail many_points_perf_events "$(grep -c '^GOT ' "$tmp/out") values: $(grep -i 'uprobe' "$tmp/err" | head -3)"
	fi
fi

# --no-follow: the link's pid filter, set before the workload's exec
"$BPFPROBE" load --no-follow --quiet-meta build/bpf/many__some-gcc-O2.o -- build/targets/many-gcc-O2 \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
subset
if [ $rc -eq 0 ] && [ "$(grep -c '^GOT ' "$tmp/out")" -eq 100 ] && compare_truth "$(cat "$tmp/out")" >/dev/null; then
	pass many_points_pid_filter
else
	fail many_points_pid_filter "$(grep -c '^GOT ' "$tmp/out") values: $(tail -3 "$tmp/err")"
fi

if nothing_loaded many && nothing_loaded some; then
	pass many_points_nothing_left
else
	fail many_points_nothing_left "a 'many' or 'some' program is still loaded"
fi
