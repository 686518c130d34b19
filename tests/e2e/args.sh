# Loads tests/bpf/args__*.bpf.c on the args target in every build variant
# and compares every fetched value with the truth the target prints.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip args_e2e "$why"
	exit 0
fi

for v in $VARIANTS; do
	out=$(timeout 60 "$BPFPROBE" load --quiet-meta build/bpf/args__basic-$v.o -- build/targets/args-$v 2 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "args_basic_$v" "exit $rc: $(tail -5 <<<"$out")"
	elif diff=$(compare_truth "$out"); then
		pass "args_basic_$v"
	else
		fail "args_basic_$v" "fetched values differ from the truth (< truth, > fetched):
$diff"
	fi

	out=$(timeout 60 "$BPFPROBE" load --quiet-meta build/bpf/args__features-$v.o -- build/targets/args-$v 2 2>&1)
	rc=$?
	# two rounds: the map counts the hits, the .rodata scale multiplies
	want=$'GOT features a=-5 scaled=-15 hits=1\nGOT features a=-5 scaled=-15 hits=2'
	got=$(grep '^GOT features\|^ERR' <<<"$out")
	if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
		pass "args_features_$v"
	else
		fail "args_features_$v" "exit $rc, got: $got $(grep -v '^TRUTH' <<<"$out" | tail -5)"
	fi
done

# a standard libbpf section beside an annotated one loads and attaches as usual
out=$(timeout 60 "$BPFPROBE" load --quiet-meta build/bpf/args__mixed-gcc-O2.o -- build/targets/args-gcc-O2 2>&1)
rc=$?
got=$(grep '^GOT mixed' <<<"$out" | sort | tr '\n' ';')
if [ $rc -eq 0 ] && [ "$got" = "GOT mixed annotated c=4000000000;GOT mixed standard uprobe;" ]; then
	pass args_mixed_with_standard_section
else
	fail args_mixed_with_standard_section "exit $rc, got: $got $(tail -3 <<<"$out")"
fi
