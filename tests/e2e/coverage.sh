# The coverage tool (bench/coverage.sh) on two of Debian's libraries with
# their -dbg DWARF: every variable at every function entry is fetchable,
# absent, an aggregate, an implicit pointer or in floating point: none is
# refused, and no entry is left unlisted. (python3.11 takes a minute:
# `make coverage` runs it.)
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

for lib in liblua5.4.so.0:liblua5.4-0-dbg libdb-5.3.so:libdb5.3-dbg; do
	bin=${lib%%:*} pkg=${lib#*:}
	if ! dpkg -s "$pkg" >/dev/null 2>&1; then
		fail "coverage_$bin" "$pkg is not installed (make deps installs it)"
		continue
	fi
	out=$(bench/coverage.sh "$BPFPROBE" "$bin" 2>&1)
	rc=$?
	row=$(grep "^| $bin " <<<"$out")
	if [ $rc -eq 0 ] && [ -n "$row" ]; then
		pass "coverage_$bin"
	else
		fail "coverage_$bin" "$(tr '\n' ' ' <<<"$out" | cut -c1-600)"
	fi
done
