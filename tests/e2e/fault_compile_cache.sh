# The compile cache is an optimization, never a failure (issue 30, rows 9
# and 10): with XDG_CACHE_HOME on a full tmpfs (64 KiB) or on a read-only
# one, `load prog.c` and `resolve prog.c` compile into a private temporary
# directory (removed at exit), say so under -v only, and go on; an object
# already cached on a file system since made read-only is still used;
# --no-cache neither reads nor writes compiled objects. The tmpfs mounts
# are this test's own, unmounted at exit.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip fault_compile_cache "$why"
	exit 0
fi
tmp=$(mktemp -d)
cleanup() {
	for m in "$tmp/full" "$tmp/ro"; do
		mountpoint -q "$m" && umount "$m"
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
# the private temporary directories go here: each run must leave it empty
export TMPDIR=$tmp/t
mkdir -m 0700 "$TMPDIR" "$tmp/full" "$tmp/ro"
T=$PWD/build/targets/args-gcc-O2
{ echo "#define TARGET \"$T\""; cat tests/bpf/args__basic.bpf.c; } >"$tmp/prog.c"

if ! mount -t tmpfs -o size=64k,mode=0700 bpfprobe-test "$tmp/full" 2>"$tmp/err" ||
   ! mount -t tmpfs -o size=1m,mode=0700 bpfprobe-test "$tmp/ro" 2>>"$tmp/err"; then
	fail fault_compile_cache_mount "cannot mount a tmpfs: $(cat "$tmp/err")"
	exit 0
fi

# compiled NAME CACHE WANT [ARGS...]: load ARGS prog.c with XDG_CACHE_HOME
# CACHE fetches what the target says, exit 0; -v says WANT (a grep
# pattern), without -v nothing of the cache is said; the private
# directory is gone after
compiled() {
	local name=$1 cache=$2 want=$3 out rc
	shift 3
	out=$(XDG_CACHE_HOME=$cache timeout 60 "$BPFPROBE" load -v "$@" "$tmp/prog.c" -- "$T" 2>"$tmp/err")
	rc=$?
	if [ $rc -ne 0 ] || ! compare_truth "$out" >/dev/null; then
		fail "$name" "exit $rc: $(grep -v '^ ' "$tmp/err" | tail -4)"
	elif ! grep -q -- "$want" "$tmp/err"; then
		fail "$name" "-v does not say '$want': $(grep -i 'cache\|compil' "$tmp/err")"
	elif [ -n "$(ls -A "$TMPDIR")" ]; then
		fail "$name" "left in TMPDIR: $(ls -A "$TMPDIR")"
	else
		out=$(XDG_CACHE_HOME=$cache timeout 60 "$BPFPROBE" load "$@" "$tmp/prog.c" -- "$T" 2>"$tmp/err")
		rc=$?
		if [ $rc -ne 0 ] || ! compare_truth "$out" >/dev/null; then
			fail "$name" "without -v: exit $rc: $(tail -4 "$tmp/err")"
		elif grep -qi 'cache\|temporary' "$tmp/err"; then
			fail "$name" "said without -v: $(grep -i 'cache\|temporary' "$tmp/err")"
		else
			pass "$name"
		fi
	fi
}

# 1. a full file system: the cache directory made, the object not written
dd if=/dev/zero of="$tmp/full/fill" bs=4k count=64 2>/dev/null
compiled fault_compile_cache_full "$tmp/full" \
	"cannot keep the object in the compile cache: cannot write $tmp/full/bpfprobe/tmp-.*: No space left on device; using a private temporary directory"
if ls "$tmp/full/bpfprobe" 2>/dev/null | grep -q '\.o$'; then
	fail fault_compile_cache_full_clean "a partial object was left: $(ls "$tmp/full/bpfprobe")"
else
	pass fault_compile_cache_full_clean
fi

# 2. read-only: the cache directory cannot be made
mount -o remount,ro "$tmp/ro"
compiled fault_compile_cache_readonly "$tmp/ro" \
	"not using the compile cache: cannot create $tmp/ro/bpfprobe: Read-only file system; compiling in a private temporary directory"

# 3. read-only, the directory there: an object compiled before is used, a
# new one goes to the private directory
mount -o remount,rw "$tmp/ro"
XDG_CACHE_HOME=$tmp/ro timeout 60 "$BPFPROBE" resolve "$tmp/prog.c" >/dev/null 2>"$tmp/err"
mount -o remount,ro "$tmp/ro"
compiled fault_compile_cache_readonly_cached "$tmp/ro" "using cached object $tmp/ro/bpfprobe/"
sed 's/GOT /GOT  /' "$tmp/prog.c" >"$tmp/prog2.c"
out=$(XDG_CACHE_HOME=$tmp/ro timeout 60 "$BPFPROBE" resolve -v "$tmp/prog2.c" 2>"$tmp/err" >/dev/null)
rc=$?
if [ $rc -ne 0 ]; then
	fail fault_compile_cache_readonly_resolve "exit $rc: $(tail -3 "$tmp/err")"
elif ! grep -q "cannot create a file in $tmp/ro/bpfprobe: Read-only file system; using a private temporary directory" "$tmp/err"; then
	fail fault_compile_cache_readonly_resolve "-v does not say so: $(grep -i 'cache\|compil' "$tmp/err")"
else
	pass fault_compile_cache_readonly_resolve
fi

# 4. --no-cache: the object neither read from nor written to the cache
mkdir -m 0700 "$tmp/w"
compiled fault_compile_cache_no_cache "$tmp/w" "compiled object: $TMPDIR/bpfprobe-.*/compiled.o (removed at exit)" --no-cache
if [ -n "$(ls -A "$tmp/w/bpfprobe" 2>/dev/null | grep '\.o$')" ]; then
	fail fault_compile_cache_no_cache_writes "the cache got $(ls -A "$tmp/w/bpfprobe")"
else
	pass fault_compile_cache_no_cache_writes
fi
XDG_CACHE_HOME=$tmp/w timeout 60 "$BPFPROBE" resolve "$tmp/prog.c" >/dev/null 2>&1
XDG_CACHE_HOME=$tmp/w timeout 60 "$BPFPROBE" resolve -v --no-cache "$tmp/prog.c" >/dev/null 2>"$tmp/err"
if grep -q 'using cached object' "$tmp/err" || ! grep -q "^compiling $tmp/prog.c" "$tmp/err"; then
	fail fault_compile_cache_no_cache_reads "$(grep -i 'cache\|compil' "$tmp/err")"
else
	pass fault_compile_cache_no_cache_reads
fi
