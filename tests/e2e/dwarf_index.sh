# The DWARF function index kept in the user's cache (probes/binary/index.h):
# built and stored by a first resolve, read by the next (said at -v), the
# same points either way and with --no-cache; never used for a binary that
# changed (rebuilt without a build ID, touched, replaced by another with
# the same build ID at the same path); ignored when damaged (corrupt,
# truncated, empty) and rewritten; never read from nor written into a cache
# directory someone else could have written (group-writable, a symlink,
# another user's), nor read from a file that is a symlink or another
# user's. Each case checks the answer against `resolve --no-cache` of the
# binary as it is now, and one loads the probe and compares the values
# fetched with what the rebuilt program prints.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/cache_helpers.sh

cache_setup
IDX=$XDG_CACHE_HOME/bpfprobe/dwarf-index

# mk OUT VERSION [LDFLAGS...]: the target (tests/lib.sh)
mk() { swapped_target "$1" "$2" idx_fn "${@:3}"; }

SEC_OF() { echo "exec=$1;func=idx_fn a b"; }
# what resolve says of the arguments: the part that differs between builds
args_of() { grep -E '^ +arg[0-9]' | sed 's/^ *//'; }

# resolved NAME BIN [OPTIONS]: resolve -v's output in $tmp/NAME.out,
# stderr in $tmp/NAME.err, and the same without the index in NAME.ref
resolved() {
	local name=$1 bin=$2
	shift 2
	last=$name
	# the resolution cache would answer without the index: this is about the index
	rm -rf "$XDG_CACHE_HOME/bpfprobe/resolutions"
	"$BPFPROBE" resolve -v "$@" "$(SEC_OF "$bin")" >"$tmp/$name.out" 2>"$tmp/$name.err"
	"$BPFPROBE" resolve --no-cache "$(SEC_OF "$bin")" >"$tmp/$name.ref" 2>/dev/null
}

# same NAME: the answers with and without the index are the same
same() {
	[ -s "$tmp/$1.ref" ] && [ "$(args_of <"$tmp/$1.out")" = "$(args_of <"$tmp/$1.ref")" ]
}

nidx() { find "$IDX" -name '*.idx' 2>/dev/null | wc -l; }

BIN=$tmp/app
mk "$BIN" 1 || { fail dwarf_index_build "gcc failed"; exit 0; }
V1=$("$BPFPROBE" resolve --no-cache "$(SEC_OF "$BIN")" 2>&1 | args_of)

# --- built, stored, read ----------------------------------------------------

resolved cold "$BIN"
check dwarf_index_cold "no index built and stored, or another answer" \
	eval 'same cold && said cold "indexed its DWARF" && said cold "DWARF index stored in $IDX/" && [ "$(nidx)" = 1 ]'
resolved warm "$BIN"
check dwarf_index_warm_reads_it "the second resolve did not read the index" \
	eval 'same warm && said warm ": using the DWARF index $IDX/" && ! said warm "indexed its DWARF"'
stored=$(find "$IDX" -name '*.idx' | head -1)
case $(basename "$stored") in
[0-9a-f]*[0-9a-f].idx) pass dwarf_index_named_by_build_id ;;
*) fail dwarf_index_named_by_build_id "$stored" ;;
esac
perm=$(stat -c '%a %u' "$stored" "$IDX" | tr '\n' ' ')
[ "$perm" = "600 0 700 0 " ] && pass dwarf_index_owner_only ||
	fail dwarf_index_owner_only "file and directory modes/owners: $perm"

XDG_CACHE_HOME=$tmp/nocache resolved nocache "$BIN" --no-cache
check dwarf_index_no_cache "--no-cache used or made an index" \
	eval 'same nocache && ! said nocache "DWARF index" && ! said nocache "indexed" && [ ! -e "$tmp/nocache" ]'

# --- a changed binary is never resolved from a stale index --------------------

# no build ID: the index is found by the path; a rebuild with the
# parameters swapped must not be read with the old one's
NB=$tmp/nobid
mk "$NB" 1 -Wl,--build-id=none
resolved nobid1 "$NB"
mk "$NB" 2 -Wl,--build-id=none
resolved rebuilt "$NB"
check dwarf_index_rebuilt_without_build_id "a rebuilt binary was resolved from the old index" \
	eval 'same rebuilt && [ "$(args_of <"$tmp/rebuilt.out")" != "$V1" ] && said rebuilt "the binary changed since it was made"'

# the same build ID forced on both builds, the second renamed over the first
SB=$tmp/samebid
mk "$SB" 1 -Wl,--build-id=0xfeedface
resolved samebid1 "$SB"
mk "$tmp/samebid2" 2 -Wl,--build-id=0xfeedface
mv "$tmp/samebid2" "$SB"
resolved samebid "$SB"
check dwarf_index_replaced_same_build_id "a binary replaced at the same path was resolved from the old index" \
	eval 'same samebid && [ "$(args_of <"$tmp/samebid.out")" != "$V1" ] && said samebid "the binary changed since it was made"'

# touched: the same contents, but it could be another file now
touch "$BIN"
resolved touched "$BIN"
check dwarf_index_touched "a touched binary's index was used" \
	eval 'same touched && said touched "the binary changed since it was made" && said touched "indexed its DWARF"'

# replaced by another program (another build ID) at the same path
cp "$NB" "$tmp/other"
mk "$tmp/other" 2
mv "$tmp/other" "$BIN"
resolved replaced "$BIN"
check dwarf_index_replaced "a replaced binary was resolved from an old index" \
	eval 'same replaced && [ "$(args_of <"$tmp/replaced.out")" != "$V1" ] && ! said replaced ": using the DWARF index"'

# the values a rebuilt binary's probe fetches are its own
why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip dwarf_index_rebuilt_load "$why"
else
	mk "$NB" 1 -Wl,--build-id=none
	"$BPFPROBE" resolve "$(SEC_OF "$NB")" >/dev/null 2>&1
	mk "$NB" 2 -Wl,--build-id=none
	swapped_probe "$tmp/p.o" "$(SEC_OF "$NB")"
	out=$(timeout 60 "$BPFPROBE" load --quiet-meta "$tmp/p.o" -- "$NB" 2>&1)
	if d=$(compare_truth "$out"); then
		pass dwarf_index_rebuilt_load
	else
		fail dwarf_index_rebuilt_load "$d $(head -c 600 <<<"$out")"
	fi
fi

# storing an index removes those not rewritten for 30 days and the
# temporary files of killed runs, nothing else
echo x >"$IDX/0123456789abcdef0123456789abcdef01234567.idx"
touch -d '40 days ago' "$IDX/0123456789abcdef0123456789abcdef01234567.idx"
echo x >"$IDX/tmp-1-deadbeef.idx" && touch -d '2 hours ago' "$IDX/tmp-1-deadbeef.idx"
echo x >"$IDX/tmp-2-deadbeef.idx"
echo x >"$IDX/notes.txt" && touch -d '40 days ago' "$IDX/notes.txt"
recent=$(ls "$IDX" | grep -v -e '^tmp-' -e '^0123' -e notes | head -1)
touch "$BIN"
"$BPFPROBE" resolve "$(SEC_OF "$BIN")" >/dev/null 2>&1
left=$(ls "$IDX" | tr '\n' ' ')
if [ -e "$IDX/0123456789abcdef0123456789abcdef01234567.idx" ] || [ -e "$IDX/tmp-1-deadbeef.idx" ]; then
	fail dwarf_index_pruned "old files left: $left"
elif [ ! -e "$IDX/tmp-2-deadbeef.idx" ] || [ ! -e "$IDX/notes.txt" ] || [ ! -e "$IDX/$recent" ]; then
	fail dwarf_index_pruned "files that are not old indexes were removed: $left"
else
	pass dwarf_index_pruned
fi
rm -f "$IDX/tmp-2-deadbeef.idx" "$IDX/notes.txt"

# --- damaged indexes are ignored, and replaced --------------------------------

mk "$BIN" 1
"$BPFPROBE" resolve "$(SEC_OF "$BIN")" >/dev/null 2>&1
f=$(ls -t "$IDX"/*.idx | head -1)
size=$(stat -c %s "$f")
# a byte changed in every 4096-byte stretch: whatever blocks the look-up
# reads (only those are checked), one of them is damaged
for off in $(seq 2048 4096 $((size - 1))); do
	printf '\xff' | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
done
resolved corrupt "$BIN"
resolved corrupt_after "$BIN"
check dwarf_index_corrupt "a corrupt index was used" \
	eval 'same corrupt && said corrupt "not using the DWARF index.*corrupt" && said corrupt_after "DWARF index stored in"'
truncate -s $((size / 3)) "$f"
resolved truncated "$BIN"
check dwarf_index_truncated "a truncated index was used" \
	eval 'same truncated && said truncated "truncated" && said truncated "indexed its DWARF"'
: >"$f"
resolved empty "$BIN"
check dwarf_index_empty "an empty index file was used" \
	eval 'same empty && said empty "not using the DWARF index" && said empty "indexed its DWARF"'
head -c "$size" /dev/urandom >"$f"
resolved garbage "$BIN"
check dwarf_index_garbage "a file of random bytes was used" \
	eval 'same garbage && said garbage "not using the DWARF index"'

# --- untrusted places ---------------------------------------------------------

"$BPFPROBE" resolve "$(SEC_OF "$BIN")" >/dev/null 2>&1	# a good index in $IDX
# the cache directory writable by its group
mkdir -p "$tmp/g/bpfprobe" && chmod 775 "$tmp/g/bpfprobe"
XDG_CACHE_HOME=$tmp/g resolved groupw "$BIN"
check dwarf_index_group_writable_dir "a group-writable cache directory was used" \
	eval 'same groupw && said groupw "not stored: the cache directory cannot be trusted: $tmp/g/bpfprobe is writable by its group" && [ -z "$(ls -A "$tmp/g/bpfprobe")" ]'
# a symlink to a directory holding a valid index
mkdir "$tmp/l" && ln -s "$XDG_CACHE_HOME/bpfprobe" "$tmp/l/bpfprobe"
XDG_CACHE_HOME=$tmp/l resolved symlinked "$BIN"
check dwarf_index_symlinked_dir "a symlinked cache directory was used" \
	eval 'same symlinked && said symlinked "$tmp/l/bpfprobe is a symbolic link" && ! said symlinked ": using the DWARF index"'
# another user's
mkdir -p "$tmp/o/bpfprobe/dwarf-index" && cp "$f" "$tmp/o/bpfprobe/dwarf-index/" 2>/dev/null
cp -p "$(ls -t "$IDX"/*.idx | head -1)" "$tmp/o/bpfprobe/dwarf-index/"
chown -R 65534 "$tmp/o/bpfprobe"
XDG_CACHE_HOME=$tmp/o resolved others "$BIN"
check dwarf_index_other_users_dir "another user's cache directory was used" \
	eval 'same others && said others "is owned by uid 65534, not by uid $(id -u)" && ! said others ": using the DWARF index"'
# dwarf-index itself a symlink
mkdir -p "$tmp/s/bpfprobe" && chmod 700 "$tmp/s/bpfprobe" && ln -s "$IDX" "$tmp/s/bpfprobe/dwarf-index"
XDG_CACHE_HOME=$tmp/s resolved subsym "$BIN"
check dwarf_index_symlinked_subdir "a symlinked dwarf-index directory was used" \
	eval 'same subsym && said subsym "dwarf-index: a symbolic link" && ! said subsym ": using the DWARF index"'
# files: another user's, a symlink to a good one
good=$(ls -t "$IDX"/*.idx | head -1)
mkdir -p "$tmp/f/bpfprobe/dwarf-index" && chmod -R 700 "$tmp/f/bpfprobe"
cp -p "$good" "$tmp/f/bpfprobe/dwarf-index/" && chown 65534 "$tmp/f/bpfprobe/dwarf-index/$(basename "$good")"
XDG_CACHE_HOME=$tmp/f resolved otherfile "$BIN"
check dwarf_index_other_users_file "another user's index file was used" \
	eval 'same otherfile && said otherfile "not a file only uid $(id -u) may write" && ! said otherfile ": using the DWARF index"'
rm -rf "$tmp/f/bpfprobe/dwarf-index" && mkdir -m 700 "$tmp/f/bpfprobe/dwarf-index"
ln -s "$good" "$tmp/f/bpfprobe/dwarf-index/$(basename "$good")"
XDG_CACHE_HOME=$tmp/f resolved linkfile "$BIN"
check dwarf_index_symlinked_file "an index file that is a symlink was followed" \
	eval 'same linkfile && said linkfile "a symbolic link" && ! said linkfile ": using the DWARF index"'

# --- the same points, objects of the suite --------------------------------------

command -v jq >/dev/null || { fail dwarf_index_same_json "jq is missing (make deps installs it)"; exit 0; }
for v in $VARIANTS; do
	for o in build/bpf/args__basic-$v.o build/bpf/points__*-$v.o; do
		[ -e "$o" ] || continue
		n=$(basename "$o" .o)
		"$BPFPROBE" resolve --json --no-cache "$o" >"$tmp/$n.ref.json" 2>&1
		"$BPFPROBE" resolve --json "$o" >"$tmp/$n.cold.json" 2>&1
		"$BPFPROBE" resolve --json "$o" >"$tmp/$n.warm.json" 2>&1
		if cmp -s "$tmp/$n.ref.json" "$tmp/$n.cold.json" && cmp -s "$tmp/$n.ref.json" "$tmp/$n.warm.json"; then
			pass "dwarf_index_same_json_$n"
		else
			fail "dwarf_index_same_json_$n" "$(diff "$tmp/$n.ref.json" "$tmp/$n.cold.json" | head -20; diff "$tmp/$n.ref.json" "$tmp/$n.warm.json" | head -20)"
		fi
	done
done
