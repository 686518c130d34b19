# Following the workload's process tree: a probed function called by a
# grandchild of `sh -c`, by forked children and by threads is seen with the
# values the target itself prints, --no-follow hides the children, a
# fork-heavy workload runs unharmed, other processes' calls stay out, -p
# PID follows what PID starts later, and inside a PID namespace (the kernel
# numbers processes differently there) everything works the same. At exit
# a program that never ran is reported with the likely reason.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip follow "$why"
	exit 0
fi
tmp=$(mktemp -d)
bg=()
trap 'kill "${bg[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
T=build/targets/follow-gcc-O2
T2=build/targets/follow-clang-O2
O=build/bpf/follow__work-gcc-O2.o

# check NAME OUT ERR RC: the GOT lines are the TRUTH lines, exit 0
check_truth() {
	local name=$1 out=$2 err=$3 rc=$4 diff
	if [ "$rc" -ne 0 ]; then
		fail "$name" "exit $rc: $(tail -3 <<<"$err")"
	elif diff=$(compare_truth "$out"); then
		pass "$name"
	else
		fail "$name" "fetched values differ from the truth (< truth, > fetched):
$diff $(tail -3 <<<"$err")"
	fi
}

# a grandchild of sh -c (two shells, then the target)
out=$(timeout 60 "$BPFPROBE" load --quiet-meta $O -- sh -c "sh -c '$T self 3'; true" 2>"$tmp/err")
check_truth follow_grandchild "$out" "$(cat "$tmp/err")" $?
if grep -q '^bpfprobe: 1 probe point attached; running sh -c' "$tmp/err"; then
	pass follow_says_attached
else
	fail follow_says_attached "$(cat "$tmp/err")"
fi

# --no-follow: the target is a grandchild, so nothing fires; and it is said
out=$(timeout 60 "$BPFPROBE" load --no-follow --quiet-meta $O -- sh -c "sh -c '$T self 3'; true" 2>"$tmp/err")
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '^TRUTH' <<<"$out")" -eq 3 ] && ! grep -q '^GOT' <<<"$out" &&
   grep -q "^bpfprobe: program 'work' never ran: work in .*follow-gcc-O2 was never called" "$tmp/err"; then
	pass follow_no_follow_hides_children
else
	fail follow_no_follow_hides_children "exit $rc: $(grep -v TRUTH <<<"$out" | head -3) $(cat "$tmp/err")"
fi

# -q: nothing of bpfprobe's own on stderr
out=$(timeout 60 "$BPFPROBE" load -q --no-follow --quiet-meta $O -- sh -c "sh -c '$T self 1'" 2>"$tmp/err")
if [ $? -eq 0 ] && [ ! -s "$tmp/err" ]; then
	pass follow_quiet
else
	fail follow_quiet "$(cat "$tmp/err")"
fi

# a fork-heavy workload: 300 children, every one probed, every fork works
out=$(timeout 120 "$BPFPROBE" load -q --quiet-meta $O -- $T forks 300 2>"$tmp/err")
rc=$?
check_truth follow_fork_heavy "$out" "$(cat "$tmp/err")" $rc
if grep -qx 'done forks 300' <<<"$out" && [ "$(grep -c '^GOT' <<<"$out")" -eq 300 ]; then
	pass follow_fork_heavy_unharmed
else
	fail follow_fork_heavy_unharmed "$(grep done <<<"$out") $(grep -c '^GOT' <<<"$out") lines"
fi

# threads are part of their process, followed or not
for mode in "" --no-follow; do
	out=$(timeout 60 "$BPFPROBE" load -q $mode --quiet-meta $O -- $T threads 16 2>"$tmp/err")
	check_truth "follow_threads${mode:+_no_follow}" "$out" "$(cat "$tmp/err")" $?
done

# another process calling the same function is not traced; the program
# never ran in ours, and the report counts the hits it refused
( while :; do $T self 1 >/dev/null; done ) &
bg+=($!)
out=$(timeout 60 "$BPFPROBE" load --quiet-meta $O -- $T idle 1 2>"$tmp/err")
rc=$?
if [ $rc -eq 0 ] && ! grep -q '^GOT' <<<"$out" &&
   grep -Eq "^bpfprobe: program 'work' never ran: its [0-9]+ hits? came from processes it does not trace" "$tmp/err"; then
	pass follow_others_refused
else
	fail follow_others_refused "exit $rc: $(head -3 <<<"$out") $(cat "$tmp/err")"
fi
kill "${bg[@]}" 2>/dev/null
wait 2>/dev/null
bg=()

# the SEC names one build, the workload runs another
out=$(timeout 60 "$BPFPROBE" load --quiet-meta $O -- sh -c "$T2 self 2" 2>"$tmp/err")
rc=$?
if [ $rc -eq 0 ] && grep -q "^bpfprobe: program 'work' never ran: its binary .*/follow-gcc-O2 was never run by the traced processes, which ran: .*follow-clang-O2" "$tmp/err"; then
	pass follow_never_ran_other_binary
else
	fail follow_never_ran_other_binary "exit $rc: $(cat "$tmp/err")"
fi

# -p PID of a process that does not map the probed binary: a warning
sleep 30 &
sl=$!
bg+=($sl)
"$BPFPROBE" load --quiet-meta -p $sl $O >"$tmp/out" 2>"$tmp/err" &
bp=$!
wait_grep 'does not map' "$tmp/err"
kill -INT $bp
wait $bp
rc=$?
if [ $rc -eq 0 ] && grep -q "^bpfprobe: warning: process $sl does not map .*/follow-gcc-O2 (program 'work')" "$tmp/err"; then
	pass follow_pid_not_mapped_warning
else
	fail follow_pid_not_mapped_warning "exit $rc: $(cat "$tmp/err")"
fi

# -p PID: what PID starts after the attach is traced too
sh -c "while [ ! -e $tmp/go ]; do sleep 0.05; done; $T self 2; $T forks 3" >"$tmp/target.out" &
sh=$!
bg+=($sh)
"$BPFPROBE" load --quiet-meta -p $sh $O >"$tmp/out" 2>"$tmp/err" &
bp=$!
wait_grep attached "$tmp/err"
touch "$tmp/go"
wait $sh
sleep 0.5
kill -INT $bp
wait $bp
rc=$?
check_truth follow_pid_tree "$(cat "$tmp/out" "$tmp/target.out")" "$(cat "$tmp/err")" $rc

# inside a PID namespace (pids there are not the kernel's): the workload's
# tree is followed and its printk lines shown
namespace_cmds
if "${NS_PID_PROC[@]}" true 2>/dev/null; then
	out=$(timeout 60 "${NS_PID_PROC[@]}" \
		"$BPFPROBE" load --quiet-meta $O -- sh -c "$T self 2; $T forks 2" 2>"$tmp/err")
	check_truth follow_pid_namespace "$out" "$(cat "$tmp/err")" $?
	# -p PID there: PID itself is traced (its kernel number is unknown)
	out=$(timeout 60 "${NS_PID_PROC[@]}" sh -c "
		sh -c 'while [ ! -e $tmp/go2 ]; do sleep 0.05; done; exec $T self 2' >$tmp/t2.out &
		sh=\$!
		$BPFPROBE load --quiet-meta -p \$sh $O 2>$tmp/err2 &
		bp=\$!
		for i in \$(seq 100); do grep -q attached $tmp/err2 && break; sleep 0.1; done
		touch $tmp/go2
		wait \$sh
		sleep 0.5
		kill -INT \$bp
		wait \$bp" 2>&1)
	check_truth follow_pid_namespace_p "$out"$'\n'"$(cat "$tmp/t2.out")" "$(cat "$tmp/err2")" $?
else
	skip follow_pid_namespace "unshare --pid does not work here"
fi

# the instance's guard is chosen at load: with --no-follow the mark of its
# runs alone (3 instructions, no helper), following the followed-set check
# as well (bpf_get_current_pid_tgid and one byte of the bitmap, read in
# place: no map lookup before the refusal's count)
nf=$(timeout 60 "$BPFPROBE" load -v -q --no-follow --quiet-meta $O -- $T self 1 2>&1)
fl=$(timeout 60 "$BPFPROBE" load -v -q --quiet-meta $O -- $T self 1 2>&1)
guard_of() { awk "/^instance 'work' guard \\(/ { g = 1; next } /^instance / { g = 0 } g" <<<"$1"; }
if grep -q "^instance 'work' guard (3 insns):" <<<"$nf" &&
   ! guard_of "$nf" | grep -q call &&
   grep -q "^instance 'work' guard ([0-9]* insns):" <<<"$fl" &&
   guard_of "$fl" | grep -q "call bpf_get_current_pid_tgid" &&
   [ "$(guard_of "$fl" | grep -n call | head -2 | tail -1 | grep -c map_lookup_elem)" = 1 ] &&
   guard_of "$fl" | awk '/if r2 & r1 goto/ { seen = 1 } /map_lookup_elem/ && !seen { bad = 1 } END { exit bad || !seen }'; then
	pass follow_guard_forms
else
	fail follow_guard_forms "no-follow: $(guard_of "$nf" | head -5 | tr '\n' ';') follow: $(guard_of "$fl" | head -20 | tr '\n' ';')"
fi

# through the library: loaded without the check, attached with follow (the
# instance is loaded again, with it: the target's forked children run the
# program), then without (loaded again, without)
if gcc -Iinclude -o "$tmp/follow_forms" tests/lib/follow_forms.c build/libbpfprobe.a \
	-lbpf -ldw -lelf -lz -ltraceevent 2>"$tmp/cc.err"; then
	out=$("$tmp/follow_forms" $O $T 2>&1)
	rc=$?
	short=$(sed -n 's/^form loaded xlated=\([0-9]*\) .*/\1/p' <<<"$out")
	long=$(sed -n 's/^form follow xlated=\([0-9]*\) fd_changed=1$/\1/p' <<<"$out")
	back=$(sed -n 's/^form no-follow xlated=\([0-9]*\) fd_changed=1$/\1/p' <<<"$out")
	if [ $rc -eq 0 ] && grep -q '^ran=1 refused=0$' <<<"$out" && grep -q '^ok$' <<<"$out" &&
	   [ -n "$short" ] && [ -n "$long" ] && [ "$long" -gt "$short" ] && [ "$back" = "$short" ]; then
		pass follow_forms_loaded_again
	else
		fail follow_forms_loaded_again "exit $rc: $(tr '\n' ';' <<<"$out")"
	fi
else
	fail follow_forms_loaded_again "cc: $(head -3 "$tmp/cc.err")"
fi
