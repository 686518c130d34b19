#!/usr/bin/env bash
# Runs every unit test binary and every e2e script; each prints lines
#   PASS name | FAIL name: why | SKIP name: why
# and this prints the summary line "N passed, N failed, N skipped".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
log=$(mktemp)
# The user's cache (compiled programs, resolutions, DWARF indexes) is not
# the suite's: it uses one of its own, empty at the start, so no test reads
# what an earlier run or another session left there, nor leaves anything.
XDG_CACHE_HOME=$(mktemp -d) || exit 1
export XDG_CACHE_HOME
trap 'rm -f "$log"; rm -rf "$XDG_CACHE_HOME"' EXIT
filter=${TESTS:-}

# A pinned session of "another user" in the default pin root, made before
# the tests and checked after them: the suite must leave it alone (tests
# use roots of their own). A tracepoint program that never runs.
canary=suite-canary-$$
canary_obj=
canary_ids=
canary_start() {
	[ "$(id -u)" -eq 0 ] && [ -x build/bpfprobe ] && command -v clang >/dev/null || return
	canary_obj=$(mktemp --suffix=.bpf.o)
	printf '%s\n' '#include <linux/bpf.h>' '#include <bpf/bpf_helpers.h>' \
		'SEC("tracepoint/sched/sched_process_hang") int canary(void *ctx) { return 0; }' \
		'char LICENSE[] SEC("license") = "GPL";' |
		clang -O2 -target bpf -I/usr/include/$(uname -m)-linux-gnu -x c -c - -o "$canary_obj" 2>/dev/null &&
		env -u BPFPROBE_PIN_ROOT build/bpfprobe load --pin "$canary" "$canary_obj" >/dev/null 2>&1 ||
		{ rm -f "$canary_obj"; canary_obj=; return; }
	canary_ids=$(ls /sys/fs/bpf/bpfprobe/"$canary" 2>/dev/null | tr '\n' ' ')
}
canary_check() {
	[ -n "$canary_obj" ] || return
	if [ "$(ls /sys/fs/bpf/bpfprobe/"$canary" 2>/dev/null | tr '\n' ' ')" = "$canary_ids" ]; then
		echo "PASS suite_leaves_other_sessions" | tee -a "$log"
	else
		echo "FAIL suite_leaves_other_sessions: the session pinned as $canary in /sys/fs/bpf/bpfprobe before the tests was changed" | tee -a "$log"
	fi
	env -u BPFPROBE_PIN_ROOT build/bpfprobe unload "$canary" >/dev/null 2>&1
	rm -f "$canary_obj"
}

run_one() {
	local what=$1; shift
	echo "== $what"
	local out rc
	# a script still running after TEST_TIMEOUT s (30 min: ten times the
	# longest) is stopped and fails, not the whole suite
	local start=$SECONDS
	out=$(timeout -k 30 "${TEST_TIMEOUT:-1800}" "$@" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	printf '%s\n' "$out" | grep -E '^(PASS|FAIL|SKIP) ' >>"$log"
	if { [ $rc -eq 124 ] || [ $rc -eq 137 ]; } && [ $((SECONDS - start)) -ge "${TEST_TIMEOUT:-1800}" ]; then
		echo "FAIL $what: still running after ${TEST_TIMEOUT:-1800} s, stopped" | tee -a "$log"
	elif [ $rc -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^FAIL '; then
		# a crash or a failing script that reported nothing still counts
		echo "FAIL $what: exited with status $rc" | tee -a "$log"
	fi
}

canary_start
for t in build/tests/test_*; do
	[ -x "$t" ] || continue
	case "$t" in *"$filter"*) ;; *) continue ;; esac
	run_one "$(basename "$t")" "$t"
done
for t in tests/e2e/*.sh; do
	[ -f "$t" ] || continue
	case "$t" in *"$filter"*) ;; *) continue ;; esac
	run_one "$(basename "$t")" bash "$t"
done

canary_check
passed=$(grep -c '^PASS ' "$log")
failed=$(grep -c '^FAIL ' "$log")
skipped=$(grep -c '^SKIP ' "$log")
if [ "$failed" -gt 0 ]; then
	echo
	echo "Failures:"
	grep '^FAIL ' "$log"
fi
if [ "$skipped" -gt 0 ]; then
	echo
	echo "Skipped:"
	grep '^SKIP ' "$log"
fi
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
