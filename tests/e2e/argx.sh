# Arguments beyond plain parameters (issue 3), by value: loads the argx*
# BPF objects on their targets in every build variant (gcc/clang, -O0/-O2,
# PIE and not, a shared library, hand-written DWARF) and compares each
# fetched value with the truth the target prints. Members some builds only
# describe later in the function are fetched at the offset the error
# message names; values that exist nowhere must fail with a clear message.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip argx_e2e "$why"
	exit 0
fi

T=$PWD/build/targets
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

load() {
	timeout 60 "$BPFPROBE" load "$@" 2>&1
}

# start NAME ARGS...: bpfprobe load ARGS, into $tmp/NAME.* (one at a time:
# attaching and detaching uprobes serializes in the kernel anyway)
start() {
	local name=$1
	shift
	load "$@" >"$tmp/$name.out"
	echo $? >"$tmp/$name.rc"
}
# finish NAME WHAT...: checks what start NAME got
finish() {
	local name=$1
	shift
	check_whats "$name" "$(cat "$tmp/$name.out")" "$(cat "$tmp/$name.rc")" "$@"
}

# --- the argx target: PIE and not ------------------------------------------
for v in $VARIANTS; do
	start "argx_$v" build/bpf/argx__all-$v.o -- "$T/argx-$v" 2
	finish "argx_$v" params3 params2 params0 by_pair by_pt by_mix by_bf ptr_bf \
		ptr_bf64 fpa_mem cprop
done
# globals move with the load bias: PIE (where it is not 0) and not
for v in $VARIANTS; do
	for pie in "" -nopie; do
		start "argx_globals_$v$pie" build/bpf/argx__globals-$v$pie.o -- "$T/argx-$v$pie" 2
		finish "argx_globals_$v$pie" globals globals_ret globals2 globals3 other
	done
done

# --- a shared library -------------------------------------------------------
for v in $VARIANTS; do
	start "argx_lib_$v" build/bpf/argx_lib__globals-$v.o -- "$T/argx_lib-$v" 2
done
for v in $VARIANTS; do
	finish "argx_lib_$v" lib lib_obj lib_ret
done

# a static of libc itself, with Debian's libc6-dbg (make deps installs it)
if dpkg -s libc6-dbg >/dev/null 2>&1; then
	start argx_libc build/bpf/argx_lib__libc-gcc-O2.o -- "$T/argx_lib-gcc-O2" 2
	finish argx_libc libc_malloc libc_malloc_ret
else
	fail argx_libc "libc6-dbg is not installed (make deps installs it)"
fi

# --- hand-written DWARF (the same in every build but main.c's) --------------
dw_variants="gcc-O2 clang-O0"
for v in $dw_variants; do
	start "argx_dw_$v" build/bpf/argx_dw__all-$v.o -- "$T/argx_dw-$v" 2
done
for v in $dw_variants; do
	finish "argx_dw_$v" dw_entry dw_chain dw_pieces dw_mixed dw_consts dw_consts2 \
		dw_consts3 dw_global dw_float dw_shr dw_shr2 dw_uninit4 dw_uninit4b \
		dw_uninit dw_uninit_k dw_uninit2 dw_uninit2_k
done

# --- where a build describes a value only later ------------------------------
# follow VARIANT WHAT FUNC ARGS FMT...: resolves FUNC ARGS; where it cannot be
# read at the entry, the error must name where it can ("(FUNC+0xN..."), and
# the program goes there. Adds the program to $progs.
follow() {
	local v=$1 what=$2 func=$3 args=$4 fmt=$5 msg off point
	msg=$("$BPFPROBE" resolve "exec=$T/argx-$v;$func $args" 2>&1 >/dev/null)
	if [ $? -eq 0 ]; then
		point=$func
	else
		off=$(sed -n "s/.*available at [^(]*($func+\(0x[0-9a-f]*\).*/\1/p" <<<"$msg")
		if [ -z "$off" ]; then
			fail "argx_follow_${what}_$v" "no place named in: $msg"
			return
		fi
		point=$func+$off
		followed+=" $what@$off"
	fi
	progs+="
SEC(\"exec=$T/argx-$v;$what=$point $args\")
int $what(void *ctx, int err, long a)
{
	REPORT(err, \"$what\", \"$fmt\", a);
	return 0;
}"
}

for v in $VARIANTS; do
	progs="" followed=""
	follow "$v" by_pt_y by_pt p.y "y=%ld"
	follow "$v" by_mix_b by_mix m.b "b=%ld"
	follow "$v" by_mix_c by_mix m.c "c=%ld"
	follow "$v" by_bf64_e by_bf64 b.e "e=%ld"
	follow "$v" by_bf64_f by_bf64 b.f "f=%ld"
	follow "$v" by_bf64_g by_bf64 b.g "g=%ld"
	printf '#include "argx_report.h"\n%s\nchar LICENSE[] SEC("license") = "GPL";\n' \
		"$progs" | clang $BPF_CFLAGS -Itests/bpf -x c -c - \
		-o "$tmp/follow-$v.o" || { fail "argx_follow_$v" "cannot build"; continue; }
	echo -n "$followed" >"$tmp/follow-$v.where"
	start "argx_follow_$v" "$tmp/follow-$v.o" -- "$T/argx-$v" 1
done
for v in $VARIANTS; do
	[ -f "$tmp/follow-$v.where" ] || continue
	finish "argx_follow_$v" by_pt_y by_mix_b by_mix_c by_bf64_e by_bf64_f by_bf64_g
	[ -s "$tmp/follow-$v.where" ] && echo "  argx_follow_$v: fetched at$(cat "$tmp/follow-$v.where")"
done

# floating-point parameters: their bits in memory at -O0, a clear error
# naming the register and where (nowhere) they are readable at -O2
for v in $VARIANTS; do
	case $v in
	*-O0)
		mkobj "$tmp/fpa-$v.o" <<EOF
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$T/argx-$v;fr=fpa d f")
int fr(void *ctx, int err, unsigned long d, unsigned long f)
{
	bpf_printk("GOT fpa_regs d=0x%lx f=0x%lx", d, f);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOF
		out=$(load "$tmp/fpa-$v.o" -- "$T/argx-$v" 1)
		check_whats "argx_float_args_$v" "$out" $? fpa_regs
		;;
	*)
		msg=$("$BPFPROBE" resolve "exec=$T/argx-$v;fpa d" 2>&1 >/dev/null)
		if grep -q "argument 'd': in floating-point register xmm0 at 0x[0-9a-f]* (fpa+0x0).*readable nowhere in fpa" <<<"$msg"; then
			pass "argx_float_args_$v"
		else
			fail "argx_float_args_$v" "unexpected: $msg"
		fi
		;;
	esac
done

# --- errors -------------------------------------------------------------------
# expect_err NAME SEC-REST WANT...: resolving fails, one line holding every WANT
expect_err() {
	local name=$1 rest=$2 msg w
	shift 2
	msg=$("$BPFPROBE" resolve "exec=$rest" 2>&1 >/dev/null)
	if [ $? -eq 0 ]; then
		fail "$name" "resolved"
		return
	fi
	for w in "$@"; do
		if ! grep -qF -- "$w" <<<"$msg"; then
			fail "$name" "message lacks '$w': $msg"
			return
		fi
	done
	pass "$name"
}

A=$T/argx-gcc-O2
D=$T/argx_dw-gcc-O2
expect_err argx_err_params_limit "$A;four \$params" "four" "\$params expands to 4 parameters (a, b, c, d)" "at most 3"
expect_err argx_err_params_plus "$A;three \$params @g_counter" "4 arguments in all" "at most 3"
expect_err argx_err_params_return "$A;three%return \$params" "\$params" "FUNC%return"
expect_err argx_err_return_param "$A;use_globals%return n" "argument 'n'" "only fetch \$retval and variables at fixed addresses"
expect_err argx_err_no_global "$A;three @nosuch" "argument '@nosuch'" "no global or static variable 'nosuch'"
expect_err argx_err_string "$A;three a:string" "argument 'a:string'" "'a' is not a string" "pointer to char or a char array" "(type int)"
expect_err argx_err_ustring "$A;three a:ustring" "argument 'a:ustring'" "'a' is not a string"
expect_err argx_err_entry_value "$D;dw_entry+1 a" "argument 'a'" "no call frame information (CFI) at"
expect_err argx_err_no_location "$D;dw_entry gone" "argument 'gone'" "optimized out at" "no location" "readable nowhere in dw_entry"
expect_err argx_err_missing_piece "$D;dw_pieces s.c" "argument 's.c'" "optimized out at" "bytes 8..15" "DW_OP_piece"
expect_err argx_err_xmm_spilled "$D;dw_float d2" "argument 'd2'" "floating-point register xmm0" "available at" "(dw_float+0x6..+0xb)"
expect_err argx_err_tls "$D;dw_global tls" "argument 'tls'" "thread-local"

# vars: values DWARF marks uninitialized (DW_OP_GNU_uninit) are fetchable,
# and their location says so (y of dw_uninit4; x, k and w of dw_uninit)
out=$("$BPFPROBE" vars --json "$D" 'dw_uninit*' 2>&1)
got=$(jq -r '[.points[].vars[] | select(.class == "fetchable")
	| select(.location | contains("(uninitialized: DW_OP_GNU_uninit)")) | .name]
	| sort | join(" ")' <<<"$out" 2>&1)
if [ "$got" = "k w x y" ]; then
	pass argx_vars_uninit
else
	fail argx_vars_uninit "got '$got': $(cut -c1-400 <<<"$out")"
fi

# a $params past the limit is refused at load too: non-zero, nothing left loaded
mkobj "$tmp/four.o" <<EOF
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$A;four_params=four \$params")
int four_params(void *ctx, int err) { return 0; }
char LICENSE[] SEC("license") = "GPL";
EOF
out=$(load "$tmp/four.o" -- /bin/true)
rc=$?
if [ $rc -ne 0 ] && grep -q "at most 3" <<<"$out" && nothing_loaded four_params; then
	pass argx_load_params_limit
else
	fail argx_load_params_limit "exit $rc: $out"
fi
