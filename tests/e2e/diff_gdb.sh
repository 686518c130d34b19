# The differential test against gdb (tests/diff/diff_gdb.py) on a small
# seeded sample: a few points (function entries, inlined copies' entries,
# after calls) drawn in Debian's liblua5.4 under a Lua script, python3.11
# under a Python script and libdb-5.3 under a C program of ours, each
# variable in scope there and members one level down read by gdb and by
# bpfprobe at the same first hit of the same run; any disagreement, or a
# value gdb reads and bpfprobe does not, fails it unless the harness names
# it as one of gdb's own faults. `make diff-gdb` runs the large sample;
# DIFF_SEED=N draws another.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip diff_gdb "$why"
	exit 0
fi
for tool in gdb python3 objdump readelf unshare; do
	if ! command -v $tool >/dev/null; then
		fail diff_gdb "$tool is not installed (make deps installs it)"
		exit 0
	fi
done
for pkg in liblua5.4-0-dbg python3.11-dbg libdb5.3-dbg libc6-dbg; do
	if ! dpkg -s $pkg >/dev/null 2>&1; then
		fail diff_gdb "$pkg is not installed (make deps installs it)"
		exit 0
	fi
done
for f in pinrun libfixtime.so lua_host db_work diff_resolve; do
	if [ ! -x build/diff/$f ]; then
		fail diff_gdb "build/diff/$f is missing (make tests-build)"
		exit 0
	fi
done

out=$(timeout 600 python3 tests/diff/diff_gdb.py --seed "${DIFF_SEED:-29}" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ] && ! grep -q '^FAIL ' <<<"$out"; then
	fail diff_gdb "the harness exited with $rc: $(tail -3 <<<"$out" | tr '\n' ' ')"
fi
