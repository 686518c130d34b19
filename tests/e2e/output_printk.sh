# bpf_trace_printk output: the default "TIME COMM PID CPU: message" line,
# --quiet-meta, --json, sessions that do not see each other's lines, and the
# global trace_pipe that does not see ours.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip output_printk "$why"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; kill $s3 2>/dev/null' EXIT
T=build/targets/output-gcc-O2
PK=build/bpf/output__printk-gcc-O2.o
PK2=build/bpf/output__printk2-gcc-O2.o
ncpu=$(nproc)

truth_pid() {
	sed -n 's/^TRUTH pid=//p' "$1"
}

# every GOT line is "TIME COMM PID CPU: GOT printk pid=PID i=I v=V" with the
# workload's pid and comm, a real CPU, times in order, and values as called
timeout 60 "$BPFPROBE" load $PK -- $T printk 5 >"$tmp/out" 2>"$tmp/err"
rc=$?
pid=$(truth_pid "$tmp/out")
bad=$(grep -v '^TRUTH' "$tmp/out" | awk -v pid="$pid" -v ncpu="$ncpu" '
	{
		ok = NF == 9 && $1 ~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/ &&
		     $2 == "output-gcc-O2" && $3 == pid && $4 ~ /^[0-9]+:$/ &&
		     $4 + 0 < ncpu && $5 == "GOT" && $7 == "pid=" pid &&
		     $1 + 0 >= last
		last = $1 + 0
		if (!ok) print
	}')
got=$(sed -n 's/^.*: GOT printk pid=[0-9]* \(i=.*\)/\1/p' "$tmp/out")
want=$(sed -n 's/^TRUTH printk //p' "$tmp/out")
if [ $rc -eq 0 ] && [ -n "$pid" ] && [ -z "$bad" ] && [ "$(wc -l <<<"$got")" -eq 5 ] &&
   [ "$got" = "$want" ]; then
	pass output_printk_default_line
else
	fail output_printk_default_line "exit $rc, pid $pid, bad lines: $bad; got: $got; want: $want $(tail -3 "$tmp/err")"
fi

# --quiet-meta: the message alone
out=$(timeout 60 "$BPFPROBE" load --quiet-meta $PK -- $T printk 3 2>"$tmp/err")
pid=$(sed -n 's/^TRUTH pid=//p' <<<"$out")
got=$(grep -v '^TRUTH' <<<"$out")
want=$(printf 'GOT printk pid=%s i=0 v=-7\nGOT printk pid=%s i=1 v=-1007\nGOT printk pid=%s i=2 v=-2007' \
	"$pid" "$pid" "$pid")
if [ "$got" = "$want" ]; then
	pass output_printk_quiet_meta
else
	fail output_printk_quiet_meta "got: $got; want: $want $(tail -3 "$tmp/err")"
fi

# --json: one object per line; jq reads pid, comm, cpu and the message back
# (the workload's own stdout goes to stderr: stdout is JSON alone)
out=$(timeout 60 "$BPFPROBE" load --json $PK -- $T printk 3 2>"$tmp/err")
pid=$(sed -n 's/^TRUTH pid=//p' "$tmp/err")
got=$(jq -r 'select(.type == "printk") | "\(.pid) \(.comm) \(.cpu < 4096) \(.time_ns > 0) \(.msg)"' <<<"$out" 2>&1)
want=$(for i in 0 1 2; do
	echo "$pid output-gcc-O2 true true GOT printk pid=$pid i=$i v=$((-1000 * i - 7))"
done)
if [ "$got" = "$want" ]; then
	pass output_printk_json
else
	fail output_printk_json "got: $got; want: $want $(tail -3 "$tmp/err")"
fi

# Two sessions on the same function of two workloads, with the same
# program, and a third, system-wide session with another format: the
# bpf_trace_printk event is global, so each session's instance receives
# every line; the pid scope and the format filter must keep each to its own.
"$BPFPROBE" load $PK2 >"$tmp/s3" 2>"$tmp/s3.err" &
s3=$!
wait_grep 'attached' "$tmp/s3.err"	# our session's, not another suite's pk2
"$BPFPROBE" load $PK -- $T printk 30 10 >"$tmp/s1" 2>"$tmp/s1.err" &
s1=$!
"$BPFPROBE" load $PK -- $T printk 30 10 >"$tmp/s2" 2>"$tmp/s2.err" &
s2=$!
wait $s1
rc1=$?
wait $s2
rc2=$?
sleep 0.3
kill -INT $s3
wait $s3
rc3=$?
p1=$(truth_pid "$tmp/s1")
p2=$(truth_pid "$tmp/s2")
session_ok() {	# file pid: 30 lines, all of pid, values as called, no OTHER
	local want got
	want=$(sed -n 's/^TRUTH printk //p' "$1")
	got=$(awk -v pid="$2" '$5 == "GOT" && $3 == pid && $7 == "pid=" pid { print $8, $9 }' "$1")
	[ "$(grep -c ': GOT printk' "$1")" -eq 30 ] && [ "$got" = "$want" ] &&
		! grep -q OTHER "$1"
}
# the system-wide session: every call of both workloads, in its own format
# only ("TIME COMM PID CPU: OTHER I: v=V"; other processes running this
# target at the same time are not ours to count)
awk -v p1="$p1" -v p2="$p2" '$3 == p1 || $3 == p2' "$tmp/s3" >"$tmp/s3.ours"
others=$(awk '{ sub(":", "", $6); print $6, $7 }' "$tmp/s3.ours" | sort -n | uniq -c |
	awk '{ print $1, $2, $3 }' | sort -u)
want3=$(for i in $(seq 0 29); do echo "2 $i v=$((-1000 * i - 7))"; done | sort -u)
if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ $rc3 -eq 0 ] && [ "$p1" != "$p2" ] &&
   session_ok "$tmp/s1" "$p1" && session_ok "$tmp/s2" "$p2"; then
	pass output_printk_sessions_do_not_mix
else
	fail output_printk_sessions_do_not_mix "exits $rc1 $rc2 $rc3, pids $p1 $p2:
$(grep -v '^TRUTH' "$tmp/s1" | grep -v "GOT printk pid=$p1 " | head -3)
$(grep -v '^TRUTH' "$tmp/s2" | grep -v "GOT printk pid=$p2 " | head -3) $(tail -2 "$tmp/s1.err")"
fi
if [ "$(grep -c ': OTHER ' "$tmp/s3.ours")" -eq 60 ] && ! grep -q GOT "$tmp/s3" &&
   [ "$others" = "$want3" ]; then
	pass output_printk_system_wide_session_own_format
else
	fail output_printk_system_wide_session_own_format "$(grep -c ': OTHER ' "$tmp/s3.ours") OTHER lines of the two workloads, want 60: $(grep -v ': OTHER ' "$tmp/s3" | head -3) $(tail -2 "$tmp/s3.err")"
fi

# the global trace_pipe: the kernel turns the top-level bpf_trace_printk
# event on when it loads a printk program; bpfprobe turns it back off when
# it was off, so the global buffer does not get our lines
ev=/sys/kernel/tracing/events/bpf_trace/bpf_trace_printk/enable
if [ -w $ev ]; then
	# the kernel turns the event on for any printk program loaded, by
	# another session too (this very test, run by a session beside us),
	# at any moment: up to 10 tries, a random pause between them so that
	# two sessions fall out of step; one clean run passes (bpfprobe
	# leaving it on fails them all)
	before=$(cat $ev)
	for try in 1 2 3 4 5 6 7 8 9 10; do
		[ $try -gt 1 ] && sleep "0.$((RANDOM % 10))"
		echo 0 >$ev
		timeout 60 "$BPFPROBE" load --quiet-meta $PK -- $T printk 3 >"$tmp/out" 2>"$tmp/err"
		pid=$(truth_pid "$tmp/out")
		after=$(cat $ev)
		n=$(grep -c "GOT printk pid=$pid " /sys/kernel/tracing/trace)
		[ "$after" = 0 ] && [ "$n" -eq 0 ] && break
	done
	echo "$before" >$ev
	if [ "$after" = 0 ] && [ "$n" -eq 0 ] && [ "$(grep -c '^GOT' "$tmp/out")" -eq 3 ]; then
		pass output_printk_not_in_global_trace
	else
		fail output_printk_not_in_global_trace "top-level event $after after the run, $n of our lines in the global buffer (10 tries)"
	fi
else
	fail output_printk_not_in_global_trace "$ev is not writable"
fi
