# bpfprobe load --pin NAME / unload: pinned probes keep running after
# bpfprobe exits, a taken NAME is refused unless --replace, and unload
# leaves nothing in bpffs nor among the kernel's programs and links.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip pin "$why"
	exit 0
fi
command -v jq >/dev/null || { fail pin "jq is missing (make deps installs it)"; exit 0; }
tmp=$(mktemp -d)
NAME=e2e-pin-$$
NAME2=e2e-pin2-$$
# a pin root of our own: the user's sessions under /sys/fs/bpf/bpfprobe
# (and other suites' running at the same time) are never touched
export BPFPROBE_PIN_ROOT=/sys/fs/bpf/bpfprobe-test-$$
ROOT=$BPFPROBE_PIN_ROOT
cleanup() {
	BPFPROBE_PIN_ROOT=$ROOT "$BPFPROBE" unload --all >/dev/null 2>&1
	rmdir "$ROOT" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
OBJ=$PWD/build/bpf/args__basic-gcc-O2.o
TGT=$PWD/build/targets/args-gcc-O2

# ids of the programs and links of session $1 (from the listing)
session_progs() {
	"$BPFPROBE" list --json | jq -r --arg n "$1" '.programs[] | select(.bpfprobe.pin == $n) | .id' | sort -n
}
session_links() {
	"$BPFPROBE" list --json | jq -r --arg n "$1" '.programs[] | select(.bpfprobe.pin == $n) | .attach[].link_id' | sort -n
}
# none of the ids in $2 (prog or link) is known to the kernel any more
# (the kernel frees them after an RCU grace period: give it a few seconds)
all_gone() {
	local kind=$1 id try
	for try in $(seq 30); do
		for id in $2; do
			bpftool $kind show id "$id" >/dev/null 2>&1 && break
			id=
		done
		[ -z "$id" ] && return 0
		sleep 0.1
	done
	return 1
}

# no program named $2 loaded after id $1 is still loaded
# none_since BASE: no program loaded after id BASE is pinned under a name
# of ours (other suites may load programs named like ours meanwhile; an
# unpinned one of a failed run dies with it)
none_since() {
	! "$BPFPROBE" list --json 2>/dev/null |
		jq -e --argjson b "$1" --arg n1 "$NAME" --arg n2 "$NAME2" \
		'[.programs[] | select(.id > $b and .bpfprobe != null and
			(.bpfprobe.pin == $n1 or .bpfprobe.pin == $n2 or .bpfprobe.pin == "a"))] | length > 0' \
		>/dev/null
}

# pin: exits at once, the session's files are in bpffs
start=$(date +%s)
timeout 60 "$BPFPROBE" load --pin $NAME "$OBJ" >"$tmp/out" 2>"$tmp/err"
rc=$?
npoints=$(sed -n "s/^pinned $NAME: \([0-9]*\) probe point.*/\1/p" "$tmp/out")
nlinks=$(ls $ROOT/$NAME 2>/dev/null | grep -c '^link_')
nprogs=$(ls $ROOT/$NAME 2>/dev/null | grep -c '^prog_')
if [ $rc -eq 0 ] && [ -n "$npoints" ] && [ "$nlinks" -eq "$npoints" ] && [ "$nprogs" -ge 1 ] &&
   [ -e $ROOT/$NAME/prog_neg ] && [ -e $ROOT/$NAME/link_neg_0 ] && [ -e $ROOT/$NAME/map_args__ba_rodata ]; then
	pass pin_files
else
	fail pin_files "exit $rc, $npoints points, $nlinks links, $nprogs progs: $(cat "$tmp/err") $(ls $ROOT/$NAME 2>&1)"
fi

# list: the session's programs, no process holds them, pinned, metadata
"$BPFPROBE" list --json >"$tmp/list.json"
if jq -e --arg n $NAME --arg obj "$OBJ" --arg tgt "$TGT" --arg root "$ROOT" --argjson np "$nprogs" '
	[.programs[] | select(.bpfprobe.pin == $n)] | length == $np and all(.[];
		.owners == [] and .bpfprobe.object == $obj and (.pinned | length) >= 2
		and (.attach | length) >= 1 and all(.attach[]; .target == $tgt and .pid == -1))
	and ([.[] | select(.name == "neg") | .pinned | sort] ==
	     [[$root + "/" + $n + "/link_neg_0", $root + "/" + $n + "/prog_neg"]])' \
	"$tmp/list.json" >/dev/null; then
	pass pin_listed
else
	fail pin_listed "$(jq -c --arg n $NAME '[.programs[] | select(.bpfprobe.pin == $n) | {name, owners, pinned}]' "$tmp/list.json" | head -c 600)"
fi

# the probes run with bpfprobe gone: run counts grow while the target runs
$TGT 60 20 >/dev/null &
tpid=$!
"$BPFPROBE" list --stats=1 --json >"$tmp/stats.json"
wait $tpid
if jq -e --arg n $NAME '[.programs[] | select(.bpfprobe.pin == $n and .name == "neg") | .stats.run_cnt >= 5] == [true]' \
	"$tmp/stats.json" >/dev/null; then
	pass pin_probes_keep_running
else
	fail pin_probes_keep_running "$(jq -c --arg n $NAME '[.programs[] | select(.bpfprobe.pin == $n) | .stats]' "$tmp/stats.json")"
fi

# a NAME that exists: refused, nothing new loaded
old_progs=$(session_progs $NAME)
old_links=$(session_links $NAME)
base=$(max_prog_id)
timeout 60 "$BPFPROBE" load --pin $NAME "$OBJ" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ] && grep -q "pin name '$NAME' exists" "$tmp/err" && grep -q -- "--replace" "$tmp/err" &&
   [ "$(session_progs $NAME)" = "$old_progs" ] && none_since "$base"; then
	pass pin_name_taken
else
	fail pin_name_taken "exit $rc: $(cat "$tmp/err")"
fi

# --replace: a new session under the name, the old one's programs and links gone
timeout 60 "$BPFPROBE" load --pin $NAME --replace "$OBJ" >"$tmp/out" 2>"$tmp/err"
rc=$?
new_progs=$(session_progs $NAME)
if [ $rc -eq 0 ] && [ -n "$new_progs" ] && [ "$(echo "$new_progs" | wc -l)" -eq "$nprogs" ] &&
   [ -z "$(comm -12 <(echo "$old_progs") <(echo "$new_progs"))" ] &&
   all_gone prog "$old_progs" && all_gone link "$old_links" &&
   [ "$(ls $ROOT | grep -c "$NAME")" -eq 1 ]; then
	pass pin_replace
else
	fail pin_replace "exit $rc: old $old_progs new $new_progs: $(cat "$tmp/err") $(ls $ROOT)"
fi

# unload: nothing left in bpffs, among programs, among links
new_links=$(session_links $NAME)
"$BPFPROBE" unload $NAME >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -qx "unloaded $NAME" "$tmp/out" && [ ! -e $ROOT/$NAME ] &&
   all_gone prog "$new_progs" && all_gone link "$new_links" && [ -z "$(session_progs $NAME)" ]; then
	pass pin_unload_leaves_nothing
else
	fail pin_unload_leaves_nothing "exit $rc: $(cat "$tmp/err"); left: $(ls $ROOT/$NAME 2>&1)"
fi

"$BPFPROBE" unload $NAME >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "no pinned bpfprobe session '$NAME'" "$tmp/err"; then
	pass pin_unload_unknown
else
	fail pin_unload_unknown "exit $rc: $(cat "$tmp/err")"
fi

# bad input: a bad name, --pin with a command, --replace alone
base=$(max_prog_id)
"$BPFPROBE" load --pin 'a/b' "$OBJ" >/dev/null 2>"$tmp/e1"
r1=$?
"$BPFPROBE" load --pin $NAME "$OBJ" -- /bin/true >/dev/null 2>"$tmp/e2"
r2=$?
"$BPFPROBE" load --replace "$OBJ" >/dev/null 2>"$tmp/e3"
r3=$?
"$BPFPROBE" unload >/dev/null 2>"$tmp/e4"
r4=$?
if [ $r1 -ne 0 ] && grep -q "bad pin name 'a/b'" "$tmp/e1" &&
   [ $r2 -ne 0 ] && grep -q -- "--pin and a command exclude each other" "$tmp/e2" &&
   [ $r3 -ne 0 ] && grep -q -- "--replace needs --pin" "$tmp/e3" &&
   [ $r4 -eq 2 ] && grep -q "name a pinned session, or --all" "$tmp/e4" &&
   none_since "$base" && [ ! -e $ROOT/a ]; then
	pass pin_bad_input
else
	fail pin_bad_input "$r1 $r2 $r3 $r4: $(cat "$tmp/e1" "$tmp/e2" "$tmp/e3" "$tmp/e4")"
fi

# unload --all removes every session (of our own pin root)
"$BPFPROBE" load --pin $NAME "$OBJ" >/dev/null 2>"$tmp/err" &&
	"$BPFPROBE" load --pin $NAME2 "$OBJ" >/dev/null 2>>"$tmp/err"
p1=$(session_progs $NAME)
p2=$(session_progs $NAME2)
BPFPROBE_PIN_ROOT=$ROOT "$BPFPROBE" unload --all >"$tmp/out" 2>>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ -n "$p1" ] && [ -n "$p2" ] && grep -qx "unloaded $NAME" "$tmp/out" &&
   grep -qx "unloaded $NAME2" "$tmp/out" && [ ! -e $ROOT/$NAME ] && [ ! -e $ROOT/$NAME2 ] &&
   all_gone prog "$p1 $p2"; then
	pass pin_unload_all
else
	fail pin_unload_all "exit $rc: $(cat "$tmp/out" "$tmp/err")"
fi
