# Stacks ($ustack, trace --stack, --folded; output/stack_*.c, unwind/):
# the frames of a hit's user stack (function, inlined or not, file:line)
# equal gdb's `bt` at a breakpoint on the same instruction, first hit
# against first hit, down to main: our -O2 target built without frame
# pointers (inlined frames, a qsort() comparator: libc's frames, with
# libc6-dbg), Debian's lua5.4 (liblua's -dbg DWARF) from a Lua script and
# python3.11 from Python code. The target also exits at once, and runs
# twice under sh -c: gone before its samples are read, it is unwound over
# the mappings the kernel reported (output/mmap_feed.c), every hit down
# to main; with those reports refused, the /proc snapshots of a running
# target still unwind it, and the refusal is said once at -v. --folded
# counts equal what the target counted itself; a map keyed by
# bpfprobe_stack_t merges equal stacks; records print their stack
# members as frames.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip stacks "$why"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# FUNC inline|- FILE LINE per frame of the first hit's ustack in JSON
# trace output, down to main
bp_frames() {
	jq -r 'select(.args.ustack) | .args.ustack[] |
		"BPFRAME \(.func // "??") \(if .inline then "inline" else "-" end) \((.file // "?") | split("/") | last) \(.line // 0)"' "$1" 2>/dev/null |
		awk '{ print } $2 == "main" { exit }' | sed -n '1,/^BPFRAME main /p'
}

# unwound_all NAME OUT ERR PIDS: every hit in OUT (trace --json) has its
# user stack unwound down to main, as many hits as the targets' TRUTH
# lines (in ERR) count, from PIDS processes. Above main a stack may end
# with the sample's bytes (the probe copies less than 8 KiB when the
# stack's end, past the environment, is nearer: ASLR decides), never
# for want of the process's modules.
unwound_all() {
	local name=$1 want hits bad pids
	want=$(( $(sed -n 's/^TRUTH leaf via weigh_[ab] //p' "$3" | paste -sd+) ))
	jq -r 'select(.args.ustack) | [.pid, (.args.ustack | map(.func) | index("main") != null),
		(.args.ustack | map(select(.stopped)) | .[0].stopped // "-")] | @tsv' \
		"$2" >"$tmp/hits" 2>/dev/null
	hits=$(wc -l <"$tmp/hits")
	bad=$(awk -F '\t' '$2 != "true" || ($3 != "-" && $3 !~ /^the sample.s stack ends at /)' \
		"$tmp/hits" | head -3 | tr '\n' '|')
	pids=$(awk '{ print $1 }' "$tmp/hits" | sort -u | wc -l)
	if [ "$want" -gt 0 ] && [ "$hits" = "$want" ] && [ -z "$bad" ] && [ "$pids" = "$4" ] &&
	   ! grep -q 'exited before' "$2"; then
		pass "$name"
	else
		fail "$name" "$hits hits of $want from $pids processes (want $4); not unwound: ${bad:-none} $(tail -2 "$3")"
	fi
}

for v in gcc-O2 clang-O2; do
	T=$PWD/build/targets/stacks-$v
	[ -x "$T" ] || { fail "stacks_c_$v" "$T is missing (make tests-build)"; continue; }
	# no frame pointer: -O2 omits it (a push %rbp in leaf would be one)
	if objdump -d --no-show-raw-insn "$T" | awk '/<leaf>:/ { f = 1; next } f && /^$/ { exit } f' |
		grep -q 'push.*%rbp'; then
		fail "stacks_c_$v" "leaf() keeps a frame pointer: the test wants none"
		continue
	fi
	gdb_frames "$tmp/gdb-$v" '*leaf' "$T" 3 1
	timeout 60 "$BPFPROBE" trace --json --stack "exec=$T;leaf" -- "$T" 3 1 1 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	bp_frames "$tmp/out" >"$tmp/bp"
	compare "stacks_c_gdb_$v" "$tmp/gdb-$v" "$tmp/bp" 14 "exit $rc $(tail -2 "$tmp/err")"

	# no HOLD: the target exits at once, before its samples are read
	timeout 60 "$BPFPROBE" trace --json --stack "exec=$T;leaf" -- "$T" 3 1 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	bp_frames "$tmp/out" >"$tmp/bp"
	compare "stacks_exited_gdb_$v" "$tmp/gdb-$v" "$tmp/bp" 14 "exit $rc $(tail -2 "$tmp/err")"
	unwound_all "stacks_exited_all_$v" "$tmp/out" "$tmp/err" 1

	# twice under a shell: forked by sh and exec'd (the last one dash may
	# exec in its own process)
	timeout 60 "$BPFPROBE" trace --json --stack "exec=$T;leaf" -- sh -c "'$T' 3 1; '$T' 3 1" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	bp_frames "$tmp/out" >"$tmp/bp"
	compare "stacks_shell_gdb_$v" "$tmp/gdb-$v" "$tmp/bp" 14 "exit $rc $(tail -2 "$tmp/err")"
	unwound_all "stacks_shell_all_$v" "$tmp/out" "$tmp/err" 2

	# --folded: every stack from _start through qsort to leaf, as many as
	# the target counted; those through weigh_a and through weigh_b apart
	# when the build keeps two call sites (gcc; clang merges them into one)
	timeout 60 "$BPFPROBE" trace --folded "exec=$T;leaf" -- "$T" 2 7 1 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	all=$(awk '/^_start;__libc_start_main_impl;__libc_start_call_main;main;recurse;recurse;recurse;[^ ]*;msort_with_tmp;[^ ]*;cmp;twice;([^ ]*;)?leaf [0-9]+$/ { n += $NF }
		END { print n + 0 }' "$tmp/out")
	a=$(awk '/;cmp;twice;weigh_a;leaf [0-9]+$/ { n += $NF } END { print n + 0 }' "$tmp/out")
	b=$(awk '/;cmp;twice;weigh_b;leaf [0-9]+$/ { n += $NF } END { print n + 0 }' "$tmp/out")
	ta=$(sed -n 's/^TRUTH leaf via weigh_a //p' "$tmp/out")
	tb=$(sed -n 's/^TRUTH leaf via weigh_b //p' "$tmp/out")
	[ "$v" = gcc-O2 ] || { a=$ta; b=$tb; }
	if [ $rc -eq 0 ] && [ -n "$ta" ] && [ "$all" = $((ta + tb)) ] && [ "$a" = "$ta" ] && [ "$b" = "$tb" ]; then
		pass "stacks_folded_counts_$v"
	else
		fail "stacks_folded_counts_$v" "exit $rc; $all stacks (target: $((ta + tb))), weigh_a $a (target: $ta), weigh_b $b (target: $tb): $(grep -v TRUTH "$tmp/out" | head -3) $(tail -2 "$tmp/err")"
	fi
done

# the kernel's reports of mappings refused (as perf_event_paranoid refuses
# a user without CAP_PERFMON; injected by tests/e2e/fault_stop.c, which
# reaches only the build whose glibc is shared): said once at -v, and a
# target still running when its samples are read is unwound from its
# /proc snapshot as before
T=$PWD/build/targets/stacks-gcc-O2
if [ ! -s "$tmp/gdb-gcc-O2" ] || [ ! -x "$BPFPROBE_PRELOADABLE" ]; then
	fail stacks_reports_refused "gdb's frames or $BPFPROBE_PRELOADABLE missing"
elif ! gcc -O2 -shared -fPIC -o "$tmp/stop.so" tests/e2e/fault_stop.c -ldl 2>"$tmp/cc.err"; then
	fail stacks_reports_refused "cannot build the fault preload: $(head -3 "$tmp/cc.err")"
else
	FAULT_FAIL_AT=perf-dummy:1 LD_PRELOAD=$tmp/stop.so timeout 60 "$BPFPROBE_PRELOADABLE" \
		trace -v --json --stack "exec=$T;leaf" -- "$T" 3 1 1 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	bp_frames "$tmp/out" >"$tmp/bp"
	said=$(grep -c "reports of mappings are refused" "$tmp/err")
	if [ "$said" = 1 ]; then
		compare stacks_reports_refused "$tmp/gdb-gcc-O2" "$tmp/bp" 14 "exit $rc"
	else
		fail stacks_reports_refused "the refusal said $said times at -v (want once); exit $rc $(tail -2 "$tmp/err")"
	fi
fi

# lua5.4 running a script that loads another: luaL_loadfilex (Debian's
# lua5.4 holds liblua: its DWARF is liblua5.4-0-dbg's)
LUA=/usr/bin/lua5.4
if [ -x $LUA ]; then
	echo 'local t = os.clock(); while os.clock() - t < 0.01 do end' >"$tmp/b.lua"
	printf 'dofile("%s")\nlocal t = os.time(); while os.time() - t < 1 do end\n' "$tmp/b.lua" >"$tmp/a.lua"
	gdb_frames "$tmp/gdb" '*luaL_loadfilex' $LUA "$tmp/a.lua"
	timeout 60 "$BPFPROBE" trace --json --stack "exec=$LUA;luaL_loadfilex" -- $LUA "$tmp/a.lua" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	bp_frames "$tmp/out" >"$tmp/bp"
	compare stacks_lua_gdb "$tmp/gdb" "$tmp/bp" 8 "exit $rc $(tail -2 "$tmp/err")"
else
	fail stacks_lua_gdb "$LUA is missing (scripts/deps.sh installs lua5.4)"
fi

# python3.11: builtin_abs() called from Python code, under the eval loop
PY=/usr/bin/python3.11
if [ -x $PY ]; then
	gdb_frames "$tmp/gdb.all" '*builtin_abs' $PY -c 'abs(-5)'
	# below Py_BytesMain: main tail-calls it, libc's start and _start
	sed '/^BPFRAME Py_BytesMain /q' "$tmp/gdb.all" >"$tmp/gdb"
	timeout 60 "$BPFPROBE" trace --json --stack "exec=$PY;builtin_abs" -- $PY -c 'abs(-5); import time; time.sleep(1)' >"$tmp/out" 2>"$tmp/err"
	rc=$?
	bp_frames "$tmp/out" | sed '/^BPFRAME Py_BytesMain /q' >"$tmp/bp"
	compare stacks_python_gdb "$tmp/gdb" "$tmp/bp" 12 "exit $rc $(tail -2 "$tmp/err")"
else
	fail stacks_python_gdb "$PY is missing (scripts/deps.sh installs python3.11)"
fi

# a map keyed by bpfprobe_stack_t counting hits: equal stacks merged at
# exit, their counts summed; records with a stack member (text, JSON)
T=build/targets/stacks-gcc-O2
O=build/bpf/stacks__counts-gcc-O2.o
timeout 60 "$BPFPROBE" load "$O" -- "$T" 2 3 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
total=$(( $(sed -n 's/^TRUTH leaf via weigh_[ab] //p' "$tmp/out" | paste -sd+) ))
sum=$(awk '/^\]\]: [0-9]+$/ { n += $2 } END { print n + 0 }' "$tmp/out")
keys=$(grep -c '^@calls\[\[$' "$tmp/out")
first=$(grep -A1 '^@calls\[\[$' "$tmp/out" | grep -c '^    0x[0-9a-f]* leaf stacks.c:[0-9]* \[.*/stacks-gcc-O2\]$')
if [ $rc -eq 0 ] && [ "$total" -gt 0 ] && [ "$sum" = "$total" ] && [ "$keys" -gt 1 ] &&
   [ "$keys" -lt "$total" ] && [ "$first" = "$keys" ]; then
	pass stacks_map_counts_merged
else
	fail stacks_map_counts_merged "exit $rc; $keys stacks summing to $sum, the target called leaf $total times ($first start at leaf) $(tail -2 "$tmp/err")"
fi
recs=$(grep -A1 '^events: { .pid = [0-9]*, .stack = \[$' "$tmp/out" | grep -c '^    0x[0-9a-f]* leaf stacks.c:')
if [ "$recs" = 3 ] && grep -q '^\] }$' "$tmp/out"; then
	pass stacks_record_text
else
	fail stacks_record_text "$recs of 3 records with their stack: $(grep -A2 '^events' "$tmp/out" | head -4)"
fi
timeout 60 "$BPFPROBE" load --json "$O" -- "$T" 2 3 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
got=$(jq -r '(select(.type == "record") | .data.stack[0].func), (select(.type == "map" and .map == "calls") |
	[.entries[] | select(.key[0].func == "leaf" and (.key | map(.func) | index("main")) != null) | .value] | add)' "$tmp/out" 2>&1 | tr '\n' ' ')
total=$(( $(sed -n 's/^TRUTH leaf via weigh_[ab] //p' "$tmp/err" | paste -sd+) ))
if [ $rc -eq 0 ] && [ "$got" = "leaf leaf leaf $total " ]; then
	pass stacks_json
else
	fail stacks_json "exit $rc; got '$got', want 'leaf leaf leaf $total ' $(tail -2 "$tmp/err")"
fi
