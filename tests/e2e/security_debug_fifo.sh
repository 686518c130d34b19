# Files bpfprobe opens because a binary names them (issue 30, row 1): a
# debug link, a build-ID path, a DWZ alternate file may name a FIFO (or a
# device, a directory). bpfprobe opens only regular files, without
# blocking: anything else is skipped, -v says so, and the search goes on
# (a real debug file further down the list is still found). Before, a FIFO
# beside the binary made resolve, funcs, vars and load block forever.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
SRC=build/targets/args-gcc-O2

# split BIN DEBUG: DWARF of a copy of SRC moved to DEBUG, BIN stripped of it
split() {
	cp "$SRC" "$1"
	objcopy --only-keep-debug "$1" "$2"
	strip -g "$1"
}

# expect NAME WANT-RC PATTERN... -- CMD...: CMD ends (a FIFO would hang it:
# timeout's 124) with WANT-RC and says every PATTERN (fixed strings)
expect() {
	local name=$1 want=$2 pats=() out rc
	shift 2
	while [ "$1" != -- ]; do
		pats+=("$1")
		shift
	done
	shift
	out=$(timeout 20 "$@" 2>&1)
	rc=$?
	if [ $rc -eq 124 ]; then
		fail "$name" "blocked (killed after 20 s): $(tail -2 <<<"$out")"
		return
	fi
	if [ $rc -ne "$want" ]; then
		fail "$name" "exit $rc, want $want: $(grep -v '^TRUTH' <<<"$out" | tail -3)"
		return
	fi
	for p in "${pats[@]}"; do
		if ! grep -qF -- "$p" <<<"$out"; then
			fail "$name" "does not say '$p': $(grep -v '^TRUTH' <<<"$out" | tail -3)"
			return
		fi
	done
	pass "$name"
}

# 1. the debug link names a FIFO beside the binary; the real debug file is
#    in .debug/, the next place looked at
mkdir -p "$tmp/link/.debug"
split "$tmp/link/app" "$tmp/link/.debug/app.dbg"
objcopy --add-gnu-debuglink="$tmp/link/.debug/app.dbg" "$tmp/link/app"
mkfifo "$tmp/link/app.dbg"
B=$tmp/link/app
skipped="skipping $tmp/link/app.dbg as its debug file: it is a FIFO, not a regular file"
expect debug_fifo_resolve 0 "$skipped" "debug info (DWARF) from $tmp/link/.debug/app.dbg" \
	"arg1 a: int" -- "$BPFPROBE" resolve -v "exec=$B;neg_args a b c"
expect debug_fifo_funcs 0 "$skipped" "out-of-line tests/targets/args/main.c" -- "$BPFPROBE" funcs -v "$B" 'neg_*'
expect debug_fifo_vars 0 "$skipped" "param  a: int" -- "$BPFPROBE" vars -v "$B" neg_args
if [ -z "$(uprobe_unavailable)" ]; then
	expect debug_fifo_trace 0 "neg_args a=-5 b=-1234567890123 c=-7" -- \
		"$BPFPROBE" trace -q "exec=$B;neg_args a b c" -- "$B" 1
else
	skip debug_fifo_trace "$(uprobe_unavailable)"
fi

# 2. only the FIFO: no debug info, said as such (not a hang)
rm "$tmp/link/.debug/app.dbg"
expect debug_fifo_only 1 "$skipped" "has no debug info (DWARF)" -- \
	"$BPFPROBE" resolve -v "exec=$B;neg_args a b c"

# 3. a character device and a directory where the debug file would be
mkdir -p "$tmp/dev"
split "$tmp/dev/app" "$tmp/dev/app.debug"
objcopy --add-gnu-debuglink="$tmp/dev/app.debug" "$tmp/dev/app"
mv "$tmp/dev/app.debug" "$tmp/dev/real.debug"
ln -s /dev/zero "$tmp/dev/app.debug"
mkdir -p "$tmp/dev/.debug/app.debug"
expect debug_device 1 "skipping $tmp/dev/app.debug as its debug file: it is a character device" \
	"skipping $tmp/dev/.debug/app.debug as its debug file: it is a directory" -- \
	"$BPFPROBE" resolve -v "exec=$tmp/dev/app;neg_args a b c"

# 4. the build-ID path is a FIFO (in a debug directory of this test's own:
#    BPFPROBE_DEBUGINFO_PATH); the debug link still finds the real file
mkdir -p "$tmp/bid"
split "$tmp/bid/app" "$tmp/bid/app.dbg"
objcopy --add-gnu-debuglink="$tmp/bid/app.dbg" "$tmp/bid/app"
id=$(readelf -n "$tmp/bid/app" 2>/dev/null | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
if [ -z "$id" ]; then
	fail debug_fifo_build_id "$SRC has no build ID"
else
	mkdir -p "$tmp/dbg/.build-id/${id:0:2}"
	mkfifo "$tmp/dbg/.build-id/${id:0:2}/${id:2}.debug"
	expect debug_fifo_build_id 0 \
		"skipping $tmp/dbg/.build-id/${id:0:2}/${id:2}.debug as its debug file: it is a FIFO" \
		"debug info (DWARF) from $tmp/bid/app.dbg" -- \
		env BPFPROBE_DEBUGINFO_PATH=":.debug:$tmp/dbg" "$BPFPROBE" resolve -v \
		"exec=$tmp/bid/app;neg_args a b c"
fi

# 5. the DWZ alternate file the debug file names is a FIFO: skipped (and
#    libdw's own search for it kept off), the missing file said
if command -v dwz >/dev/null; then
	mkdir -p "$tmp/dwz"
	split "$tmp/dwz/app" "$tmp/dwz/app.debug"
	cp build/targets/args-gcc-O0 "$tmp/dwz/other"
	objcopy --only-keep-debug "$tmp/dwz/other" "$tmp/dwz/other.debug"
	if dwz -m "$tmp/dwz/common.debug" -M "$tmp/dwz/common.debug" \
	       "$tmp/dwz/app.debug" "$tmp/dwz/other.debug" 2>"$tmp/dwz.err" &&
	   readelf -S "$tmp/dwz/app.debug" 2>/dev/null | grep -q gnu_debugaltlink; then
		objcopy --add-gnu-debuglink="$tmp/dwz/app.debug" "$tmp/dwz/app"
		rm "$tmp/dwz/common.debug"
		mkfifo "$tmp/dwz/common.debug"
		expect debug_fifo_dwz 1 \
			"skipping $tmp/dwz/common.debug as its DWZ alternate file: it is a FIFO" \
			"DWZ alternate file '$tmp/dwz/common.debug', which was not found" -- \
			"$BPFPROBE" resolve -v "exec=$tmp/dwz/app;neg_args a b c"
	else
		fail debug_fifo_dwz "dwz failed: $(cat "$tmp/dwz.err")"
	fi
else
	fail debug_fifo_dwz "dwz is not installed (scripts/deps.sh installs it)"
fi

# 6. the binary itself: named by the user, refused the same way
mkfifo "$tmp/fifo-app"
expect debug_fifo_binary 1 "binary '$tmp/fifo-app' is a FIFO, not a regular file" -- \
	"$BPFPROBE" resolve "exec=$tmp/fifo-app;neg_args a"
