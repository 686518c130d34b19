# The load command's runtime behaviour: exit status, children, -p PID,
# SIGTERM cleanup, stdout/stderr split.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip runtime "$why"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; kill %1 %2 2>/dev/null' EXIT
TGT=build/targets/args-gcc-O2
# the basic args programs, "neg" renamed for this run: other suites running
# at the same time load the same objects, and a program is told apart from
# theirs by its name
NEG=$(printf 'r%04x_neg' $((RANDOM ^ $$ & 0xffff)))
OBJ=$tmp/basic.o
clang $BPF_CFLAGS -Itests/bpf -DTARGET="\"$PWD/$TGT\"" -Dneg="$NEG" \
	-c tests/bpf/args__basic.bpf.c -o "$OBJ" || { fail runtime "cannot build $OBJ"; exit 0; }

# the workload's exit status is bpfprobe's
timeout 60 "$BPFPROBE" load $OBJ -- sh -c "exit 3" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 3 ]; then
	pass runtime_exit_status
else
	fail runtime_exit_status "exit $rc, want 3: $(tail -3 "$tmp/err")"
fi

# the probes follow the workload's process through a further exec
out=$(timeout 60 "$BPFPROBE" load --quiet-meta $OBJ -- sh -c "exec $TGT" 2>"$tmp/err")
if diff=$(compare_truth "$out"); then
	pass runtime_probes_after_exec
else
	fail runtime_probes_after_exec "$diff"
fi
if grep -q '^GOT ' "$tmp/err"; then
	fail runtime_stdout_only "printk lines on stderr"
elif grep -q '^GOT ' <<<"$out"; then
	pass runtime_stdout_only
else
	fail runtime_stdout_only "no printk line on stdout"
fi

# a command that cannot run
timeout 30 "$BPFPROBE" load $OBJ -- /nonexistent/cmd >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 127 ] && grep -q /nonexistent/cmd "$tmp/err" && nothing_loaded "$NEG"; then
	pass runtime_bad_command
else
	fail runtime_bad_command "exit $rc: $(cat "$tmp/err")"
fi

# a child the workload forks is probed (followed through the guard and the
# fork tracepoint, not perf's inherit, which would break fork) and the
# shell's fork and exit status are unharmed
out=$(timeout 60 "$BPFPROBE" load --quiet-meta $OBJ -- sh -c "$TGT; exit 0" 2>"$tmp/err")
rc=$?
if [ $rc -eq 0 ] && diff=$(compare_truth "$out"); then
	pass runtime_fork_followed
else
	fail runtime_fork_followed "exit $rc: $diff $(tail -3 "$tmp/err")"
fi

# -p PID: only that process; SIGTERM detaches and exits 0
$TGT 400 25 >"$tmp/target.out" &
tpid=$!
$TGT 400 25 >/dev/null &
other=$!
"$BPFPROBE" load --quiet-meta -p $tpid $OBJ >"$tmp/out" 2>"$tmp/err" &
bp=$!
for _ in $(seq 100); do
	[ "$(grep -c '^GOT neg_args' "$tmp/out")" -ge 3 ] && break
	sleep 0.1
done
kill -TERM $bp
wait $bp
rc=$?
kill $tpid $other 2>/dev/null
wait $tpid $other 2>/dev/null
n=$(grep -c '^GOT neg_args' "$tmp/out")
# the other process runs the same code at the same rate: with it probed too,
# lines would come in pairs; check the count is at most what one target made
made=$(grep -c '^TRUTH neg_args' "$tmp/target.out")
if [ $rc -eq 0 ] && [ "$n" -ge 3 ] && [ "$n" -le $((made + 1)) ] && nothing_loaded "$NEG"; then
	pass runtime_pid_filter_and_sigterm
else
	fail runtime_pid_filter_and_sigterm "exit $rc, $n lines for $made calls: $(tail -3 "$tmp/err")"
fi

# SIGKILL while attached: the kernel drops every program, link and probe
"$BPFPROBE" load $OBJ >/dev/null 2>&1 &
bp=$!
for _ in $(seq 300); do	# up to 30 s: slow under ASan
	nothing_loaded "$NEG" || break	# ours, not an older program of that name
	sleep 0.1
done
loaded_before=$(nothing_loaded "$NEG" && echo no || echo yes)
kill -KILL $bp
wait $bp 2>/dev/null
sleep 0.5
if [ "$loaded_before" = yes ] && nothing_loaded "$NEG" &&
   ! grep -q "args-gcc-O2" /sys/kernel/tracing/uprobe_events 2>/dev/null; then
	pass runtime_sigkill_leaves_nothing
else
	fail runtime_sigkill_leaves_nothing "loaded before kill: $loaded_before; still loaded or probe left"
fi
