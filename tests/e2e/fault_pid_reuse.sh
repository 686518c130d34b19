# -p PID whose process exits during the load, its pid then taken by another
# process (issue 30, row 4). bpfprobe holds a pidfd of the process from the
# start, with its start time, and checks both before the attach and after
# it: a pid reused meanwhile is an error naming both processes, with
# nothing attached (or pinned). Before, the unrelated process that took the
# pid was traced as PID, with no warning.
#
# tests/e2e/fault_stop.c, preloaded, stops bpfprobe (SIGSTOP) after its
# last program load or after its first uprobe link; there the process is
# killed and tests/e2e/spawn_pid.c starts another with the same pid
# (clone3's set_tid), deterministically.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fault_helpers.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip fault_pid_reuse "$why"
	exit 0
fi
fault_setup
bp= vp=
export BPFPROBE_PIN_ROOT=/sys/fs/bpf/bpfprobe-pidtest-$$
trap 'kill -KILL $bp $vp 2>/dev/null; "$BPFPROBE" unload --all >/dev/null 2>&1
      rmdir "$BPFPROBE_PIN_ROOT" 2>/dev/null; rm -rf "$tmp"' EXIT
fault_obj "$tmp/obj.o"
if ! gcc -O2 -shared -fPIC -o "$tmp/stop.so" tests/e2e/fault_stop.c -ldl 2>"$tmp/cc.err" ||
   ! gcc -O2 -o "$tmp/spawn_pid" tests/e2e/spawn_pid.c 2>"$tmp/cc.err"; then
	fail fault_pid_reuse_build "$(cat "$tmp/cc.err")"
	exit 0
fi

# reused NAME AT REUSE WANT COMMAND ARGS...: bpfprobe COMMAND -p VICTIM ARGS
# (a victim of its own) stopped at AT, where the victim is killed and, with REUSE=yes,
# its pid given to a `sleep`; bpfprobe must exit 1 saying WANT (a grep
# pattern), with nothing of ours loaded or pinned
reused() {
	local name=$1 at=$2 reuse=$3 want=$4 rc before
	shift 4
	"$V" 100000 10 >/dev/null &
	vp=$!
	rm -f "$tmp/stopped"
	FAULT_STOP_AT=$at FAULT_STOP_FILE=$tmp/stopped LD_PRELOAD=$tmp/stop.so \
		"$BPFPROBE_PRELOADABLE" "$1" -p $vp "${@:2}" >"$tmp/out" 2>"$tmp/err" &
	bp=$!
	if ! wait_stopped $bp || ! grep -q "stopped at $at" "$tmp/stopped" 2>/dev/null; then
		fail "$name" "bpfprobe did not reach '$at': $(tail -3 "$tmp/err")"
		kill -KILL $bp $vp 2>/dev/null
		wait $bp $vp 2>/dev/null
		return
	fi
	before=$(fault_progs)
	kill -KILL $vp
	wait $vp 2>/dev/null
	if [ "$reuse" = yes ] && ! "$tmp/spawn_pid" $vp sleep 60 2>"$tmp/spawn.err"; then
		fail "$name" "cannot start a process of pid $vp: $(cat "$tmp/spawn.err")"
		kill -KILL $bp 2>/dev/null
		wait $bp 2>/dev/null
		return
	fi
	kill -CONT $bp
	wait $bp
	rc=$?
	bp=
	[ "$reuse" = yes ] && kill -KILL $vp 2>/dev/null
	vp=
	if [ $rc -ne 1 ]; then
		fail "$name" "exit $rc, want 1: $(tail -3 "$tmp/err")"
	elif ! grep -q -- "$want" "$tmp/err"; then
		fail "$name" "not said: $(tail -3 "$tmp/err")"
	elif grep -q 'attached;' "$tmp/err"; then
		fail "$name" "reported as attached: $(tail -3 "$tmp/err")"
	elif [ -e "$BPFPROBE_PIN_ROOT/reuse" ]; then
		fail "$name" "pinned anyway: $(ls "$BPFPROBE_PIN_ROOT/reuse")"
		"$BPFPROBE" unload reuse >/dev/null 2>&1
	elif ! left=$(fault_gone $before); then
		fail "$name" "$left"
	elif ! nothing_loaded bp_trace_0; then
		fail "$name" "trace's program bp_trace_0 stayed loaded"
	else
		pass "$name"
	fi
}

both='process [0-9]* (victim, started [0-9.]* s after boot) exited, and pid [0-9]* is now another process (sleep, started [0-9.]* s after boot)'
# the pid reused during the load: before the attach
reused fault_pid_reused_during_load "load:$P:4" yes "$both: nothing attached" \
	load "$tmp/obj.o"
# during the attach (after the first uprobe link): detached
reused fault_pid_reused_during_attach attach-uprobe:1 yes "$both: detached, nothing traced" \
	load "$tmp/obj.o"
# --pin: nothing pinned
reused fault_pid_reused_before_pin "load:$P:4" yes "$both: nothing attached" \
	load --pin reuse "$tmp/obj.o"
# trace -p, the same
reused fault_pid_reused_trace "load:bp_trace_:1" yes "$both: nothing attached" \
	trace "exec=$V;neg_args a b c"
# exited, its pid not reused: said as that
reused fault_pid_exited_during_load "load:$P:4" no \
	"process [0-9]* (victim) exited: nothing attached" load "$tmp/obj.o"

# no such process at the start: said before anything is loaded
free=$(( $(cat /proc/sys/kernel/pid_max) - 7 ))
while [ -e /proc/$free ]; do free=$((free - 1)); done
out=$(timeout 20 "$BPFPROBE" load -p $free "$tmp/obj.o" 2>&1)
rc=$?
if [ $rc -eq 1 ] && grep -q "process $free: no such process" <<<"$out" && [ -z "$(fault_progs)" ]; then
	pass fault_pid_none
else
	fail fault_pid_none "exit $rc: $(tail -3 <<<"$out")"
fi
