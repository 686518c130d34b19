# The command line a user expects: --version, --help for every command
# documenting every option it takes (and taking every option it documents),
# a typo'd option or command answered with the right one, options after
# the object refused with where they go, bare binary names in the current
# directory, resolve PROG.c, --cflags/-I/-D, list naming a PROG.c session's
# source, cat of a pinned session's records, monitor labelling libbpf's
# feature probes, the privilege check first, and bash completion offering
# exactly what --help lists and the workload's command after the object.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

tmp=$(mktemp -d)
chmod 755 "$tmp"
bp=
export BPFPROBE_PIN_ROOT=/sys/fs/bpf/bpfprobe-clitest-$$
trap 'kill $bp 2>/dev/null; "$BPFPROBE" unload --all >/dev/null 2>&1
      rmdir "$BPFPROBE_PIN_ROOT" 2>/dev/null; rm -rf "$tmp"' EXIT
CMDS="load trace resolve vars funcs markers list cat unload monitor"
T=$PWD/build/targets/follow-gcc-O2

# --version
if "$BPFPROBE" --version | grep -Eqx 'bpfprobe [0-9]+\.[0-9]+\.[0-9]+ \(libbpf v?[0-9.]+\)'; then
	pass cli_version
else
	fail cli_version "$("$BPFPROBE" --version 2>&1)"
fi

# the options a command's --help lists, one a line: "-x --long" or "--long"
help_opts() {
	"$BPFPROBE" "$1" --help | sed -n 's/^ *\(-[A-Za-z]\), \(--[a-z][-a-z]*\).*/\1 \2/p; s/^ *\(--[a-z][-a-z]*\).*/\1/p'
}

# --help: usage, the command's description, each option with a line of
# help; each option listed is accepted (an unknown one is refused), and a
# typo of each long option suggests it
for c in $CMDS; do
	h=$("$BPFPROBE" "$c" --help 2>&1)
	rc=$?
	opts=$(help_opts "$c")
	bad=
	for o in $(tr ' ' '\n' <<<"$opts"); do
		[ "$o" = --help ] || [ "$o" = -h ] && continue
		# an accepted option may fail for want of an argument or operand,
		# never as unknown
		if timeout -k 5 3 "$BPFPROBE" "$c" "$o" 2>&1 </dev/null | grep -q "unknown"; then
			bad="$bad $o(refused)"
		fi
		case $o in --??*)
			typo="--$(sed 's/^--\(.\)\(.\)/\2\1/' <<<"$o")"	# swap two letters
			"$BPFPROBE" "$c" "$typo" 2>&1 | grep -q "did you mean '$o'" ||
				bad="$bad $typo(no suggestion)"
		esac
	done
	if [ $rc -eq 0 ] && grep -q "^usage: bpfprobe $c " <<<"$h" && grep -q -- "--help" <<<"$opts" &&
	   [ -z "$bad" ]; then
		pass "cli_help_$c"
	else
		fail "cli_help_$c" "exit $rc:$bad $(head -3 <<<"$h")"
	fi
done

# every option a command's section of the man page names is in its --help,
# and back
bad=
for c in $CMDS; do
	# the option items: the line after each .TP or .TQ
	man_opts=$(sed -n "/^\.SS $c\$/,/^\.S[SH] /p" man/bpfprobe.8 |
		awk 'item { print; item = 0 } /^\.T[PQ]/ { item = 1 }' |
		grep -oE '\\-\\-[a-z]([a-z]|\\-)*' | sed 's/\\//g' | sort -u)
	help_long=$(help_opts "$c" | tr ' ' '\n' | grep '^--' | sort -u)
	[ -n "$man_opts" ] && [ "$man_opts" = "$help_long" ] ||
		bad="$bad $c: $(diff <(echo "$help_long") <(echo "$man_opts") | grep '^[<>]' | tr '\n' ' ')"
done
if [ -z "$bad" ]; then
	pass cli_man_options
else
	fail cli_man_options "(< --help only, > man only)$bad"
fi

# a mistyped command
if "$BPFPROBE" lod 2>&1 | grep -q "unknown command 'lod'; did you mean 'load'?"; then
	pass cli_command_typo
else
	fail cli_command_typo "$("$BPFPROBE" lod 2>&1 | head -1)"
fi
# a long option with one dash
if "$BPFPROBE" load -json x.o 2>&1 | grep -q "did you mean '--json'"; then
	pass cli_one_dash_long_option
else
	fail cli_one_dash_long_option "$("$BPFPROBE" load -json x.o 2>&1 | head -1)"
fi

# an option after the object: an error saying where options go, nothing run
cp tests/bpf/follow__work.bpf.c "$tmp/prog.c"
sed -i "s|\" TARGET \"|$T|" "$tmp/prog.c"
err=$("$BPFPROBE" load "$tmp/prog.c" -p 1 2>&1)
rc=$?
if [ $rc -eq 2 ] && grep -q "option '-p' after the object '$tmp/prog.c': options go before the object" <<<"$err"; then
	pass cli_option_after_object
else
	fail cli_option_after_object "exit $rc: $err"
fi

# vars and funcs take a binary in the current directory by its bare name
abs=$(realpath "$BPFPROBE")
got=$(cd build/targets && "$abs" funcs follow-gcc-O2 'work' 2>&1)
vars=$(cd build/targets && "$abs" vars follow-gcc-O2 work 2>&1)
if grep -q '^work ' <<<"$got" && grep -q 'param  twice: long int' <<<"$vars"; then
	pass cli_bare_binary_name
else
	fail cli_bare_binary_name "$got / $vars"
fi

# resolve PROG.c: compiled and resolved like load's
got=$("$BPFPROBE" resolve --json "$tmp/prog.c" 2>"$tmp/err" | jq -r '.programs[].points[].func' 2>&1)
if [ "$got" = work ]; then
	pass cli_resolve_c_source
else
	fail cli_resolve_c_source "$got $(cat "$tmp/err")"
fi

# --cflags / -I / -D reach the compile step (load and resolve)
mkdir -p "$tmp/inc"
echo '#define WHAT "GOT work i=%ld twice=%ld"' >"$tmp/inc/what.h"
cat >"$tmp/flags.c" <<EOC
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "what.h"
#if N != 3
#error N is not 3
#endif
SEC("exec=$T;func=work i twice")
int work(void *ctx, int err, long i, long twice)
{
	bpf_printk(WHAT, i, twice);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOC
out=$(timeout 60 "$BPFPROBE" load -q --quiet-meta -I "$tmp/inc" -D N=3 "$tmp/flags.c" -- $T self 2 2>&1)
rc1=$?
d1=$(compare_truth "$out")
r1=$?
out=$(timeout 60 "$BPFPROBE" load -q --quiet-meta --cflags "-I$tmp/inc -DN=3" "$tmp/flags.c" -- $T self 2 2>&1)
rc2=$?
d2=$(compare_truth "$out")
r2=$?
"$BPFPROBE" resolve -I "$tmp/inc" -D N=3 "$tmp/flags.c" >/dev/null 2>"$tmp/err"
rc3=$?
"$BPFPROBE" load -I "$tmp/inc" -D N=4 "$tmp/flags.c" -- true >/dev/null 2>"$tmp/err4"
rc4=$?
if [ $rc1 -eq 0 ] && [ $r1 -eq 0 ] && [ $rc2 -eq 0 ] && [ $r2 -eq 0 ] && [ $rc3 -eq 0 ] &&
   [ $rc4 -ne 0 ] && grep -q "N is not 3" "$tmp/err4"; then
	pass cli_compile_flags
else
	fail cli_compile_flags "exits $rc1/$r1 $rc2/$r2 $rc3 $rc4: $d1 $d2 $(cat "$tmp/err" "$tmp/err4" | head -5)"
fi

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip cli_privileged "$why"
	exit 0
fi

# list shows the source a load PROG.c session was compiled from
"$BPFPROBE" load -q "$tmp/prog.c" -- $T idle 20 >/dev/null 2>&1 &
bp=$!
src=
for _ in $(seq 100); do
	src=$("$BPFPROBE" list --json 2>/dev/null |
		jq -r --argjson pid $bp '.programs[] | select(.bpfprobe.loader_pid == ($pid | tostring) or .bpfprobe.loader_pid == $pid) | .bpfprobe.source' | head -1)
	[ -n "$src" ] && break
	sleep 0.1
done
text=$("$BPFPROBE" list 2>/dev/null | grep -c "(compiled from $tmp/prog.c)")
kill $bp; wait $bp 2>/dev/null; bp=
if [ "$src" = "$tmp/prog.c" ] && [ "$text" -ge 1 ]; then
	pass cli_list_shows_source
else
	fail cli_list_shows_source "source '$src', $text text lines"
fi

# cat NAME: a pinned session's ring buffer records, typed, as they come
O=build/bpf/output__ringbuf-gcc-O2.o
"$BPFPROBE" load --pin clicat $O >/dev/null 2>"$tmp/err"
"$BPFPROBE" cat --json --duration 10 clicat >"$tmp/cat.out" 2>"$tmp/cat.err" &
bp=$!
sleep 1
build/targets/output-gcc-O2 record 3 >"$tmp/truth"
for _ in $(seq 50); do
	[ "$(grep -c '"map":"events"' "$tmp/cat.out")" -ge 3 ] && break
	sleep 0.1
done
kill -INT $bp; wait $bp; rc=$?; bp=
got=$(jq -r 'select(.map == "events") | .data | "\(.id) \(.val) \(.name)"' "$tmp/cat.out" 2>&1)
want=$(sed -n 's/^TRUTH record id=\([0-9]*\) val=\([-0-9]*\) name=\(.*\)$/\1 \2 \3/p' "$tmp/truth")
"$BPFPROBE" unload clicat >/dev/null 2>&1
if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
	pass cli_cat_pinned_records
else
	fail cli_cat_pinned_records "exit $rc: got '$got', want '$want' $(cat "$tmp/cat.err" "$tmp/err")"
fi
err=$("$BPFPROBE" cat nosuchsession 2>&1)
if [ $? -ne 0 ] && grep -q "no pinned bpfprobe session 'nosuchsession'" <<<"$err"; then
	pass cli_cat_unknown_session
else
	fail cli_cat_unknown_session "$err"
fi

# monitor labels libbpf's feature probes (bpfprobe's load runs them)
"$BPFPROBE" monitor --json --duration 8 >"$tmp/mon" 2>/dev/null &
bp=$!
sleep 1.5
"$BPFPROBE" load -q "$O" -- true >/dev/null 2>&1 &
lp=$!
wait $lp
wait $bp; bp=
probes=$(jq -r --argjson p $lp 'select(.event == "load" and .pid == $p and .libbpf_probe) | .tag' "$tmp/mon" | sort -u | tr '\n' ' ')
own=$(jq -r --argjson p $lp 'select(.event == "load" and .pid == $p and .name == "rec") | .libbpf_probe' "$tmp/mon" | sort -u)
if grep -q 59f4a931744dcdc6 <<<"$probes" && [ "$own" = false ]; then
	pass cli_monitor_labels_libbpf_probes
else
	fail cli_monitor_labels_libbpf_probes "probe tags '$probes', own program labelled '$own'"
fi

# without privileges: that alone is said, first (copies: the checkout may
# be unreadable to nobody)
if command -v setpriv >/dev/null; then
	nb=$(nobody_copy "$tmp")
	cp build/bpf/follow__work-gcc-O2.o "$tmp/obj.o"
	chmod 644 "$tmp/obj.o" "$tmp/prog.c"
	bad=
	for args in "load $tmp/obj.o -- true" "load $tmp/prog.c" "list" "monitor" "unload x" "cat x"; do
		# shellcheck disable=SC2086
		err=$(as_nobody "$nb" $args 2>&1 >/dev/null)
		rc=$?
		[ $rc -eq 1 ] && [ "$(wc -l <<<"$err")" -eq 1 ] &&
			grep -q "permission denied: needs CAP_BPF and CAP_PERFMON" <<<"$err" ||
			bad="$bad [$args: $rc: $err]"
	done
	if [ -z "$bad" ]; then
		pass cli_privilege_check_first
	else
		fail cli_privilege_check_first "$bad"
	fi
else
	skip cli_privilege_check_first "setpriv (util-linux) is not installed"
fi

# bash completion: each command's options are exactly those of --help;
# after the object (or --), the workload's command is completed
if [ -f /usr/share/bash-completion/bash_completion ] || true; then
	comp() {	# comp WORD...: what completing the last word offers
		bash -c '
			. completion/bpfprobe.bash
			COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
			_bpfprobe
			printf "%s\n" "${COMPREPLY[@]}"' comp "$@" | sort -u
	}
	bad=
	PATH=$(dirname "$(realpath "$BPFPROBE")"):$PATH
	for c in $CMDS; do
		want=$(help_opts "$c" | tr ' ' '\n' | sort -u)
		got=$(comp "$(realpath "$BPFPROBE")" "$c" -)
		[ "$got" = "$want" ] || bad="$bad $c: $(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | tr '\n' ' ')"
	done
	cmdc=$(comp bpfprobe load -q x.o ech)
	cmdc2=$(comp bpfprobe load x.o -- ech)
	if [ -z "$bad" ] && grep -qx echo <<<"$cmdc" && grep -qx echo <<<"$cmdc2"; then
		pass cli_completion
	else
		fail cli_completion "$bad; after the object: $(head -3 <<<"$cmdc" | tr '\n' ' ')"
	fi
fi
