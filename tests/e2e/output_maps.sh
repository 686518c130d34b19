# Maps dumped at exit: a hash, an array, a per-CPU array and a per-CPU hash
# (values summed over the CPUs the target ran on), in text and JSON, and
# --no-map-dump. The values follow from the target's out_map() calls.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip output_maps "$why"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
T=build/targets/output-gcc-O2
OBJ=build/bpf/output__maps-gcc-O2.o

# From "TRUTH map key=K val=V cpu=C" lines: per key the call count, the
# last value and the sum; the total; and how many CPUs were used.
timeout 60 "$BPFPROBE" load $OBJ -- $T maps >"$tmp/out" 2>"$tmp/err"
rc=$?
want=$(awk '/^TRUTH map / {
		split($3, k, "="); split($4, v, "=")
		n[k[2]]++; last[k[2]] = v[2]; sum[k[2]] += v[2]; total += v[2]
	}
	END {
		for (key = 1; key <= 3; key++) print "@counts[" key "]: " n[key]
		for (key = 1; key <= 3; key++)
			print "@lasts[" key "]: { .val = " last[key] ", .calls = " n[key] ", .tag = \"k" key "\" }"
		print "@pcpu_total[0]: " total
		for (key = 1; key <= 3; key++)
			print "@pcpu_sums[" key "]: { .calls = " n[key] ", .sum = " (0 - sum[key]) " }"
	}' "$tmp/out")
got=$(grep '^@' "$tmp/out")
cpus=$(sed -n 's/^TRUTH map .* cpu=//p' "$tmp/out" | sort -u | wc -l)
if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
	pass output_map_dump_text
else
	fail output_map_dump_text "exit $rc; got:
$got
want:
$want $(tail -3 "$tmp/err")"
fi
# the per-CPU values were spread over CPUs (else summing proved nothing)
if [ "$(nproc)" -lt 2 ]; then
	skip output_map_dump_percpu_spread "one CPU: per-CPU values cannot be spread"
elif [ "$cpus" -ge 2 ]; then
	pass output_map_dump_percpu_spread
else
	fail output_map_dump_percpu_spread "the target ran on $cpus CPU"
fi

# JSON: one object per map (the workload's TRUTH lines go to stderr)
timeout 60 "$BPFPROBE" load --json $OBJ -- $T maps >"$tmp/out" 2>"$tmp/err"
rc=$?
json=$(cat "$tmp/out")
got=$(jq -r 'select(.type == "map") | .map as $m | .kind as $k | .entries[] |
	"\($m) \($k) \(.key) \(.value | if type == "object" then
		[to_entries[] | "\(.key)=\(.value)"] | join(",") else tostring end)"' <<<"$json" 2>&1)
want=$(awk '/^TRUTH map / {
		split($3, k, "="); split($4, v, "=")
		n[k[2]]++; last[k[2]] = v[2]; sum[k[2]] += v[2]; total += v[2]
	}
	END {
		for (key = 1; key <= 3; key++) print "counts hash " key " " n[key]
		for (key = 1; key <= 3; key++)
			print "lasts array " key " val=" last[key] ",calls=" n[key] ",tag=k" key
		print "pcpu_total percpu_array 0 " total
		for (key = 1; key <= 3; key++)
			print "pcpu_sums percpu_hash " key " calls=" n[key] ",sum=" (0 - sum[key])
	}' "$tmp/err")
nmaps=$(jq -r 'select(.type == "map") | .map' <<<"$json" | wc -l)
if [ $rc -eq 0 ] && [ "$got" = "$want" ] && [ "$nmaps" -eq 4 ]; then
	pass output_map_dump_json
else
	fail output_map_dump_json "exit $rc, $nmaps maps; got:
$got
want:
$want $(tail -3 "$tmp/err")"
fi

# --no-map-dump
out=$(timeout 60 "$BPFPROBE" load --no-map-dump $OBJ -- $T maps 2>"$tmp/err")
rc=$?
if [ $rc -eq 0 ] && grep -q '^TRUTH map' <<<"$out" && ! grep -q '^@' <<<"$out"; then
	pass output_no_map_dump
else
	fail output_no_map_dump "exit $rc: $(grep '^@' <<<"$out" | head -2) $(tail -2 "$tmp/err")"
fi
