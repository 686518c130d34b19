# Text output is terminal-safe (issue 30, rows 11 and 12): what came from
# outside and holds escape sequences is shown escaped (\e, \x07) in text
# output and messages, never raw:
#  - a traced process named "\e]0;PWN\a" (prctl PR_SET_NAME: it retitles
#    the terminal) and the strings read from it, in load's printk lines
#    (stdout and -o FILE) and trace's lines;
#  - DWARF function and parameter names holding ESC and BEL, in funcs,
#    vars, resolve, trace and error messages;
#  - a SEC text naming a binary whose path holds ESC, in load's messages
#    and list's listing of the pinned session.
# JSON stays as it is: those characters as JSON escapes (\u001b).
#
# The DWARF names are made by the generator below: a C target whose names
# hold a 7-byte placeholder, built with -g, then the placeholder's bytes
# replaced in the whole file (.debug_str, .debug_info, .strtab alike) by
# "\e]0;PW\a", as long.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip security_terminal "$why"
	exit 0
fi
command -v jq >/dev/null || { fail security_terminal "jq is missing (make deps installs it)"; exit 0; }
tmp=$(mktemp -d)
chmod 755 "$tmp"
export BPFPROBE_PIN_ROOT=/sys/fs/bpf/bpfprobe-termtest-$$
export XDG_CACHE_HOME=$tmp/cache
cleanup() {
	"$BPFPROBE" unload --all >/dev/null 2>&1
	rmdir "$BPFPROBE_PIN_ROOT" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# has_controls FILE: FILE holds a control character other than newline
# and tab (a terminal would act on it)
has_controls() {
	LC_ALL=C tr -d '\n\t' <"$1" | LC_ALL=C grep -q '[[:cntrl:]]'
}

# safe NAME FILE WANT: FILE shows WANT (a fixed string) and no control
# character; else says why and returns 1
safe() {
	if ! grep -qF -- "$3" "$2"; then
		fail "$1" "no '$3' in: $(head -c 300 "$2" | cat -A)"
	elif has_controls "$2"; then
		fail "$1" "raw control characters: $(grep -a '[[:cntrl:]]' "$2" | head -3 | cat -A)"
	else
		return 0
	fi
	return 1
}

# --- a process whose name and strings hold escape sequences ---------------
cat >"$tmp/esc.c" <<'EOF'
#include <stdio.h>
#include <sys/prctl.h>
volatile long sink;
__attribute__((noinline)) long esc_hit(const char *s, long n)
{
	sink = n + s[0];
	return sink;
}
int main(void)
{
	/* ESC [ 31 m, BEL, a C1 CSI as UTF-8, a raw C1 byte (not UTF-8) */
	char s[32] = "\033[31mred\007\302\233-\233";

	prctl(PR_SET_NAME, "\033]0;PWN\007", 0, 0, 0);
	esc_hit(s, 7);
	printf("TRUTH n=7\n");
	return 0;
}
EOF
gcc -O2 -g "$tmp/esc.c" -o "$tmp/esc" || { fail security_terminal_build "gcc"; exit 0; }
mkobj "$tmp/esc.o" <<EOF
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$tmp/esc;p=esc_hit n")
int term_esc(void *ctx, int err, long n)
{
	bpf_printk("GOT n=%ld", n);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOF

COMM='\e]0;PWN\x07'
timeout 60 "$BPFPROBE" load "$tmp/esc.o" -- "$tmp/esc" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	fail security_terminal_comm_load "exit $rc: $(tail -3 "$tmp/err")"
elif safe security_terminal_comm_load "$tmp/out" " $COMM " && safe security_terminal_comm_load "$tmp/err" attached; then
	pass security_terminal_comm_load
fi
# -o FILE: written by the library's emitter alone
timeout 60 "$BPFPROBE" load -o "$tmp/records" "$tmp/esc.o" -- "$tmp/esc" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	fail security_terminal_comm_load_file "exit $rc: $(tail -3 "$tmp/err")"
elif safe security_terminal_comm_load_file "$tmp/records" " $COMM "; then
	pass security_terminal_comm_load_file
fi

timeout 60 "$BPFPROBE" trace "exec=$tmp/esc;esc_hit s:string n" -- "$tmp/esc" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	fail security_terminal_comm_trace "exit $rc: $(tail -3 "$tmp/err")"
elif safe security_terminal_comm_trace "$tmp/out" \
	" $COMM " &&
     safe security_terminal_comm_trace "$tmp/out" 's="\e[31mred\x07\u009b-\x9b" n=7'; then
	pass security_terminal_comm_trace
fi

timeout 60 "$BPFPROBE" trace --json "exec=$tmp/esc;esc_hit s:string n" -- "$tmp/esc" >"$tmp/out" 2>"$tmp/err"
rc=$?
comm=$(jq -r 'select(.comm) | .comm' "$tmp/out" 2>/dev/null | head -1)
s=$(jq -r 'select(.comm) | .args.s' "$tmp/out" 2>/dev/null | head -1)
if [ $rc -ne 0 ]; then
	fail security_terminal_json "exit $rc: $(tail -3 "$tmp/err")"
elif [ "$comm" != $'\e]0;PWN\a' ] || [ "$s" != $'\e[31mred\a\302\233-\357\277\275' ]; then
	fail security_terminal_json "JSON changed: comm $(printf %s "$comm" | cat -A), s $(printf %s "$s" | cat -A)"
elif ! grep -qF '"comm":"\u001b]0;PWN\u0007"' "$tmp/out"; then
	fail security_terminal_json "not JSON's escapes: $(head -c 300 "$tmp/out")"
else
	pass security_terminal_json
fi

# --- DWARF names holding ESC and BEL ---------------------------------------
# esc_names_target OUT: the generator (see the top of this file)
esc_names_target() {
	cat >"$1.c" <<'EOF'
#include <stdio.h>
volatile long sink;
__attribute__((noinline)) long ZZESCZZ_fn(long ZZESCZZ, long b)
{
	sink = ZZESCZZ + b;
	return sink;
}
int main(int argc, char **argv)
{
	printf("TRUTH %ld\n", ZZESCZZ_fn(argc, 2));
	return 0;
}
EOF
	gcc -O2 -g "$1.c" -o "$1" && perl -0777 -pi -e 's/ZZESCZZ/\e]0;PW\a/g' "$1" &&
		! grep -q ZZESCZZ "$1"
}
if ! esc_names_target "$tmp/dn"; then
	fail security_terminal_dwarf_build "cannot make the target"
	exit 0
fi
NAME='\e]0;PW\x07'

"$BPFPROBE" funcs "$tmp/dn" '*_fn' >"$tmp/out" 2>"$tmp/err"
if safe security_terminal_dwarf_funcs "$tmp/out" "${NAME}_fn "; then
	pass security_terminal_dwarf_funcs
fi
"$BPFPROBE" vars "$tmp/dn" '*_fn' >"$tmp/out" 2>"$tmp/err"
if safe security_terminal_dwarf_vars "$tmp/out" "param  $NAME: long int"; then
	pass security_terminal_dwarf_vars
fi
"$BPFPROBE" resolve "exec=$tmp/dn;*_fn b" >"$tmp/out" 2>"$tmp/err"
if safe security_terminal_dwarf_resolve "$tmp/out" "point 0: ${NAME}_fn in $tmp/dn"; then
	pass security_terminal_dwarf_resolve
fi
# an error message naming the function and its parameters
"$BPFPROBE" resolve "exec=$tmp/dn;*_fn nosuch" >"$tmp/out" 2>"$tmp/err"
if safe security_terminal_dwarf_message "$tmp/err" "${NAME}_fn in $tmp/dn: argument 'nosuch'" &&
   safe security_terminal_dwarf_message "$tmp/err" "(parameters: $NAME, b)"; then
	pass security_terminal_dwarf_message
fi
timeout 60 "$BPFPROBE" trace "exec=$tmp/dn;*_fn b" -- "$tmp/dn" >"$tmp/out" 2>"$tmp/err"
if safe security_terminal_dwarf_trace "$tmp/out" " ${NAME}_fn b=2"; then
	pass security_terminal_dwarf_trace
fi
"$BPFPROBE" funcs --json "$tmp/dn" '*_fn' >"$tmp/out" 2>"$tmp/err"
name=$(jq -r '.functions[0].name' "$tmp/out" 2>/dev/null)
if [ "$name" = $'\e]0;PW\a_fn' ] && grep -qF '"\u001b]0;PW\u0007_fn"' "$tmp/out"; then
	pass security_terminal_dwarf_json
else
	fail security_terminal_dwarf_json "$(head -c 300 "$tmp/out")"
fi

# --- a SEC text naming a path that holds ESC --------------------------------
d="$tmp/e"$'\e[31mX\a'"d"
mkdir "$d" && cp build/targets/args-gcc-O2 "$d/victim"
# the C string: "\033[31mX\007d" is ESC [ 3 1 m X BEL d
mkobj "$tmp/sec.o" <<EOF
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$tmp/e\\033[31mX\\007d/victim;p=handle_req req->hdr->len")
int term_sec(void *ctx, int err, long len)
{
	bpf_printk("GOT len=%ld", len);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOF
P="$tmp/e\\e[31mX\\x07d/victim"
timeout 60 "$BPFPROBE" load --pin term "$tmp/sec.o" >"$tmp/out" 2>"$tmp/err"
rc=$?
"$BPFPROBE" list >"$tmp/list" 2>"$tmp/err2"
"$BPFPROBE" list --json >"$tmp/list.json" 2>>"$tmp/err2"
"$BPFPROBE" unload term >/dev/null 2>&1
if [ $rc -ne 0 ]; then
	fail security_terminal_sec_list "load --pin: exit $rc: $(tail -3 "$tmp/err" | cat -A)"
elif safe security_terminal_sec_list "$tmp/list" "SEC(\"exec=$P;p=handle_req req->hdr->len\")" &&
     safe security_terminal_sec_list "$tmp/list" "uprobe:$P:handle_req"; then
	if ! grep -qF "exec=$tmp/e\\u001b[31mX\\u0007d/victim" "$tmp/list.json"; then
		fail security_terminal_sec_list "JSON: $(grep -o '"sec":"exec[^"]*' "$tmp/list.json" | head -2)"
	else
		pass security_terminal_sec_list
	fi
fi
# a message that names the SEC text
rm "$d/victim"
timeout 60 "$BPFPROBE" load "$tmp/sec.o" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ]; then
	fail security_terminal_sec_message "loaded a probe on a missing binary"
elif safe security_terminal_sec_message "$tmp/err" "binary '$P' not found"; then
	pass security_terminal_sec_message
fi
