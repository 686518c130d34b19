# Probe point forms on the "points" target in every build variant (gcc and
# clang at -O0 -O1 -O2 -O3 -Os, PIE and not): SRC:ALN, FUNC:RLN, FUNC;PTN,
# SRC;PTN, globs, FUNC@SRC, force=, gcc clones, inlined copies; every
# fetched value is compared with the truth the target prints.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip points_e2e "$why"
	exit 0
fi

T=tests/targets/points
# The BPF objects name lines by number: they must still be the marked ones.
line_is() {	# FILE LINE MARKER
	sed -n "$2p" "$T/$1" | grep -q "$3"
}
if line_is lines.c 12 LINE_ABS && line_is lines.c 13 LINE_REL &&
   line_is lines.c 8 'int line_abs(' && line_is funcs.c 33 INL_BODY &&
   line_is twin_b.c 4 'int twin(' && line_is twin_b.c 6 'sink = v \* 1000'; then
	pass points_line_markers
else
	fail points_line_markers "a line named by tests/bpf/points__*.bpf.c moved in $T"
fi

variants=
for c in gcc clang; do
	for o in $(cat $T/opts); do
		variants="$variants $c-$o"
	done
done

# load OBJ GROUP: runs the target's GROUP under the object's probes
load() {
	timeout 60 "$BPFPROBE" load "build/bpf/points__$2-$1.o" -- \
		"build/targets/points-$1" "$2" 2 2>&1
}

# One variant: both objects, values and what force=yes says it skipped.
check_variant() {
	local v=$1 out rc diff

	out=$(load "$v" main)
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "points_main_$v" "exit $rc: $(grep -v '^TRUTH' <<<"$out" | tail -4)"
	elif ! diff=$(compare_truth "$out"); then
		fail "points_main_$v" "fetched values differ from the truth (< truth, > fetched):
$diff"
	elif ! grep -q "force=yes: skipping probe point force_drop in " <<<"$out" ||
	     grep -q "skipping probe point force_keep" <<<"$out"; then
		fail "points_main_$v" "force=yes did not say it skipped force_drop (only): $(grep skipping <<<"$out")"
	else
		pass "points_main_$v"
	fi

	out=$(load "$v" inline)
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "points_inline_$v" "exit $rc: $(grep -v '^TRUTH' <<<"$out" | tail -4)"
	elif ! diff=$(compare_truth "$out"); then
		fail "points_inline_$v" "fetched values differ from the truth (< truth, > fetched):
$diff"
	elif [ "$(grep -c 'force=yes: skipping probe point inl_add inlined into inl_caller[12] at ' <<<"$out")" -ne 2 ]; then
		fail "points_inline_$v" "force=yes did not say it skipped the 2 inlined copies for %return: $(grep skipping <<<"$out")"
	else
		pass "points_inline_$v"
	fi
}

# four at a time: each run mostly waits (exec, attach, drain)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
set -- $variants
while [ $# -gt 0 ]; do
	batch=
	for _ in 1 2 3 4; do
		[ $# -gt 0 ] || break
		check_variant "$1" >"$tmp/$1" &
		batch="$batch $1"
		shift
	done
	wait
	for v in $batch; do
		cat "$tmp/$v"
	done
done
