# The coverage tool (bench/coverage.sh) on two of Debian's libraries with
# their -dbg DWARF: every variable at every function entry is fetchable,
# absent, an aggregate, an implicit pointer or in floating point: none is
# refused, and no entry is left unlisted. (python3.11 takes a minute:
# `make coverage` runs it; one of its functions is checked below.)
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

# python3.11 as a whole takes a minute (`make coverage`). Its one variable
# behind a location list libdw 0.188 cannot parse (DW_OP_GNU_uninit): d2b's
# d, inlined into _Py_dg_dtoa, an implicit pointer to a union that is in
# xmm0 there, is counted as in an xmm register, with the mark said.
if ! dpkg -s python3.11-dbg >/dev/null 2>&1; then
	fail coverage_python_uninit "python3.11-dbg is not installed (make deps installs it)"
else
	d=$("$BPFPROBE" vars --json /usr/bin/python3.11 d2b 2>&1 |
		jq -c '.points[] | select(.func == "d2b") | .vars[] | select(.name == "d")' 2>&1)
	if [ "$(jq -r .class <<<"$d" 2>/dev/null | sort -u)" = fp_register ] &&
	   grep -q "DWARF marks its value uninitialized" <<<"$d"; then
		pass coverage_python_uninit
	else
		fail coverage_python_uninit "d in d2b: $(cut -c1-400 <<<"$d")"
	fi
fi
