# SIGKILL of bpfprobe during resolve, during load, during attach (workload
# held) and while streaming: the kernel must drop every program, link and
# uprobe with the process; a held workload must not run; a probed process
# that outlives bpfprobe must run on with its breakpoints gone.
#
# tests/e2e/fault_stop.c, preloaded, stops bpfprobe (SIGSTOP) at the exact
# point, so the kill lands there every time, not by timing luck.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fault_helpers.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip fault_kill "$why"
	exit 0
fi
fault_setup
bp=
trap 'kill -KILL $bp $victim 2>/dev/null; rm -rf "$tmp"' EXIT
fault_obj "$tmp/obj.o"
if ! gcc -O2 -shared -fPIC -o "$tmp/stop.so" tests/e2e/fault_stop.c -ldl 2>"$tmp/cc.err"; then
	fail fault_kill_build_stopper "$(cat "$tmp/cc.err")"
	exit 0
fi

# stopped_run NAME AT: starts bpfprobe on the victim with the stopper at AT
# and waits for it to stop there; sets $bp
stopped_run() {
	rm -f "$tmp/stopped"
	FAULT_STOP_AT=$2 FAULT_STOP_FILE=$tmp/stopped LD_PRELOAD=$tmp/stop.so \
		"$BPFPROBE_PRELOADABLE" load "$tmp/obj.o" -- "$V" 3 >"$tmp/out" 2>"$tmp/err" &
	bp=$!
	if ! wait_stopped $bp || ! grep -q "stopped at $2" "$tmp/stopped" 2>/dev/null; then
		fail "$1" "bpfprobe did not reach '$2': $(tail -3 "$tmp/err")"
		kill -KILL $bp 2>/dev/null
		wait $bp 2>/dev/null
		return 1
	fi
}

# killed NAME IDS...: SIGKILLs the stopped $bp; nothing of ours may remain
killed() {
	local name=$1 left
	shift
	kill -KILL $bp
	wait $bp 2>/dev/null
	if left=$(fault_gone "$@"); then
		return 0
	fi
	fail "$name" "$left"
	return 1
}

# 1. during resolve: the probed binary's DWARF is open, nothing loaded yet
if stopped_run fault_kill_during_resolve "resolve:$V"; then
	before=$(fault_progs)
	kids=$(pgrep -P $bp)
	if killed fault_kill_during_resolve; then
		if [ -n "$before$kids" ]; then
			fail fault_kill_during_resolve "already loaded ($before) or workload forked ($kids) while resolving"
		else
			pass fault_kill_during_resolve
		fi
	fi
fi

# 2. during load: both prototypes and the first instance are in the kernel
if stopped_run fault_kill_during_load "load:$P:3"; then
	before=$(fault_progs)
	if [ "$(wc -w <<<"$before")" -lt 1 ]; then
		fail fault_kill_during_load "no program of ours loaded at the stop point"
		kill -KILL $bp
	elif killed fault_kill_during_load $before; then
		pass fault_kill_during_load
	fi
fi

# 3. during attach: one link made, the workload forked and held before exec
if stopped_run fault_kill_during_attach attach-uprobe:1; then
	before=$(fault_progs)
	links=$(fault_links $before)
	kid=$(pgrep -P $bp | head -1)
	if [ -z "$links" ] || [ -z "$kid" ]; then
		fail fault_kill_during_attach "at the stop point: links '$links', held workload '$kid'"
		kill -KILL $bp
	elif killed fault_kill_during_attach $before; then
		if ! wait_gone "$kid"; then
			fail fault_kill_during_attach "the held workload $kid still runs"
			kill -KILL "$kid"
		elif grep -q '^TRUTH' "$tmp/out"; then
			fail fault_kill_during_attach "the held workload ran the command after bpfprobe died"
		else
			pass fault_kill_during_attach
		fi
	fi
fi

# 4. while streaming: the workload runs on without bpfprobe
"$BPFPROBE" load "$tmp/obj.o" -- "$V" 500 20 >"$tmp/out" 2>"$tmp/err" &
bp=$!
for _ in $(seq 100); do
	grep -q 'GOT neg_args' "$tmp/out" && break
	sleep 0.1
done
victim=$(pgrep -P $bp | head -1)
before=$(fault_progs)
orig=$(file_byte neg_args)
probed=$(mem_byte "$victim" neg_args)
if ! grep -q 'GOT neg_args a=-5 b=-1234567890123 c=-7' "$tmp/out" || [ -z "$victim" ]; then
	fail fault_kill_while_streaming "no probe output before the kill: $(tail -3 "$tmp/err")"
elif [ "$probed" != cc ]; then
	fail fault_kill_while_streaming "neg_args starts with $probed in the probed process, want the cc breakpoint"
elif killed fault_kill_while_streaming $before; then
	n0=$(grep -c '^TRUTH neg_args' "$tmp/out")
	sleep 0.5
	n1=$(grep -c '^TRUTH neg_args' "$tmp/out")
	now=$(mem_byte "$victim" neg_args)
	if [ "$now" != "$orig" ]; then
		fail fault_kill_while_streaming "neg_args starts with $now in the running process after the kill, the file has $orig"
	elif [ "$n1" -le "$n0" ] || ! kill -0 "$victim" 2>/dev/null; then
		fail fault_kill_while_streaming "the probed process stopped making calls after the kill ($n0 -> $n1)"
	else
		pass fault_kill_while_streaming
	fi
fi
kill -KILL "$victim" 2>/dev/null

# bpfprobe's printk tracefs instance cannot outlive it by itself after a
# SIGKILL; the next bpfprobe removes the instances of dead owners
inst=$(ls -d /sys/kernel/tracing/instances/bpfprobe.$bp.* 2>/dev/null | head -1)
if [ -n "$inst" ] && [ -d "$inst" ]; then
	timeout 60 "$BPFPROBE" load "$tmp/obj.o" -- /bin/true >/dev/null 2>&1
	if [ -d "$inst" ]; then
		fail fault_kill_stale_instance_reaped "$inst is still there after the next run"
	else
		pass fault_kill_stale_instance_reaped
	fi
else
	pass fault_kill_stale_instance_reaped
fi
