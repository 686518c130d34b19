# Clean streams for scripts: with --json, stdout holds bpfprobe's JSON Lines
# alone (the workload's stdout goes to stderr), so `load --json ... | jq`
# parses however much the workload prints; -o FILE sends bpfprobe's records
# to FILE and leaves stdout to the workload.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip streams "$why"
	exit 0
fi
command -v jq >/dev/null || { fail streams "jq is missing (make deps installs it)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
T=build/targets/follow-gcc-O2
O=build/bpf/follow__work-gcc-O2.o

# the README's pattern, from a C source, with a chatty workload (a TRUTH
# line per call and a "done" line, 50 calls)
cp tests/bpf/follow__work.bpf.c "$tmp/prog.c"
sed -i "s|\" TARGET \"|$PWD/$T|" "$tmp/prog.c"
timeout 120 "$BPFPROBE" load --json "$tmp/prog.c" -- $T self 50 2>"$tmp/err" |
	jq -c 'select(.type == "printk") | .msg' >"$tmp/msgs" 2>"$tmp/jq.err"
rc=("${PIPESTATUS[@]}")
got=$(sed 's/^"GOT //; s/"$//' "$tmp/msgs" | sort)
want=$(sed -n 's/^TRUTH //p' "$tmp/err" | sort)
if [ "${rc[0]}" -eq 0 ] && [ "${rc[1]}" -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] &&
   grep -qx 'done self 50' "$tmp/err"; then
	pass streams_json_pipe_parses
else
	fail streams_json_pipe_parses "exit ${rc[*]}: $(head -3 "$tmp/jq.err") $(grep -v TRUTH "$tmp/err" | tail -3)"
fi

# -o FILE: records there, the workload's output on stdout, nothing mixed
timeout 60 "$BPFPROBE" load -q --quiet-meta -o "$tmp/records" $O -- $T self 4 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && ! grep -q '^GOT' "$tmp/out" && ! grep -qv '^GOT' "$tmp/records" &&
   diff=$(compare_truth "$(cat "$tmp/out" "$tmp/records")"); then
	pass streams_output_file
else
	fail streams_output_file "exit $rc: $diff $(head -3 "$tmp/records") $(cat "$tmp/err")"
fi

# --json -o FILE: JSON in FILE, the workload keeps stdout
timeout 60 "$BPFPROBE" load -q --json -o "$tmp/records.json" $O -- $T self 3 >"$tmp/out" 2>"$tmp/err"
rc=$?
n=$(jq -r 'select(.type == "printk") | .msg' "$tmp/records.json" 2>/dev/null | grep -c '^GOT work')
if [ $rc -eq 0 ] && [ "$n" -eq 3 ] && [ "$(grep -c '^TRUTH' "$tmp/out")" -eq 3 ]; then
	pass streams_json_output_file
else
	fail streams_json_output_file "exit $rc, $n records: $(cat "$tmp/err")"
fi

# -o into a directory that does not exist: an error naming it, nothing run
timeout 60 "$BPFPROBE" load -o "$tmp/nodir/x" $O -- $T self 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ] && grep -q "$tmp/nodir/x" "$tmp/err" && ! grep -q TRUTH "$tmp/out"; then
	pass streams_output_file_bad
else
	fail streams_output_file_bad "exit $rc: $(cat "$tmp/err")"
fi
