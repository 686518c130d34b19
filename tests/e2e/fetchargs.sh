# perf's fetch arguments ($argN, %REG, +OFFS(FETCHARG), @SYM), by value:
# the fetch target (tests/targets/fetch) built with -g, without it (no
# DWARF) and stripped to its .dynsym, in every build variant, each fetched
# value compared with what the target prints; the same values as perf 6.1's
# perf probe on the build without -g; what resolve shows; bad input.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip fetchargs_e2e "$why"
	exit 0
fi

T=$PWD/build/targets
tmp=$(mktemp -d)
group=bpfptest$$
perf_events=
cleanup() {
	# exactly the events this test made, none of the others in tracefs
	[ -n "$perf_events" ] && HOME=$tmp perf probe -q -d "$group:*" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

load() {
	timeout 60 "$BPFPROBE" load "$@" 2>&1
}

# what every build fetches, and what only DWARF types
shared="three regs ret eight node nodeargn castmem cast glob"
for v in $VARIANTS; do
	out=$(load "build/bpf/fetch__all-$v.o" -- "$T/fetch-$v" 2)
	check_whats "fetchargs_dwarf_$v" "$out" $? $shared typed typed8
	out=$(load "build/bpf/fetch_nd__all-$v.o" -- "$T/fetch_nd-$v" 2)
	check_whats "fetchargs_no_dwarf_$v" "$out" $? $shared
	out=$(load "build/bpf/fetch_st__all-$v.o" -- "$T/fetch_st-$v" 2)
	check_whats "fetchargs_stripped_$v" "$out" $? $shared
done

# --- what resolve shows ---------------------------------------------------------
# expect_resolve NAME SEC WANT...: resolve SEC succeeds, its output holds every WANT
expect_resolve() {
	local name=$1 sec=$2 out w
	shift 2
	out=$("$BPFPROBE" resolve "$sec" 2>&1)
	if [ $? -ne 0 ]; then
		fail "$name" "exit non-zero: $out"
		return
	fi
	for w in "$@"; do
		if ! grep -qF -- "$w" <<<"$out"; then
			fail "$name" "output lacks '$w': $out"
			return
		fi
	done
	pass "$name"
}

N=$T/fetch_nd-gcc-O2
D=$T/fetch-gcc-O2
expect_resolve fetchargs_resolve_no_dwarf "exec=$N;func=fa_node %di +8(%di) \$arg2" \
	"arg1 %di: u64, at reg rdi: u64 %rdi" \
	"arg2 +8(%di): u64, at +8(reg rdi): u64 *(u64 *)(%rdi + 8) [user]" \
	"arg3 \$arg2: u64, at reg rsi (\$arg2): u64 %rsi"
expect_resolve fetchargs_resolve_dwarf "exec=$D;func=fa_eight \$arg2 \$arg8 +0(+8(%sp)):s16" \
	"arg1 \$arg2: int, at reg rsi (\$arg2, parameter 'a2'): s32 %rsi" \
	"arg2 \$arg8: int, at stack rsp+16 (\$arg8, parameter 'a8'): s32 *(u32 *)(%rsp + 16) [user]" \
	"arg3 +0(+8(%sp)): s16, at +0(+8(reg rsp)): s16 *(u16 *)(*(u64 *)(%rsp + 8)) [user]"
expect_resolve fetchargs_resolve_sym "exec=$N;func=fa_glob @fa_global @fa_gnode+8 +8(@fa_gptr)" \
	"arg1 @fa_global: u64, at symbol fa_global (0x" "[load bias: ip - 0x" \
	"arg2 @fa_gnode+8: u64, at symbol fa_gnode+8 (0x" \
	"arg3 +8(@fa_gptr): u64, at +8(symbol fa_gptr (0x"
expect_resolve fetchargs_resolve_regs "exec=$N;func=fa_cast%return %ax %flags %r15:s8" \
	"arg1 %ax: u64, at reg rax: u64 %rax" "arg2 %flags: u64, at reg rflags: u64 %rflags" \
	"arg3 %r15: s8, at reg r15: s8 %r15"
# a struct returned in memory takes rdi: $argN is then no parameter's
expect_resolve fetchargs_resolve_sret "exec=$D;func=fa_mkbig \$arg1 \$arg2 x" \
	"arg1 \$arg1: u64, at reg rdi (\$arg1): u64 %rdi" \
	"arg2 \$arg2: u64, at reg rsi (\$arg2): u64 %rsi" "arg3 x: long int"
# :string gives the string's address: where an array is, what a pointer holds
expect_resolve fetchargs_resolve_string "exec=$N;func=fa_node +32(%di):string +0(+48(%di)):string %di:ustring" \
	"arg1 +32(%di): string, at +32(reg rdi): u64 %rdi + 32" \
	"arg2 +0(+48(%di)): string, at +0(+48(reg rdi)): u64 *(u64 *)(%rdi + 48) [user]" \
	"arg3 %di: ustring, at reg rdi: u64 %rdi"
expect_resolve fetchargs_resolve_string_dwarf "exec=$D;func=fa_node n->name:string n->str:string" \
	"arg1 n->name: char[16], at reg rdi: u64 %rdi + 32" \
	"arg2 n->str: const char *, at reg rdi: u64 *(u64 *)(%rdi + 48) [user]"

# --- bad input: a message naming the culprit, non-zero, nothing loaded ---------
# bad NAME SEC-REST WANT...: a program at SEC "exec=SEC-REST" fails to load with
# every WANT in its message, and nothing of it stays loaded
bad() {
	local name=$1 rest=$2 out rc w
	shift 2
	mkobj "$tmp/$name.o" <<EOF
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$rest")
int $name(void *ctx, int err, long a) { return 0; }
char LICENSE[] SEC("license") = "GPL";
EOF
	out=$(load "$tmp/$name.o" -- /bin/true)
	rc=$?
	if [ $rc -eq 0 ]; then
		fail "$name" "loaded: $out"
		return
	fi
	for w in "$@"; do
		if ! grep -qF -- "$w" <<<"$out"; then
			fail "$name" "exit $rc, message lacks '$w': $out"
			return
		fi
	done
	if ! nothing_loaded "$name"; then
		fail "$name" "a program stayed loaded"
		return
	fi
	pass "$name"
}

S=$T/fetch_st-gcc-O2
bad fetch_bad_eax "$N;fa_three %eax" "unknown register '%eax'" "%ax" "%rdi"
bad fetch_bad_xmm "$N;fa_three %xmm0" "unknown register '%xmm0'"
bad fetch_bad_arg0 "$N;fa_three \$arg0" "'\$arg0'" "count from 1"
bad fetch_bad_argn_offset "$N;fa_three+4 \$arg2" "argument '\$arg2'" \
	"only right at a function's entry" "fa_three+0x4 is not one" "%REG"
bad fetch_bad_argn_offset_dwarf "$D;fa_three+4 \$arg2" "argument '\$arg2'" \
	"fa_three+0x4 is not one" "name the parameter ('b')"
bad fetch_bad_argn_return "$N;fa_three%return \$arg2" "argument '\$arg2'" \
	"the return of fa_three (%return) is not one"
bad fetch_bad_unterminated "$N;fa_three +8(" "'+8('" "ends inside '('"
bad fetch_bad_unclosed "$N;fa_three +8(%di" "'+8(%di'" "expected ')'"
bad fetch_bad_nosym "$S;fa_three @nosuchsym" "argument '@nosuchsym'" \
	"no symbol 'nosuchsym'" "has no debug info"
bad fetch_bad_var_no_dwarf "$N;fa_three a" "has no debug info (DWARF), needed to find argument 'a'" \
	"\$argN, %REG, +OFFS(...) and @SYM need none"
bad fetch_bad_chain_no_dwarf "$N;fa_node \$arg1->val" "argument '\$arg1->val'" "no debug info"
# -O0 code keeps n in a frame slot: the probe moves past the prologue, and
# $arg2 is not right there any more
bad fetch_bad_argn_moved "$T/fetch-gcc-O0;fa_node \$arg2 n" "argument '\$arg2'" \
	"past the prologue" "name the parameter ('k')"

# --- perf 6.1 on the same build: the same values ----------------------------------
# perf's spelling of the programs' arguments (it reads no $argN in uprobes
# here, and no @SYM without DWARF): "EVENT=POINT ARGS" per line
perf_specs="three=fa_three %di %si %dx
eight=fa_eight %r9 +8(%sp) +16(%sp):s32
node=fa_node +8(%di) +0(+16(%di)) -8(+24(%di))
castmem=fa_node +8(%di):u8 +8(%di):s16 +8(%di):x32
cast=fa_cast %di:u8 %di:s32 %di:x64
ret=fa_three%return %ax %ax"

# "WHAT v1 v2 ..." with every value as a signed 64-bit decimal, from lines
# "WHAT k=v ..." (perf's "arg1=0x7d0", the target's "a=2000"); bash's
# arithmetic wraps as the machine does
normalize() {
	local what rest kv line
	while read -r what rest; do
		line=$what
		for kv in $rest; do
			line+=" $(( ${kv#*=} ))"
		done
		echo "$line"
	done | sort
}

# perf script (libtraceevent) prints an s8/s16 field as unsigned: the same
# bits, sign-extended here from the width perf_specs gives each argument
perf_signed() {
	local what rest kv v i bits line types
	while read -r what rest; do
		types=$(sed -n "s/^$what=[^ ]* //p" <<<"$perf_specs")
		line=$what
		i=0
		for kv in $rest; do
			i=$((i + 1))
			v=$(( ${kv#*=} ))
			bits=$(awk -v i=$i '{ t = $i; sub(/.*:s/, "", t); print (t ~ /^(8|16)$/) ? t : 0 }' <<<"$types")
			[ "$bits" -gt 0 ] && v=$(( (v << (64 - bits)) >> (64 - bits) ))
			line+=" a$i=$v"
		done
		echo "$line"
	done
}

perf_compare() {
	local bin=$N spec out got truth ours events
	if ! command -v perf >/dev/null; then
		skip fetchargs_perf "no perf (make deps installs linux-perf)"
		return
	fi
	grep -q ' /sys/kernel/tracing tracefs' /proc/mounts ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	# perf keeps a build-id cache in $HOME/.debug: this test's own
	while read -r spec; do
		perf_events=yes
		if ! out=$(HOME=$tmp timeout 60 perf probe -q -x "$bin" -a "$group:$spec" 2>&1); then
			fail fetchargs_perf "perf probe -a '$spec': $out"
			return
		fi
	done <<<"$perf_specs"
	events=$(sed 's/=.*//' <<<"$perf_specs" | tr '\n' ' ')
	if ! out=$(HOME=$tmp timeout 60 perf record -q -N -B -o "$tmp/perf.data" -e "$group:*" \
		   -- "$bin" 2 2>&1); then
		fail fetchargs_perf "perf record: $out"
		return
	fi
	truth=$(sed -n 's/^TRUTH //p' <<<"$out" |
		awk -v e=" $events" 'index(e, " " $1 " ")' | normalize)
	got=$(HOME=$tmp perf script -i "$tmp/perf.data" -F event,trace 2>/dev/null |
	      sed -n "s/^ *$group:\([a-z0-9]*\)\(__return\)\{0,1\}: ([^)]*) /\1 /p" |
	      perf_signed | normalize)

	if [ -n "$got" ] && [ "$got" = "$truth" ]; then
		pass fetchargs_perf_vs_truth
	else
		fail fetchargs_perf_vs_truth "perf: $(tr '\n' ';' <<<"$got") truth: $(tr '\n' ';' <<<"$truth")"
	fi
	ours=$(load "build/bpf/fetch_nd__all-gcc-O2.o" -- "$bin" 2 |
	       sed -n -E 's/^([0-9]+\.[0-9]{6} .+ [0-9]+ [0-9]+: )?GOT //p' |
	       awk -v e=" $events" 'index(e, " " $1 " ")' | normalize)
	if [ -n "$ours" ] && [ "$ours" = "$got" ]; then
		pass fetchargs_perf_vs_bpfprobe
	else
		fail fetchargs_perf_vs_bpfprobe "perf: $(tr '\n' ';' <<<"$got") bpfprobe: $(tr '\n' ';' <<<"$ours")"
	fi
}
perf_compare
