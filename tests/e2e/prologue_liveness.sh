# The prologue sets only the registers the program body reads before
# writing them (prologue/liveness.c), also for objects without BTF (built
# without -g, as perf needs them), where nothing else says what a program
# reads: a body that reads r4 with no argument fetched still loads (r4 is
# zeroed, else the verifier refuses "R4 !read_ok") and sees 0; a body that
# reads nothing gets no prologue; one register argument costs its load and
# r2 = 0; an argument bpf_printk passes on in its register is still set.
# Checked with load -v's listing, the values the programs print, and
# resolve's listing, which must be load's.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip prologue_liveness "$why"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
T=$(realpath build/targets/args-gcc-O2)

# neg_args(-5, -1234567890123L, -7) and handle_req(req) with req->hdr->len
# 1500 (tests/targets/args/main.c)
cat >"$tmp/live.bpf.c" <<'EOF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* All three values passed, so the call itself reads no register the body
 * did not write (bpf_printk passes only what it is given, and the helper
 * reads all five argument registers). */
#define PRINT(fmt, a, b, c) ({						\
	static const char f_[] = fmt;					\
	bpf_trace_printk(f_, sizeof(f_), a, b, c);			\
})

/* no argument, but the body reads its fourth parameter: r4 (with BTF the
 * loader refuses the prototype: nothing fills b) */
#ifndef WITH_BTF
SEC("exec=" TARGET ";only_r4=neg_args")
int only_r4(void *ctx, int err, long a, long b)
{
	PRINT("GOT only_r4 b=%ld", b, 0, 0);
	return 0;
}
#endif

/* reads none of r1..r5 */
SEC("exec=" TARGET ";nothing=neg_args")
int nothing(void *ctx)
{
	PRINT("GOT nothing", 0, 0, 0);
	return 0;
}

/* err and one register argument (b, a long in rsi) */
SEC("exec=" TARGET ";one_reg=neg_args b")
int one_reg(void *ctx, int err, long b)
{
	PRINT("GOT one_reg err=%d b=%ld", err, b, 0);
	return 0;
}

/* bpf_printk passes b, already in r3, without a move: the helper reads
 * r3..r5 although the verifier checks only r1 and r2 */
SEC("exec=" TARGET ";in_place=neg_args b")
int in_place(void *ctx, int err, long b)
{
	bpf_printk("GOT in_place b=%ld", b);
	return 0;
}

/* two user reads: fetched and checked (r2), but no ctx for the body */
SEC("exec=" TARGET ";deref=handle_req req->hdr->len")
int deref(void *ctx, int err, long len)
{
	PRINT("GOT deref err=%d len=%ld", err, len, 0);
	return 0;
}

/* with BTF too: declared a, b and c, but reads only c (r5, a short in rdx) */
#ifdef WITH_BTF
SEC("exec=" TARGET ";only_c=neg_args a b c")
int only_c(void *ctx, int err, long a, long b, long c)
{
	PRINT("GOT only_c c=%ld", c, 0, 0);
	return 0;
}
#endif

char LICENSE[] SEC("license") = "GPL";
EOF
nog_cflags=${BPF_CFLAGS/ -g/}
if ! clang $nog_cflags -DTARGET="\"$T\"" -c "$tmp/live.bpf.c" -o "$tmp/nog.o" ||
   ! clang $BPF_CFLAGS -DWITH_BTF -DTARGET="\"$T\"" -c "$tmp/live.bpf.c" -o "$tmp/btf.o"; then
	fail prologue_liveness_build "clang failed"
	exit 0
fi
if readelf -S "$tmp/nog.o" | grep -q '\.BTF'; then
	fail prologue_liveness_build "the object built without -g has BTF"
fi

# "NAME IDX: INSN" for each prologue instruction of load -v or resolve
prologue_lines() {
	awk -v q="'" '
		/^instance .* prologue \(/ || /^  instance [0-9]+ .*, used by/ {
			split($0, a, q); n = a[2]; next }
		n != "" && /^ *[0-9]+: / { sub(/^ */, ""); print n " " $0; next }
		{ n = "" }'
}
# the prologue of instance $2 in listing $1, one instruction a line
prologue_of() {
	prologue_lines <<<"$1" | sed -n "s/^$2 [0-9]*: //p"
}
# the value lines of load's output, without the printk prefix
got() {
	sed -n 's/^.*: \(GOT .*\)$/\1/p' <<<"$1" | sort
}

out=$(timeout 60 "$BPFPROBE" load -v "$tmp/nog.o" -- "$T" 1 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
	fail prologue_liveness_load "exit $rc: $(tail -15 <<<"$out")"
	exit 0
fi
values=$(got "$out")

check() {	# check NAME HEADER_COUNT WANT_PROLOGUE WANT_GOT
	local p
	p=$(prologue_of "$out" "$2")
	if grep -q "^instance '$2' prologue ($3 insns):$" <<<"$out" && [ "$p" = "$4" ] &&
	   grep -qxF "$5" <<<"$values"; then
		pass "$1"
	else
		fail "$1" "prologue ($(grep "^instance '$2'" <<<"$out")):
$p
values: $values"
	fi
}
check prologue_liveness_only_r4 only_r4 1 "r4 = 0" "GOT only_r4 b=0"
check prologue_liveness_nothing nothing 0 "" "GOT nothing"
check prologue_liveness_one_reg one_reg 2 "r3 = *(u64 *)(r1 +104)
r2 = 0" "GOT one_reg err=0 b=-1234567890123"
check prologue_liveness_printk_in_place in_place 3 "r3 = *(u64 *)(r1 +104)
r4 = 0
r5 = 0" "GOT in_place b=-1234567890123"

# the slow shape keeps its fetches and r2, drops r1's restore and r4/r5
p=$(prologue_of "$out" deref)
if [ -n "$p" ] && [ "$(grep -c 'call bpf_probe_read_user' <<<"$p")" -eq 2 ] &&
   grep -qx "r2 = 0" <<<"$p" && grep -qx "r2 = 1" <<<"$p" &&
   ! grep -q "^r1 = r6\|^r4 = \|^r5 = " <<<"$p" && [ "$(tail -1 <<<"$p")" = "r3 = 0" ] &&
   grep -qxF "GOT deref err=0 len=1500" <<<"$values"; then
	pass prologue_liveness_slow_shape
else
	fail prologue_liveness_slow_shape "$p
values: $values"
fi

# resolve shows what load generated
lins=$(prologue_lines <<<"$out" | sort)
rins=$("$BPFPROBE" resolve "$tmp/nog.o" 2>&1 | prologue_lines | sort)
if [ -n "$lins" ] && [ "$lins" = "$rins" ]; then
	pass prologue_liveness_resolve_matches_load
else
	fail prologue_liveness_resolve_matches_load "$(diff <(echo "$lins") <(echo "$rins") | head -10)"
fi

# with BTF, the prototype and the body must both read a register
out=$(timeout 60 "$BPFPROBE" load -v "$tmp/btf.o" -- "$T" 1 2>&1)
rc=$?
values=$(got "$out")
if [ $rc -ne 0 ]; then
	fail prologue_liveness_btf "exit $rc: $(tail -15 <<<"$out")"
else
	# c, a short: one sign-extending load where the kernel has cpu v4
	if grep -q "cpu v4 instructions.*: accepted by this kernel" <<<"$out"; then
		check prologue_liveness_btf_only_c only_c 1 "r5 = *(s16 *)(r1 +96)" "GOT only_c c=-7"
	else
		check prologue_liveness_btf_only_c only_c 3 "r5 = *(u64 *)(r1 +96)
r5 <<= 48
r5 s>>= 48" "GOT only_c c=-7"
	fi
	check prologue_liveness_btf_one_reg one_reg 2 "r3 = *(u64 *)(r1 +104)
r2 = 0" "GOT one_reg err=0 b=-1234567890123"
fi
