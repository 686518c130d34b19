#!/usr/bin/env bash
# The unwinder (unwind/) against gdb's `bt` at the same instruction.
#
# Each program takes a stack sample of itself (tests/targets/unwind/capture:
# the registers and 8 KiB of stack a $ustack fetch copies) at the label
# uw_sample_point, where gdb stops with `break *uw_sample_point`. The
# unwinder's frames (build/tests/uw_frames) must equal gdb's frame for frame:
# function, inline or not, file:line, module (tests/targets/unwind/gdb/
# uw_gdb_frames.py prints gdb's the same way). Each sample is unwound while
# its process waits (alive), and after it exited (its modules noted before).
# Programs: the C target built -O2 -fomit-frame-pointer by gcc and by clang
# (inlined functions, a qsort() comparator: the stack passes through libc),
# lua5.4 and python3.11 running a script (the sample inside a libc call of
# theirs, through LD_PRELOAD), and a stack deeper than a sample holds.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

tool=build/tests/uw_frames
preload=$PWD/build/targets/uw_preload.so
gdbpy=$PWD/tests/targets/unwind/gdb/uw_gdb_frames.py
scripts=$PWD/tests/targets/unwind/scripts

for f in "$tool" "$preload" build/targets/uw_target-gcc-O2 build/targets/uw_target-clang-O2; do
	[ -e "$f" ] || { fail unwind_build "missing $f: make tests-build"; exit 0; }
done
command -v gdb >/dev/null || { skip unwind_gdb "gdb is not installed"; exit 0; }

tmp=$(mktemp -d) || exit 1
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
marker=$tmp/uw-marker.lua
echo 'return 1' >"$marker"

# gdb_frames OUT VAR=VALUE... -- CMD...: gdb's frames at uw_sample_point
gdb_frames() {
	local out=$1 args
	shift
	args=(-batch -nx -ex 'set backtrace past-main on' -ex "set environment UW_SAMPLE_OUT=$tmp/gdb.sample")
	while [ "$1" != -- ]; do
		args+=(-ex "set environment $1")
		shift
	done
	shift
	args+=(-ex 'break main' -ex run -ex 'break *uw_sample_point' -ex continue -ex "source $gdbpy"
	       -ex kill --args "$@")
	timeout 300 gdb "${args[@]}" </dev/null 2>"$out.err" | grep '^FRAME ' >"$out"
}

wait_for() {	# wait_for FILE [PATTERN]: until it exists (and holds PATTERN)
	local i
	for i in $(seq 600); do
		if [ -e "$1" ] && { [ -z "${2:-}" ] || grep -q "$2" "$1"; }; then
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# sample NAME MODE TOOL-OPTS VAR=VALUE... -- CMD...: runs CMD, which takes a
# sample into $tmp/NAME.sample and then waits for its stdin to close, and
# unwinds the sample into $tmp/NAME.ours: MODE alive while the process
# waits; exited after it exited, the process noted while it waited.
sample() {
	local name=$1 mode=$2 opts=$3 s=$tmp/$1.sample out=$tmp/$1.ours env=() tpid upid
	shift 3
	while [ "$1" != -- ]; do
		env+=("$1")
		shift
	done
	shift
	mkfifo "$tmp/$name.go"
	env UW_WAIT=1 UW_SAMPLE_OUT="$s" "${env[@]}" "$@" <"$tmp/$name.go" >"$tmp/$name.out" 2>&1 &
	tpid=$!
	pids+=("$tpid")
	exec {go}>"$tmp/$name.go"
	if ! wait_for "$s"; then
		exec {go}>&-
		echo "no sample: $(tail -3 "$tmp/$name.out")" >"$out"
		return
	fi
	if [ "$mode" = alive ]; then
		$tool $opts "$s" >"$out" 2>&1
		exec {go}>&-
		wait "$tpid"
		return
	fi
	# (without the fifo's writing end, which would keep CMD waiting)
	$tool --note-wait $opts "$s" >"$out" 2>&1 {go}>&- &
	upid=$!
	pids+=("$upid")
	wait_for "$out" '^noted'
	exec {go}>&-
	wait "$tpid"
	wait "$upid"
}

# same NAME GDB-FRAMES OURS: the frames are gdb's
same() {
	local d
	if [ ! -s "$2" ]; then
		fail "$1" "gdb gave no frames: $(tail -3 "$2.err" | tr '\n' ' ')"
	elif d=$(diff <(cat "$2") <(grep '^FRAME ' "$3")); then
		pass "$1"
	else
		fail "$1" "not gdb's frames (< gdb, > ours): $(head -12 <<<"$d" | tr '\n' ' ') $(grep -E '^STOP|^unwind' "$3")"
	fi
}

# The C target, by gcc and clang: two inlined calls in a comparator qsort
# calls (libc's frames with libc6-dbg's DWARF, and a tail call of libc's
# that gdb shows as a frame from the call sites' DWARF)
for cc in gcc clang; do
	t=build/targets/uw_target-$cc-O2
	gdb_frames "$tmp/c_$cc.gdb" -- "$t" sort "$tmp/gdb.sample"
	for mode in alive exited; do
		sample "c_${cc}_$mode" $mode "" -- "$t" sort "$tmp/c_${cc}_$mode.sample"
		same "unwind_gdb_c_${cc}_sort_$mode" "$tmp/c_$cc.gdb" "$tmp/c_${cc}_$mode.ours"
	done
done
line=$(grep '^TEXT ' "$tmp/c_gcc_alive.ours" | sed -n 2p)
if grep -Eq '^TEXT 0x[0-9a-f]+ weigh \(inlined into compare_weighed\) uw_target\.c:[0-9]+ \[.*/uw_target-gcc-O2\]$' <<<"$line"; then
	pass unwind_text_inline_frame
else
	fail unwind_text_inline_frame "frame 1: '$line'"
fi
folded=$(sed -n 's/^FOLDED //p' "$tmp/c_gcc_alive.ours")
if [[ "$folded" == _start\;__libc_start_main_impl\;*\;main\;sort_items\;*\;cmp\;compare_weighed\;weigh\;uw_take_sample ]]; then
	pass unwind_folded
else
	fail unwind_folded "'$folded'"
fi

# lua5.4 (Debian's, liblua5.4-0-dbg): io.open from a script, the sample in
# its fopen64(); then loadfile, whose luaL_loadfilex has an 8 KiB buffer on
# the stack: the sample ends inside it, unless the live stack is read while
# the process is still in that fopen64()
if [ -x /usr/bin/lua5.4 ]; then
	for how in open load; do
		gdb_frames "$tmp/lua_$how.gdb" UW_SAMPLE_MATCH=uw-marker LD_PRELOAD="$preload" -- \
			/usr/bin/lua5.4 "$scripts/uw_probe.lua" "$how" "$marker"
	done
	for mode in alive exited; do
		sample "lua_open_$mode" $mode "" UW_SAMPLE_MATCH=uw-marker LD_PRELOAD="$preload" -- \
			/usr/bin/lua5.4 "$scripts/uw_probe.lua" open "$marker"
		same "unwind_gdb_lua_$mode" "$tmp/lua_open.gdb" "$tmp/lua_open_$mode.ours"
	done
	sample lua_load_live alive --live-stack UW_SAMPLE_MATCH=uw-marker LD_PRELOAD="$preload" -- \
		/usr/bin/lua5.4 "$scripts/uw_probe.lua" load "$marker"
	same unwind_gdb_lua_loadfile_live_stack "$tmp/lua_load.gdb" "$tmp/lua_load_live.ours"
else
	skip unwind_gdb_lua "no /usr/bin/lua5.4"
fi

# python3.11 (LTO+PGO, python3.11-dbg): os.access from a script
if [ -x /usr/bin/python3.11 ]; then
	gdb_frames "$tmp/py.gdb" UW_SAMPLE_MATCH=uw-marker LD_PRELOAD="$preload" -- \
		/usr/bin/python3.11 "$scripts/uw_probe.py" "$marker"
	for mode in alive exited; do
		sample "py_$mode" $mode "" UW_SAMPLE_MATCH=uw-marker LD_PRELOAD="$preload" -- \
			/usr/bin/python3.11 "$scripts/uw_probe.py" "$marker"
		same "unwind_gdb_python_$mode" "$tmp/py.gdb" "$tmp/py_$mode.ours"
	done
else
	skip unwind_gdb_python "no /usr/bin/python3.11"
fi

# gdb's frames at many addresses, not only a stack's: a frame 0 at two
# addresses in every 10th function of libc, every 12th of python3.11, every
# other of lua5.4, every third byte of the C target's (gcc, clang)
# (gdb run on each file, offline: its blocks, line table, minimal symbols,
# tests/targets/unwind/gdb/uw_gdb_at.py), against the unwinder's for the
# same addresses in a process. gdb keeps 16 bits of an inlined call's line
# (python's deepfreeze.c is longer): ours, complete, is compared on those.
debug_file() {
	local id
	id=$(readelf -n "$1" 2>/dev/null | awk '/Build ID/ { print $3; exit }')
	[ -n "$id" ] && echo "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
}
# the file with FILE's full symbol table: its debug file, else itself
symbols_of() {
	local d
	d=$(debug_file "$1")
	if [ -f "$d" ]; then echo "$d"; else echo "$1"; fi
}
# addresses FILE STEP BASE LABEL: "LABEL+OFF ADDR" lines, ADDR = BASE + OFF:
# two in every STEPth function; STEP 0: every third byte of every function
addresses() {
	local n=0 v sz a b
	readelf -sW "$(symbols_of "$1")" 2>/dev/null |
		awk '$4 == "FUNC" && $3 + 0 > 1 && $7 != "UND" { print $2, $3 }' | sort -u |
		while read -r v sz; do
			if [ "$2" = 0 ]; then
				for ((a = 16#$v; a < 16#$v + sz; a += 3)); do
					printf '%s+%x %x\n' "$4" $a $(($3 + a))
				done
				continue
			fi
			n=$((n + 1))
			[ $((n % $2)) = 0 ] || continue
			a=$((16#$v + (sz > 32 ? 16 : 1)))
			b=$((16#$v + sz / 2))
			printf '%s+%x %x\n%s+%x %x\n' "$4" $a $(($3 + a)) "$4" $b $(($3 + b))
		done
}
at_compare() {	# at_compare NAME FILE BASE STEP SAMPLE
	local name=$1 file=$2 base=$3 step=$4 s=$5 d n
	if [ ! -f "$(symbols_of "$file")" ]; then
		skip "unwind_gdb_at_$name" "no debug file for $file"
		return
	fi
	addresses "$file" "$step" 0 "$name" >"$tmp/$name.rel"
	addresses "$file" "$step" "$base" "$name" >"$tmp/$name.abs"
	UW_AT_FILE=$tmp/$name.rel timeout 300 gdb -batch -nx -ex "source $PWD/tests/targets/unwind/gdb/uw_gdb_at.py" \
		"$file" </dev/null 2>/dev/null | grep '^AT ' >"$tmp/$name.at.gdb"
	$tool --at "$tmp/$name.abs" "$s" 2>&1 |
		awk '{ for (i = 3; i <= NF; i++) if (match($i, /:[0-9]+$/)) {
			l = substr($i, RSTART + 1) + 0; if (l > 65535) $i = substr($i, 1, RSTART) (l % 65536) }
			print }' >"$tmp/$name.at.ours"
	n=$(wc -l <"$tmp/$name.rel")
	if [ "$n" -lt 100 ]; then
		fail "unwind_gdb_at_$name" "only $n addresses"
	elif d=$(diff "$tmp/$name.at.gdb" "$tmp/$name.at.ours"); then
		pass "unwind_gdb_at_$name"
	else
		fail "unwind_gdb_at_$name" "$(grep -c '^<' <<<"$d") of $n addresses differ (< gdb, > ours): $(head -6 <<<"$d" | tr '\n' ' ')"
	fi
}
# at_process NAME VAR=VALUE... -- CMD...: CMD takes a sample into
# $tmp/NAME.sample and waits (its stdin a fifo the caller closes, fd $go)
at_process() {
	local name=$1 env=()
	shift
	while [ "$1" != -- ]; do
		env+=("$1")
		shift
	done
	shift
	mkfifo "$tmp/$name.go"
	env UW_WAIT=1 UW_SAMPLE_OUT="$tmp/$name.sample" "${env[@]}" "$@" <"$tmp/$name.go" >/dev/null 2>&1 &
	pids+=($!)
	exec {go}>"$tmp/$name.go"
	wait_for "$tmp/$name.sample"
}
# where FILE is mapped in the process of sample S, its first mapping
module_base() {
	local pid
	pid=$(od -An -tu4 -j8 -N4 "$2" | tr -d ' ')
	awk -v f="$1" '$6 == f { split($1, a, "-"); print a[1]; exit }' "/proc/$pid/maps"
}
if [ -x /usr/bin/python3.11 ] && at_process at_py UW_SAMPLE_MATCH=uw-marker LD_PRELOAD="$preload" -- \
		/usr/bin/python3.11 "$scripts/uw_probe.py" "$marker"; then
	libc=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)
	at_compare libc "$libc" $((16#$(module_base "$libc" "$tmp/at_py.sample"))) 10 "$tmp/at_py.sample"
	# (not position-independent: at its link-time addresses)
	at_compare python /usr/bin/python3.11 0 12 "$tmp/at_py.sample"
fi
exec {go}>&-
for cc in gcc clang; do
	t=$(readlink -f build/targets/uw_target-$cc-O2)
	if at_process "at_$cc" -- "$t" sort "$tmp/at_$cc.sample"; then
		at_compare "c_$cc" "$t" $((16#$(module_base "$t" "$tmp/at_$cc.sample"))) 0 "$tmp/at_$cc.sample"
	fi
	exec {go}>&-
done
if [ -x /usr/bin/lua5.4 ] && at_process at_lua UW_SAMPLE_MATCH=uw-marker LD_PRELOAD="$preload" -- \
		/usr/bin/lua5.4 "$scripts/uw_probe.lua" open "$marker"; then
	at_compare lua /usr/bin/lua5.4 $((16#$(module_base /usr/bin/lua5.4 "$tmp/at_lua.sample"))) 2 \
		"$tmp/at_lua.sample"
fi
exec {go}>&-

# A stack deeper than the sample's 8 KiB: the frames the sample holds are
# gdb's first ones, then the unwinding says where the sample ends (the live
# stack is not read: the process has moved on). With --live-stack while the
# process still waits inside the recursion, the rest comes from its memory.
t=build/targets/uw_target-gcc-O2
gdb_frames "$tmp/deep.gdb" -- "$t" deep "$tmp/gdb.sample"
for mode in alive exited; do
	sample "deep_$mode" $mode "" -- "$t" deep "$tmp/deep_$mode.sample"
	ours=$tmp/deep_$mode.ours
	n=$(grep -c '^FRAME ' "$ours")
	if [ "$n" -ge 8 ] && diff -q <(head -n "$n" "$tmp/deep.gdb") <(grep '^FRAME ' "$ours") >/dev/null &&
	   grep -Eq "^STOP the sample's stack ends at 0x[0-9a-f]+$" "$ours" &&
	   [ "$(wc -l <"$tmp/deep.gdb")" -gt "$n" ]; then
		pass "unwind_gdb_deep_sample_ends_$mode"
	else
		fail "unwind_gdb_deep_sample_ends_$mode" "$n frames, $(grep -E '^STOP' "$ours"): $(diff <(head -n "$n" "$tmp/deep.gdb") <(grep '^FRAME ' "$ours") | head -4 | tr '\n' ' ')"
	fi
done
sample deep_live alive --live-stack -- "$t" deep-inside "$tmp/deep_live.sample"
same unwind_gdb_deep_live_stack "$tmp/deep.gdb" "$tmp/deep_live.ours"

# A process gone before anything read its modules: frame 0, and why not more
UW_SAMPLE_OUT=$tmp/gone.sample "$t" sort "$tmp/gone.sample" >/dev/null 2>&1
out=$($tool "$tmp/gone.sample" 2>&1)
if grep -Eq '^STOP process [0-9]+ exited before its modules were read$' <<<"$out" &&
   [ "$(grep -c '^FRAME ' <<<"$out")" = 1 ]; then
	pass unwind_exited_unnoted
else
	fail unwind_exited_unnoted "$(tr '\n' ' ' <<<"$out")"
fi
