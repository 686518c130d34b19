# bpfprobe's tracefs instance: a name of its own, never an existing
# instance adopted (which would be another session's, say one of the same
# pid in another PID namespace), and a killed session's instance reclaimed
# by the next run, from any PID namespace, while a live one is never
# touched (its owner holds an flock on it).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fault_helpers.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip security_printk_instance "$why"
	exit 0
fi
command -v unshare >/dev/null || { fail security_printk_instance "unshare (util-linux) is missing"; exit 0; }
fault_setup
INST=/sys/kernel/tracing/instances
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
	[ -n "${planted:-}" ] && rmdir "$planted" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
# obj OUT.o TAG: a program on the victim's neg_args printing "TAG a=..."
obj() {
	mkobj "$1" <<EOC
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$V;p=neg_args a")
int ${P}_$2(void *ctx, int err, long a)
{
	bpf_printk("$2 a=%ld", a);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOC
}
# wait_line FILE TAG: runs the victim until FILE has a line "TAG a=-5" (10 s at most)
wait_line() {
	for _ in $(seq 100); do
		"$V" >/dev/null
		grep -q "^$2 a=-5\$" "$1" && return 0
		sleep 0.1
	done
	return 1
}
obj "$tmp/a.o" nsA
obj "$tmp/b.o" nsB
obj "$tmp/c.o" nsC

# 1. an instance named like the old bpfprobe.PID, there before the run
# (bash's $$ is bpfprobe's pid after exec): not used, not removed
out=$(bash -c 'echo $$ >"$1/pid"; mkdir "$0/bpfprobe.$$" && exec "${@:2}"' "$INST" "$tmp" \
	"$BPFPROBE" load --quiet-meta "$tmp/a.o" -- "$V" 2>"$tmp/err")
planted=$INST/bpfprobe.$(cat "$tmp/pid")
if ! grep -q '^nsA a=-5$' <<<"$out"; then
	fail printk_instance_not_adopted "no output: $(cat "$tmp/err")"
elif [ ! -d "$planted" ]; then
	fail printk_instance_not_adopted "the instance that was there before was removed"
elif [ "$(cat "$planted/events/bpf_trace/bpf_trace_printk/enable")" != 0 ]; then
	fail printk_instance_not_adopted "the instance that was there before had bpf_trace_printk turned on"
else
	pass printk_instance_not_adopted
fi
rmdir "$planted" 2>/dev/null && planted=

# 2. two sessions, each pid 1 of a PID namespace of its own: the second,
# starting and ending, leaves the first one's output alone
unshare -p -f "$BPFPROBE" load -a --quiet-meta "$tmp/a.o" >"$tmp/outA" 2>"$tmp/errA" &
pids+=($!)
ua=$!
wait_line "$tmp/outA" nsA
bpa=$(pgrep -P "$ua" | head -1)
n0=$(grep -c '^nsA a=-5$' "$tmp/outA")
# B's workload calls neg_args 20 times: A, probing every process, must see
# each call too (the old bpfprobe.1 shared by both: B's reader took some)
timeout 60 unshare -p -f "$BPFPROBE" load -a --quiet-meta "$tmp/b.o" -- "$V" 20 20 >"$tmp/outB" 2>"$tmp/errB"
for _ in $(seq 50); do
	[ "$(grep -c '^nsA a=-5$' "$tmp/outA")" -ge $((n0 + 20)) ] && break
	sleep 0.1
done
n1=$(grep -c '^nsA a=-5$' "$tmp/outA")
nb=$(grep -c '^nsB a=-5$' "$tmp/outB")
"$V" >/dev/null
for _ in $(seq 50); do
	[ "$(grep -c '^nsA a=-5$' "$tmp/outA")" -gt "$n1" ] && break
	sleep 0.1
done
n2=$(grep -c '^nsA a=-5$' "$tmp/outA")
if [ "$n0" -eq 0 ] || [ -z "$bpa" ]; then
	fail printk_instance_two_pid_namespaces "the first session printed nothing: $(cat "$tmp/errA")"
elif [ "$nb" -ne 20 ]; then
	fail printk_instance_two_pid_namespaces "the second session printed $nb lines, want 20: $(cat "$tmp/errB")"
elif [ "$n1" -ne $((n0 + 20)) ]; then
	fail printk_instance_two_pid_namespaces "the first session got $((n1 - n0)) of the 20 calls made while the second one ran"
elif [ "$n2" -le "$n1" ]; then
	fail printk_instance_two_pid_namespaces "the first session's output stopped when the second one ended"
else
	pass printk_instance_two_pid_namespaces
fi

# 3. SIGKILLed in its PID namespace (as pid 1, which always exists): the
# next run, from outside, removes its instance; the live session's stays
before=$(instances_now)
unshare -p -f "$BPFPROBE" load -a --quiet-meta "$tmp/c.o" >"$tmp/outC" 2>"$tmp/errC" &
pids+=($!)
uc=$!
wait_line "$tmp/outC" nsC
killed=$(instances_now | grep -vxF -e "$before" | grep -E '^bpfprobe\.1(\.|$)' | head -1)
kill -KILL "$(pgrep -P "$uc" | head -1)" 2>/dev/null
wait "$uc" 2>/dev/null
live=$(ls -d "$INST"/bpfprobe.1.* 2>/dev/null | while read -r d; do
	flock -n "$d" true 2>/dev/null || basename "$d"; done)
timeout 60 "$BPFPROBE" load --quiet-meta "$tmp/b.o" -- "$V" >/dev/null 2>"$tmp/err"
if [ -z "$killed" ]; then
	fail printk_instance_reclaimed_across_namespaces "no instance bpfprobe.1.* of the killed session: $(cat "$tmp/errC")"
elif [ -d "$INST/$killed" ]; then
	fail printk_instance_reclaimed_across_namespaces "$killed is still there after the next run"
elif [ -z "$live" ]; then
	fail printk_instance_reclaimed_across_namespaces "the live session holds no lock on its instance"
elif ! (for l in $live; do [ -d "$INST/$l" ] || exit 1; done); then
	fail printk_instance_reclaimed_across_namespaces "the live session's instance was removed"
else
	pass printk_instance_reclaimed_across_namespaces
fi
kill -INT "$bpa" 2>/dev/null
wait "$ua" 2>/dev/null
