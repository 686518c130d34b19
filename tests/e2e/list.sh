# bpfprobe list: programs loaded by two background `bpfprobe load`s of the
# same object and by a plain libbpf program (tests/sysinfo/plain_loader.c),
# read back from the kernel's records, with their values checked.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip list "$why"
	exit 0
fi
command -v jq >/dev/null || { fail list "jq is missing (make deps installs it)"; exit 0; }
tmp=$(mktemp -d)
pids=()
cleanup() {
	[ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
OBJ=$PWD/build/bpf/args__basic-gcc-O2.o
TGT=$PWD/build/targets/args-gcc-O2
PLAIN=build/sysinfo-tests/plain_loader

# jqcheck NAME FILE FILTER [jq args...]: FILTER must yield true
jqcheck() {
	local name=$1 file=$2 filter=$3
	shift 3
	if jq -e "$@" "$filter" "$file" >/dev/null 2>&1; then
		pass "$name"
	else
		fail "$name" "not true: $filter $*"
		return 1
	fi
}

# uprobe file offset of a symbol: its address mapped through the PT_LOADs
file_offset() {
	local addr type off va pa fsz rest
	addr=$((16#$(nm "$1" | awk -v s="$2" '$3 == s { print $1; exit }')))
	while read -r type off va pa fsz rest; do
		if ((addr >= va && addr < va + fsz)); then
			echo $((addr - va + off))
			return
		fi
	done < <(readelf -lW "$1" | awk '$1 == "LOAD"')
}

$TGT 100000 20 >/dev/null &
tpid=$!
pids+=($tpid)
$TGT 100000 20 >/dev/null &
tpid2=$!
pids+=($tpid2)
"$BPFPROBE" load -p $tpid "$OBJ" >"$tmp/bp1.out" 2>"$tmp/bp1.err" &
bp1=$!
pids+=($bp1)
"$BPFPROBE" load -p $tpid2 "$OBJ" >"$tmp/bp2.out" 2>"$tmp/bp2.err" &
bp2=$!
pids+=($bp2)
$PLAIN build/sysinfo-tests/plain.bpf.o $TGT $tpid >"$tmp/plain.out" 2>"$tmp/plain.err" &
pl=$!
pids+=($pl)
for _ in $(seq 300); do
	grep -q 'GOT neg_args' "$tmp/bp1.out" && grep -q 'GOT neg_args' "$tmp/bp2.out" &&
		grep -q READY "$tmp/plain.out" && break
	sleep 0.1
done
if ! grep -q READY "$tmp/plain.out" || ! grep -q 'GOT neg_args' "$tmp/bp1.out"; then
	fail list_setup "loaders not ready: $(tail -2 "$tmp/bp1.err" "$tmp/plain.err")"
	exit 0
fi

"$BPFPROBE" list --json >"$tmp/list.json" 2>"$tmp/list.err"
rc=$?
if [ $rc -eq 0 ] && jq -e '.version == 1 and (.programs | type == "array")' "$tmp/list.json" >/dev/null; then
	pass list_json_valid
else
	fail list_json_valid "exit $rc: $(head -c 300 "$tmp/list.json") $(cat "$tmp/list.err")"
fi

# a bpfprobe session's program: uprobe path, symbol, offset, pid filter,
# owner, maps, and what bpfprobe loaded (object, SEC text, argument specs)
off=$(file_offset $TGT neg_args)
P1='.programs[] | select(.bpfprobe.loader_pid == $bp and .bpfprobe.program == "neg")'
jqcheck list_bpfprobe_uprobe "$tmp/list.json" \
	"[$P1 | .attach[0] | .kind == \"uprobe\" and .return == false and .target == \$tgt
	  and .symbol == \"neg_args\" and .symbol_offset == 0 and .offset == $off
	  and .text == \"uprobe:\" + \$tgt + \":neg_args\" and (.link_id | type) == \"number\"] == [true]" \
	--argjson bp $bp1 --arg tgt "$TGT"
jqcheck list_bpfprobe_pid_filter "$tmp/list.json" \
	"[$P1 | .attach[0].pid] == [$tpid]" --argjson bp $bp1
jqcheck list_bpfprobe_owner "$tmp/list.json" \
	"[$P1 | .owners == [{\"pid\": \$bp, \"comm\": \"bpfprobe\"}] and .type == \"kprobe\" and .name == \"neg\"] == [true]" \
	--argjson bp $bp1
jqcheck list_bpfprobe_maps "$tmp/list.json" \
	"[$P1 | [.maps[].name] | (index(\"bpfprobe_meta\") != null) and any(.[]; endswith(\".rodata\"))] == [true]" \
	--argjson bp $bp1
jqcheck list_bpfprobe_metadata "$tmp/list.json" \
	"[$P1 | .bpfprobe | .object == \$obj and .sec == \"exec=\" + \$tgt + \";neg=neg_args a b c\"
	  and .args == [\"a\", \"b\", \"c\"] and .instance == \"neg\" and .pin == null] == [true]" \
	--argjson bp $bp1 --arg obj "$OBJ" --arg tgt "$TGT"
jqcheck list_bpfprobe_member_args "$tmp/list.json" \
	'[.programs[] | select(.bpfprobe.loader_pid == $bp and .bpfprobe.program == "req") | .bpfprobe.args]
	 == [["req->hdr->len", "conn->fd", "req->inner.y"]]' --argjson bp $bp1
jqcheck list_bpfprobe_return "$tmp/list.json" \
	'[.programs[] | select(.bpfprobe.loader_pid == $bp and .bpfprobe.program == "ret") | .attach[0]
	  | .kind == "uretprobe" and .return == true and .symbol == "ret_neg"] == [true]' --argjson bp $bp1

# the same object loaded twice: one tag, told apart by id, maps and pid
jqcheck list_same_tag_told_apart "$tmp/list.json" '
	[.programs[] | select(.bpfprobe.program == "neg" and (.bpfprobe.loader_pid == $a or .bpfprobe.loader_pid == $b))]
	| . as $p | length == 2 and $p[0].tag == $p[1].tag and $p[0].id != $p[1].id
	  and any($p[0].same_tag_ids[]; . == $p[1].id) and any($p[1].same_tag_ids[]; . == $p[0].id)
	  and ([$p[0].maps[].id] - [$p[1].maps[].id]) == [$p[0].maps[].id]
	  and ([$p[].attach[0].pid] | sort) == ([$pa, $pb] | sort)' \
	--argjson a $bp1 --argjson b $bp2 --argjson pa $tpid --argjson pb $tpid2

# a plain libbpf program: uprobe and uretprobe links, an ioctl-attached
# tracepoint (no link: found through the perf event fd), a raw tracepoint
PL='.programs[] | select(.owners == [{"pid": $pl, "comm": "plain_loader"}])'
jqcheck list_plain_uprobe "$tmp/list.json" \
	"[$PL | select(.name == \"plain_up\") | .bpfprobe == null and ([.maps[].name] | index(\"plain_hits\")) != null
	  and (.attach[0] | .kind == \"uprobe\" and .target == \$tgt and .symbol == \"neg_args\"
	       and .offset == $off and (.link_id | type) == \"number\")] == [true]" \
	--argjson pl $pl --arg tgt "$TGT"
jqcheck list_plain_uretprobe "$tmp/list.json" \
	"[$PL | select(.name == \"plain_uret\") | .attach[0] | .text == \"uretprobe:\" + \$tgt + \":ret_neg\" and .return] == [true]" \
	--argjson pl $pl --arg tgt "$TGT"
jqcheck list_plain_ioctl_tracepoint "$tmp/list.json" \
	"[$PL | select(.name == \"plain_tp\") | .type == \"tracepoint\" and .attach == [.attach[0]]
	  and (.attach[0] | .kind == \"tracepoint\" and .target == \"sched_process_fork\" and .link_id == null)] == [true]" \
	--argjson pl $pl
jqcheck list_plain_raw_tracepoint "$tmp/list.json" \
	"[$PL | select(.name == \"plain_raw\") | .attach[0] | .kind == \"raw_tracepoint\" and .target == \"sched_process_exec\" and .pid == -1] == [true]" \
	--argjson pl $pl
if grep -q '^FENTRY' "$tmp/plain.out"; then
	jqcheck list_plain_fentry_fexit "$tmp/list.json" \
		"[$PL | select(.name == \"plain_fentry\" or .name == \"plain_fexit\") | .attach[0] | [.text, .return]]
		 | sort == [[\"fentry:vfs_read\", false], [\"fexit:vfs_read\", true]]" --argjson pl $pl
else
	skip list_plain_fentry_fexit "this kernel refuses BPF trampoline programs: $(sed -n 's/^NOFENTRY *//p' "$tmp/plain.out")"
fi

# the table: aligned columns, a row per program, the metadata under it
id1=$(jq -r --argjson bp $bp1 "$P1 | .id" "$tmp/list.json")
"$BPFPROBE" list >"$tmp/list.txt" 2>>"$tmp/list.err"
hdr=$(head -1 "$tmp/list.txt")
row=$(awk -v id="$id1" '$1 == id' "$tmp/list.txt")
col=$(awk 'NR == 1 { print index($0, "ATTACH") }' "$tmp/list.txt")
if [[ $hdr == ID*TAG*NAME*TYPE*PID*OWNERS*MAPS*LOADED*ATTACH ]] &&
   [[ $row == *" neg "*" kprobe "*" $tpid "*" $bp1/bpfprobe "*"uprobe:$TGT:neg_args" ]] &&
   [ "${row:$((col - 1))}" = "uprobe:$TGT:neg_args" ] &&
   grep -qF "SEC(\"exec=$TGT;neg=neg_args a b c\")" "$tmp/list.txt"; then
	pass list_table
else
	fail list_table "header '$hdr', row '$row'"
fi

# --stats: run counts while kernel.bpf_stats_enabled is on, then back off
before=$(cat /proc/sys/kernel/bpf_stats_enabled)
"$BPFPROBE" list --stats=1 --json >"$tmp/stats.json" 2>>"$tmp/list.err"
after=$(cat /proc/sys/kernel/bpf_stats_enabled)
jqcheck list_stats "$tmp/stats.json" \
	".stats_enabled and ([$P1 | .stats | .run_cnt >= 5 and .avg_ns > 0 and .run_time_ns >= .run_cnt] == [true])" \
	--argjson bp $bp1
if [ "$before" = "$after" ]; then
	pass list_stats_restored
else
	fail list_stats_restored "kernel.bpf_stats_enabled was $before, now $after"
fi

# once the loaders are gone, so are their programs
ids=$(jq -r --argjson a $bp1 --argjson b $bp2 --argjson pl $pl \
	'.programs[] | select(.bpfprobe.loader_pid == $a or .bpfprobe.loader_pid == $b or .owners[0].pid == $pl) | .id' \
	"$tmp/list.json")
kill -TERM $bp1 $bp2 $pl
wait $bp1 $bp2 $pl 2>/dev/null
"$BPFPROBE" list --json >"$tmp/after.json" 2>>"$tmp/list.err"
left=$(jq -r '.programs[].id' "$tmp/after.json" | grep -Fxf <(echo "$ids"))
if [ -n "$ids" ] && [ -z "$left" ]; then
	pass list_after_exit
else
	fail list_after_exit "still listed: $left"
fi

# bad input
"$BPFPROBE" list --stats=abc >/dev/null 2>"$tmp/bad.err"
rc=$?
if [ $rc -eq 2 ] && grep -q "bad --stats duration 'abc'" "$tmp/bad.err"; then
	pass list_bad_option
else
	fail list_bad_option "exit $rc: $(cat "$tmp/bad.err")"
fi
