# Both forms of the prologue on this kernel (issue 15): with BPF cpu v4's
# sign-extending loads and moves where the kernel accepts them (asked once,
# said at -v), and the older form (BPFPROBE_CPU_V4=0), which extends with
# shifts as on kernels before 6.6. Each loads the args, argx and
# hand-written-DWARF programs on their targets in every build variant and
# compares every fetched value with the truth the target prints: negative
# values of every width in registers (s8, s16, s32, s64), on the stack (a
# 7th and 8th argument), in memory, bitfields and struct members held in
# registers. The listings must be of their form: cpu v4's instructions in
# one, none in the other, and the v4 prologue of `neg_args(int, long,
# short)` shorter. A bad BPFPROBE_CPU_V4 is refused.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip prologue_forms "$why"
	exit 0
fi
T=build/targets
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# same NAME OUT RC WHAT...: the GOT lines of the WHATs are their TRUTH
# lines (sorted; a GOT line may carry the printk prefix), and each WHAT has
# some
same() {
	local name=$1 out=$2 rc=$3 whats got truth w none=
	shift 3
	whats=$(tr ' ' '|' <<<"$*")
	got=$(sed -n -E 's/^([0-9]+\.[0-9]{6} .+ [0-9]+ [0-9]+: )?GOT //p' <<<"$out" |
		grep -E "^($whats) " | sort)
	truth=$(sed -n 's/^TRUTH //p' <<<"$out" | grep -E "^($whats) " | sort)
	for w in "$@"; do
		grep -q "^$w " <<<"$truth" || none+=" $w"
	done
	if [ "$rc" -ne 0 ]; then
		fail "$name" "exit $rc: $(grep -v '^TRUTH' <<<"$out" | tail -4)"
	elif [ -n "$none" ] || [ "$got" != "$truth" ]; then
		fail "$name" "no TRUTH for:${none:- -}; $(diff <(echo "$truth") <(echo "$got") | tr '\n' ' ')"
	else
		pass "$name"
	fi
}

# the prologue instructions of load -v's listing, "INSTANCE: INSN" lines
prologues() {
	awk -v q="'" '
		/^instance .* prologue \(/ { split($0, a, q); n = a[2]; next }
		/^instance .* guard \(/ { n = ""; next }
		n != "" && /^ *[0-9]+: / { sub(/^ *[0-9]+: /, ""); print n ": " $0; next }
		{ n = "" }'
}
# cpu v4's instructions: sign-extending loads and moves
v4_insns() {
	grep -E '= \*\(s(8|16|32) \*\)|= \(s(8|16|32)\)r'
}
# the length of instance $2's prologue in listing $1
prologue_len() {
	sed -n "s/^instance '$2' prologue (\([0-9]*\) insns):$/\1/p" <<<"$1" | head -1
}

# run FORM NAME OBJ TARGET WHAT...: load -v OBJ on TARGET in FORM (v4:
# what the kernel takes, old: BPFPROBE_CPU_V4=0), values against the truth;
# the listing is kept in $tmp/FORM-NAME
run() {
	local form=$1 name=$2 obj=$3 target=$4 out rc env=
	shift 4
	[ "$form" = old ] && env=0
	out=$(BPFPROBE_CPU_V4=$env timeout 60 "$BPFPROBE" load -v --quiet-meta "$obj" -- "$target" 2 2>&1)
	rc=$?
	echo "$out" >"$tmp/$form-$name"
	same "prologue_forms_${form}_$name" "$out" $rc "$@"
}

for form in v4 old; do
	for v in $VARIANTS; do
		run $form "args_$v" build/bpf/args__basic-$v.o $T/args-$v neg_args cast \
			small_cast uns_args small_signed handle_req handle_req2 many_args ret_neg twin
		run $form "argx_$v" build/bpf/argx__all-$v.o $T/argx-$v params3 params2 params0 \
			by_pair by_pt by_mix by_bf ptr_bf ptr_bf64 fpa_mem cprop
	done
	for v in gcc-O2 clang-O0; do
		run $form "argx_dw_$v" build/bpf/argx_dw__all-$v.o $T/argx_dw-$v dw_entry dw_chain \
			dw_pieces dw_mixed dw_consts dw_consts2 dw_consts3 dw_global dw_float dw_shr dw_shr2
	done
done

# what load -v says the kernel answered
v4_said=$(grep -o 'cpu v4 instructions ([^)]*): [a-z ]*' "$tmp/v4-args_gcc-O2" | head -1)
case $v4_said in
*"accepted by this kernel"*) kernel_v4=1 ;;
*"refused by this kernel"*) kernel_v4=0 ;;
*)
	fail prologue_forms_probe "-v does not say whether the kernel accepts cpu v4: '$v4_said'"
	kernel_v4=0
	;;
esac

# each listing is of its form
old_v4=$(cat "$tmp"/old-* | prologues | v4_insns)
if [ -z "$old_v4" ] && grep -q "cpu v4 instructions.*: not used (BPFPROBE_CPU_V4=0)" "$tmp/old-args_gcc-O2"; then
	pass prologue_forms_old_has_no_v4
else
	fail prologue_forms_old_has_no_v4 "$(head -5 <<<"$old_v4")"
fi
# BPFPROBE_CPU_V4 takes 0 or nothing
out=$(BPFPROBE_CPU_V4=yes timeout 60 "$BPFPROBE" load build/bpf/args__basic-gcc-O2.o -- /bin/true 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "BPFPROBE_CPU_V4=yes: the one value understood is 0" <<<"$out" && nothing_loaded neg; then
	pass prologue_forms_bad_env
else
	fail prologue_forms_bad_env "exit $rc: $out"
fi

if [ "$kernel_v4" != 1 ]; then
	skip prologue_forms_v4_listing "this kernel refuses cpu v4's instructions (Linux 6.6+): $v4_said"
	exit 0
fi
# a's int and c's short in registers, a8's int on the stack, u_s's short
# and arr[2]'s int in memory: each one sign-extending load
listing=$(cat "$tmp"/v4-args_* | prologues | sort -u)
missing=
for want in "neg: r3 = *(s32 *)(r1 +112)" "neg: r5 = *(s16 *)(r1 +96)" \
	"many: r4 = *(s32 *)(r10 -8)" "req2: r8 = *(s16 *)(r10 -8)" "small: r3 = *(s8 *)(r1 +112)"; do
	grep -qxF "$want" <<<"$listing" || missing+=" [$want]"
done
if [ -z "$missing" ]; then
	pass prologue_forms_v4_listing
else
	fail prologue_forms_v4_listing "missing:$missing"
fi
# int a, long b, short c: a load each and r2 = 0 (perf's 4), two shifts more
# for each signed one without
n_v4=$(prologue_len "$(cat "$tmp/v4-args_gcc-O2")" neg)
n_old=$(prologue_len "$(cat "$tmp/old-args_gcc-O2")" neg)
if [ -n "$n_v4" ] && [ -n "$n_old" ] && [ "$n_v4" -eq 4 ] && [ "$n_old" -eq 8 ]; then
	pass prologue_forms_three_regs_length
else
	fail prologue_forms_three_regs_length "neg_args a b c: $n_v4 insns with cpu v4, $n_old without; want 4 and 8"
fi
