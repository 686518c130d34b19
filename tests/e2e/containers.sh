# Containers and copies (issue 27): Debian's lua5.4 and its libraries
# copied into a root of the test's own, run with
# `unshare -m -p -f chroot ROOT lua5.4 SCRIPT` (its own mount and PID
# namespaces, its own root). exec=/usr/bin/lua5.4 is looked up as that
# process sees it: load -p and trace -p fetch the file names the script
# loads (luaL_loadfilex's filename, as the script prints them), and so
# does `-- unshare ... chroot ...` (the process is held at its exec in the
# new root until its copy is attached), with copies=yes too; a copy the
# SEC does not name is reported word for word, and attached with
# copies=yes (one run, one mapped later with dlopen); a library is found by name through the root's own
# ld.so.cache (with -p, and with -- CMD from the process's first call);
# DWARF found only in the root's /usr/lib/debug is used; resolve, vars, list, -v and the never-ran report name both
# paths; a process that exited, a path missing in the root, a root that may
# not be read, and a process that exits while its probes are resolved are
# each an error naming it, with nothing loaded.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip containers "$why"
	exit 0
fi
LUA=/usr/bin/lua5.4
if [ ! -x $LUA ] || ! "$BPFPROBE" funcs $LUA luaL_loadfilex 2>/dev/null | grep -q '^luaL_loadfilex '; then
	skip containers "lua5.4 or its DWARF (liblua5.4-0-dbg) is not installed"
	exit 0
fi
for tool in unshare chroot ldconfig readelf objcopy setpriv jq; do
	if ! command -v $tool >/dev/null; then
		skip containers "$tool is not installed"
		exit 0
	fi
done

tmp=$(mktemp -d)
chmod 755 "$tmp"
# program names of this run: nothing of another run is mistaken for ours
P=$(printf 'ct%04x' $((RANDOM ^ $$ & 0xffff)))
bp=
ushare=
trap 'exec 7>&- 2>/dev/null; [ -n "$bp" ] && kill -KILL $bp 2>/dev/null
      [ -n "$ushare" ] && kill -KILL $ushare 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT

# mkroot DIR [BINDIR [LIBDIR]]: lua5.4 in DIR/BINDIR (default /usr/bin),
# the libraries it needs in DIR/LIBDIR (default: where the host keeps
# them; another one is named in DIR/etc/ld.so.conf and cached by
# ldconfig -r), its dynamic loader where its PT_INTERP says
mkroot() {
	local root=$1 bindir=${2:-/usr/bin} libdir=${3:-} lib interp
	mkdir -p "$root$bindir" || return 1
	cp $LUA "$root$bindir/lua5.4" || return 1
	for lib in $(ldd $LUA | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'); do
		mkdir -p "$root${libdir:-$(dirname "$lib")}" &&
			cp "$lib" "$root${libdir:-$(dirname "$lib")}/" || return 1
	done
	interp=$(readelf -lW $LUA | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
	mkdir -p "$root$(dirname "$interp")" && cp "$interp" "$root$interp" || return 1
	if [ -n "$libdir" ]; then
		mkdir -p "$root/etc" && echo "$libdir" >"$root/etc/ld.so.conf" &&
			ldconfig -r "$root" || return 1
	fi
	printf 'return 1\n' >"$root/one.lua"
	printf 'return 2\n' >"$root/two.lua"
	# run.lua loads two files (after itself); wait.lua first waits for a
	# line on stdin, so that it loads them only once it is traced
	cat >"$root/run.lua" <<'EOF'
print("TRUTH load " .. arg[0])
print("TRUTH load /one.lua")
dofile("/one.lua")
print("TRUTH load /two.lua")
assert(loadfile("/two.lua", "t"))
print("TRUTH getenv BPFPROBE_CT_ONE")
os.getenv("BPFPROBE_CT_ONE")
EOF
	cat >"$root/wait.lua" <<'EOF'
print("READY")
io.stdout:flush()
io.read()
print("TRUTH load /one.lua")
dofile("/one.lua")
print("TRUTH load /two.lua")
assert(loadfile("/two.lua", "t"))
print("TRUTH getenv BPFPROBE_CT_ONE")
os.getenv("BPFPROBE_CT_ONE")
print("TRUTH getenv BPFPROBE_CT_TWO")
os.getenv("BPFPROBE_CT_TWO")
EOF
	chmod -R a+rX "$root"
}

namespace_cmds
ROOT=$tmp/root
ROOT2=$tmp/root2	# lua5.4 in /usr/local/bin only
ROOT3=$tmp/root3	# its libraries in /opt/lib, which its ld.so.cache names
if ! mkroot "$ROOT" || ! mkroot "$ROOT2" /usr/local/bin || ! mkroot "$ROOT3" /usr/bin /opt/lib ||
   ! "${NS_MNT_PID[@]}" chroot "$ROOT" lua5.4 /run.lua >"$tmp/try" 2>&1; then
	skip containers "cannot make a root that runs lua5.4 under unshare -m -p -f chroot: $(tail -2 "$tmp/try" 2>/dev/null)"
	exit 0
fi

# A BPF program for load: luaL_loadfilex's filename from a record
# ($1: the output C file, $2: the SEC's key=value; terms before exec=,
# $3: exec=)
mkprog() {
	cat >"$1" <<EOF
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct args { char filename[64]; };
SEC("$2exec=${3:-$LUA};${P}_load=luaL_loadfilex filename")
int ${P}_load(void *ctx, struct args *a)
{
	bpf_printk("GOT load %s", a->filename);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOF
}
mkprog "$tmp/prog.c" ""
mkprog "$tmp/copies.c" "copies=yes;"
mkprog "$tmp/nope.c" "" /usr/bin/nope

# start_waiting ROOT: wait.lua runs there under unshare -m -p -f chroot,
# reading its stdin from a FIFO this shell holds (fd 7); sets ushare (the
# unshare process) and lpid (lua5.4's, as the host numbers it)
start_waiting() {
	rm -f "$tmp/fifo" "$tmp/lua.out"
	mkfifo "$tmp/fifo"
	"${NS_MNT_PID[@]}" chroot "$1" lua5.4 /wait.lua <"$tmp/fifo" >"$tmp/lua.out" 2>&1 &
	ushare=$!
	exec 7>"$tmp/fifo"
	lpid=
	wait_grep READY "$tmp/lua.out" || return 1
	lpid=$(pgrep -P $ushare | head -1)
	[ -n "$lpid" ] && [ /proc/$lpid/exe -ef "$1/usr/bin/lua5.4" ]
}

# go_waiting: wait.lua goes on and ends
go_waiting() {
	echo go >&7
	exec 7>&-
	wait $ushare
	ushare=
}

# end_waiting: what start_waiting started is gone
end_waiting() {
	exec 7>&-
	[ -n "$ushare" ] && kill -KILL $ushare 2>/dev/null
	[ -n "$ushare" ] && wait $ushare 2>/dev/null
	ushare=
}

# stop_bp: SIGINT to the bpfprobe in the background; its exit status
stop_bp() {
	local rc
	kill -INT $bp 2>/dev/null
	wait $bp
	rc=$?
	bp=
	return $rc
}

# got_loads OUT: the file names trace printed for luaL_loadfilex, sorted
got_loads() {
	sed -n 's/^.* luaL_loadfilex filename="\(.*\)"$/load \1/p' "$1" | sort
}
truth_of() {
	sed -n "s/^TRUTH \\($2\\) /\\1 /p" "$1" | sort
}

# --- load -p and trace -p: exec=/usr/bin/lua5.4 is the root's copy --------

if start_waiting "$ROOT"; then
	rm -f "$tmp/out" "$tmp/err"	# wait_grep must not read the last run's
	"$BPFPROBE" load -p $lpid --quiet-meta "$tmp/prog.c" >"$tmp/out" 2>"$tmp/err" &
	bp=$!
	if wait_grep "^bpfprobe: [0-9]* probe points* attached" "$tmp/err"; then
		go_waiting
		sleep 0.3
	fi
	stop_bp
	rc=$?
	cat "$tmp/lua.out" >>"$tmp/out"
	got=$(sed -n 's/^GOT //p' "$tmp/out" | sort)
	want=$(truth_of "$tmp/out" load)
	if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
		pass containers_load_pid
	else
		fail containers_load_pid "exit $rc: got '$got', want '$want' $(tail -3 "$tmp/err")"
	fi
else
	fail containers_load_pid "wait.lua did not start in $ROOT: $(cat "$tmp/lua.out")"
fi
end_waiting

if start_waiting "$ROOT"; then
	rm -f "$tmp/out" "$tmp/err"	# wait_grep must not read the last run's
	"$BPFPROBE" trace -v -p $lpid "exec=$LUA;luaL_loadfilex filename:string" \
		>"$tmp/out" 2>"$tmp/err" &
	bp=$!
	if wait_grep "^bpfprobe: [0-9]* probe points* attached" "$tmp/err"; then
		go_waiting
		sleep 0.3
	fi
	stop_bp
	rc=$?
	got=$(got_loads "$tmp/out")
	want=$(truth_of "$tmp/lua.out" load)
	# -v names both paths
	both="probe point $ROOT/usr/bin/lua5.4:luaL_loadfilex .*, $LUA as process $lpid sees it$"
	if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] && grep -q "$both" "$tmp/err"; then
		pass containers_trace_pid
	else
		fail containers_trace_pid "exit $rc: got '$got', want '$want' $(grep -c "$both" "$tmp/err") -v lines naming both paths; $(tail -3 "$tmp/err")"
	fi
else
	fail containers_trace_pid "wait.lua did not start in $ROOT: $(cat "$tmp/lua.out")"
fi
end_waiting

# --- -- unshare ... chroot ...: the copy in the new root, from its first call

timeout 60 "$BPFPROBE" load --quiet-meta "$tmp/copies.c" -- \
	"${NS_MNT_PID[@]}" chroot "$ROOT" lua5.4 /run.lua >"$tmp/out" 2>"$tmp/err"
rc=$?
got=$(sed -n 's/^GOT //p' "$tmp/out" | sort)
want=$(truth_of "$tmp/out" load)
if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
	pass containers_cmd_copies
else
	fail containers_cmd_copies "exit $rc: got '$got', want '$want' $(tail -3 "$tmp/err")"
fi

# without copies=yes: exec= as the process in the new root sees it
timeout 60 "$BPFPROBE" trace "exec=$LUA;luaL_loadfilex filename:string" -- \
	"${NS_MNT_PID[@]}" chroot "$ROOT" lua5.4 /run.lua >"$tmp/out" 2>"$tmp/err"
rc=$?
got=$(got_loads "$tmp/out")
want=$(truth_of "$tmp/out" load)
if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] && ! grep -q 'never ran' "$tmp/err"; then
	pass containers_cmd_view
else
	fail containers_cmd_view "exit $rc: got '$got', want '$want' $(tail -3 "$tmp/err")"
fi

# --- copies the SEC does not name ------------------------------------------

# ROOT2 has no /usr/bin/lua5.4: its /usr/local/bin/lua5.4 is a copy
timeout 60 "$BPFPROBE" load --quiet-meta "$tmp/prog.c" -- \
	"${NS_MNT_PID[@]}" chroot "$ROOT2" /usr/local/bin/lua5.4 /run.lua >"$tmp/out" 2>"$tmp/err"
rc=$?
msg="ran $ROOT2/usr/local/bin/lua5.4, a copy of $LUA (same build ID); uprobes are per file: name that path in exec="
if [ $rc -eq 0 ] && grep -qE "^bpfprobe: program '${P}_load' never ran: process [0-9]+ $(sed 's/[.()]/\\&/g' <<<"$msg")\$" "$tmp/err" &&
   ! grep -q '^GOT ' "$tmp/out"; then
	pass containers_copy_message
else
	fail containers_copy_message "exit $rc, want the line '... $msg': $(tail -3 "$tmp/err")"
fi

# the same with copies=yes: attached there too
timeout 60 "$BPFPROBE" load --quiet-meta "$tmp/copies.c" -- \
	"${NS_MNT_PID[@]}" chroot "$ROOT2" /usr/local/bin/lua5.4 /run.lua >"$tmp/out" 2>"$tmp/err"
rc=$?
got=$(sed -n 's/^GOT //p' "$tmp/out" | sort)
want=$(truth_of "$tmp/out" load)
if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] && ! grep -q 'a copy of' "$tmp/err"; then
	pass containers_copies_attached
else
	fail containers_copies_attached "exit $rc: got '$got', want '$want' $(tail -3 "$tmp/err")"
fi

# a copy on the host, under another name: held at its exec with copies=yes
cp $LUA "$tmp/lua-copy"
sed "s|\"/one.lua\"|\"$ROOT/one.lua\"|; s|\"/two.lua\"|\"$ROOT/two.lua\"|; s|TRUTH load /|TRUTH load $ROOT/|" \
	"$ROOT/run.lua" >"$tmp/host.lua"
timeout 60 "$BPFPROBE" trace "copies=yes;exec=$LUA;luaL_loadfilex filename:string" -- \
	"$tmp/lua-copy" "$tmp/host.lua" >"$tmp/out" 2>"$tmp/err"
rc=$?
got=$(got_loads "$tmp/out")
want=$(truth_of "$tmp/out" load)
if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
	pass containers_copies_host
else
	fail containers_copies_host "exit $rc: got '$got', want '$want' $(tail -3 "$tmp/err")"
fi

# a copy of a library a process maps later (dlopen: lua's package.loadlib):
# seen as its maps are read again, named, and with copies=yes attached
LIBM=$(realpath "$(ldd $LUA | awk '$1 ~ /^libm\.so/ { print $3 }')" 2>/dev/null)
mkdir -p "$tmp/copy"
if [ -z "$LIBM" ] || ! cp "$LIBM" "$tmp/copy/libm.so.6"; then
	skip containers_copies_mapped "lua5.4 maps no libm here"
else
	printf '%s\n' 'print("READY")' 'io.stdout:flush()' 'io.read()' \
		"assert(package.loadlib(\"$tmp/copy/libm.so.6\", \"*\"))" 'io.read()' >"$tmp/dl.lua"
	msg="mapped $tmp/copy/libm.so.6, a copy of $LIBM (same build ID)"
	for copies in "" "copies=yes;"; do
		rm -f "$tmp/fifo" "$tmp/lua.out"
		mkfifo "$tmp/fifo"
		$LUA "$tmp/dl.lua" <"$tmp/fifo" >"$tmp/lua.out" 2>&1 &
		ushare=$!
		lpid=$ushare
		exec 7>"$tmp/fifo"
		wait_grep READY "$tmp/lua.out"
		rm -f "$tmp/out" "$tmp/err"	# wait_grep must not read the last run's
		"$BPFPROBE" trace -v -p $lpid "${copies}exec=libm.so.6;cos" >"$tmp/out" 2>"$tmp/err" &
		bp=$!
		seen=
		if wait_grep "^bpfprobe: [0-9]* probe points* attached" "$tmp/err"; then
			echo go >&7
			wait_grep "^process $lpid $msg" "$tmp/err" && seen=1
			[ -n "$seen" ] && "$BPFPROBE" list >"$tmp/list" 2>&1
			echo go >&7
		fi
		end_waiting
		stop_bp
		rc=$?
		if [ -z "$copies" ]; then
			if [ $rc -eq 0 ] && [ -n "$seen" ] &&
			   grep -qF "process $lpid $msg; uprobes are per file: name that path in exec=" "$tmp/err"; then
				pass containers_copy_mapped_message
			else
				fail containers_copy_mapped_message "exit $rc, seen '$seen': $(tail -3 "$tmp/err")"
			fi
		elif [ $rc -eq 0 ] && [ -n "$seen" ] &&
		     grep -q "^    copies attached too: $tmp/copy/libm.so.6\$" "$tmp/list" &&
		     grep -q "uprobe:$tmp/copy/libm.so.6:" "$tmp/list" &&
		     ! grep -q "uprobes are per file" "$tmp/err"; then
			pass containers_copies_mapped
		else
			fail containers_copies_mapped "exit $rc, seen '$seen': $(tail -3 "$tmp/err")"
		fi
	done
fi

# --- a library by name, through the root's own ld.so.cache -----------------

if ! "$BPFPROBE" funcs libc.so.6 getenv 2>/dev/null | grep -q '^getenv '; then
	skip containers_library_by_name "glibc's DWARF (libc6-dbg) is not installed"
elif start_waiting "$ROOT3"; then
	"$BPFPROBE" resolve -p $lpid 'exec=libc.so.6;getenv name' >"$tmp/resolve" 2>&1
	rm -f "$tmp/out" "$tmp/err"	# wait_grep must not read the last run's
	"$BPFPROBE" trace -p $lpid 'exec=libc.so.6;getenv name:string' >"$tmp/out" 2>"$tmp/err" &
	bp=$!
	if wait_grep "^bpfprobe: [0-9]* probe points* attached" "$tmp/err"; then
		go_waiting
		sleep 0.3
	fi
	stop_bp
	rc=$?
	got=$(sed -n 's/^.* getenv name="\(BPFPROBE_CT_[A-Z]*\)"$/getenv \1/p' "$tmp/out" | sort)
	want=$(truth_of "$tmp/lua.out" getenv)
	if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] &&
	   grep -q "^  point 0: getenv in $ROOT3/opt/lib/libc.so.6\$" "$tmp/resolve" &&
	   grep -q "^    /opt/lib/libc.so.6 as process $lpid sees it (in its root)\$" "$tmp/resolve"; then
		pass containers_library_by_name
	else
		fail containers_library_by_name "exit $rc: got '$got', want '$want'; resolve: $(head -3 "$tmp/resolve") $(tail -3 "$tmp/err")"
	fi
else
	fail containers_library_by_name "wait.lua did not start in $ROOT3: $(cat "$tmp/lua.out")"
fi
end_waiting

# the same library with -- CMD: the process is held at its exec in ROOT3
# while libc.so.6 is looked up there, so even lua5.4's first getenv calls
# (LUA_PATH... at its start) are seen
if ! "$BPFPROBE" funcs libc.so.6 getenv 2>/dev/null | grep -q '^getenv '; then
	skip containers_cmd_library_by_name "glibc's DWARF (libc6-dbg) is not installed"
else
	timeout 60 "$BPFPROBE" trace 'exec=libc.so.6;getenv name:string' -- \
		"${NS_MNT_PID[@]}" chroot "$ROOT3" lua5.4 /run.lua >"$tmp/out" 2>"$tmp/err"
	rc=$?
	got=$(sed -n 's/^.* lua5\.4 [0-9]* getenv name="\(BPFPROBE_CT_[A-Z]*\)"$/getenv \1/p' "$tmp/out" | sort)
	want=$(truth_of "$tmp/out" getenv)
	if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] &&
	   grep -q ' lua5\.4 [0-9]* getenv name="LUA_PATH_5_4"$' "$tmp/out"; then
		pass containers_cmd_library_by_name
	else
		fail containers_cmd_library_by_name "exit $rc: got '$got', want '$want' $(tail -3 "$tmp/err")"
	fi
fi

# --- DWARF from the root's own /usr/lib/debug, by build ID -----------------

# the trace test target, stripped, in ROOT as /usr/bin/ttarget, its debug
# file only in ROOT's /usr/lib/debug/.build-id
T=build/targets/trace-gcc-O2
id=$(readelf -nW "$T" 2>/dev/null | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
dbg="$ROOT/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
if [ ! -x "$T" ] || [ -z "$id" ]; then
	fail containers_root_debuginfo "$T is missing or has no build ID (make tests-build)"
elif [ -e "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ]; then
	skip containers_root_debuginfo "the host has debug info of that build ID already"
elif mkdir -p "$(dirname "$dbg")" && objcopy --only-keep-debug "$T" "$dbg" &&
     objcopy --strip-debug "$T" "$ROOT/usr/bin/ttarget" && chmod -R a+rX "$ROOT/usr/lib/debug"; then
	rm -f "$ROOT/go"
	"${NS_MNT_PID[@]}" chroot "$ROOT" /usr/bin/ttarget wait /go 5 64 >"$tmp/target" 2>&1 &
	ushare=$!
	tpid=
	for _ in $(seq 100); do
		tpid=$(pgrep -P $ushare | head -1)
		[ -n "$tpid" ] && [ /proc/$tpid/exe -ef "$ROOT/usr/bin/ttarget" ] && break
		tpid=
		sleep 0.1
	done
	rm -f "$tmp/out" "$tmp/err"	# wait_grep must not read the last run's
	"$BPFPROBE" trace -v -p "${tpid:-0}" 'exec=/usr/bin/ttarget;trace_call a b c d s:string' \
		>"$tmp/out" 2>"$tmp/err" &
	bp=$!
	if [ -n "$tpid" ] && wait_grep "^bpfprobe: [0-9]* probe points* attached" "$tmp/err"; then
		touch "$ROOT/go"
		wait $ushare
		ushare=
		sleep 0.3
	fi
	stop_bp
	rc=$?
	end_waiting
	got=$(sed -n 's/^[^ ]* ttarget [0-9]* trace_call //p' "$tmp/out" | sort)
	want=$(sed -n 's/^TRUTH call //p' "$tmp/target" | sort)
	if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] &&
	   grep -q "^$ROOT/usr/bin/ttarget: debug info (DWARF) from $dbg\$" "$tmp/err"; then
		pass containers_root_debuginfo
	else
		fail containers_root_debuginfo "exit $rc: got '$got', want '$want'; $(grep 'debug info' "$tmp/err") $(tail -3 "$tmp/err")"
	fi
else
	fail containers_root_debuginfo "cannot split $T's debug info"
fi

# --- both paths: resolve, vars, list, the never-ran report -----------------

if start_waiting "$ROOT"; then
	host="$ROOT/usr/bin/lua5.4"
	"$BPFPROBE" resolve -p $lpid "exec=$LUA;luaL_loadfilex filename" >"$tmp/resolve" 2>&1
	r1=$?
	"$BPFPROBE" resolve -p $lpid --json "exec=lua5.4;luaL_loadfilex filename" >"$tmp/resolve.json" 2>&1
	"$BPFPROBE" vars -p $lpid $LUA luaL_loadfilex >"$tmp/vars" 2>&1
	r2=$?
	json=$(jq -r '.programs[0].points[0] | "\(.binary) \(.seen_as) \(.seen_by)"' "$tmp/resolve.json" 2>&1)
	if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] &&
	   grep -q "^  point 0: luaL_loadfilex in $host\$" "$tmp/resolve" &&
	   grep -q "^    $LUA as process $lpid sees it (in its root)\$" "$tmp/resolve" &&
	   [ "$json" = "$host $LUA $lpid" ] &&
	   grep -q "^luaL_loadfilex in $host at 0x" "$tmp/vars" &&
	   grep -q "^  ($LUA as process $lpid sees it)\$" "$tmp/vars" &&
	   grep -q "^  param  filename: const char \*, at " "$tmp/vars"; then
		pass containers_resolve_vars_pid
	else
		fail containers_resolve_vars_pid "exit $r1/$r2, json '$json': $(head -3 "$tmp/resolve") / $(head -3 "$tmp/vars")"
	fi

	# lua_upvaluejoin: only debug.upvaluejoin calls it
	mkprog "$tmp/never.c" ""
	sed -i "s/=luaL_loadfilex filename\")/=lua_upvaluejoin\")/; s/struct args \*a/int err/; s/a->filename/\"\"/" "$tmp/never.c"
	rm -f "$tmp/out" "$tmp/err"	# wait_grep must not read the last run's
	"$BPFPROBE" load -p $lpid "$tmp/never.c" >"$tmp/out" 2>"$tmp/err" &
	bp=$!
	if wait_grep "^bpfprobe: [0-9]* probe points* attached" "$tmp/err"; then
		"$BPFPROBE" list >"$tmp/list" 2>&1
		go_waiting
	fi
	stop_bp
	rc=$?
	never="^bpfprobe: program '${P}_load' never ran: lua_upvaluejoin in $LUA as process $lpid sees it ($host on the host) was never called by the traced processes\$"
	if [ $rc -eq 0 ] && grep -q "$never" "$tmp/err" &&
	   grep -q "^    exec: $LUA as process $lpid sees it, $host on the host\$" "$tmp/list" &&
	   grep -q "uprobe:$host:lua_upvaluejoin" "$tmp/list"; then
		pass containers_list_report_both_paths
	else
		fail containers_list_report_both_paths "exit $rc: $(tail -2 "$tmp/err"); list: $(grep -A4 "${P}_load" "$tmp/list" | head -6)"
	fi
else
	fail containers_resolve_vars_pid "wait.lua did not start in $ROOT: $(cat "$tmp/lua.out")"
fi
end_waiting

# -a: paths are the host's; the root's copy is not probed, and the
# report says which file ran
timeout 60 "$BPFPROBE" load -a --quiet-meta "$tmp/prog.c" -- \
	"${NS_MNT_PID[@]}" chroot "$ROOT2" /usr/local/bin/lua5.4 /run.lua >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && ! grep -q "^GOT load /one.lua" "$tmp/out" &&
   "$BPFPROBE" resolve "exec=$LUA;luaL_loadfilex" | grep -q "^  point 0: luaL_loadfilex in $LUA\$"; then
	pass containers_all_host_paths
else
	fail containers_all_host_paths "exit $rc: $(grep GOT "$tmp/out" | head -3) $(tail -2 "$tmp/err")"
fi

# --- bad input: an error naming the culprit, nothing loaded ----------------

# a process that exited (a zombie its parent does not reap)
sh -c "$LUA -e '' & exec sleep 60" &
zparent=$!
zpid=
for _ in $(seq 100); do
	zpid=$(pgrep -P $zparent | head -1)
	[ -n "$zpid" ] && [ "$(awk '/^State:/ { print $2 }' /proc/$zpid/status 2>/dev/null)" = Z ] && break
	sleep 0.1
done
"$BPFPROBE" load -p "$zpid" "$tmp/prog.c" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "^process $zpid has exited: it has no root any more (/proc/$zpid/root)\$" "$tmp/err" &&
   nothing_loaded "${P}_load"; then
	pass containers_bad_exited
else
	fail containers_bad_exited "exit $rc: $(cat "$tmp/err")"
fi
kill $zparent 2>/dev/null
wait $zparent 2>/dev/null

if start_waiting "$ROOT"; then
	# a path that is not in the process's root
	"$BPFPROBE" load -p $lpid "$tmp/nope.c" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	"$BPFPROBE" trace -p $lpid 'exec=/usr/bin/nope;f' >"$tmp/out2" 2>"$tmp/err2"
	rc2=$?
	want="binary '/usr/bin/nope' not found in the root of process $lpid (/proc/$lpid/root, $ROOT on the host)"
	if [ $rc -eq 1 ] && [ $rc2 -eq 1 ] && grep -qF "luaL_loadfilex: $want" "$tmp/err" &&
	   grep -qF "f: $want" "$tmp/err2" && nothing_loaded "${P}_load"; then
		pass containers_bad_missing_path
	else
		fail containers_bad_missing_path "exit $rc/$rc2: $(cat "$tmp/err" "$tmp/err2")"
	fi

	# a root bpfprobe may not read: resolve needs no privileges, but
	# another user's process's root is not ours to read
	cp "$BPFPROBE" "$tmp/bpfprobe" && chmod 755 "$tmp/bpfprobe"
	as_nobody "$tmp/bpfprobe" resolve -p $lpid "exec=$LUA;luaL_loadfilex" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q "^cannot read the root of process $lpid (/proc/$lpid/root): Permission denied" "$tmp/err"; then
		pass containers_bad_unreadable_root
	else
		fail containers_bad_unreadable_root "exit $rc: $(cat "$tmp/err")"
	fi
else
	fail containers_bad_missing_path "wait.lua did not start in $ROOT: $(cat "$tmp/lua.out")"
fi
end_waiting

# a process that exits while its probes are resolved: bpfprobe is stopped
# right after it opened the root's lua5.4 (tests/e2e/fault_stop.c), the
# process killed, then bpfprobe goes on
if [ ! -x "$BPFPROBE_PRELOADABLE" ] ||
   ! gcc -O2 -shared -fPIC -o "$tmp/stop.so" tests/e2e/fault_stop.c -ldl 2>"$tmp/cc.err"; then
	fail containers_bad_exits_while_resolving "no $BPFPROBE_PRELOADABLE (make tests-build) or the stopper does not build: $(cat "$tmp/cc.err")"
elif start_waiting "$ROOT"; then
	rm -f "$tmp/stopped"
	rm -f "$tmp/out" "$tmp/err"	# wait_grep must not read the last run's
	FAULT_STOP_AT="resolve:$ROOT/usr/bin/lua5.4" FAULT_STOP_FILE=$tmp/stopped LD_PRELOAD=$tmp/stop.so \
		"$BPFPROBE_PRELOADABLE" load -p $lpid "$tmp/prog.c" >"$tmp/out" 2>"$tmp/err" &
	bp=$!
	stopped=
	for _ in $(seq 200); do
		[ "$(awk '/^State:/ { print $2 }' /proc/$bp/status 2>/dev/null)" = T ] && { stopped=1; break; }
		sleep 0.05
	done
	kill -KILL $lpid 2>/dev/null
	end_waiting
	kill -CONT $bp
	# never stopped: it attached to a process now gone and would trace
	# until Ctrl-C
	[ -n "$stopped" ] || kill -INT $bp
	wait $bp
	rc=$?
	bp=
	if [ -n "$stopped" ] && [ $rc -eq 1 ] &&
	   grep -q "^process $lpid exited while its probes were being resolved\$" "$tmp/err" &&
	   nothing_loaded "${P}_load"; then
		pass containers_bad_exits_while_resolving
	else
		fail containers_bad_exits_while_resolving "stopped '$stopped', exit $rc: $(tail -3 "$tmp/err")"
	fi
else
	fail containers_bad_exits_while_resolving "wait.lua did not start in $ROOT: $(cat "$tmp/lua.out")"
fi
exit 0
