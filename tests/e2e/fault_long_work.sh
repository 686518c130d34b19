# Long work on a large unit (issue 30, rows 5 and 6): one compile unit of
# 100,000 functions (clang -O0 -g; the build takes seconds).
#
# Row 6, large units: a glob over all of them resolves with each unit's
# line table and function list decoded once, in time linear in the points
# (before: each point ran the unit's whole line program and two scans of
# every copy, over 5 minutes for 100k). No timing is asserted: the resolve
# must end within 120 s, which the quadratic one did not, and every point
# must be there with its source line. (`make bench` section 10 measures it.)
#
# Row 5, signals: SIGINT and SIGTERM stop resolve, funcs, vars and load
# within milliseconds, between points and within the unit's walk, with
# 128 + the signal and nothing printed but what stopped it. Before, the
# signal was seen only after the whole resolve (resolve ignored SIGINT
# when started in the background), and attach went through every point.
# tests/e2e/fault_stop.c, preloaded, stops bpfprobe (SIGSTOP) when it has
# opened the binary (resolve:PATH) or made its first uprobe; the signal is
# sent while it is stopped and delivered when it continues (SIGCONT). The
# stop is then asserted by what was not done (no point printed, how many
# uprobes were made), and within a generous 2 s of the continue.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fault_helpers.sh

N=100000
fault_setup
bp=
trap 'kill -KILL $bp 2>/dev/null; rm -rf "$tmp"' EXIT
U=$tmp/unit
awk -v n=$N 'BEGIN {
	for (i = 0; i < n; i++)
		printf "int unitf_%d(int x) { return x + %d; }\n", i, i
	print "int main(int c, char **v) { return unitf_0(c); }"
}' >"$tmp/unit.c"
if ! clang -g -O0 -o "$U" "$tmp/unit.c" 2>"$tmp/cc.err" ||
   ! gcc -O2 -shared -fPIC -o "$tmp/stop.so" tests/e2e/fault_stop.c -ldl 2>"$tmp/cc.err"; then
	fail long_work_build "$(tail -3 "$tmp/cc.err")"
	exit 0
fi
last=$(nm "$U" | awk '$3 == "unitf_99999" { sub(/^0+/, "", $1); print $1 }')

# --- row 6: a glob over the whole unit ---------------------------------------

# resolved NAME ARGS...: bpfprobe resolve ARGS "exec=U;unitf_* x" gives
# every point, the last one at its address and source line
resolved() {
	local name=$1 t0 t1 n
	shift
	t0=$(date +%s.%N)
	timeout 120 "$BPFPROBE" resolve "$@" "exec=$U;unitf_* x" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	t1=$(date +%s.%N)
	n=$(grep -c '^  point ' "$tmp/out")
	if [ $rc -ne 0 ]; then
		fail "$name" "exit $rc$( [ $rc -eq 124 ] && echo ' (not done in 120 s)'): $(tail -3 "$tmp/err")"
	elif [ "$n" -ne $N ]; then
		fail "$name" "$n points, want $N"
	elif ! at=$(grep -A3 "^  point 99999: unitf_99999 in " "$tmp/out" |
		    sed -n 's/.*address 0x\([0-9a-f]*\),.*/\1/p') ||
	     [ -z "$at" ] || [ $((16#$at - 16#$last)) -lt 0 ] || [ $((16#$at - 16#$last)) -gt 32 ] ||
	     ! grep -A3 "^  point 99999: " "$tmp/out" | grep -q "source $tmp/unit.c:100000$"; then
		# (at -O0 the point is past the prologue: a few bytes in)
		fail "$name" "the last point is not unitf_99999 at 0x$last+, line 100000: $(grep -A3 '^  point 99999: ' "$tmp/out" | tr '\n' ' ')"
	else
		echo "  ($name: $N points in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s)"
		pass "$name"
	fi
}
resolved large_unit_resolve_walk --no-cache
# the DWARF index built (cold), then read with the unit (the resolution
# cache emptied between)
resolved large_unit_resolve_index
rm -rf "${XDG_CACHE_HOME:-$HOME/.cache}/bpfprobe/resolutions"
resolved large_unit_resolve_index_warm

out=$(timeout 120 "$BPFPROBE" funcs "$U" 'unitf_*' 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '^unitf_' <<<"$out")" -eq $N ]; then
	pass large_unit_funcs
else
	fail large_unit_funcs "exit $rc, $(grep -c '^unitf_' <<<"$out") functions"
fi

# --- row 5: signals during the long work ------------------------------------

# stopped NAME AT SIG WANT_RC ENV... -- COMMAND ARGS...: COMMAND stopped at
# AT gets SIG there; it must exit WANT_RC within 2 s of continuing, saying
# so, with nothing on stdout; sets $tmp/out, $tmp/err, $tmp/count
stopped() {
	local name=$1 at=$2 sig=$3 want=$4 envs=() rc t0 t1
	shift 4
	while [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	rm -f "$tmp/stopped" "$tmp/count"
	# (a background job of this script starts with SIGINT ignored:
	# bpfprobe installs its own handler, which the old resolve did not)
	env "${envs[@]}" FAULT_STOP_AT="$at" FAULT_STOP_FILE="$tmp/stopped" \
		FAULT_COUNT_FILE="$tmp/count" LD_PRELOAD="$tmp/stop.so" \
		"$BPFPROBE_PRELOADABLE" "$@" >"$tmp/out" 2>"$tmp/err" &
	bp=$!
	if ! wait_stopped $bp || ! grep -q "stopped at $at" "$tmp/stopped" 2>/dev/null; then
		fail "$name" "bpfprobe did not reach '$at': $(tail -3 "$tmp/err")"
		kill -KILL $bp 2>/dev/null
		wait $bp 2>/dev/null
		bp=
		return 1
	fi
	kill -"$sig" $bp
	t0=$(date +%s.%N)
	kill -CONT $bp
	wait $bp
	rc=$?
	t1=$(date +%s.%N)
	bp=
	if [ $rc -ne "$want" ]; then
		fail "$name" "exit $rc, want $want: $(tail -3 "$tmp/err")"
	elif ! grep -q "interrupted by" "$tmp/err"; then
		fail "$name" "nothing said: $(tail -3 "$tmp/err")"
	elif [ -s "$tmp/out" ]; then
		fail "$name" "printed what it did before stopping: $(head -3 "$tmp/out")"
	elif awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a > 2) }'; then
		fail "$name" "stopped $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s after the signal"
	else
		return 0
	fi
	return 1
}

stopped stop_resolve_term "resolve:$U" TERM 143 -- resolve --no-cache "exec=$U;unitf_* x" &&
	pass stop_resolve_term
stopped stop_resolve_int "resolve:$U" INT 130 -- resolve --no-cache "exec=$U;unitf_* x" &&
	pass stop_resolve_int
# through the DWARF index: its scan of the unit stops too
stopped stop_resolve_index "resolve:$U" TERM 143 -- resolve "exec=$U;unitf_1* x" &&
	pass stop_resolve_index
stopped stop_funcs "resolve:$U" TERM 143 -- funcs "$U" 'unitf_*' && pass stop_funcs
stopped stop_vars "resolve:$U" INT 130 -- vars --no-cache "$U" 'unitf_*' && pass stop_vars

# attach: one perf event per point (as before Linux 6.6), 90 points; the
# signal after the first: no other is made, the first is undone
if [ -n "$(uprobe_unavailable)" ]; then
	skip stop_attach "$(uprobe_unavailable)"
	exit 0
fi
mkobj "$tmp/obj.o" <<EOC
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$U;unitf_?? x")
int ${P}_u(void *ctx, int err, long x)
{
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOC
before=$(fault_progs)
if stopped stop_attach attach-uprobe:1 TERM 143 BPFPROBE_UPROBE_MULTI=0 -- \
	load "$tmp/obj.o" -- /bin/true; then
	made=$(grep -c '^uprobe$' "$tmp/count")
	if [ "$made" -ge 90 ]; then
		fail stop_attach "all $made uprobes made before it stopped"
	elif ! left=$(fault_gone $before); then
		fail stop_attach "$left"
	else
		pass stop_attach
	fi
fi
