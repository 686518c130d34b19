# The probed process or file changes under an attached bpfprobe: the
# target execs into the probed binary after the attach, the target exits,
# the binary is replaced on disk and deleted. bpfprobe must keep running,
# fetch right values where the probes still apply, and detach cleanly on
# SIGTERM (exit 0, nothing loaded).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fault_helpers.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip fault_target "$why"
	exit 0
fi
fault_setup
bp= tp= old=
trap 'kill -KILL $bp $tp $old 2>/dev/null; rm -rf "$tmp"' EXIT
fault_obj "$tmp/obj.o"

# GOT lines of $1 with the output decoration (if any) before "GOT " removed
got() {
	sed -n 's/.*\(GOT [a-z_]* .*\)/\1/p' "$1"
}

# wait_lines FILE PATTERN N: until FILE has N lines matching, 10 s at most
wait_lines() {
	for _ in $(seq 100); do
		[ "$(grep -c -- "$2" "$1")" -ge "$3" ] && return 0
		sleep 0.1
	done
	return 1
}

# stop_clean NAME: SIGTERM $bp; it must exit 0 with nothing of ours left
stop_clean() {
	local rc left
	kill -TERM $bp 2>/dev/null
	for _ in $(seq 100); do
		kill -0 $bp 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 $bp 2>/dev/null; then
		fail "$1" "bpfprobe ignored SIGTERM"
		kill -KILL $bp
		return 1
	fi
	wait $bp
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$1" "exit $rc after SIGTERM: $(tail -3 "$tmp/err")"
		return 1
	fi
	if ! left=$(fault_gone); then
		fail "$1" "$left"
		return 1
	fi
}

# 1. -p PID of a shell that execs the victim after the attach; then the
#    victim exits while bpfprobe stays attached to the dead pid
mkfifo "$tmp/go"
sh -c "read x <'$tmp/go'; exec '$V' 3" >"$tmp/target.out" 2>&1 &
tp=$!
"$BPFPROBE" load -p $tp "$tmp/obj.o" >"$tmp/out" 2>"$tmp/err" &
bp=$!
# attached once both programs are in the kernel and linked
for _ in $(seq 100); do
	[ "$(fault_links $(fault_progs) | wc -l)" -ge 2 ] && break
	sleep 0.1
done
echo go >"$tmp/go"
wait $tp
tp=
if ! wait_lines "$tmp/out" 'GOT neg_args' 3; then
	fail fault_target_execs_after_attach "no probe output after the exec: $(tail -3 "$tmp/err")"
else
	want=$(grep -E '^TRUTH (neg_args|handle_req) ' "$tmp/target.out" | sed 's/^TRUTH //' | sort)
	have=$(got "$tmp/out" | sed 's/^GOT //' | sort)
	if [ "$want" = "$have" ]; then
		pass fault_target_execs_after_attach
	else
		fail fault_target_execs_after_attach "fetched values differ: want '$want' got '$have'"
	fi
fi
sleep 0.3
if ! kill -0 $bp 2>/dev/null; then
	wait $bp
	fail fault_target_exits "bpfprobe died with the target: exit $?: $(tail -3 "$tmp/err")"
elif stop_clean fault_target_exits; then
	pass fault_target_exits
fi

# 2. system-wide; the binary is replaced on disk (rename over it, as package
#    managers and `install` do) while a process of the old file runs, then
#    deleted. The probes stay on the file they were attached to (uprobes
#    belong to an inode): the running old process keeps being probed, a
#    process of the new file is not.
"$BPFPROBE" load "$tmp/obj.o" >"$tmp/out" 2>"$tmp/err" &
bp=$!
for _ in $(seq 100); do
	[ "$(fault_links $(fault_progs) | wc -l)" -ge 2 ] && break
	sleep 0.1
done
"$V" 300 10 >"$tmp/old.out" &
old=$!
wait_lines "$tmp/out" 'GOT neg_args' 2
cp build/targets/args-gcc-O2 "$V.new"
mv -f "$V.new" "$V"
n0=$(grep -c 'GOT neg_args' "$tmp/out")
sleep 0.5
n1=$(grep -c 'GOT neg_args' "$tmp/out")
kill $old
wait $old 2>/dev/null
old=
# the old process's last lines may still be on their way (a loaded machine)
n2=$(settled_count "$tmp/out" 'GOT neg_args')
"$V" 3 >/dev/null
n3=$(settled_count "$tmp/out" 'GOT neg_args')
bad=$(got "$tmp/out" | grep -v -e 'GOT neg_args a=-5 b=-1234567890123 c=-7' \
	-e 'GOT handle_req len=1500 fd=9 y=-77' | head -2)
if [ "$n0" -lt 2 ] || [ "$n1" -le "$n0" ]; then
	fail fault_target_binary_replaced "the running old process stopped being probed ($n0 -> $n1): $(tail -3 "$tmp/err")"
elif [ "$n3" -ne "$n2" ]; then
	fail fault_target_binary_replaced "a process of the new file fired the old file's probes ($n2 -> $n3)"
elif [ -n "$bad" ]; then
	fail fault_target_binary_replaced "wrong values: $bad"
elif ! kill -0 $bp 2>/dev/null; then
	fail fault_target_binary_replaced "bpfprobe exited: $(tail -3 "$tmp/err")"
else
	pass fault_target_binary_replaced
fi
rm -f "$V"
sleep 0.2
if stop_clean fault_target_binary_deleted; then
	pass fault_target_binary_deleted
fi
