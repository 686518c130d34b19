# SIGTERM/SIGINT during a slow load abort it (issue 13, item 6): the load
# goes no further (no attach, no workload, no pin), bpfprobe exits 128 +
# the signal, and nothing stays loaded, attached or pinned.
#
# tests/e2e/fault_stop.c, preloaded, stops bpfprobe (SIGSTOP) after its
# last program load and after its last uprobe link; the signal is sent
# while it is stopped and delivered when it continues (SIGCONT), exactly
# at that point.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fault_helpers.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip fault_signal "$why"
	exit 0
fi
fault_setup
bp=
export BPFPROBE_PIN_ROOT=/sys/fs/bpf/bpfprobe-sigtest-$$
trap 'kill -KILL $bp 2>/dev/null; "$BPFPROBE" unload --all >/dev/null 2>&1
      rmdir "$BPFPROBE_PIN_ROOT" 2>/dev/null; rm -rf "$tmp"' EXIT
fault_obj "$tmp/obj.o"
if ! gcc -O2 -shared -fPIC -o "$tmp/stop.so" tests/e2e/fault_stop.c -ldl 2>"$tmp/cc.err"; then
	fail fault_signal_build_stopper "$(cat "$tmp/cc.err")"
	exit 0
fi

# signalled NAME AT SIG WANT_RC ARGS...: bpfprobe load ARGS stopped at AT
# gets SIG there; it must exit WANT_RC with nothing of ours left
signalled() {
	local name=$1 at=$2 sig=$3 want=$4 rc before
	shift 4
	rm -f "$tmp/stopped" "$tmp/ran"
	FAULT_STOP_AT=$at FAULT_STOP_FILE=$tmp/stopped LD_PRELOAD=$tmp/stop.so \
		"$BPFPROBE_PRELOADABLE" load "$@" >"$tmp/out" 2>"$tmp/err" &
	bp=$!
	if ! wait_stopped $bp || ! grep -q "stopped at $at" "$tmp/stopped" 2>/dev/null; then
		fail "$name" "bpfprobe did not reach '$at': $(tail -3 "$tmp/err")"
		kill -KILL $bp 2>/dev/null
		wait $bp 2>/dev/null
		return
	fi
	before=$(fault_progs)
	kill -"$sig" $bp
	kill -CONT $bp
	wait $bp
	rc=$?
	bp=
	if [ $rc -ne "$want" ]; then
		fail "$name" "exit $rc, want $want: $(tail -3 "$tmp/err")"
		"$BPFPROBE" unload sig >/dev/null 2>&1
	elif [ -e "$tmp/ran" ] || grep -q '^TRUTH' "$tmp/out"; then
		fail "$name" "the workload ran"
	elif [ -e "$BPFPROBE_PIN_ROOT/sig" ]; then
		fail "$name" "pinned anyway: $(ls "$BPFPROBE_PIN_ROOT/sig")"
		"$BPFPROBE" unload sig >/dev/null 2>&1
	elif ! left=$(fault_gone $before); then
		fail "$name" "$left"
	elif ! grep -q "interrupted by" "$tmp/err"; then
		fail "$name" "nothing said: $(cat "$tmp/err")"
	else
		pass "$name"
	fi
}

# the workload says it ran before anything else
W=(sh -c "echo ran >$tmp/ran; exec $V 3")
# after the last program load (2 prototypes, 2 instances)
signalled fault_signal_term_during_load "load:$P:4" TERM 143 "$tmp/obj.o" -- "${W[@]}"
signalled fault_signal_int_during_load "load:$P:4" INT 130 "$tmp/obj.o" -- "${W[@]}"
# after the last uprobe is attached, before the held workload is let go
signalled fault_signal_term_before_workload "attach-uprobe:1" TERM 143 "$tmp/obj.o" -- "${W[@]}"
# --pin: nothing pinned
signalled fault_signal_term_before_pin "load:$P:4" TERM 143 --pin sig "$tmp/obj.o"
signalled fault_signal_term_attached_before_pin "attach-uprobe:1" TERM 143 --pin sig "$tmp/obj.o"
