# Stacks taken by frame pointers ($ustack with ustack=fp|auto|dwarf;
# util/cfi_fp.c, probes/ustack_way.c, unwind/uw_fpwalk.c): against gdb's
# `bt` at a breakpoint on the same instruction (tests/e2e/gdb_frames.py),
# first hit against first hit.
# - fpstack-CC-O2-fp (-O2 keeping frame pointers, inlined frames, a
#   frameless leaf): with ustack=fp the frames from leaf to main equal
#   gdb's, and the stack then stops in libc's __libc_start_call_main with
#   "keeps no frame pointer"; with ustack=dwarf they equal gdb's too, and
#   go on past main; ustack=auto resolves to the copy, resolve saying libc
#   keeps no frame pointers.
#   At the entry of a recursive function too, where [rsp] and the walk's
#   first address from rbp are the same return address.
# - stacks-CC-O2-fp (through qsort): ustack=fp stops in libc's
#   msort_with_tmp, its frames up to there gdb's.
# - fpstack-freestanding-CC (no libc, its own _start): ustack=auto takes
#   frame pointers ("all 1 module keep them", as resolve and trace -v
#   say); the frames equal gdb's and ustack=dwarf's, and the stack ends at
#   _start as CFI ends it.
# - ustack=xyz is refused, naming the key and the values it takes.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip stacks_fp "$why"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# FUNC inline|- FILE LINE per frame of the first hit's ustack in JSON
# trace output (the N-th's: bp_frames FILE N), down to main
bp_frames() {
	jq -rn --argjson n "${2:-1}" '[limit($n; inputs | select(.args.ustack))] | .[$n - 1] |
		.args.ustack[] | select(.stopped | not) |
		"BPFRAME \(.func // "??") \(if .inline then "inline" else "-" end) \((.file // "?") | split("/") | last) \(.line // 0)"' "$1" 2>/dev/null |
		sed -n '1,/^BPFRAME main /p'
}

# the first hit's reason to stop, or "-" when its stack ended normally
bp_stopped() {
	jq -rn 'first(inputs | select(.args.ustack)) | [.args.ustack[] | select(.stopped) |
		.stopped] | .[0] // "-"' "$1" 2>/dev/null
}

# trace_stack OUT WAY TARGET: the first hits' stacks of leaf, JSON (and
# -v's lines in OUT.err)
trace_stack() {
	timeout 60 "$BPFPROBE" trace -v --json --stack "exec=$3;ustack=$2;leaf" -- "$3" 1 \
		>"$1" 2>"$1.err"
}

for cc in gcc clang; do
	T=$PWD/build/targets/fpstack-$cc-O2-fp
	[ -x "$T" ] || { fail "stacks_fp_$cc" "$T is missing (make tests-build)"; continue; }
	gdb_frames "$tmp/gdb" '*leaf' "$T" 1
	trace_stack "$tmp/fp" fp "$T"
	bp_frames "$tmp/fp" >"$tmp/bp"
	compare "stacks_fp_gdb_$cc" "$tmp/gdb" "$tmp/bp" 8 "$(tail -2 "$tmp/fp.err")"
	stopped=$(bp_stopped "$tmp/fp")
	# nothing between main and where the walk stops: libc's first frame
	above=$(jq -r 'select(.args.ustack) | .args.ustack | map(.func) | index("main")' "$tmp/fp" |
		head -1)
	total=$(jq -r 'select(.args.ustack) | .args.ustack | length' "$tmp/fp" | head -1)
	case $stopped in
	"__libc_start_call_main in libc.so.6 keeps no frame pointer at 0x"*)
		if [ -n "$above" ] && [ "$total" = $((above + 3)) ]; then
			pass "stacks_fp_stops_at_libc_$cc"
		else
			fail "stacks_fp_stops_at_libc_$cc" "main is frame $above of $total (want 2 more: libc's, the stop)"
		fi ;;
	*) fail "stacks_fp_stops_at_libc_$cc" "stopped: $stopped" ;;
	esac

	trace_stack "$tmp/dwarf" dwarf "$T"
	bp_frames "$tmp/dwarf" >"$tmp/bp"
	compare "stacks_fp_dwarf_gdb_$cc" "$tmp/gdb" "$tmp/bp" 8 "$(tail -2 "$tmp/dwarf.err")"

	# at the entry of the recursive outer, its third hit (outer called by
	# outer from the same call site as its caller was): [rsp] is the
	# caller's return address and also the walk's first from rbp; whether
	# the kernel stored it decides which, and no level is lost or doubled
	GDB_HIT=3 gdb_frames "$tmp/gdb" "*outer" "$T" 1
	timeout 60 "$BPFPROBE" trace --json --stack "exec=$T;ustack=fp;outer" -- "$T" 1 \
		>"$tmp/rec" 2>"$tmp/rec.err"
	bp_frames "$tmp/rec" 3 >"$tmp/bp"
	compare "stacks_fp_recursive_entry_$cc" "$tmp/gdb" "$tmp/bp" 4 "$(tail -2 "$tmp/rec.err")"
	if [ "$(bp_stopped "$tmp/dwarf")" = - ] &&
	   jq -e 'select(.args.ustack) | .args.ustack | map(.func) | index("__libc_start_call_main")' \
		"$tmp/dwarf" >/dev/null 2>&1; then
		pass "stacks_fp_dwarf_full_$cc"
	else
		fail "stacks_fp_dwarf_full_$cc" "stopped: $(bp_stopped "$tmp/dwarf")"
	fi

	out=$("$BPFPROBE" resolve "exec=$T;leaf s=\$ustack" 2>&1)
	if grep -q 'the user stack, copied for CFI (libc.so.6 keeps no frame pointers' <<<"$out" &&
	   ! grep -q 'by frame pointers' <<<"$out"; then
		pass "stacks_fp_auto_is_dwarf_$cc"
	else
		fail "stacks_fp_auto_is_dwarf_$cc" "$(grep arg1 <<<"$out")"
	fi

	# through qsort: the walk stops in libc's msort_with_tmp
	T=$PWD/build/targets/stacks-$cc-O2-fp
	gdb_frames "$tmp/gdb" '*leaf' "$T" 1 1
	timeout 60 "$BPFPROBE" trace --json --stack "exec=$T;ustack=fp;leaf" -- "$T" 1 1 \
		>"$tmp/fp" 2>"$tmp/fp.err"
	bp_frames "$tmp/fp" >"$tmp/bp"
	n=$(wc -l <"$tmp/bp")
	stopped=$(bp_stopped "$tmp/fp")
	if [ "$n" -ge 4 ] && head -n "$n" "$tmp/gdb" | cmp -s - "$tmp/bp" &&
	   [ "$(tail -1 "$tmp/bp" | cut -d' ' -f2)" = msort_with_tmp ] &&
	   [[ $stopped == "msort_with_tmp in libc.so.6 keeps no frame pointer at 0x"* ]]; then
		pass "stacks_fp_qsort_$cc"
	else
		fail "stacks_fp_qsort_$cc" "$n frames, stopped: $stopped; $(diff <(head -n "$n" "$tmp/gdb") "$tmp/bp" | head -8 | tr '\n' '|')"
	fi

	# no libc: auto takes frame pointers, and they agree with CFI and gdb
	T=$PWD/build/targets/fpstack-freestanding-$cc
	[ -x "$T" ] || { fail "stacks_fp_freestanding_$cc" "$T is missing (make tests-build)"; continue; }
	out=$("$BPFPROBE" resolve "exec=$T;leaf s=\$ustack" 2>&1)
	if grep -q 'the user stack by frame pointers (all 1 module keep them)' <<<"$out"; then
		pass "stacks_fp_freestanding_auto_$cc"
	else
		fail "stacks_fp_freestanding_auto_$cc" "$(grep arg1 <<<"$out" || tail -2 <<<"$out")"
	fi
	gdb_frames "$tmp/gdb" '*leaf' "$T" 1
	trace_stack "$tmp/fp" auto "$T"
	trace_stack "$tmp/dwarf" dwarf "$T"
	bp_frames "$tmp/fp" >"$tmp/bp"
	compare "stacks_fp_freestanding_gdb_$cc" "$tmp/gdb" "$tmp/bp" 8 "$(tail -2 "$tmp/fp.err")"
	fp=$(jq -c 'select(.args.ustack) | .args.ustack' "$tmp/fp" | head -1)
	dw=$(jq -c 'select(.args.ustack) | .args.ustack' "$tmp/dwarf" | head -1)
	if [ -n "$fp" ] && [ "$fp" = "$dw" ] && [ "$(bp_stopped "$tmp/fp")" = - ] &&
	   [ "$(jq -r '.[-1].func' <<<"$fp")" = _start ] &&
	   grep -q 'at the user stack by frame pointers (all 1 module keep them)' "$tmp/fp.err" &&
	   grep -q 'at the user stack, copied for CFI (ustack=dwarf' "$tmp/dwarf.err"; then
		pass "stacks_fp_freestanding_dwarf_$cc"
	else
		fail "stacks_fp_freestanding_dwarf_$cc" "fp: ${fp:0:300} dwarf: ${dw:0:300}"
	fi
done

T=$PWD/build/targets/fpstack-gcc-O2-fp
out=$(timeout 60 "$BPFPROBE" trace "exec=$T;ustack=xyz;leaf \$ustack" -- "$T" 1 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "invalid value 'xyz' for key 'ustack'" <<<"$out" &&
   grep -q "use auto, fp or dwarf" <<<"$out"; then
	pass stacks_fp_bad_value
else
	fail stacks_fp_bad_value "exit $rc: $(head -3 <<<"$out")"
fi
