# The documentation's examples work: every code block of README.md, of
# every docs/*.md and of bench/README.md is marked with what it claims
# (<!-- doctest: compile FILE -->: a BPF C file that compiles with the
# README's command; run: commands that succeed, only the "$ " lines when it
# has some; example, output or fragment: shown, not run), and the marked
# blocks of the man pages (.\" doctest: ...) likewise; each file is a test
# of its own (docs_examples_FILE). Links between these files lead to files
# and headings that exist. README.md stays short. Every function
# libbpfprobe.so exports is described in libbpfprobe(3). (The commands'
# options are checked by docs_options.sh.)
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

top=$PWD
tmp=$(mktemp -d)
chmod 755 "$tmp"
export BPFPROBE_PIN_ROOT=/sys/fs/bpf/bpfprobe-doctest-$$
trap 'PATH=$top/build:$PATH bpfprobe unload --all >/dev/null 2>&1
      rmdir "$BPFPROBE_PIN_ROOT" 2>/dev/null; rm -rf "$tmp"' EXIT

# blocks FILE OUTDIR: writes OUTDIR/N (the block) and OUTDIR/N.kind ("LINE
# KIND [ARG]"), from Markdown fences or, for a man page, .nf/.fi after a
# doctest comment
blocks() {
	mkdir -p "$2"
	awk -v out="$2" -v man="$3" '
		function start(kind) { n++; f = out "/" n; printf "%d %s\n", NR, kind >f ".kind"; inb = 1; mark = "" }
		man && /^\.\\" doctest: / { mark = substr($0, 14); next }
		man && /^\.nf/ && mark != "" { start(mark); next }
		man && inb && /^\.fi/ { inb = 0; next }
		man && inb {
			gsub(/\\-/, "-"); gsub(/\\e/, "\\"); gsub(/\\\(dq/, "\""); gsub(/\\\(aq/, "\047")
			gsub(/\\&/, ""); print >f; next
		}
		man { next }
		/^<!-- doctest: .* -->$/ { mark = $3 " " $4; sub(/ *-->$/, "", mark); sub(/ *$/, "", mark); next }
		/^```/ && !inb { start(mark == "" ? "unmarked" : mark); next }
		/^```/ && inb { inb = 0; next }
		inb { print >f; next }
		{ if ($0 != "") mark = "" }' "$1"
}

cd "$tmp" && ln -s "$top/build" build && cd "$top" || exit 1
export PATH=$top/build:$PATH

# check_blocks NAME DIR: runs what DIR's blocks claim, in $tmp
check_blocks() {
	local name=$1 dir=$2 b kind arg line bad= cmds
	for b in $(ls "$dir" | grep -v kind | sort -n); do
		read -r line kind arg <"$dir/$b.kind"
		case $kind in
		compile)
			cp "$dir/$b" "$tmp/$arg"
			(cd "$tmp" && clang -O2 -g -target bpf -I/usr/include/$(uname -m)-linux-gnu \
				-c "$arg" -o "${arg%.c}.o") >"$tmp/log" 2>&1 ||
				bad="$bad [line $line: $arg does not compile: $(head -3 "$tmp/log")]"
			;;
		run)
			if grep -q '^\$ ' "$dir/$b"; then
				cmds=$(sed -n 's/^\$ //p' "$dir/$b")
			else
				cmds=$(grep -v '^#\|^$' "$dir/$b")
			fi
			while read -r c; do
				[ -n "$c" ] || continue
				(cd "$tmp" && timeout 120 bash -c "$c") >"$tmp/log" 2>&1 ||
					bad="$bad [line $line: '$c' failed: $(tail -3 "$tmp/log")]"
			done <<<"$cmds"
			;;
		example|output|fragment) ;;
		*)
			bad="$bad [line $line: a block without a doctest mark ($kind)]" ;;
		esac
	done
	if [ -z "$bad" ]; then
		pass "$name"
	else
		fail "$name" "$bad"
	fi
}

# README.md is what a newcomer reads in five minutes: at most 250 lines
n=$(wc -l <README.md)
if [ "$n" -le 250 ]; then
	pass docs_readme_short
else
	fail docs_readme_short "README.md has $n lines (at most 250: move the detail to docs/)"
fi

# anchors FILE: the GitHub anchors of FILE's headings, one a line
anchors() {
	awk '/^```/ { inb = !inb; next }
	     !inb && /^#+ / {
		h = tolower($0); sub(/^#+ +/, "", h)
		gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h)
		n = seen[h]++
		print (n ? h "-" n : h)
	     }' "$1"
}

# every relative link [text](PATH[#ANCHOR]) of the Markdown files leads to
# a file that exists and, with an anchor, to one of its headings
bad=
for f in README.md docs/*.md bench/README.md; do
	dir=$(dirname "$f")
	while IFS= read -r link; do
		case $link in http*|mailto:*) continue ;; esac
		path=${link%%#*}
		anchor=
		case $link in *'#'*) anchor=${link#*#} ;; esac
		if [ -z "$path" ]; then
			target=$f
		else
			target=$dir/$path
		fi
		if [ ! -e "$target" ]; then
			bad="$bad [$f: $link: no such file]"
		elif [ -n "$anchor" ] && ! anchors "$target" | grep -qxF -- "$anchor"; then
			bad="$bad [$f: $link: no such heading in $target]"
		fi
	done < <(awk '/^```/ { inb = !inb; next } !inb' "$f" | grep -o '\](\([^)]*\))' | sed 's/^](//; s/)$//')
done
if [ -z "$bad" ]; then
	pass docs_links
else
	fail docs_links "$bad"
fi

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip docs "$why"
	exit 0
fi
[ -x build/samples/demo_app ] || { fail docs "build/samples/demo_app is missing (make samples)"; exit 0; }

blocks README.md "$tmp/readme" 0
check_blocks docs_readme_examples "$tmp/readme"
for f in docs/*.md bench/README.md; do
	case $f in
	bench/README.md) name=bench ;;
	*) name=$(basename "$f" .md | tr -c 'A-Za-z0-9\n' _) ;;
	esac
	blocks "$f" "$tmp/md-$name" 0
	check_blocks "docs_examples_$name" "$tmp/md-$name"
done
blocks man/bpfprobe.8 "$tmp/man8" 1
if ls "$tmp/man8" | grep -q kind; then
	check_blocks docs_man_examples "$tmp/man8"
else
	fail docs_man_examples "no doctest block in man/bpfprobe.8"
fi

# every exported function is in libbpfprobe(3): in the synopsis and
# described (a .BR NAME () reference)
missing=
for f in $(nm -D --defined-only build/libbpfprobe.so | awk '{ sub(/@.*/, "", $3); print $3 }' |
	   grep '^bpfprobe_'); do
	grep -q "^\.BI \"[^\"]*\\b$f(" man/libbpfprobe.3 && grep -q "^\.BR $f ()" man/libbpfprobe.3 ||
		missing="$missing $f"
done
if [ -z "$missing" ]; then
	pass docs_lib_man_covers_exports
else
	fail docs_lib_man_covers_exports "not in libbpfprobe(3):$missing"
fi
