# Decompression bombs (issue 30, row 3): a compressed .debug_info of a
# 1 MiB file that inflates to 1 GiB. libdw inflates every compressed debug
# section whole when it opens a file; before, that cost 6 s and 1 GiB of
# memory, then "no debug info". Now what a file's compressed sections
# claim is held against a budget tied to the file's size (64 times it, at
# least 64 MiB) before libdw sees the file: past it, an error naming the
# file, the section and the sizes. The binary, its debug file and its DWZ
# alternate file alike; zlib, zstd and GNU's .zdebug_ form alike.
# (tests/e2e/hostile_elf.c makes the bombs.)
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
SRC=build/targets/args-gcc-O2
if ! gcc -O2 -o "$tmp/hostile_elf" tests/e2e/hostile_elf.c -lz 2>"$tmp/cc.err"; then
	fail inflate_bomb_build "$(cat "$tmp/cc.err")"
	exit 0
fi

# refused NAME FILE SECTION HOW CMD...: CMD exits 1 soon, naming FILE,
# SECTION and its claim; within 600 MB of address space (not under ASan,
# whose shadow memory alone is terabytes of it)
refused() {
	local name=$1 file=$2 sec=$3 how=$4 out rc
	shift 4
	out=$( (case "$BPFPROBE" in */asan/*) ;; *) ulimit -v 600000 ;; esac
		timeout 30 "$@") 2>&1)
	rc=$?
	if [ $rc -ne 1 ]; then
		fail "$name" "exit $rc, want 1: $(tail -3 <<<"$out")"
	elif ! grep -qF "$file: section $sec inflates to 1073741824 bytes ($how, from " <<<"$out" ||
	     ! grep -q "past the budget of [0-9]* bytes for a file of [0-9]* bytes (64 times its size, at least 64 MiB): refused as a decompression bomb" <<<"$out"; then
		fail "$name" "not said: $(tail -3 <<<"$out")"
	elif grep -q "no debug info" <<<"$out"; then
		fail "$name" "said 'no debug info' too: $(tail -3 <<<"$out")"
	else
		pass "$name"
	fi
}

# 1. the binary's own .debug_info, a real zlib stream of 1 GiB of zeros
gcc -g -gz=zlib -O1 -o "$tmp/gz" tests/targets/args/*.c 2>/dev/null ||
	cp "$SRC" "$tmp/gz"
"$tmp/hostile_elf" "$tmp/gz" "$tmp/bomb" .debug_info zlib 1G
refused inflate_bomb_zlib "$tmp/bomb" .debug_info zlib \
	"$BPFPROBE" resolve "exec=$tmp/bomb;neg_args a b c"
refused inflate_bomb_funcs "$tmp/bomb" .debug_info zlib "$BPFPROBE" funcs "$tmp/bomb" 'neg_*'
refused inflate_bomb_vars "$tmp/bomb" .debug_info zlib "$BPFPROBE" vars "$tmp/bomb" neg_args

# 2. zstd: the claim is refused before anything would inflate it
"$tmp/hostile_elf" "$tmp/gz" "$tmp/bomb-zstd" .debug_info zstd 1G
refused inflate_bomb_zstd "$tmp/bomb-zstd" .debug_info zstd \
	"$BPFPROBE" resolve "exec=$tmp/bomb-zstd;neg_args a b c"

# 3. GNU's .zdebug_info ("ZLIB" and the size in its first 12 bytes)
if gcc -g -gz=zlib-gnu -O1 -o "$tmp/zgnu" tests/targets/args/*.c 2>/dev/null &&
   readelf -SW "$tmp/zgnu" 2>/dev/null | grep -q '\.zdebug_info'; then
	"$tmp/hostile_elf" "$tmp/zgnu" "$tmp/bomb-zdebug" .zdebug_info zdebug 1G 64K
	refused inflate_bomb_zdebug "$tmp/bomb-zdebug" .zdebug_info "zlib, .zdebug" \
		"$BPFPROBE" resolve "exec=$tmp/bomb-zdebug;neg_args a b c"
else
	skip inflate_bomb_zdebug "gcc cannot make .zdebug_ sections here"
fi

# 4. the separate debug file the debug link names
mkdir -p "$tmp/link"
cp "$SRC" "$tmp/link/app"
objcopy --only-keep-debug "$tmp/link/app" "$tmp/link/plain.debug"
"$tmp/hostile_elf" "$tmp/link/plain.debug" "$tmp/link/app.debug" .debug_info zlib 1G 64K
strip -g "$tmp/link/app"
objcopy --add-gnu-debuglink="$tmp/link/app.debug" "$tmp/link/app"
refused inflate_bomb_debug_file "$tmp/link/app.debug" .debug_info zlib \
	"$BPFPROBE" resolve "exec=$tmp/link/app;neg_args a b c"

# 5. the DWZ alternate file
if command -v dwz >/dev/null; then
	mkdir -p "$tmp/dwz"
	cp "$SRC" "$tmp/dwz/app"
	objcopy --only-keep-debug "$tmp/dwz/app" "$tmp/dwz/app.debug"
	strip -g "$tmp/dwz/app"
	cp build/targets/args-gcc-O0 "$tmp/dwz/other"
	objcopy --only-keep-debug "$tmp/dwz/other" "$tmp/dwz/other.debug"
	if dwz -m "$tmp/dwz/common.debug" -M "$tmp/dwz/common.debug" \
	       "$tmp/dwz/app.debug" "$tmp/dwz/other.debug" 2>"$tmp/dwz.err"; then
		objcopy --add-gnu-debuglink="$tmp/dwz/app.debug" "$tmp/dwz/app"
		mv "$tmp/dwz/common.debug" "$tmp/dwz/common.plain"
		"$tmp/hostile_elf" "$tmp/dwz/common.plain" "$tmp/dwz/common.debug" .debug_info \
			zlib 1G 64K
		refused inflate_bomb_dwz "$tmp/dwz/common.debug" .debug_info zlib \
			"$BPFPROBE" resolve "exec=$tmp/dwz/app;neg_args a b c"
	else
		fail inflate_bomb_dwz "dwz failed: $(cat "$tmp/dwz.err")"
	fi
else
	fail inflate_bomb_dwz "dwz is not installed (scripts/deps.sh installs it)"
fi

# 6. real compressed debug info is within its budget
cp "$SRC" "$tmp/ok"
objcopy --compress-debug-sections=zlib "$tmp/ok"
out=$(timeout 30 "$BPFPROBE" resolve "exec=$tmp/ok;neg_args a b c" 2>&1)
rc=$?
if [ $rc -eq 0 ] && grep -q "arg1 a: int" <<<"$out"; then
	pass inflate_within_budget
else
	fail inflate_within_budget "exit $rc: $(tail -3 <<<"$out")"
fi
