#!/usr/bin/env bash
# Runs every unit test binary and every e2e script; each prints lines
#   PASS name | FAIL name: why | SKIP name: why
# and this prints the summary line "N passed, N failed, N skipped".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
filter=${TESTS:-}

run_one() {
	local what=$1; shift
	echo "== $what"
	local out rc
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	printf '%s\n' "$out" | grep -E '^(PASS|FAIL|SKIP) ' >>"$log"
	if [ $rc -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^FAIL '; then
		# a crash or a failing script that reported nothing still counts
		echo "FAIL $what: exited with status $rc" | tee -a "$log"
	fi
}

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
