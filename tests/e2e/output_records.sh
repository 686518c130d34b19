# Ring buffer and perf buffer records: typed by the __bpfprobe_record_<map>
# convention (fields by name, in text and JSON), hex when untyped, perf's
# __bpf_stdout__ as text, and lost perf records counted exactly.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip output_records "$why"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# what the BPF programs must have recorded for "TRUTH record id=I val=V name=N"
# lines: "pid id val name lo flags arr color low high"
expected_events() {
	local pid=$1
	sed -n 's/^TRUTH record id=\([0-9]*\) val=\([-0-9]*\) name=\(.*\)$/\1 \2 \3/p' "$2" |
	while read -r id val name; do
		case $id in 1) color=GREEN ;; 2) color=BLUE ;; *) color=RED ;; esac
		echo "$pid $id $val $name -$id $((128 + id)) $id,$((2 * id)),$((3 * id)) $color $id $((15 - id))"
	done
}

for v in $VARIANTS; do
	T=build/targets/output-$v
	OBJ=build/bpf/output__ringbuf-$v.o

	# text: MAP: { .field = value, ... }; untyped map in hex
	timeout 60 "$BPFPROBE" load $OBJ -- $T record 3 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	pid=$(sed -n 's/^TRUTH pid=//p' "$tmp/out")
	want=$(sed -n 's/^TRUTH record id=\([0-9]*\) val=\([-0-9]*\) name=\(.*\)$/\1 \2 \3/p' "$tmp/out" |
		while read -r id val name; do
			case $id in 1) color=GREEN ;; 2) color=BLUE ;; *) color=RED ;; esac
			printf 'events: { .pid = %s, .id = %s, .val = %s, .name = "%s", .sub = { .lo = -%s, .flags = %s }, .arr = [%s, %s, %s], .color = %s, .low = %s, .high = %s }\n' \
				"$pid" "$id" "$val" "${name//\"/\\\"}" "$id" $((128 + id)) \
				"$id" $((2 * id)) $((3 * id)) $color "$id" $((15 - id))
		done)
	got=$(grep '^events: ' "$tmp/out")
	raw=$(grep '^raw_events: ' "$tmp/out")
	want_raw=$'raw_events: ef be ad de 01 00 00 00\nraw_events: ef be ad de 02 00 00 00\nraw_events: ef be ad de 03 00 00 00'
	if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] && [ "$raw" = "$want_raw" ]; then
		pass "output_ringbuf_text_$v"
	else
		fail "output_ringbuf_text_$v" "exit $rc; got:
$got
$raw
want:
$want $(tail -3 "$tmp/err")"
	fi

	# JSON: the same values by field name through jq; stdout is JSON
	# alone (the workload's stdout, its TRUTH lines, goes to stderr)
	timeout 60 "$BPFPROBE" load --json $OBJ -- $T record 3 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	pid=$(sed -n 's/^TRUTH pid=//p' "$tmp/err")
	got=$(jq -r 'select(.type == "record" and .map == "events") | .data |
		"\(.pid) \(.id) \(.val) \(.name) \(.sub.lo) \(.sub.flags) \(.arr | map(tostring) | join(",")) \(.color) \(.low) \(.high)"' "$tmp/out" 2>&1)
	hex=$(jq -r 'select(.type == "record" and .map == "raw_events") | .hex' "$tmp/out" 2>&1 | tr '\n' ' ')
	want=$(expected_events "$pid" "$tmp/err")
	if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] &&
	   [ "$hex" = "efbeadde01000000 efbeadde02000000 efbeadde03000000 " ]; then
		pass "output_ringbuf_json_$v"
	else
		fail "output_ringbuf_json_$v" "exit $rc; got:
$got
$hex
want:
$want $(tail -3 "$tmp/err")"
	fi
done

T=build/targets/output-gcc-O2
OBJ=build/bpf/output__perf-gcc-O2.o

# perf buffers, text: typed records and __bpf_stdout__ text
timeout 60 "$BPFPROBE" load $OBJ -- $T perf 2 0 >"$tmp/out" 2>"$tmp/err"
rc=$?
pid=$(sed -n 's/^TRUTH pid=//p' "$tmp/out")
got=$(grep -v '^TRUTH\|^@' "$tmp/out" | grep -v '\.id = 1[0-9][0-9][0-9],' | sort)
want=$( (sed -n 's/^TRUTH record id=\([0-9]*\) val=\([-0-9]*\) name=\(.*\)$/\1 \2 \3/p' "$tmp/out" |
	while read -r id val name; do
		printf 'perf_events: { .pid = %s, .id = %s, .val = %s, .name = "%s" }\n' \
			"$pid" "$id" "$val" "${name//\"/\\\"}"
		echo "__bpf_stdout__: stdout id=$id"
	done) | sort)
if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
	pass output_perf_text_and_bpf_stdout
else
	fail output_perf_text_and_bpf_stdout "exit $rc; got:
$got
want:
$want $(tail -3 "$tmp/err")"
fi

# lost records: a one-page perf buffer and a burst of 2000 records on one
# CPU; the program counts what bpf_perf_event_output() took and refused in
# map "stats" (dumped at exit). The kernel reports the refused ones with the
# next record on that CPU (the target's last call, after a pause).
# bpfprobe shares CPU 0 with the target, so it cannot drain the buffer while
# the burst runs (a program is not preempted): the loss does not depend on
# how busy the other CPU is.
timeout 60 taskset -c 0 "$BPFPROBE" load --json --perf-pages 1 $OBJ -- $T perf 3 2000 >"$tmp/out" 2>"$tmp/err"
rc=$?
pid=$(sed -n 's/^TRUTH pid=//p' "$tmp/err")
json=$(cat "$tmp/out")
took=$(jq -r 'select(.type == "map" and .map == "stats") | .entries[] | select(.key == 0) | .value' <<<"$json")
refused=$(jq -r 'select(.type == "map" and .map == "stats") | .entries[] | select(.key == 1) | .value' <<<"$json")
records=$(jq -r 'select(.type == "record" and .map == "perf_events") | .data.id' <<<"$json" | wc -l)
lost=$(jq -r 'select(.type == "lost" and .source == "perf_events") | .count' <<<"$json" |
	awk '{ n += $1 } END { print n + 0 }')
typed=$(jq -r 'select(.type == "record" and .map == "perf_events" and .data.id < 1000) | .data |
	"\(.pid) \(.id) \(.val) \(.name)"' <<<"$json")
want_typed=$(sed -n 's/^TRUTH record id=\([0-9]*\) val=\([-0-9]*\) name=\(.*\)$/\1 \2 \3/p' "$tmp/err" |
	while read -r id val name; do echo "$pid $id $val $name"; done)
stdout=$(jq -r 'select(.type == "record" and .map == "__bpf_stdout__") | .text' <<<"$json" | tr '\n' ';')
if [ $rc -eq 0 ] && [ -n "$refused" ] && [ "$refused" -gt 0 ] && [ "$lost" = "$refused" ] &&
   [ "$records" = "$took" ] && [ "$typed" = "$want_typed" ] &&
   [ "$stdout" = "stdout id=1;stdout id=2;stdout id=3;stdout id=99;" ]; then
	pass output_perf_lost_counted
else
	fail output_perf_lost_counted "exit $rc: took $took, got $records records; refused $refused, reported lost $lost; typed: $typed; stdout: $stdout $(tail -3 "$tmp/err")"
fi

# the same in text: lost records on stderr, with a total at exit
timeout 60 taskset -c 0 "$BPFPROBE" load --perf-pages 1 $OBJ -- $T perf 1 2000 >"$tmp/out" 2>"$tmp/err"
refused=$(sed -n 's/^@stats\[1\]: //p' "$tmp/out")
lost=$(sed -n 's/^bpfprobe: lost \([0-9]*\) records of perf_events on CPU 0$/\1/p' "$tmp/err" |
	awk '{ n += $1 } END { print n + 0 }')
if [ -n "$refused" ] && [ "$lost" = "$refused" ] &&
   grep -q "^bpfprobe: $refused records were lost in all$" "$tmp/err" &&
   ! grep -q 'lost' "$tmp/out"; then
	pass output_perf_lost_text
else
	fail output_perf_lost_text "refused $refused, reported $lost: $(tail -3 "$tmp/err")"
fi
