# bpfprobe load prog.c: compiled for BPF, cached by content, clang's errors shown.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip load_c "$why"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
T=$PWD/build/targets/args-gcc-O2
{ echo "#define TARGET \"$T\""; cat tests/bpf/args__basic.bpf.c; } >"$tmp/prog.c"

out=$(timeout 60 "$BPFPROBE" load -v "$tmp/prog.c" -- "$T" 2>"$tmp/err")
if diff=$(compare_truth "$out") && grep -q "compiling $tmp/prog.c" "$tmp/err"; then
	pass load_c_compiles_and_fetches
else
	fail load_c_compiles_and_fetches "$diff $(tail -3 "$tmp/err")"
fi
out=$(timeout 60 "$BPFPROBE" load -v "$tmp/prog.c" -- "$T" 2>"$tmp/err")
if compare_truth "$out" >/dev/null && grep -q "using cached object" "$tmp/err"; then
	pass load_c_cached
else
	fail load_c_cached "$(tail -3 "$tmp/err")"
fi
printf 'int broken(\n' >"$tmp/bad.c"
timeout 60 "$BPFPROBE" load "$tmp/bad.c" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ] && grep -q "bad.c:1:.*error" "$tmp/err"; then
	pass load_c_compiler_error_shown
else
	fail load_c_compiler_error_shown "exit $rc: $(cat "$tmp/err")"
fi
