# The man page and docs/commands.md agree with the commands on every
# option. A command's options come from one table (cli/options.h), which
# `bpfprobe CMD --help` prints. For every command `bpfprobe --help` lists:
#   docs_options_man_CMD   each option of --help is an item (.TP/.TQ) of the
#                          command's section in man/bpfprobe.8, its short
#                          and long name together, and that section has no
#                          item for an option the command does not take;
#   docs_options_doc_CMD   the same for the command's table in
#                          docs/commands.md (the table after
#                          "<!-- options: CMD -->").
# docs_options_in_examples: the commands written out in README.md,
# docs/*.md, bench/README.md and man/bpfprobe.8 ("bpfprobe CMD ..." in code
# blocks, code spans and man lines) use only options CMD takes.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
man=man/bpfprobe.8
doc=docs/commands.md

"$BPFPROBE" --help >"$tmp/help" 2>&1 || { fail docs_options "$BPFPROBE --help failed: $(head -3 "$tmp/help")"; exit 0; }
cmds=$(awk '/^commands:/ { c = 1; next } c && /^  [a-z]/ { print $1 } c && /^$/ { exit }' "$tmp/help")
[ -n "$cmds" ] || { fail docs_options "no commands in $BPFPROBE --help"; exit 0; }

# help_opts CMD: one line per option of `bpfprobe CMD --help`:
# "SHORT LONG ARG" (SHORT "-" when there is none; ARG 1 when the option
# takes an argument of its own word, else 0)
help_opts() {
	"$BPFPROBE" "$1" --help 2>&1 | awk '
		/^ +-/ {
			spec = $0; sub(/^ +/, "", spec); sub(/  .*/, "", spec)
			n = split(spec, w, " ")
			s = "-"; l = ""; arg = 0
			if (w[1] ~ /^-[A-Za-z],$/) { s = substr(w[1], 1, 2); l = w[2]; arg = (n > 2) }
			else { l = w[1]; arg = (n > 1) }
			sub(/[[=].*/, "", l)
			if (l ~ /^--/) print s, l, arg
		}'
}

# man_items CMD: one line per .TP/.TQ item of CMD's section of the man
# page: the option names it shows
man_items() {
	awk -v cmd="$1" '
		/^\.S[HS] / { in_sec = ($0 == ".SS " cmd); next }
		!in_sec { next }
		/^\.T[PQ]/ { item = 1; next }
		item {
			item = 0
			line = $0
			gsub(/\\-/, "-", line); gsub(/\\f[BIRP]/, "", line); gsub(/"/, " ", line)
			n = split(line, w, " ")
			out = ""
			for (i = 2; i <= n; i++) {
				t = w[i]
				if (t ~ /^--[a-z]/) { sub(/[[=].*/, "", t); out = out " " t }
				else if (t ~ /^-[A-Za-z]$/) out = out " " t
			}
			if (out != "") print substr(out, 2)
		}' "$man"
}

# doc_items CMD: one line per row of CMD's option table in docs/commands.md
doc_items() {
	awk -v cmd="$1" '
		$0 == "<!-- options: " cmd " -->" { in_tab = 1; started = 0; next }
		in_tab && /^\|/ { started = 1
			if ($0 ~ /^\| *---/ || $0 ~ /^\| *option *\|/) next
			cell = $0; sub(/^\| */, "", cell); sub(/ *\|.*/, "", cell)
			out = ""
			while (match(cell, /`[^`]*`/)) {
				t = substr(cell, RSTART + 1, RLENGTH - 2)
				cell = substr(cell, RSTART + RLENGTH)
				sub(/ .*/, "", t); sub(/[[=].*/, "", t)
				if (t ~ /^--?[A-Za-z]/) out = out " " t
			}
			print substr(out, 2); next }
		in_tab && started { in_tab = 0 }
		in_tab && !/^$/ { in_tab = 0 }' "$doc"
}

# check NAME WHERE ITEMS-FILE OPTS-FILE: every option has an item with its
# long and short name; every item names options the command takes
check() {
	local name=$1 where=$2 items=$3 opts=$4 s l arg bad= item t
	if [ ! -s "$items" ]; then
		fail "$name" "no options of '$cmd' documented in $where"
		return
	fi
	while read -r s l arg; do
		item=$(grep -E -- "(^| )$l( |\$)" "$items" | head -1)
		if [ -z "$item" ]; then
			bad="$bad [$where: '$cmd' option $l is missing]"
		elif [ "$s" != - ] && ! grep -qE -- "(^| )$s( |\$)" <<<"$item"; then
			bad="$bad [$where: '$cmd' option $l is shown without its short form $s]"
		fi
	done <"$opts"
	for t in $(tr ' ' '\n' <"$items" | sort -u); do
		awk -v t="$t" '$1 == t || $2 == t { f = 1 } END { exit !f }' "$opts" ||
			bad="$bad [$where: '$cmd' does not take $t, which is documented]"
	done
	if [ -z "$bad" ]; then
		pass "$name"
	else
		fail "$name" "$bad"
	fi
}

for cmd in $cmds; do
	help_opts "$cmd" >"$tmp/opts.$cmd"
	if [ ! -s "$tmp/opts.$cmd" ]; then
		fail "docs_options_$cmd" "'$BPFPROBE $cmd --help' lists no options"
		continue
	fi
	man_items "$cmd" >"$tmp/man.$cmd"
	check "docs_options_man_$cmd" "$man (.SS $cmd)" "$tmp/man.$cmd" "$tmp/opts.$cmd"
	doc_items "$cmd" >"$tmp/doc.$cmd"
	check "docs_options_doc_$cmd" "$doc (<!-- options: $cmd -->)" "$tmp/doc.$cmd" "$tmp/opts.$cmd"
done

# an option table or man section for a command that does not exist
bad=
for c in $(sed -n 's/^<!-- options: \(.*\) -->$/\1/p' "$doc") $(sed -n 's/^\.SS \([a-z]*\)$/\1/p' "$man"); do
	grep -qx -- "$c" <<<"$cmds" || bad="$bad $c"
done
if [ -z "$bad" ]; then
	pass docs_options_commands_exist
else
	fail docs_options_commands_exist "documented commands that bpfprobe --help does not list:$bad"
fi

# The commands written out in the docs: "FILE:LINE CMD TOKEN..." for each
# "bpfprobe CMD" in a code block, a code span or a man page line, with
# quoted words made one "Q" token and the words up to a shell operator
for f in README.md docs/*.md bench/README.md; do
	awk -v f="$f" '
		/^```/ { inb = !inb; next }
		inb { print f ":" NR "\t" $0; next }
		{ line = $0
		  while (match(line, /`[^`]*`/)) {
			print f ":" NR "\t" substr(line, RSTART + 1, RLENGTH - 2)
			line = substr(line, RSTART + RLENGTH)
		  } }' "$f"
done >"$tmp/texts"
sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\(dq/"/g; s/\\(aq/'"'"'/g; s/\\&//g' "$man" |
	awk -v f="$man" '{ print f ":" NR "\t" $0 }' >>"$tmp/texts"
awk -F '\t' -v cmds="$(echo $cmds)" '
	BEGIN { n = split(cmds, c, " "); for (i = 1; i <= n; i++) known[c[i]] = 1 }
	{
		text = $2
		gsub(/\047[^\047]*\047/, " Q ", text); gsub(/"[^"]*"/, " Q ", text)
		while (match(text, /(^|[ (`$])(build\/)?bpfprobe +[a-z]+/)) {
			rest = substr(text, RSTART + RLENGTH)
			w = substr(text, RSTART, RLENGTH); sub(/.*bpfprobe +/, "", w)
			text = rest
			if (!(w in known)) continue
			out = $1 " " w
			m = split(rest, t, /[ \t]+/)
			for (i = 1; i <= m; i++) {
				if (t[i] == "") continue
				if (t[i] == "--" || t[i] ~ /^[|;&#<>)`]/) break
				out = out " " t[i]
			}
			print out
		}
	}' "$tmp/texts" >"$tmp/uses"

bad=
while read -r where cmd words; do
	[ -f "$tmp/opts.$cmd" ] || continue
	skip_arg=0
	operand=0
	for t in $words; do
		if [ $skip_arg = 1 ]; then skip_arg=0; continue; fi
		t=${t#[}
		t=${t%%]*}
		case $t in
		--?*)
			o=${t%%[=[]*}
			line=$(awk -v o="$o" '$2 == o' "$tmp/opts.$cmd")
			if [ -z "$line" ]; then
				bad="$bad [$where: '$cmd' does not take $o]"
			else
				case $t in *=*) ;; *) [ "${line##* }" = 1 ] && skip_arg=1 ;; esac
			fi ;;
		-[A-Za-z]*)
			o=${t:0:2}
			line=$(awk -v o="$o" '$1 == o' "$tmp/opts.$cmd")
			if [ -z "$line" ]; then
				bad="$bad [$where: '$cmd' does not take $o]"
			elif [ ${#t} -eq 2 ] && [ "${line##* }" = 1 ]; then
				skip_arg=1
			fi ;;
		*)
			# load takes its options before the object: what follows is CMD
			[ "$cmd" = load ] && [ -n "$t" ] && break ;;
		esac
	done
done <"$tmp/uses"
if [ ! -s "$tmp/uses" ]; then
	fail docs_options_in_examples "found no bpfprobe command in the docs (the scan is broken)"
elif [ -z "$bad" ]; then
	pass docs_options_in_examples
else
	fail docs_options_in_examples "$bad"
fi

# Every BPFPROBE_* environment variable the code reads is in the man page's
# ENVIRONMENT and in docs/commands.md's Environment table, and both list
# only variables the code reads.
code_env=$(grep -rhoE '"BPFPROBE_[A-Z0-9_]+"' --include='*.c' --include='*.h' \
	--exclude-dir=tests --exclude-dir=fuzz --exclude-dir=bench --exclude-dir=samples \
	--exclude-dir=build --exclude-dir=.git . | tr -d '"' | sort -u)
man_env=$(awk '/^\.SH / { in_sec = ($0 == ".SH ENVIRONMENT"); next }
	in_sec && /^\.B BPFPROBE_/ { print $2 }' "$man" | sort -u)
doc_env=$(awk '/^## / { in_sec = ($0 == "## Environment"); next }
	in_sec && /^\| `BPFPROBE_/ { v = $2; gsub(/`/, "", v); print v }' "$doc" | sort -u)
bad=
[ -n "$code_env" ] || bad=" found no BPFPROBE_ variable in the code (the scan is broken)"
for v in $code_env; do
	grep -qx -- "$v" <<<"$man_env" || bad="$bad [$man: ENVIRONMENT lacks $v]"
	grep -qx -- "$v" <<<"$doc_env" || bad="$bad [$doc: Environment lacks $v]"
done
for v in $man_env $doc_env; do
	grep -qx -- "$v" <<<"$code_env" || bad="$bad [$v is documented but the code reads no such variable]"
done
if [ -z "$bad" ]; then
	pass docs_options_environment
else
	fail docs_options_environment "$bad"
fi
