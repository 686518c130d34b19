# The resolution cache (probes/resolution_cache.h): a first resolve keeps
# its probe points, the next gives them again without reading DWARF (said
# at -v), the same output as `--no-cache` to the byte; never used for a
# binary or debug file that changed, an entry another build of bpfprobe
# made, a damaged entry or one in a directory someone else could write;
# nothing kept when the resolution said a warning; `--no-cache` neither
# reads nor keeps; nothing kept for a lazy pattern (its points depend on
# the source file's text). A load from the cache fetches the values the
# program prints.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/cache_helpers.sh

cache_setup
RES=$XDG_CACHE_HOME/bpfprobe/resolutions

# mk OUT VERSION [CFLAGS...]: the target (tests/lib.sh)
mk() { swapped_target "$1" "$2" rc_fn "${@:3}"; }

SEC_OF() { echo "exec=$1;func=rc_fn a b"; }

# resolved NAME SEC [OPTIONS]: resolve -v's output in $tmp/NAME.out, stderr
# in NAME.err, and --no-cache's output in NAME.ref
resolved() {
	local name=$1 sec=$2
	shift 2
	last=$name
	"$BPFPROBE" resolve -v "$@" "$sec" >"$tmp/$name.out" 2>"$tmp/$name.err"
	"$BPFPROBE" resolve --no-cache "$sec" >"$tmp/$name.ref" 2>/dev/null
}
same() { [ -s "$tmp/$1.ref" ] && cmp -s "$tmp/$1.out" "$tmp/$1.ref"; }
nres() { find "$RES" -name '*.res' 2>/dev/null | wc -l; }
HIT="probe point from the resolution cache $RES/"
KEPT="resolution kept in $RES/"

BIN=$tmp/app
mk "$BIN" 1 || { fail resolution_cache_build "gcc failed"; exit 0; }

# --- kept, given again -------------------------------------------------------

resolved cold "$(SEC_OF "$BIN")"
check resolution_cache_kept "the first resolve kept nothing, or answered otherwise" \
	eval 'same cold && said cold "$KEPT" && [ "$(nres)" = 1 ]'
resolved warm "$(SEC_OF "$BIN")"
check resolution_cache_warm "the second resolve did not come from the cache, or answered otherwise" \
	eval 'same warm && said warm "$HIT" && ! said warm "DWARF index" && ! said warm "debug info (DWARF) from"'
"$BPFPROBE" resolve -v --no-cache "$(SEC_OF "$BIN")" >/dev/null 2>"$tmp/nocache.err"
last=nocache
check resolution_cache_no_cache "--no-cache read or kept a resolution" \
	eval '! said nocache "resolution cache" && ! said nocache "resolution kept"'
# a lazy pattern reads the source file: never kept
resolved lazy "exec=$BIN;rc_fn;*sink=a;*"
check resolution_cache_not_lazy "a lazy pattern's resolution was kept" \
	eval 'same lazy && ! said lazy "$KEPT" && [ "$(nres)" = 1 ]'
# another SEC text is another entry
resolved other "exec=$BIN;func=rc_fn_other x"
check resolution_cache_other_text "another SEC text was answered from the first one's entry" \
	eval 'same other && said other "$KEPT" && [ "$(nres)" = 2 ]'

# old entries (and temporary files of killed runs) go when one is kept
echo x >"$RES/0123456789abcdef.res" && touch -d '40 days ago' "$RES/0123456789abcdef.res"
echo x >"$RES/fedcba9876543210.res"
echo x >"$RES/tmp-1-deadbeef.res" && touch -d '2 hours ago' "$RES/tmp-1-deadbeef.res"
resolved pruning "exec=$BIN;func=rc_fn a"
check resolution_cache_prunes_old "an old entry or a dead temporary file was left, or a recent one removed" \
	eval 'said pruning "$KEPT" && [ ! -e "$RES/0123456789abcdef.res" ] && [ ! -e "$RES/tmp-1-deadbeef.res" ] && [ -e "$RES/fedcba9876543210.res" ]'
rm -f "$RES/fedcba9876543210.res"
# the cache directory named through a symlink and "..": the same entry,
# under its canonical path
ln -s "$tmp" "$tmp/via"
XDG_CACHE_HOME=$tmp/via/cache/../cache resolved indirect "$(SEC_OF "$BIN")"
check resolution_cache_canonical_dir "a cache directory named through a symlink and .. was not used under its canonical path" \
	eval 'same indirect && said indirect "$HIT"'

# --- a load from the cache fetches the right values ------------------------------

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip resolution_cache_load "$why"
else
	swapped_probe "$tmp/p.o" "$(SEC_OF "$BIN")"
	timeout 60 "$BPFPROBE" load -v --quiet-meta "$tmp/p.o" -- "$BIN" >/dev/null 2>&1
	out=$(timeout 60 "$BPFPROBE" load -v --quiet-meta "$tmp/p.o" -- "$BIN" 2>&1)
	if ! grep -q "$HIT" <<<"$out"; then
		fail resolution_cache_load "the load did not come from the cache: $(head -c 800 <<<"$out")"
	elif ! d=$(compare_truth "$out"); then
		fail resolution_cache_load "the fetched values are not the program's: $d"
	else
		pass resolution_cache_load
	fi
fi

# --- never for a changed binary --------------------------------------------------

touch "$BIN"
resolved touched "$(SEC_OF "$BIN")"
check resolution_cache_touched "a touched binary was answered from its old entry" \
	eval 'same touched && said touched "the binary $BIN changed since it was made" && said touched "$KEPT" && ! said touched "$HIT"'
resolved touched_again "$(SEC_OF "$BIN")"
check resolution_cache_touched_kept_again "the entry made after the touch was not used" \
	eval 'same touched_again && said touched_again "$HIT"'
# another build (the parameters in other registers) at the same path
mk "$tmp/v2" 2 && cp "$tmp/v2" "$BIN"
resolved replaced "$(SEC_OF "$BIN")"
check resolution_cache_replaced "a replaced binary was answered from the old entry" \
	eval 'same replaced && ! said replaced "$HIT" && ! cmp -s "$tmp/replaced.out" "$tmp/warm.out"'

# --- never for a changed debug file ----------------------------------------------

SPLIT=$tmp/split
mk "$SPLIT" 1 &&
	objcopy --only-keep-debug "$SPLIT" "$SPLIT.debug" &&
	objcopy --strip-debug --add-gnu-debuglink="$SPLIT.debug" "$SPLIT"
resolved split_cold "$(SEC_OF "$SPLIT")"
resolved split_warm "$(SEC_OF "$SPLIT")"
check resolution_cache_debug_file "a binary with a separate debug file was not answered from the cache" \
	eval 'same split_warm && said split_cold "$KEPT" && said split_warm "$HIT"'
touch "$SPLIT.debug"
resolved split_touched "$(SEC_OF "$SPLIT")"
check resolution_cache_debug_file_touched "a touched debug file's binary was answered from the old entry" \
	eval 'same split_touched && said split_touched "its debug file $SPLIT.debug changed since it was made" && ! said split_touched "$HIT"'

# --- damaged entries, another build's, untrusted places ------------------------------

entry=$(ls -t "$RES"/*.res | head -1)
# the header's build ID of bpfprobe starts at byte 36
printf '\xff' | dd of="$entry" bs=1 seek=36 conv=notrunc status=none
resolved other_build "$(SEC_OF "$SPLIT")"
check resolution_cache_other_build "an entry of another bpfprobe build was used" \
	eval 'same other_build && said other_build "made by another build of bpfprobe" && said other_build "$KEPT"'
size=$(stat -c %s "$entry")
printf '\x5a' | dd of="$entry" bs=1 seek=$((size - 3)) conv=notrunc status=none
resolved corrupt "$(SEC_OF "$SPLIT")"
check resolution_cache_corrupt "a corrupt entry was used" \
	eval 'same corrupt && said corrupt "corrupt" && said corrupt "$KEPT"'
: >"$entry"
resolved empty "$(SEC_OF "$SPLIT")"
check resolution_cache_empty "an empty entry was used" \
	eval 'same empty && said empty "not using the resolution cache" && said empty "$KEPT"'
chmod 770 "$RES"
resolved group_writable "$(SEC_OF "$SPLIT")"
check resolution_cache_untrusted_dir "a group-writable resolutions directory was used" \
	eval 'same group_writable && said group_writable "cannot be trusted" && ! said group_writable "$HIT"'
chmod 700 "$RES"
ln -sf /etc/hostname "$tmp/link" && mv -f "$tmp/link" "$entry"
resolved symlinked "$(SEC_OF "$SPLIT")"
check resolution_cache_symlink "an entry that is a symbolic link was followed" \
	eval 'same symlinked && said symlinked "a symbolic link" && ! said symlinked "$HIT"'

# --- nothing kept when the resolution said a warning ------------------------------

PTS=build/targets/points-gcc-O2
if [ -x "$PTS" ]; then
	sec="exec=$PTS;force=yes;func=force_* v"
	resolved forced "$sec"
	resolved forced_again "$sec"
	check resolution_cache_not_after_warning "a resolution that said a warning was kept" \
		eval 'same forced_again && said forced_again "skipping probe point force_drop" && ! said forced "$KEPT" && ! said forced_again "$HIT"'
else
	fail resolution_cache_not_after_warning "no $PTS (make tests-build)"
fi
