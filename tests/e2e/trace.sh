# bpfprobe trace SPEC...: the programs it generates print every value the
# target passes (tests/targets/trace: four integers of mixed widths and
# signs, a string) as the target prints it itself, in text and in JSON
# (read with jq); -c counts each probe point as the target counts its
# calls; -p traces a running process; points of one name are told apart;
# Debian's lua5.4 (its -dbg DWARF) shows the files a script loads; bad
# input is refused with a message and nothing loaded.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip trace "$why"
	exit 0
fi
tmp=$(mktemp -d)
chmod 755 "$tmp"
bp=
trap 'kill $bp 2>/dev/null; rm -rf "$tmp"' EXIT
SPEC_OF() { echo "exec=$1;trace_call a b c d s:string"; }

# "a=.. b=.. c=.. d=.. s=.." of the lines trace printed for pid $2 at
# trace_call, and of the target's TRUTH call lines, sorted: the same
trace_vs_truth() {
	local out=$1 pid=$2 comm=$3 got want
	got=$(grep -E "^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6} $comm $pid trace_call " "$out" |
		sed 's/^[^ ]* [^ ]* [^ ]* trace_call //' | sort)
	want=$(sed -n 's/^TRUTH call //p' "$out" | sort)
	[ -n "$want" ] && [ "$got" = "$want" ] && return 0
	diff <(echo "$want") <(echo "$got") | head -10
	return 1
}

for v in $VARIANTS; do
	T=$PWD/build/targets/trace-$v
	[ -x "$T" ] || { fail "trace_values_$v" "$T is missing (make tests-build)"; continue; }

	# text: every value as the target passes it, the pid and comm its own
	timeout 60 "$BPFPROBE" trace "$(SPEC_OF "$T")" -- "$T" calls 16 64 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	pid=$(sed -n 's/^TRUTH pid=//p' "$tmp/out")
	if d=$(trace_vs_truth "$tmp/out" "$pid" "trace-$v") && [ $rc -eq 0 ]; then
		pass "trace_values_$v"
	else
		fail "trace_values_$v" "exit $rc; want < > got: $d $(tail -3 "$tmp/err")"
	fi

	# JSON: stdout is JSON alone (the workload's goes to stderr); the values
	# through jq, d (beyond a double's precision) as written
	timeout 60 "$BPFPROBE" trace --json "$(SPEC_OF "$T")" -- "$T" calls 16 64 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	pid=$(sed -n 's/^TRUTH pid=//p' "$tmp/err")
	got=$(jq -c --argjson pid "${pid:-0}" --arg comm "trace-$v" \
		'select(.pid == $pid and .tid == $pid and .comm == $comm and .point == "trace_call"
			and (.time | test("^[0-9-]{10}T[0-9:]{8}\\.[0-9]{6}Z$")) and (.time_ns | type) == "number")
		 | [.args.a, .args.b, .args.c, .args.s]' "$tmp/out" 2>&1)
	got=$(paste -d' ' <(echo "$got") <(grep -o '"d":[0-9]*' "$tmp/out" | cut -d: -f2) | sort)
	want=$(sed -n 's/^TRUTHJ //p' "$tmp/err" | sort)
	if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
		pass "trace_json_$v"
	else
		fail "trace_json_$v" "exit $rc: $(diff <(echo "$want") <(echo "$got") | head -6) $(tail -3 "$tmp/err")"
	fi
done

T=$PWD/build/targets/trace-gcc-O2

# --strlen: the long string whole; -o FILE: the lines there, the
# workload keeps stdout
timeout 60 "$BPFPROBE" trace --strlen 128 -o "$tmp/lines" "$(SPEC_OF "$T")" -- "$T" calls 8 128 \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
pid=$(sed -n 's/^TRUTH pid=//p' "$tmp/out")
on_stdout=$(grep -c ' trace_call ' "$tmp/out")
cat "$tmp/lines" >>"$tmp/out"
if d=$(trace_vs_truth "$tmp/out" "$pid" trace-gcc-O2) && [ $rc -eq 0 ] && [ "$on_stdout" = 0 ] &&
   grep -q 'so that it is cut at the string length;;;;;;;;;"$' "$tmp/lines"; then
	pass trace_strlen_output_file
else
	fail trace_strlen_output_file "exit $rc: $d $(tail -3 "$tmp/err")"
fi

# -c: per probe point, counted in BPF, as the target counts its calls
timeout 60 "$BPFPROBE" trace -c "$(SPEC_OF "$T")" "exec=$T;tick" "exec=$T;tock%return" \
	-- "$T" calls 9 64 >"$tmp/out" 2>"$tmp/err"
rc=$?
got=$(grep -E '^(trace_call|tick|tock%return) +[0-9]+$' "$tmp/out" | tr -s ' ' | sort | tr '\n' ' ')
want="tick 9 tock%return 19 trace_call 9 "
if [ $rc -eq 0 ] && [ "$got" = "$want" ] && grep -q '^TRUTH count tick=9 tock=19$' "$tmp/out" &&
   ! grep -q ' trace_call a=' "$tmp/out"; then
	pass trace_count
else
	fail trace_count "exit $rc: got '$got', want '$want' $(tail -3 "$tmp/err")"
fi
timeout 60 "$BPFPROBE" trace -c --json "exec=$T;t?ck" -- "$T" calls 5 64 >"$tmp/out" 2>"$tmp/err"
got=$(jq -r '"\(.point)=\(.count)"' "$tmp/out" 2>&1 | sort | tr '\n' ' ')
if [ "$got" = "tick=5 tock=11 " ]; then
	pass trace_count_json
else
	fail trace_count_json "got '$got' $(tail -3 "$tmp/err")"
fi

# -p PID: a process already running, until SIGINT
rm -f "$tmp/go"
"$T" wait "$tmp/go" 12 64 >"$tmp/target" 2>&1 &
tpid=$!
"$BPFPROBE" trace -p $tpid "$(SPEC_OF "$T")" >"$tmp/out" 2>"$tmp/err" &
bp=$!
if wait_grep "probe point attached" "$tmp/err"; then
	touch "$tmp/go"
	wait $tpid
	sleep 0.3
fi
kill -INT $bp 2>/dev/null
wait $bp
rc=$?
bp=
cat "$tmp/target" >>"$tmp/out"
if d=$(trace_vs_truth "$tmp/out" "$tpid" trace-gcc-O2) && [ $rc -eq 0 ]; then
	pass trace_pid
else
	fail trace_pid "exit $rc: $d $(tail -3 "$tmp/err")"
fi
kill $tpid 2>/dev/null

# several points of one name (a static function in two files): each line
# says which, by its address
A=$PWD/build/targets/args-gcc-O2
timeout 60 "$BPFPROBE" trace -q "exec=$A;twin x" -- "$A" >"$tmp/out" 2>"$tmp/err"
addrs=$("$BPFPROBE" funcs "$A" twin | awk '$1 == "twin" { printf "twin@0x%x\n", $2 }' | sort)
got=$(awk '$4 ~ /^twin@/ { print $4, $5 }' "$tmp/out" | sort)
want=$(paste -d' ' <(echo "$addrs") <(printf 'x=1011\nx=2022\n'))
if [ "$(wc -l <<<"$got")" -eq 2 ] && [ "$got" = "$want" ]; then
	pass trace_same_name_points
else
	fail trace_same_name_points "got '$got', want '$want' $(tail -3 "$tmp/err")"
fi

# Debian's lua5.4 with its -dbg DWARF: the file names luaL_loadfilex gets
# are those the script loads (itself first); dofile passes no mode
if [ -x /usr/bin/lua5.4 ] && [ -e /usr/lib/debug/.build-id ] &&
   "$BPFPROBE" funcs /usr/bin/lua5.4 luaL_loadfilex 2>/dev/null | grep -q '^luaL_loadfilex '; then
	for f in one two; do echo "return '$f'" >"$tmp/$f.lua"; done
	cat >"$tmp/script.lua" <<EOF
print("TRUTH load $tmp/one.lua (fault)")
dofile("$tmp/one.lua")
print("TRUTH load $tmp/two.lua \"t\"")
assert(loadfile("$tmp/two.lua", "t"))
print("TRUTH load $tmp/one.lua \"bt\"")
assert(loadfile("$tmp/one.lua", "bt"))
EOF
	timeout 60 "$BPFPROBE" trace 'exec=/usr/bin/lua5.4;func=luaL_loadfilex filename:string mode:string' \
		-- lua5.4 "$tmp/script.lua" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	got=$(sed -n 's/^.* lua5\.4 [0-9]* luaL_loadfilex filename="\([^"]*\)" mode=\(.*\)$/\1 \2/p' "$tmp/out")
	want=$(printf '%s\n' "$tmp/script.lua (fault)"; sed -n 's/^TRUTH load //p' "$tmp/out")
	if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
		pass trace_lua
	else
		fail trace_lua "exit $rc: got '$got', want '$want' $(tail -3 "$tmp/err")"
	fi
else
	skip trace_lua "lua5.4 or its DWARF (liblua5.4-0-dbg) is not installed"
fi

# bad input: a message, a non-zero exit, nothing loaded
bad() {	# bad NAME WANT-RC MESSAGE-PATTERN ARGS...
	local name=$1 want=$2 pat=$3 out
	shift 3
	out=$(timeout 60 "$BPFPROBE" trace "$@" -- /bin/true 2>&1)
	rc=$?
	if [ $rc -eq "$want" ] && grep -q -- "$pat" <<<"$out" && nothing_loaded bp_trace_0 &&
	   ! grep -q "attached" <<<"$out"; then
		pass "trace_bad_$name"
	else
		fail "trace_bad_$name" "exit $rc: $out"
	fi
}
out=$(timeout 10 "$BPFPROBE" trace 2>&1)
rc=$?
if [ $rc -eq 2 ] && grep -q "no SPEC given" <<<"$out"; then
	pass trace_bad_no_spec
else
	fail trace_bad_no_spec "exit $rc: $out"
fi
bad unresolved 1 "function 'trace_cal' not found.*did you mean: trace_call" "exec=$T;trace_cal a"
bad no_such_arg 1 "trace_call.*'nope'" "exec=$T;trace_call nope"
bad struct_arg 1 "is a struct; name a member" "exec=$A;handle_req *req"
bad string_of_int 1 "wants a string" "exec=$T;trace_call a:string"
bad same_names 1 "both called 'a'" "exec=$T;trace_call a x=a y=b a=c"
bad params 1 "\$params is not supported" "exec=$T;trace_call \$params"
bad strlen 2 "--strlen '1'" --strlen 1 "exec=$T;trace_call a"
bad syntax 1 "SPEC 1" "exec=$T;trace_call a->"
bad second_spec 1 "SPEC 2 .* does not resolve" "exec=$T;tick" "exec=$T;nothing_here"
bad too_big 1 "a smaller --strlen" --strlen 300 "exec=$T;trace_call s:string t=s:string"
