# Shared by the e2e scripts: result lines the runner counts, and helpers.
# Source it from the repository root.
BPFPROBE=${BPFPROBE:-build/bpfprobe}
# The same command with glibc shared (Makefile), for runs that preload
# tests/e2e/fault_stop.c: a preload cannot reach into the static build.
BPFPROBE_PRELOADABLE=${BPFPROBE_PRELOADABLE:-build/tests/bpfprobe-preloadable}
VARIANTS=${VARIANTS:-"gcc-O0 gcc-O2 clang-O0 clang-O2"}
BPF_CFLAGS="-O2 -g -target bpf -D__TARGET_ARCH_x86 -I/usr/include/$(uname -m)-linux-gnu"

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
skip() { echo "SKIP $1: $2"; }

# The namespaces tests run workloads in, as arrays: NS_MNT_PID (mount and
# PID namespaces, nothing mounted in them) and NS_PID_PROC (a PID namespace
# with a /proc of its own). unshare -m first makes the new namespace's /
# private, which a chroot's / (not a mount point: ../shared/fresh-machine.sh)
# refuses; there propagation is left as it is, and for NS_PID_PROC /proc
# alone is made private in the new namespace before proc is mounted on it,
# so no mount reaches the namespace the test runs in.
namespace_cmds() {
	if unshare -m -p -f true 2>/dev/null; then
		NS_MNT_PID=(unshare -m -p -f)
		NS_PID_PROC=(unshare -p -f --mount-proc)
	else
		NS_MNT_PID=(unshare -m --propagation unchanged -p -f)
		NS_PID_PROC=(unshare -p -f -m --propagation unchanged sh -c
			'mount --make-rprivate /proc && mount -t proc proc /proc && exec "$@"' sh)
	fi
}

# Stack tests (stacks.sh, stacks_fp.sh): gdb's frames and ours compared.
# the first hit's frames under gdb (GDB_HIT=N: the N-th's): gdb_frames OUT
# BREAK ARGS...
gdb_frames() {
	local out=$1 brk=$2
	shift 2
	timeout 120 gdb -nx -batch -ex 'set breakpoint pending on' -ex "break $brk" \
		-ex "ignore 1 $((${GDB_HIT:-1} - 1))" -ex run \
		-ex "source tests/e2e/gdb_frames.py" --args "$@" </dev/null 2>&1 |
		sed -n 's/^GDBFRAME /BPFRAME /p' >"$out"
}

# compare NAME GDBFILE BPFILE MIN [MORE]: equal and at least MIN frames
compare() {
	local name=$1 min=$4 n
	n=$(wc -l <"$2")
	if [ "$n" -ge "$min" ] && cmp -s "$2" "$3"; then
		pass "$name"
	else
		fail "$name" "gdb's $n frames vs ours: $(diff "$2" "$3" | head -12 | tr '\n' '|') $5"
	fi
}

# Why uprobe tests cannot run here, or nothing when they can.
uprobe_unavailable() {
	[ "$(id -u)" -eq 0 ] || { echo "needs root (CAP_BPF + CAP_PERFMON)"; return; }
	[ -e /sys/bus/event_source/devices/uprobe/type ] ||
		{ echo "kernel has no uprobe PMU (CONFIG_UPROBE_EVENTS off)"; return; }
}

# "GOT x ..." lines of $1 and "TRUTH x ..." lines of $1 must be the same multiset.
# GOT lines may carry bpfprobe's default printk prefix "TIME COMM PID CPU: ".
# Prints the difference; returns non-zero when they differ or nothing matched.
compare_truth() {
	local out=$1 got truth
	got=$(sed -n -E 's/^([0-9]+\.[0-9]{6} .+ [0-9]+ [0-9]+: )?GOT //p' <<<"$out" | sort)
	truth=$(grep '^TRUTH ' <<<"$out" | sed 's/^TRUTH //' | sort)
	[ -n "$truth" ] || { echo "no TRUTH lines"; return 1; }
	if [ "$got" != "$truth" ]; then
		diff <(echo "$truth") <(echo "$got") | sed 's/^/    /'
		grep '^ERR ' <<<"$out" | sed 's/^/    /'
		return 1
	fi
}

# check_whats NAME OUT RC WHAT...: every WHAT's "GOT WHAT ..." lines equal its
# "TRUTH WHAT ..." lines as multisets (whatever prefix the output carries
# before GOT), and each WHAT has some. One awk: this runs under load.
check_whats() {
	local name=$1 out=$2 rc=$3 bad
	shift 3
	if [ "$rc" -ne 0 ]; then
		fail "$name" "exit $rc: $(grep -v 'TRUTH' <<<"$out" | tail -4)"
		return
	fi
	bad=$(awk -v whats="$*" '
	BEGIN { n = split(whats, w, " "); for (i = 1; i <= n; i++) want[w[i]] = 1 }
	function take(kind,    i, s, f) {
		i = index($0, kind " ")
		if (!i)
			return ""
		s = substr($0, i + length(kind) + 1)
		split(s, f, " ")
		return (f[1] in want) ? s : ""
	}
	{
		if ((s = take("TRUTH")) != "") { c[s]++; split(s, f, " "); t[f[1]] = 1 }
		else if ((s = take("GOT")) != "") c[s]--
		else if ((s = take("ERR")) != "") { split(s, f, " "); e[f[1]] = s }
	}
	END {
		for (x in want)
			if (!(x in t))
				printf " %s: no TRUTH line;", x
		for (s in c) {
			if (!c[s])
				continue
			split(s, f, " ")
			printf(" %s \"%s\"%s;", (c[s] > 0 ? "missing" : "unexpected"), s,
			       ((f[1] in e) ? " (" e[f[1]] ")" : ""))
		}
	}' <<<"$out") || bad="cannot compare: awk failed"
	if [ -z "$bad" ]; then
		pass "$name"
	else
		fail "$name" "$bad"
	fi
}

# Compiles a one-off BPF object from C source on stdin: mkobj OUT.o
mkobj() {
	clang $BPF_CFLAGS -x c -c - -o "$1"
}

# The highest BPF program id now: programs loaded later have larger ids.
max_prog_id() {
	bpftool prog show 2>/dev/null | sed -n 's/^\([0-9]*\): .*/\1/p' | sort -n | tail -1
}
PROG_ID_BASELINE=$(max_prog_id)

# The pids holding BPF program $1 open (an fd of it, or of a link to it).
prog_holders() {
	grep -lsE "^prog_id:[[:space:]]+$1\$" /proc/[0-9]*/fdinfo/* 2>/dev/null |
		cut -d/ -f3 | sort -u
}

# No BPF program named $1 loaded since this script started is still loaded
# (ids, not names: an older program of the same name may be someone else's)
# by this test: one held by no process (pinned, or left in the kernel) or
# by a process of this test's process group. One that another session's
# process holds (the same test running there) is not ours.
nothing_loaded() {
	local id pid pids ours=$(ps -o pgid= -p $$ | tr -d ' ')

	for id in $(bpftool prog show 2>/dev/null |
		    awk -v base="${PROG_ID_BASELINE:-0}" -v name="$1" \
		    '$1 + 0 > base + 0 && $3 == "name" && $4 == name { sub(":", "", $1); print $1 }'); do
		pids=$(prog_holders "$id")
		[ -n "$pids" ] || return 1
		for pid in $pids; do
			[ "$(ps -o pgid= -p "$pid" 2>/dev/null | tr -d ' ')" = "$ours" ] && return 1
		done
	done
	return 0
}

# Waits (10 s at most) until file $2 has a line matching $1; false if not.
wait_grep() {
	for _ in $(seq 100); do
		grep -q -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# A copy of $BPFPROBE in directory $1 (made world-readable), for running as
# an unprivileged user: the checkout may sit where that user cannot read.
nobody_copy() {
	chmod 755 "$1"
	cp "$BPFPROBE" "$1/bpfprobe" && chmod 755 "$1/bpfprobe" && echo "$1/bpfprobe"
}

# Runs a command as nobody, without capabilities, from /.
as_nobody() {
	(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@")
}

# swapped_target OUT VERSION FN [GCC FLAGS...]: a program whose FN(a, b)
# (noinline) takes its parameters in the order VERSION says: version 2
# swaps them, so that a and b live in other registers than in version 1
# (a rebuilt binary whose old DWARF would now be wrong). It prints
# "TRUTH a=A b=B", the values FN receives; FN_other(x) is a second
# function. Its source is OUT.c.
swapped_target() {
	local out=$1 v=$2 fn=$3
	shift 3
	cat >"$out.c" <<EOF
#include <stdio.h>
#include <stdlib.h>
volatile long sink;
#if $v == 1
__attribute__((noinline)) long $fn(long a, int b) { sink = a; return a + b; }
#define CALL(a, b) $fn(a, b)
#else
__attribute__((noinline)) long $fn(int b, long a) { sink = a; return a - b; }
#define CALL(a, b) $fn(b, a)
#endif
__attribute__((noinline)) long ${fn}_other(int x) { sink = x; return x; }
int main(int argc, char **argv)
{
	long a = 1000 + argc, r;
	int b = 7 * $v;

	printf("TRUTH a=%ld b=%d\n", a, b);
	fflush(stdout);
	r = CALL(a, b) + ${fn}_other(argc);
	return r == 0;
}
EOF
	gcc -O2 -g "$@" "$out.c" -o "$out.new" && mv "$out.new" "$out"
}

# swapped_probe OUT.o SEC: a BPF object whose program, at SEC (an FN of
# swapped_target with "a b"), prints "GOT a=A b=B": what compare_truth
# matches against the target's TRUTH line.
swapped_probe() {
	mkobj "$1" <<EOF
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("$2")
int p(void *ctx, int err, long a, long b)
{
	bpf_printk("GOT a=%ld b=%ld", a, b);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOF
}
