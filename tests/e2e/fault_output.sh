# Output failures are never silent (issue 30, rows 7 and 8).
#
# A reader that goes away (`bpfprobe load -a prog.o | head -1`) ends the
# session: bpfprobe detaches and exits 141, a workload still running is
# stopped, nothing of ours stays loaded. Any other failed write (stdout
# on /dev/full, -o FILE on a full tmpfs) is said once, with what was not
# written, and exits 1. The listing commands check their writes too.
#
# The probes are on this test's own copy of the args target (fault_helpers.sh),
# run over and over by a loop of ours; pins go to a root of our own.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fault_helpers.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip fault_output "$why"
	exit 0
fi
fault_setup
export BPFPROBE_PIN_ROOT=/sys/fs/bpf/bpfprobe-outtest-$$
export XDG_CACHE_HOME=$tmp/cache
loop=
mon=
cleanup() {
	[ -n "$loop" ] && kill "$loop" 2>/dev/null
	[ -n "$mon" ] && kill "$mon" 2>/dev/null
	wait 2>/dev/null
	mountpoint -q "$tmp/full" && umount "$tmp/full"
	rmdir "$BPFPROBE_PIN_ROOT" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fault_obj "$tmp/obj.o"
# the victim over and over: what -a's probes see
(while :; do "$V" >/dev/null 2>&1; sleep 0.01; done) &
loop=$!
# a workload that says its pid, then runs the victim over and over
W=(sh -c "echo \$\$ >$tmp/wpid; while :; do $V >/dev/null 2>&1; sleep 0.01; done")

# ended NAME RC WANT: bpfprobe exited WANT, nothing of ours is loaded, the
# workload (if one started) is gone; else says why and returns 1
ended() {
	local name=$1 rc=$2 want=$3 left
	if [ "$rc" -ne "$want" ]; then
		fail "$name" "exit $rc, want $want: $(tail -3 "$tmp/err")"
	elif ! left=$(fault_gone); then
		fail "$name" "$left"
	elif [ -s "$tmp/wpid" ] && ! wait_gone "$(cat "$tmp/wpid")"; then
		fail "$name" "the workload $(cat "$tmp/wpid") still runs"
	else
		return 0
	fi
	return 1
}

# 1. EPIPE: the reader read one line and went away
rm -f "$tmp/wpid"
timeout 60 "$BPFPROBE" load -a "$tmp/obj.o" 2>"$tmp/err" | head -1 >"$tmp/first"
rc=${PIPESTATUS[0]}
if ended fault_output_epipe_load "$rc" 141; then
	if ! grep -q 'GOT ' "$tmp/first"; then
		fail fault_output_epipe_load "head read no record: $(cat "$tmp/first")"
	elif grep -q 'cannot write' "$tmp/err"; then
		fail fault_output_epipe_load "a reader that went away is no error: $(cat "$tmp/err")"
	else
		pass fault_output_epipe_load
	fi
fi

rm -f "$tmp/wpid"
timeout 60 "$BPFPROBE" load -v "$tmp/obj.o" -- "${W[@]}" 2>"$tmp/err" | head -1 >/dev/null
rc=${PIPESTATUS[0]}
if ended fault_output_epipe_workload "$rc" 141; then
	if ! grep -q 'stdout was closed.*the command stopped' "$tmp/err"; then
		fail fault_output_epipe_workload "-v says nothing of it: $(tail -3 "$tmp/err")"
	else
		pass fault_output_epipe_workload
	fi
fi

# the reader goes away and no record comes after: the session ends all the
# same (a pipe's writer sees its reader go), the idle workload stopped
rm -f "$tmp/wpid"
timeout 60 "$BPFPROBE" load -v "$tmp/obj.o" -- sh -c "echo \$\$ >$tmp/wpid; $V >/dev/null 2>&1; exec sleep 600" \
	2>"$tmp/err" | head -1 >/dev/null
rc=${PIPESTATUS[0]}
if ended fault_output_epipe_idle "$rc" 141; then
	if ! grep -q 'stdout was closed.*the command stopped' "$tmp/err"; then
		fail fault_output_epipe_idle "-v says nothing of it: $(tail -3 "$tmp/err")"
	else
		pass fault_output_epipe_idle
	fi
fi

rm -f "$tmp/wpid"
timeout 60 "$BPFPROBE" trace "exec=$V;handle_req req->hdr->len" -- "${W[@]}" 2>"$tmp/err" |
	head -1 >"$tmp/first"
rc=${PIPESTATUS[0]}
if ended fault_output_epipe_trace "$rc" 141; then
	if ! grep -q 'handle_req len=' "$tmp/first"; then
		fail fault_output_epipe_trace "head read no line: $(cat "$tmp/first")"
	else
		pass fault_output_epipe_trace
	fi
fi

# 2. a full disk: said once, what was lost with it, exit 1
# once NAME WANT: stderr has exactly one line matching WANT and no raw
# control characters
once() {
	local n
	n=$(grep -c -- "$2" "$tmp/err")
	if [ "$n" -ne 1 ]; then
		fail "$1" "want one line matching '$2', got $n: $(tail -4 "$tmp/err")"
		return 1
	fi
	return 0
}

rm -f "$tmp/wpid"
timeout 60 "$BPFPROBE" load -a "$tmp/obj.o" >/dev/full 2>"$tmp/err"
rc=$?
if ended fault_output_full_stdout "$rc" 1 &&
   once fault_output_full_stdout 'cannot write the records to stdout: No space left on device: [0-9]* records\? not written, nor the maps at exit; probes detached'; then
	pass fault_output_full_stdout
fi

rm -f "$tmp/wpid"
timeout 60 "$BPFPROBE" load --json -a "$tmp/obj.o" >/dev/full 2>"$tmp/err"
rc=$?
if ended fault_output_full_json "$rc" 1 &&
   once fault_output_full_json 'cannot write the records to stdout: No space left on device'; then
	if grep -q 'malformed JSON' "$tmp/err"; then
		fail fault_output_full_json "$(cat "$tmp/err")"
	else
		pass fault_output_full_json
	fi
fi

# -o FILE on a tmpfs of 64 KiB, full before the first record
mkdir "$tmp/full"
if ! mount -t tmpfs -o size=64k,mode=0700 bpfprobe-test "$tmp/full" 2>"$tmp/err"; then
	fail fault_output_full_file "cannot mount a tmpfs: $(cat "$tmp/err")"
else
	dd if=/dev/zero of="$tmp/full/fill" bs=4k count=64 2>/dev/null
	rm -f "$tmp/wpid"
	timeout 60 "$BPFPROBE" load -o "$tmp/full/records" "$tmp/obj.o" -- "${W[@]}" \
		>/dev/null 2>"$tmp/err"
	rc=$?
	if ended fault_output_full_file "$rc" 1 &&
	   once fault_output_full_file "cannot write the records to $tmp/full/records: No space left on device: [0-9]* records\? not written, nor the maps at exit; probes detached, the command stopped (SIGTERM)"; then
		pass fault_output_full_file
	fi
	rm -f "$tmp/wpid"
	timeout 60 "$BPFPROBE" trace -o "$tmp/full/lines" "exec=$V;handle_req req->hdr->len" \
		-- "${W[@]}" >/dev/null 2>"$tmp/err"
	rc=$?
	if ended fault_output_full_trace "$rc" 1 &&
	   once fault_output_full_trace "cannot write the records to $tmp/full/lines: No space left on device: [0-9]* records\? not written; probes detached, the command stopped (SIGTERM)"; then
		pass fault_output_full_trace
	fi
	umount "$tmp/full"
fi

# 3. the listing commands: a failed write is said once and exits 1
rm -f "$tmp/wpid"
listing() {
	local name=$1 rc
	shift
	timeout 60 "$BPFPROBE" "$@" >/dev/full 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 1 ]; then
		fail "$name" "exit $rc, want 1: $(tail -3 "$tmp/err")"
	elif once "$name" "bpfprobe $1: cannot write to stdout: No space left on device"; then
		pass "$name"
	fi
}
T=build/targets/args-gcc-O2
listing fault_output_full_funcs funcs "$T"
listing fault_output_full_funcs_json funcs --json "$T"
listing fault_output_full_vars vars "$T" handle_req
listing fault_output_full_vars_json vars --json "$T" handle_req
listing fault_output_full_resolve resolve "exec=$T;handle_req req"
listing fault_output_full_resolve_json resolve --json "exec=$T;handle_req req"
listing fault_output_full_markers markers build/targets/sdt-gcc-O2
listing fault_output_full_list list

# monitor: the first program loaded after it started ends it
"$BPFPROBE" monitor --duration 60 >/dev/full 2>"$tmp/err" &
mon=$!
if ! wait_grep watching "$tmp/err"; then
	fail fault_output_full_monitor "monitor did not start: $(cat "$tmp/err")"
else
	timeout 60 "$BPFPROBE" load "$tmp/obj.o" -- true >/dev/null 2>&1
	wait $mon
	rc=$?
	mon=
	if [ "$rc" -ne 1 ]; then
		fail fault_output_full_monitor "exit $rc, want 1: $(tail -3 "$tmp/err")"
	elif once fault_output_full_monitor 'bpfprobe monitor: cannot write to stdout: No space left on device'; then
		pass fault_output_full_monitor
	fi
fi
