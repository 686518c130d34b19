# Histograms: a program's maps of struct bpfprobe_hist and struct
# bpfprobe_lhist (bpfprobe/bpf.h; tests/bpf/hist__maps.bpf.c) and
# `trace --hist NAME` count the values tests/targets/hist passes, bucket
# for bucket as the target printed them (hist_truth.py computes the
# buckets from its TRUTH lines): JSON buckets compared, text bars checked
# for their shape; bad --hist names refused with nothing loaded.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip hist "$why"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
N=3000
py=python3.11

for v in gcc-O2 clang-O2; do
	T=build/targets/hist-$v
	O=build/bpf/hist__maps-$v.o
	[ -x "$T" ] && [ -f "$O" ] || { fail "hist_maps_$v" "$T or $O is missing (make tests-build)"; continue; }
	timeout 60 "$BPFPROBE" load --json "$O" -- "$T" $N >"$tmp/out" 2>"$tmp/err"
	rc=$?
	for m in by_rest linear unsigned_u; do
		want=$($py tests/e2e/hist_truth.py $m <"$tmp/err")
		got=$($py tests/e2e/hist_truth.py got $m <"$tmp/out" 2>&1)
		if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
			pass "hist_map_${m}_$v"
		else
			fail "hist_map_${m}_$v" "exit $rc; want $(echo "$want" | head -c 300) got $(echo "$got" | head -c 300) $(tail -2 "$tmp/err")"
		fi
	done
done

# text: "@by_rest[K]:" then a bar per bucket, the largest a full one, the
# counts summing to the calls
T=build/targets/hist-gcc-O2
timeout 60 "$BPFPROBE" load build/bpf/hist__maps-gcc-O2.o -- "$T" $N >"$tmp/out" 2>"$tmp/err"
rc=$?
bad=$(awk -v n=$N '
	/^@linear\[0\]:$/ { in_lin = 1; next }
	/^@/ { in_lin = 0; next }
	in_lin && /^$/ { in_lin = 0; next }
	in_lin {
		if ($0 !~ /^(\[-?[0-9]+, -?[0-9]+\)|\(\.\.\., -?[0-9]+\)|\[-?[0-9]+, \.\.\.\)) +[0-9]+ \|@* *\|$/) { print "bad line: " $0; exit }
		bar = $0; sub(/^[^|]*\|/, "", bar); sub(/\|$/, "", bar)
		if (length(bar) != 52) { print "bar of " length(bar) ": " $0; exit }
		if (bar !~ / /) full++
		split($0, f, "|"); c = f[1]; sub(/ +$/, "", c); sub(/.* /, "", c); sum += c
	}
	END { if (!full) print "no full bar"; else if (sum != n) print "counts sum to " sum ", not " n }' "$tmp/out")
if [ $rc -eq 0 ] && [ -z "$bad" ] && grep -q '^\[0, 25) ' "$tmp/out" && grep -q '^@by_rest\[0\]:$' "$tmp/out"; then
	pass hist_text_bars
else
	fail hist_text_bars "exit $rc; $bad; $(grep -A3 '^@linear' "$tmp/out" | head -5)"
fi

# trace --hist: one histogram per point, in BPF, from the record's member
for what in v u; do
	timeout 60 "$BPFPROBE" trace --json --hist $what "exec=$T;hist_value v u" -- "$T" $N \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	want=$($py tests/e2e/hist_truth.py trace_$what <"$tmp/err")
	got=$($py tests/e2e/hist_truth.py got trace_$what <"$tmp/out" 2>&1)
	if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
		pass "trace_hist_$what"
	else
		fail "trace_hist_$what" "exit $rc; want $(echo "$want" | head -c 300) got $(echo "$got" | head -c 300) $(tail -2 "$tmp/err")"
	fi
done
timeout 60 "$BPFPROBE" trace --hist v "exec=$T;hist_value v u" -- "$T" 100 >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q '^hist_value: 100 hits, v$' "$tmp/out" && grep -qE '^\[0\] +[0-9]+ \|@* *\|$' "$tmp/out"; then
	pass trace_hist_text
else
	fail trace_hist_text "$(head -5 "$tmp/out") $(tail -2 "$tmp/err")"
fi

# bad names: said, nothing loaded
timeout 60 "$BPFPROBE" trace --hist nosuch "exec=$T;hist_value v u" -- "$T" 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ] && grep -q "names no argument nosuch (v, u)" "$tmp/err" && nothing_loaded bp_trace_0; then
	pass trace_hist_bad_name
else
	fail trace_hist_bad_name "exit $rc: $(cat "$tmp/err")"
fi
