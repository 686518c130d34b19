# bpfprobe monitor: a program that lives 10 ms (tests/sysinfo/blink_loader.c)
# is reported at load with its name, type, map and loader, and at unload
# with a reference back to the load and how long it lived.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip monitor "$why"
	exit 0
fi
command -v jq >/dev/null || { fail monitor "jq is missing (make deps installs it)"; exit 0; }
tmp=$(mktemp -d)
mon=
cleanup() {
	[ -n "$mon" ] && kill "$mon" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
BLINK=build/sysinfo-tests/blink_loader

# start_monitor ARGS...: in the background, once it says it is watching
start_monitor() {
	"$BPFPROBE" monitor "$@" >"$tmp/mon.out" 2>"$tmp/mon.err" &
	mon=$!
	for _ in $(seq 100); do
		grep -q watching "$tmp/mon.err" && return 0
		sleep 0.05
	done
	return 1
}

# blink: runs the loader; sets id and bpid
blink() {
	$BLINK >"$tmp/blink.out" &
	bpid=$!
	wait $bpid
	id=$(sed -n 's/^ID //p' "$tmp/blink.out")
}

# stop_monitor: SIGINT once the unload of $id came (or 5 s passed)
stop_monitor() {
	for _ in $(seq 100); do
		grep -q "$1" "$tmp/mon.out" && break
		sleep 0.05
	done
	kill -INT $mon
	wait $mon
	mrc=$?
	mon=
}

if ! start_monitor --json; then
	fail monitor_start "$(cat "$tmp/mon.err")"
	exit 0
fi
blink
stop_monitor "\"event\":\"unload\",\"time\":\"[^\"]*\",\"id\":$id,"
load=$(jq -c --argjson id "${id:-0}" 'select(.event == "load" and .id == $id)' "$tmp/mon.out")
unload=$(jq -c --argjson id "${id:-0}" 'select(.event == "unload" and .id == $id)' "$tmp/mon.out")
if [ $mrc -eq 0 ] && [ -n "$id" ] && jq -e --argjson pid $bpid '
	.described and .name == "blink" and .type == "socket_filter"
	and ([.maps[].name] == ["blink_map"]) and .pid == $pid and .comm == "blink_loader"
	and (.tag | test("^[0-9a-f]{16}$"))' <<<"$load" >/dev/null; then
	pass monitor_load_described
else
	fail monitor_load_described "exit $mrc, id '$id': $load $(tail -2 "$tmp/mon.err")"
fi
tag=$(jq -r .tag <<<"$load")
if jq -e --argjson pid $bpid --arg tag "$tag" '
	.load_seen and .name == "blink" and .type == "socket_filter" and .tag == $tag
	and .pid == $pid and .comm == "blink_loader"
	and .lived_ns >= 10000000 and .lived_ns < 2000000000' <<<"$unload" >/dev/null; then
	pass monitor_unload_refers_to_load
else
	fail monitor_unload_refers_to_load "$unload"
fi
seq=$(jq -r --argjson id "${id:-0}" 'select(.id == $id) | .event' "$tmp/mon.out" | tr '\n' ' ')
if [ "$seq" = "load unload " ]; then
	pass monitor_order
else
	fail monitor_order "events for id $id: $seq"
fi
# the JIT image's kernel symbol (KSYMBOL record), when the JIT is on
if [ "$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null)" != 1 ]; then
	skip monitor_ksym "the BPF JIT is off: programs have no kernel symbol"
elif jq -e --arg tag "$tag" '[.ksyms[].name] == ["bpf_prog_" + $tag + "_blink"] and .ksyms[0].addr > 0 and .ksyms[0].len > 0' \
	<<<"$load" >/dev/null; then
	pass monitor_ksym
else
	fail monitor_ksym "$load"
fi
if jq -e . "$tmp/mon.out" >/dev/null 2>&1; then
	pass monitor_json_lines
else
	fail monitor_json_lines "not JSON Lines: $(head -c 300 "$tmp/mon.out")"
fi

# the human form
if ! start_monitor; then
	fail monitor_text_start "$(cat "$tmp/mon.err")"
	exit 0
fi
blink
stop_monitor "UNLOAD id=$id "
lre="LOAD   id=$id tag=[0-9a-f]{16} name=blink type=socket_filter maps=[0-9]+:blink_map pid=$bpid comm=blink_loader( ksym=bpf_prog_[0-9a-f]{16}_blink@0x[0-9a-f]+)?$"
ure="UNLOAD id=$id tag=[0-9a-f]{16} name=blink type=socket_filter lived=[0-9]+\.[0-9]{3}ms loaded_by=$bpid/blink_loader$"
if grep -Eq "^[0-9:.]+ $lre" "$tmp/mon.out" && grep -Eq "^[0-9:.]+ $ure" "$tmp/mon.out"; then
	pass monitor_text
else
	fail monitor_text "$(grep "id=$id " "$tmp/mon.out")"
fi

# --duration ends it by itself; a bad value is refused
start=$(date +%s%N)
timeout 10 "$BPFPROBE" monitor --duration 0.5 >/dev/null 2>&1
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
"$BPFPROBE" monitor --duration x >/dev/null 2>"$tmp/err"
rc2=$?
if [ $rc -eq 0 ] && [ $ms -ge 450 ] && [ $ms -lt 5000 ] && [ $rc2 -eq 2 ] &&
   grep -q "bad --duration 'x'" "$tmp/err"; then
	pass monitor_duration
else
	fail monitor_duration "exit $rc after $ms ms; bad value: exit $rc2 $(cat "$tmp/err")"
fi
