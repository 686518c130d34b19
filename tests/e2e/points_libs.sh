# Where the probed code and its debug info live: a shared library named
# bare (exec=libpoints.so, found like ld.so finds it), probed in every
# process that maps it or in one (-p); separate debug info in each place
# elfutils looks (.gnu_debuglink, /usr/lib/debug/.build-id, /usr/lib/debug
# + path, DWZ alternate files, compressed sections); glibc's malloc through
# Debian's libc6-dbg. Every fetched value is compared with the truth.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip points_libs_e2e "$why"
	exit 0
fi

tmp=$(mktemp -d)
created=()	# files this script put under /usr/lib/debug
cleanup() {
	local f
	for f in "${created[@]}"; do
		rm -f "$f"
	done
	rm -rf "/usr/lib/debug$tmp"
	rm -rf "$tmp"
	kill $(jobs -p) 2>/dev/null
}
trap cleanup EXIT

# GOT and TRUTH lines of one kind only: compare_group OUT WHAT
compare_group() {
	compare_truth "$(grep -E "(^|: )(GOT|TRUTH) $2 " <<<"$1")"
}

# --- a shared library by bare name ---------------------------------------

for v in $VARIANTS; do
	out=$(LD_LIBRARY_PATH=build/targets/pointslib-$v timeout 60 "$BPFPROBE" load \
		build/bpf/pointsapp__lib-$v.o -- build/targets/pointsapp-$v 3 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "points_lib_bare_name_$v" "exit $rc: $(grep -v '^TRUTH' <<<"$out" | tail -3)"
	elif diff=$(compare_truth "$out"); then
		pass "points_lib_bare_name_$v"
	else
		fail "points_lib_bare_name_$v" "fetched values differ from the truth:
$diff"
	fi
done

# Two processes map the library. Without -p both fire, with -p only one.
export LD_LIBRARY_PATH=$PWD/build/targets/pointslib-gcc-O2
APP=build/targets/pointsapp-gcc-O2
LIBOBJ=build/bpf/pointsapp__lib-gcc-O2.o
# lib_run OUTFILE all|one: probes while two apps run (with -p the first
# one only), stops after a few hits; sets app1, app2, bp_rc.
lib_run() {
	local out=$1 bp i pidopt=
	$APP 400 20 >"$tmp/app1" &
	app1=$!
	$APP 400 20 >"$tmp/app2" &
	app2=$!
	[ "$2" = one ] && pidopt="-p $app1"
	"$BPFPROBE" load $pidopt $LIBOBJ >"$out" 2>"$out.err" &
	bp=$!
	for i in $(seq 100); do
		[ "$(grep -c 'GOT lib' "$out")" -ge 6 ] && break
		sleep 0.1
	done
	kill -TERM $bp
	wait $bp
	bp_rc=$?
	sleep 0.1	# the apps print the truth right after each call
	kill $app1 $app2 2>/dev/null
	wait $app1 $app2 2>/dev/null
}

# every GOT line of our apps is a call they made: got_in_truth OUT
# (a system-wide session also sees the apps of a concurrent test run)
got_in_truth() {
	local line
	while read -r line; do
		grep -qxhF "TRUTH $line" "$tmp/app1" "$tmp/app2" || return 1
	done < <(sed -n "s/.*GOT \\(lib pid=\\($app1\\|$app2\\) .*\\)/\\1/p" "$1")
}

lib_run "$tmp/all" all
pids=$(sed -n 's/.*GOT lib pid=\([0-9]*\) .*/\1/p' "$tmp/all" | sort -u | tr '\n' ' ')
if [ "$bp_rc" -eq 0 ] && [[ " $pids" == *" $app1 "* ]] && [[ " $pids" == *" $app2 "* ]] &&
   got_in_truth "$tmp/all"; then
	pass points_lib_every_process
else
	fail points_lib_every_process "exit $bp_rc, pids with hits '$pids' (apps $app1 $app2): $(tail -3 "$tmp/all.err")"
fi

lib_run "$tmp/one" one
pids=$(sed -n 's/.*GOT lib pid=\([0-9]*\) .*/\1/p' "$tmp/one" | sort -u | tr -d '\n')
if [ "$bp_rc" -eq 0 ] && [ "$pids" = "$app1" ] && got_in_truth "$tmp/one"; then
	pass points_lib_one_process
else
	fail points_lib_one_process "exit $bp_rc, pids with hits '$pids' (want only $app1): $(tail -3 "$tmp/one.err")"
fi
unset LD_LIBRARY_PATH

# --- separate debug info ----------------------------------------------------

SRC=build/targets/points-gcc-O2
# debug_case NAME BINARY WANT: probes glob_* in BINARY (its DWARF elsewhere)
# and checks the values, and that -v names WANT as where DWARF came from.
debug_case() {
	local name=$1 bin=$2 want=$3 out rc
	mkobj "$tmp/$name.o" <<EOF
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$bin;glob_* x")
int glob(void *ctx, int err, long x)
{
	if (err)
		bpf_printk("ERR glob err=%d", err);
	else
		bpf_printk("GOT glob x=%ld", x);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOF
	out=$(timeout 60 "$BPFPROBE" load -v "$tmp/$name.o" -- "$bin" main 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "points_debuginfo_$name" "exit $rc: $(grep -v '^TRUTH' <<<"$out" | grep -iv 'info:' | tail -3)"
	elif ! grep -qF "debug info (DWARF) from $want" <<<"$out"; then
		fail "points_debuginfo_$name" "DWARF not from $want: $(grep 'debug info' <<<"$out")"
	elif diff=$(compare_group "$out" glob); then
		pass "points_debuginfo_$name"
	else
		fail "points_debuginfo_$name" "fetched values differ from the truth:
$diff"
	fi
}

# split BIN DEBUG: DWARF of BIN moved to DEBUG, BIN stripped of it
split() {
	cp "$SRC" "$1"
	objcopy --only-keep-debug "$1" "$2"
	strip -g "$1"
}

# .gnu_debuglink, the debug file beside the binary and in .debug/
mkdir -p "$tmp/link/.debug"
split "$tmp/link/bin" "$tmp/link/bin.dbg"
objcopy --add-gnu-debuglink="$tmp/link/bin.dbg" "$tmp/link/bin"
debug_case debuglink "$tmp/link/bin" "$tmp/link/bin.dbg"
mv "$tmp/link/bin.dbg" "$tmp/link/.debug/bin.dbg"
debug_case debuglink_dot_debug "$tmp/link/bin" "$tmp/link/.debug/bin.dbg"

# set_build_id FILE HEX: rewrites the 20-byte build ID note of FILE in place
set_build_id() {
	local off
	off=$(readelf -SW "$1" 2>/dev/null |
	      sed -n 's/.*\.note\.gnu\.build-id *NOTE *[0-9a-f]* \([0-9a-f]*\) .*/\1/p')
	[ -n "$off" ] || return 1
	# the note: namesz, descsz, type (4 bytes each), "GNU\0", then the ID
	printf "$(sed 's/../\\x&/g' <<<"$2")" |
		dd of="$1" bs=1 seek=$((0x$off + 16)) conv=notrunc status=none
}

# /usr/lib/debug/.build-id/xx/rest.debug, no debuglink. The ID is made
# unique to this run: that directory is the whole system's.
mkdir -p "$tmp/bid"
id=$(od -An -N20 -tx1 /dev/urandom | tr -d ' \n')
bid=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
mkdir -p "$(dirname "$bid")"
created+=("$bid")
split "$tmp/bid/bin" "$bid"
if set_build_id "$tmp/bid/bin" "$id" && set_build_id "$bid" "$id" &&
   readelf -n "$tmp/bid/bin" 2>/dev/null | grep -q "Build ID: $id"; then
	debug_case build_id "$tmp/bid/bin" "$bid"
else
	fail points_debuginfo_build_id "cannot give $tmp/bid/bin a build ID of its own"
fi
rm -f "$bid"

# /usr/lib/debug/<path of the binary>.debug: no build ID, no debuglink
mkdir -p "$tmp/path" "/usr/lib/debug$tmp/path"
split "$tmp/path/bin" "/usr/lib/debug$tmp/path/bin.debug"
objcopy --remove-section=.note.gnu.build-id "$tmp/path/bin"
debug_case usr_lib_debug_path "$tmp/path/bin" "/usr/lib/debug$tmp/path/bin.debug"

# DWZ: two debug files share a common alternate file
if command -v dwz >/dev/null; then
	mkdir -p "$tmp/dwz"
	split "$tmp/dwz/bin" "$tmp/dwz/bin.debug"
	cp build/targets/points-gcc-O3 "$tmp/dwz/other"
	objcopy --only-keep-debug "$tmp/dwz/other" "$tmp/dwz/other.debug"
	if dwz -m "$tmp/dwz/common.debug" -M "$tmp/dwz/common.debug" \
	       "$tmp/dwz/bin.debug" "$tmp/dwz/other.debug" 2>"$tmp/dwz.err" &&
	   readelf -S "$tmp/dwz/bin.debug" 2>/dev/null | grep -q gnu_debugaltlink; then
		objcopy --add-gnu-debuglink="$tmp/dwz/bin.debug" "$tmp/dwz/bin"
		debug_case dwz "$tmp/dwz/bin" \
			"$tmp/dwz/bin.debug, with the DWZ alternate file '$tmp/dwz/common.debug'"
		# without the alternate file: said, not a silent wrong answer
		mv "$tmp/dwz/common.debug" "$tmp/dwz/common.moved"
		out=$(timeout 60 "$BPFPROBE" load "$tmp/dwz.o" -- "$tmp/dwz/bin" main 2>&1)
		if [ $? -ne 0 ] && grep -q "DWZ alternate file '$tmp/dwz/common.debug', which was not found" <<<"$out"; then
			pass points_debuginfo_dwz_missing_alt
		else
			fail points_debuginfo_dwz_missing_alt "$(grep -v '^TRUTH' <<<"$out" | tail -3)"
		fi
	else
		fail points_debuginfo_dwz "dwz failed: $(cat "$tmp/dwz.err")"
	fi
else
	fail points_debuginfo_dwz "dwz is not installed (scripts/deps.sh installs it)"
fi

# compressed debug sections: ELF SHF_COMPRESSED and the older .zdebug_*
for style in zlib zlib-gnu; do
	mkdir -p "$tmp/$style"
	split "$tmp/$style/bin" "$tmp/$style/bin.debug"
	objcopy --compress-debug-sections=$style "$tmp/$style/bin.debug"
	objcopy --add-gnu-debuglink="$tmp/$style/bin.debug" "$tmp/$style/bin"
	# SHF_COMPRESSED shows as flag C; the GNU style renames to .zdebug_*
	if [ $style = zlib ]; then
		readelf -SW "$tmp/$style/bin.debug" 2>/dev/null | grep -q '\.debug_info .* C ' ||
			fail "points_debuginfo_compressed_zlib" "objcopy did not compress .debug_info"
	else
		readelf -SW "$tmp/$style/bin.debug" 2>/dev/null | grep -q '\.zdebug_info' ||
			fail "points_debuginfo_compressed_zlib_gnu" "objcopy did not make .zdebug_info"
	fi
	debug_case "compressed_${style/-/_}" "$tmp/$style/bin" "$tmp/$style/bin.debug"
done

# --- glibc's malloc through libc6-dbg -------------------------------------

mkobj "$tmp/malloc.o" <<'EOF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
/* only the target's own sizes: libc mallocs for itself too */
SEC("exec=libc.so.6;malloc bytes")
int malloc_bytes(void *ctx, int err, unsigned long bytes)
{
	if (err)
		bpf_printk("ERR malloc err=%d", err);
	else if (bytes >= 10000 && bytes < 10100)
		bpf_printk("GOT malloc bytes=%lu", bytes);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOF
out=$(timeout 60 "$BPFPROBE" load -v "$tmp/malloc.o" -- build/targets/points-gcc-O2 malloc 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
	fail points_libc_malloc "exit $rc: $(grep -v '^TRUTH' <<<"$out" | grep -v 'info' | tail -3)"
elif ! grep -q "libc.so.6: debug info (DWARF) from /usr/lib/debug/.build-id/" <<<"$out"; then
	fail points_libc_malloc "glibc's DWARF did not come from libc6-dbg: $(grep 'debug info' <<<"$out")"
elif diff=$(compare_truth "$out"); then
	pass points_libc_malloc
else
	fail points_libc_malloc "fetched values differ from the truth:
$diff"
fi
