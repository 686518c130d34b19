# Every sample in samples/ builds (make samples) and does what it says.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip samples "$why"
	exit 0
fi
S=build/samples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# libc's malloc sizes, through libc6-dbg
out=$(timeout 60 "$BPFPROBE" load --quiet-meta --no-map-dump $S/malloc.bpf.o -- $S/malloc_app 2>&1)
want=$(sed -n 's/^app: malloc //p' <<<"$out")
missing=
for n in $want; do
	grep -qx "malloc $n" <<<"$out" || missing+=" $n"
done
if [ -n "$want" ] && [ -z "$missing" ]; then
	pass sample_malloc_sizes
else
	fail sample_malloc_sizes "sizes not seen:$missing; $(tail -3 <<<"$out")"
fi

# typed ring-buffer records, by field name and as JSON summarized with jq
out=$(timeout 60 "$BPFPROBE" load --quiet-meta --no-map-dump $S/events.bpf.o -- $S/demo_app 2>&1)
if grep -qx '{ .id = 1002, .len = 313, .path = "/api/v1/items" }' <<<"$out"; then
	pass sample_events_typed
else
	fail sample_events_typed "$(grep -v '^app' <<<"$out" | tail -4)"
fi
out=$(timeout 60 samples/summarize.sh 2>&1)
if grep -qx 'requests: 4' <<<"$out" && grep -qx 'total len: 1037' <<<"$out" &&
   grep -qx 'longest path: /api/v1/items' <<<"$out"; then
	pass sample_summarize_jq
else
	fail sample_summarize_jq "$out"
fi

# bash's readline return value (bash has no DWARF: $retval is raw rax);
# interactive bash runs under script(1) for a terminal, system-wide
if command -v script >/dev/null; then
	"$BPFPROBE" load --quiet-meta $S/readline.bpf.o >"$tmp/rl" 2>&1 &
	bp=$!
	# attached: a link runs a bash_readline program (the name alone shows
	# at the prototype's load, before the attach; a slow ASan build runs bash
	# in between)
	for _ in $(seq 200); do
		ids=$(bpftool prog show 2>/dev/null |
			awk '$3 == "name" && $4 == "bash_readline" { sub(":", "", $1); print $1 }')
		for id in $ids; do
			bpftool link show 2>/dev/null | grep -q " prog $id\b" && break 2
		done
		sleep 0.1
	done
	printf 'echo sample-readline-%s\nexit\n' $$ | script -qec "bash --norc -i" /dev/null >/dev/null 2>&1
	sleep 0.3
	kill -INT $bp
	wait $bp
	if grep -qx "readline: echo sample-readline-$$" "$tmp/rl"; then
		pass sample_readline_retval
	else
		fail sample_readline_retval "$(tail -3 "$tmp/rl")"
	fi
else
	skip sample_readline_retval "script(1) is not installed"
fi
