# The unit window (probes/binary/unit_window.h): with a warm DWARF index, a
# function in a later unit is read without libdw's walk over the unit
# headers before it (said at -vv), and everything resolve prints is what
# `resolve --no-cache` prints; values fetched through it are the program's
# own. A second probe in an earlier unit is read as before. It is not used
# where something may refer into the units it hides: type units
# (-fdebug-types-section), LTO's cross-unit references; and it reads a
# separate debug file when the DWARF is there.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/cache_helpers.sh

cache_setup
WINDOW="on without the units before it"

# mk OUT [CFLAGS...]: three units; win_late (a struct's member through a
# pointer, an int, a long) in the last, win_early in the first
mk() {
	local out=$1
	shift
	mkdir -p "$tmp/src"
	cat >"$tmp/src/w.h" <<'EOF'
struct hdr { int len; int kind; };
struct req { struct hdr *hdr; long id; };
long win_early(long x, int y);
long win_mid(long x);
long win_late(struct req *r, int n, long v);
EOF
	cat >"$tmp/src/a.c" <<'EOF'
#include <stdio.h>
#include "w.h"
volatile long sink;
__attribute__((noipa)) long win_early(long x, int y) { sink = x; return x + y; }
int main(int argc, char **argv)
{
	struct hdr h = { .len = 40 + argc, .kind = 3 };
	struct req r = { .hdr = &h, .id = 9 };
	long v = 123456789012L * argc;

	printf("TRUTH len=%d n=%d v=%ld\n", h.len, 5 + argc, v);
	printf("TRUTH x=%ld y=%d\n", 700L + argc, 11);
	fflush(stdout);
	return (win_late(&r, 5 + argc, v) + win_early(700L + argc, 11) + win_mid(argc)) == 0;
}
EOF
	cat >"$tmp/src/b.c" <<'EOF'
#include "w.h"
extern volatile long sink;
struct unused_b { int a[4]; struct req *r; };
struct unused_b ub;
__attribute__((noipa)) long win_mid(long x) { sink = x; ub.a[1] = x; return x * 2; }
EOF
	cat >"$tmp/src/c.c" <<'EOF'
#include "w.h"
extern volatile long sink;
__attribute__((noipa)) long win_late(struct req *r, int n, long v)
{
	sink = r->hdr->len + n;
	return v + r->id;
}
EOF
	gcc -O2 -g "$@" "$tmp/src/a.c" "$tmp/src/b.c" "$tmp/src/c.c" -o "$out.new" &&
		mv "$out.new" "$out"
}

LATE="func=win_late r->hdr->len n v"
EARLY="func=win_early x y"

# resolved NAME BIN SPEC: resolve -vv's output (warm: run twice) in
# $tmp/NAME.out, stderr in NAME.err, --no-cache's output in NAME.ref
resolved() {
	local name=$1 bin=$2 spec=$3
	"$BPFPROBE" resolve "exec=$bin;$spec" >/dev/null 2>&1
	# the resolution cache would answer without the window: this is about the window
	rm -rf "$XDG_CACHE_HOME/bpfprobe/resolutions"
	"$BPFPROBE" resolve -vv "exec=$bin;$spec" >"$tmp/$name.out" 2>"$tmp/$name.err"
	"$BPFPROBE" resolve --no-cache "exec=$bin;$spec" >"$tmp/$name.ref" 2>/dev/null
}
same() { [ -s "$tmp/$1.ref" ] && cmp -s "$tmp/$1.out" "$tmp/$1.ref"; }
why() { echo "$(diff "$tmp/$1.ref" "$tmp/$1.out" | head -20) $(grep -i -e window -e "unit" -e index "$tmp/$1.err" | head -5)"; }

BIN=$tmp/app
if ! mk "$BIN"; then
	fail unit_window_build "gcc failed"
	exit 0
fi

resolved late "$BIN" "$LATE"
if same late && said late "$WINDOW"; then
	pass unit_window_used
else
	fail unit_window_used "window not said, or not what --no-cache says: $(why late)"
fi

# both functions in one object: the later unit first (the window starts
# there), then the earlier one, read as before
cat >"$tmp/two.c" <<EOF
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$BIN;$LATE")
int late(void *ctx, int err, long len, long n, long v)
{
	bpf_printk("GOT len=%ld n=%ld v=%ld", len, n, v);
	return 0;
}
SEC("exec=$BIN;$EARLY")
int early(void *ctx, int err, long x, long y)
{
	bpf_printk("GOT x=%ld y=%ld", x, y);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOF
if clang $BPF_CFLAGS -c "$tmp/two.c" -o "$tmp/two.o"; then
	rm -rf "$XDG_CACHE_HOME/bpfprobe/resolutions"
	"$BPFPROBE" resolve -vv "$tmp/two.o" >"$tmp/two.out" 2>"$tmp/two.err"
	"$BPFPROBE" resolve --no-cache "$tmp/two.o" >"$tmp/two.ref" 2>/dev/null
	if same two && said two "$WINDOW" && grep -q "win_early" "$tmp/two.out"; then
		pass unit_window_earlier_unit_after
	else
		fail unit_window_earlier_unit_after "$(why two)"
	fi
	why=$(uprobe_unavailable)
	if [ -n "$why" ]; then
		skip unit_window_values "$why"
	else
		out=$(timeout 60 "$BPFPROBE" load --quiet-meta "$tmp/two.o" -- "$BIN" 2>&1)
		if d=$(compare_truth "$out"); then
			pass unit_window_values
		else
			fail unit_window_values "$d $(head -c 600 <<<"$out")"
		fi
	fi
else
	fail unit_window_earlier_unit_after "clang failed"
fi

# the DWARF in a separate file (found by .gnu_debuglink): the window
# reads that file
SPLIT=$tmp/split
cp "$BIN" "$SPLIT"
objcopy --only-keep-debug "$SPLIT" "$SPLIT.debug" &&
	objcopy --strip-debug --add-gnu-debuglink="$SPLIT.debug" "$SPLIT"
resolved split "$SPLIT" "$LATE"
if same split && said split "$WINDOW" && said split "debug info (DWARF) from $SPLIT.debug"; then
	pass unit_window_debug_file
else
	fail unit_window_debug_file "$(why split)"
fi

# where units may be referred to from others, the walk as before
for c in "types -gdwarf-4 -fdebug-types-section" "lto -flto -flto-partition=none"; do
	name=${c%% *}
	if ! mk "$tmp/$name" ${c#* }; then
		skip "unit_window_not_with_$name" "gcc cannot build with ${c#* }"
		continue
	fi
	resolved "$name" "$tmp/$name" "$LATE"
	if same "$name" && ! said "$name" "$WINDOW"; then
		pass "unit_window_not_with_$name"
	else
		fail "unit_window_not_with_$name" "$(why "$name")"
	fi
done
