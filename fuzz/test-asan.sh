#!/usr/bin/env bash
# The whole test suite under ASan+UBSan+LeakSanitizer (make test-asan).
#
# $1 is the sanitized build directory (default build/asan) holding the tool,
# the library and the unit tests; test targets and BPF objects come from
# build/ as usual. Sanitizer reports go to files, not to the tests' stderr
# (tests match stderr text): each report file is a failure of its own, so a
# leak in a run whose exit status a test expected to be non-zero still fails.
# Ends with "N passed, N failed, N skipped" over unit and e2e tests.
set -u
cd "$(dirname "$0")/.." || exit 1
asan=${1:-build/asan}
[ -x "$asan/bpfprobe" ] || { echo "test-asan: $asan/bpfprobe missing (make test-asan builds it)" >&2; exit 1; }
logs=$PWD/$asan/sanitizer-logs
rm -rf "$logs"
mkdir -p "$logs"
# verify_asan_link_order: fault tests preload a stopper library before libasan
# exitcode 86: a sanitizer's exit never passes for an ordinary error exit
export ASAN_OPTIONS="log_path=$logs/asan:exitcode=86:detect_leaks=1:verify_asan_link_order=0:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="log_path=$logs/ubsan:exitcode=86:print_stacktrace=1:halt_on_error=1"
[ -f fuzz/lsan.supp ] && export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

passed=0 failed=0 skipped=0
count() {
	passed=$((passed + $(grep -c '^PASS ' "$1")))
	failed=$((failed + $(grep -c '^FAIL ' "$1")))
	skipped=$((skipped + $(grep -c '^SKIP ' "$1")))
}

for t in "$asan"/tests/test_*; do
	[ -x "$t" ] || continue
	case "$t" in *"${TESTS:-}"*) ;; *) continue ;; esac
	echo "== $(basename "$t") (asan)"
	"$t" >"$out" 2>&1
	rc=$?
	cat "$out"
	if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$out"; then
		echo "FAIL $(basename "$t"): exited with status $rc" | tee -a "$out"
	fi
	count "$out"
done

# e2e only: run.sh's unit tests are build/'s, already run above sanitized
BPFPROBE=$PWD/$asan/bpfprobe BPFPROBE_PRELOADABLE=$PWD/$asan/bpfprobe TESTS="e2e/${TESTS:-}" ./tests/run.sh >"$out" 2>&1
cat "$out"
sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' "$out" | tail -1 |
	{ read -r p f s; echo "${p:-0} ${f:-1} ${s:-0}"; } >"$out.sum"
read -r p f s <"$out.sum"
rm -f "$out.sum"
passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))

echo
# LeakSanitizer cannot run in a traced process (a test runs bpfprobe under
# strace): that report says nothing about the code
for r in $(grep -l 'LeakSanitizer does not work under ptrace' "$logs"/* 2>/dev/null); do
	if ! grep -q 'ERROR: ' "$r"; then
		echo "note: $(basename "$r"): a traced run, LeakSanitizer could not check it"
		rm -f "$r"
	fi
done
reports=$(find "$logs" -type f | sort)
if [ -n "$reports" ]; then
	for r in $reports; do
		echo "FAIL sanitizer_report $(basename "$r"):"
		sed 's/^/    /' "$r" | head -40
		failed=$((failed + 1))
	done
else
	echo "PASS sanitizer_reports: none"
	passed=$((passed + 1))
fi
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
