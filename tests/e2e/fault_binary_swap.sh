# The binary changes between resolve and attach (issue 30, row 2): offsets
# found in one file must never go into another. bpfprobe holds each
# binary open from resolution to attach, checks at attach that its path
# still names that file, unchanged (device, inode, size, times, build ID),
# refuses otherwise, naming it, and attaches the uprobes through the held
# descriptor (/proc/self/fd/N). Before, attach went by path: the old
# offsets landed in the new file (a breakpoint mid-instruction).
#
# tests/e2e/fault_stop.c, preloaded, stops bpfprobe (SIGSTOP) after its
# last program load (resolved, nothing attached yet) or after its first
# uprobe link; the file is swapped while it is stopped.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fault_helpers.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip fault_binary_swap "$why"
	exit 0
fi
fault_setup
bp=
trap 'kill -KILL $bp 2>/dev/null; rm -rf "$tmp"' EXIT
fault_obj "$tmp/obj.o"
if ! gcc -O2 -shared -fPIC -o "$tmp/stop.so" tests/e2e/fault_stop.c -ldl 2>"$tmp/cc.err"; then
	fail fault_binary_swap_build_stopper "$(cat "$tmp/cc.err")"
	exit 0
fi
# another build of the same program: its functions at other offsets
OTHER=build/targets/args-gcc-O0

# swapped NAME AT WHY CHANGE...: bpfprobe load OBJ -- V 3, stopped at AT,
# where CHANGE (a shell command) changes V; it must exit 1 saying WHY,
# with nothing of ours loaded and the held workload never run
swapped() {
	local name=$1 at=$2 why=$3 before rc
	shift 3
	cp build/targets/args-gcc-O2 "$V"
	rm -f "$tmp/stopped"
	FAULT_STOP_AT=$at FAULT_STOP_FILE=$tmp/stopped LD_PRELOAD=$tmp/stop.so \
		"$BPFPROBE_PRELOADABLE" load "$tmp/obj.o" -- "$V" 3 >"$tmp/out" 2>"$tmp/err" &
	bp=$!
	if ! wait_stopped $bp || ! grep -q "stopped at $at" "$tmp/stopped" 2>/dev/null; then
		fail "$name" "bpfprobe did not reach '$at': $(tail -3 "$tmp/err")"
		kill -KILL $bp 2>/dev/null
		wait $bp 2>/dev/null
		return
	fi
	before=$(fault_progs)
	eval "$*"
	kill -CONT $bp
	wait $bp
	rc=$?
	bp=
	if [ $rc -ne 1 ]; then
		fail "$name" "exit $rc, want 1: $(tail -3 "$tmp/err")"
	elif ! grep -qF "cannot attach to $V: it $why" "$tmp/err"; then
		fail "$name" "not said: $(tail -3 "$tmp/err")"
	elif grep -q '^TRUTH\|GOT' "$tmp/out"; then
		fail "$name" "the workload ran, or a probe fired: $(head -3 "$tmp/out")"
	elif ! left=$(fault_gone $before); then
		fail "$name" "$left"
	else
		pass "$name"
	fi
}

# renamed over after the resolve, before the attach (a package upgrade)
swapped fault_binary_swap_renamed "load:$P:4" "is another file since it was resolved" \
	'cp "$OTHER" "$V.new" && mv -f "$V.new" "$V"'
# rewritten in place: the same inode, another size
swapped fault_binary_swap_rewritten "load:$P:4" "changed since it was resolved (its size" \
	'cat "$OTHER" >"$V"'
# the same size and inode, touched: its times
swapped fault_binary_swap_touched "load:$P:4" "changed since it was resolved (its modification" \
	'touch -d "2001-01-01" "$V"'
# renamed over during the attach, after the first uprobe link: the others
# still go into the file held, and the path naming another file now is
# refused after the attach (nothing stays attached)
swapped fault_binary_swap_during_attach attach-uprobe:1 "is another file since it was resolved" \
	'cp "$OTHER" "$V.new" && mv -f "$V.new" "$V"'

# unchanged: attached (through the descriptor held), the values right
cp build/targets/args-gcc-O2 "$V"
out=$(timeout 60 "$BPFPROBE" load -v "$tmp/obj.o" -- "$V" 3 2>&1)
rc=$?
if [ $rc -ne 0 ] || ! grep -q 'GOT neg_args a=-5 b=-1234567890123 c=-7' <<<"$out"; then
	fail fault_binary_unchanged "exit $rc: $(grep -v TRUTH <<<"$out" | tail -3)"
else
	pass fault_binary_unchanged
fi
