# Pinned sessions under attack and after crashes: a `load --pin` killed
# half-way leaves a staging directory whose probes stay attached; the next
# load --pin / unload reclaims it (and says so), and puts back a session a
# killed --replace had moved aside, but never touches the staging directory
# of a bpfprobe still at work (it holds an flock on it). `unload` removes
# only bpfprobe's sessions: never through a symlink in the pin root, never
# another tool's directory there.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fault_helpers.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip security_pin "$why"
	exit 0
fi
fault_setup
export BPFPROBE_PIN_ROOT=/sys/fs/bpf/bpfprobe-sec-$$
ROOT=$BPFPROBE_PIN_ROOT
bps=()
cleanup() {
	for p in "${bps[@]}"; do kill -KILL "$p" 2>/dev/null; done
	rm -f "$ROOT/evil" "$ROOT/othertool/counts" "$ROOT/map_x/map_counts"
	rmdir "$ROOT/othertool" "$ROOT/map_x" 2>/dev/null
	"$BPFPROBE" unload --all >/dev/null 2>&1
	rmdir "$ROOT" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
gcc -O2 -shared -fPIC -o "$tmp/stop.so" tests/e2e/fault_stop.c -ldl ||
	{ fail security_pin_build "gcc failed"; exit 0; }
fault_obj "$tmp/obj.o"

# stopped_pin AT ARGS...: `load --pin ARGS` stopped at AT; sets $bp
stopped_pin() {
	local at=$1
	shift
	rm -f "$tmp/stopped"
	FAULT_STOP_AT=$at FAULT_STOP_FILE=$tmp/stopped LD_PRELOAD=$tmp/stop.so \
		"$BPFPROBE_PRELOADABLE" load "$@" "$tmp/obj.o" >/dev/null 2>"$tmp/err" &
	bp=$!
	bps+=($bp)
	wait_stopped $bp && grep -q "stopped at $at" "$tmp/stopped" 2>/dev/null
}
# ids of our programs now, sorted
progs() { fault_progs | sort -n | tr '\n' ' '; }
# Waits (10 s at most) until none of the program ids given is loaded.
ids_gone() {
	local id left
	for _ in $(seq 100); do
		left=
		for id in "$@"; do
			bpftool prog show id "$id" >/dev/null 2>&1 && left="$left $id"
		done
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	echo "still loaded:$left"
	return 1
}

# killed_pin AT NAME CMD...: `load --pin NAME` stopped at AT, SIGKILLed
# there, then `bpfprobe CMD...`; sets staging and ids (ours at the stop)
killed_pin() {
	local at=$1 name=$2
	shift 2
	stopped_pin "$at" --pin "$name" || return 1
	staging=$ROOT/_new-$name-$bp
	ids=$(progs)
	kill -KILL $bp
	wait $bp 2>/dev/null
	"$BPFPROBE" "$@" >/dev/null 2>"$tmp/uerr"
	return 0
}

# 1. killed during load --pin: unload NAME reclaims the staging directory
if ! killed_pin pin:2 s1 unload s1; then
	fail pin_killed_staging_reclaimed "bpfprobe did not stop at its second pin: $(cat "$tmp/err")"
else
	if [ -z "$ids" ]; then
		fail pin_killed_staging_reclaimed "nothing of ours was loaded at the stop"
	elif [ -e "$staging" ]; then
		fail pin_killed_staging_reclaimed "$staging is still there after unload s1: $(cat "$tmp/uerr")"
	elif ! grep -qF "removed $staging: what a \`load --pin s1\` that was killed" "$tmp/uerr"; then
		fail pin_killed_staging_reclaimed "unload did not say it removed $staging: $(cat "$tmp/uerr")"
	elif ! left=$(fault_gone $ids); then
		fail pin_killed_staging_reclaimed "$left"
	else
		pass pin_killed_staging_reclaimed
	fi
fi

# and unload --all does it too
if ! killed_pin pin:3 s1b unload --all; then
	fail pin_killed_staging_unload_all "bpfprobe did not stop: $(cat "$tmp/err")"
else
	if [ -e "$staging" ]; then
		fail pin_killed_staging_unload_all "$staging is still there: $(cat "$tmp/uerr")"
	elif ! left=$(fault_gone $ids); then
		fail pin_killed_staging_unload_all "$left"
	else
		pass pin_killed_staging_unload_all
	fi
fi

# 2. killed between the renames of --replace (the old session moved aside,
# the new one not in place): the next load --pin puts the old one back
timeout 60 "$BPFPROBE" load --pin s2 "$tmp/obj.o" >/dev/null 2>"$tmp/err"
orig=$(progs)
if [ -z "$orig" ] || [ ! -d "$ROOT/s2" ]; then
	fail pin_killed_replace_restored "load --pin s2 failed: $(cat "$tmp/err")"
elif ! stopped_pin rename:1 --pin s2 --replace; then
	fail pin_killed_replace_restored "bpfprobe did not stop at its first rename: $(cat "$tmp/err")"
else
	ids=$(progs)
	kill -KILL $bp
	wait $bp 2>/dev/null
	moved=$([ -d "$ROOT/s2" ] || echo yes)
	timeout 60 "$BPFPROBE" load --pin s3 "$tmp/obj.o" >/dev/null 2>"$tmp/perr"
	timeout 60 "$BPFPROBE" unload s3 >/dev/null 2>&1
	new_ids=$(for i in $ids; do case " $orig " in *" $i "*) ;; *) echo "$i" ;; esac; done)
	# The kernel frees a released program after a grace period: wait for
	# the killed run's to go before comparing (s3's came and went too).
	left=$(ids_gone $new_ids)
	gone=$?
	for _ in $(seq 100); do
		now=$(progs)
		[ "$now" = "$orig" ] && break
		sleep 0.1
	done
	if [ "$moved" != yes ]; then
		fail pin_killed_replace_restored "s2 was not moved aside at the stop"
	elif [ ! -d "$ROOT/s2" ] || ! grep -q "restored pinned session 's2'" "$tmp/perr"; then
		fail pin_killed_replace_restored "s2 was not put back: $(ls "$ROOT"); $(cat "$tmp/perr")"
	elif [ $gone -ne 0 ]; then
		fail pin_killed_replace_restored "$left"
	elif [ "$now" != "$orig" ]; then
		fail pin_killed_replace_restored "programs now '$now', the session had '$orig'"
	elif ls "$ROOT" | grep -q '^_'; then
		fail pin_killed_replace_restored "staging directories left: $(ls "$ROOT")"
	else
		pass pin_killed_replace_restored
	fi
fi
"$BPFPROBE" unload s2 >/dev/null 2>&1

# 3. a bpfprobe still pinning (stopped, alive) keeps its staging directory
if ! stopped_pin pin:1 --pin s4; then
	fail pin_live_staging_kept "bpfprobe did not stop: $(cat "$tmp/err")"
else
	staging=$ROOT/_new-s4-$bp
	"$BPFPROBE" unload --all >/dev/null 2>&1
	"$BPFPROBE" unload s4 >/dev/null 2>&1
	kept=$([ -d "$staging" ] && echo yes)
	kill -CONT $bp
	wait $bp
	rc=$?
	if [ "$kept" != yes ]; then
		fail pin_live_staging_kept "the staging directory of a live bpfprobe was removed"
	elif [ $rc -ne 0 ] || [ ! -d "$ROOT/s4" ]; then
		fail pin_live_staging_kept "the pinning did not finish: exit $rc, $(cat "$tmp/err")"
	else
		pass pin_live_staging_kept
	fi
	"$BPFPROBE" unload s4 >/dev/null 2>&1
fi

# 4. a symlink in the pin root: unload never follows it
mkdir -p "$ROOT" "$tmp/target"
touch "$tmp/target/link_x_0" "$tmp/target/prog_y" "$tmp/target/keep"
ln -s "$tmp/target" "$ROOT/evil"
"$BPFPROBE" unload evil >/dev/null 2>"$tmp/uerr"
rc=$?
"$BPFPROBE" unload --all >/dev/null 2>&1
if [ "$(ls "$tmp/target" | tr '\n' ' ')" != "keep link_x_0 prog_y " ]; then
	fail pin_unload_symlink_not_followed "files under the link's target went: $(ls "$tmp/target")"
elif [ $rc -ne 1 ] || ! grep -q "$ROOT/evil is a symbolic link or not a directory" "$tmp/uerr"; then
	fail pin_unload_symlink_not_followed "exit $rc: $(cat "$tmp/uerr")"
else
	pass pin_unload_symlink_not_followed
fi

# 5. another tool's directories under the pin root: one with its map, one
# named and filled like a session (map_counts) without bpfprobe's metadata
mkdir -p "$ROOT/othertool" "$ROOT/map_x"
bpftool map create "$ROOT/othertool/counts" type array key 4 value 4 entries 1 name othermap &&
bpftool map create "$ROOT/map_x/map_counts" type array key 4 value 4 entries 1 name othermap2 ||
	fail pin_unload_other_tools_dirs "bpftool map create failed"
"$BPFPROBE" unload --all >/dev/null 2>"$tmp/uerr"
"$BPFPROBE" unload othertool >/dev/null 2>"$tmp/uerr2"
rc=$?
timeout 60 "$BPFPROBE" load --pin map_x --replace "$tmp/obj.o" >/dev/null 2>"$tmp/perr"
prc=$?
if [ ! -e "$ROOT/othertool/counts" ] || [ ! -e "$ROOT/map_x/map_counts" ]; then
	fail pin_unload_other_tools_dirs "another tool's pinned map was removed: $(ls -R "$ROOT")"
elif [ $rc -ne 1 ] || ! grep -q "$ROOT/othertool is not a bpfprobe session" "$tmp/uerr2"; then
	fail pin_unload_other_tools_dirs "unload othertool: exit $rc: $(cat "$tmp/uerr2")"
elif [ $prc -ne 1 ] || ! grep -q "$ROOT/map_x is not a bpfprobe session" "$tmp/perr"; then
	fail pin_unload_other_tools_dirs "load --pin map_x --replace: exit $prc: $(cat "$tmp/perr")"
else
	pass pin_unload_other_tools_dirs
fi
