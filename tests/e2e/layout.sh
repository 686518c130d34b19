# The layout docs/architecture.md's "Layout" table promises: each folder
# includes only what it may use (the folders below it), the library carries
# none of the command's code, file names are unique across folders, and no
# library source file is over 900 lines.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

# includes_outside DIR ALLOWED-REGEX: the project includes of DIR's files
# (not of its subfolders when FLAT is set) that do not match ALLOWED-REGEX,
# one "file: header" a line
includes_outside() {
	local depth=()
	[ -n "${FLAT:-}" ] && depth=(-maxdepth 1)
	find "$1" "${depth[@]}" -name '*.[ch]' -print0 |
		xargs -0 grep -Ho '^#include "[^"]*"' |
		sed 's/#include "\(.*\)"/\1/' | grep -Ev ":($2)\$"
}

check() {
	local name=$1 dir=$2 allowed=$3 bad
	bad=$(includes_outside "$dir" "$allowed")
	if [ -z "$bad" ]; then
		pass "layout_$name"
	else
		fail "layout_$name" "$(tr '\n' ' ' <<<"$bad")"
	fi
}

# the front door's headers, which the floors inside probes/ may use
door='probes/(diag|report|point|spec|spec_name|maps|record_plan)\.h'

check util util 'util/.*|bpfprobe/bpfprobe\.h'
check prologue prologue 'prologue/.*|util/.*|bpf_helper_nargs\.h'
check probes_binary probes/binary "probes/binary/.*|$door|util/.*"
check probes_value probes/value "probes/value/.*|$door|prologue/.*|util/.*"
check probes_dwarf probes/dwarf "probes/dwarf/.*|probes/binary/.*|probes/value/.*|$door|prologue/.*|util/.*"
# kernel resolution reaches vmlinux DWARF through a callback: no DWARF header
check probes_kernel probes/kernel "probes/kernel/.*|probes/value/.*|$door|prologue/.*|util/.*"
# SDT markers: the notes and the operands, values through probes/value/
check probes_usdt probes/usdt "probes/usdt/.*|probes/binary/.*|probes/value/.*|$door|prologue/.*|util/.*"
check probes_map probes/map "probes/map/.*|probes/kernel/.*|probes/value/.*|$door|prologue/.*|util/.*"
FLAT=1 check probes probes 'probes/.*|prologue/.*|util/.*'
# the loader uses probes/ through its front door only
check loader loader 'loader/.*|probes/[a-z_]+\.h|prologue/.*|util/.*'
# the output prints stack ids through the unwinder
check output output 'output/.*|unwind/unwinder\.h|util/.*'
# stacks: libdw/libdwfl and util/ only
check unwind unwind 'unwind/.*|util/.*'
check inspect inspect 'inspect/.*|loader/.*|probes/.*|prologue/.*|util/.*'
# `bpfprobe trace`'s generator and lines: the library through inspect.h and
# the SEC grammar's header, the instruction macros, the output's
# histograms and stacks, nothing of the loader
check trace trace 'trace/.*|inspect/inspect\.h|probes/spec\.h|prologue/insn\.h|output/(hist|stack_cache|stack_print)\.h|unwind/unwinder\.h|util/.*'
check sysinfo sysinfo 'sysinfo/.*|loader/metadata\.h|util/.*'
check cli cli 'cli/.*|sysinfo/.*|inspect/.*|trace/.*|util/.*'

# every file name once, so a name says which file it is
dups=$(git ls-files 'cli/*' 'inspect/*' 'sysinfo/*' 'trace/*' 'output/*' 'loader/*' 'probes/*' \
	   'prologue/*' 'util/*' 'include/*' 'unwind/*' | grep -E '\.(c|h)$' | xargs -n1 basename |
       sort | uniq -d)
[ -z "$dups" ] && pass layout_unique_file_names ||
	fail layout_unique_file_names "in more than one folder: $(tr '\n' ' ' <<<"$dups")"

# no library source file over 900 lines: split one along its seams
long=$(git ls-files 'inspect/*' 'sysinfo/*' 'trace/*' 'output/*' 'loader/*' 'probes/*' 'prologue/*' \
	   'util/*' 'unwind/*' | grep -E '\.(c|h)$' | xargs wc -l | awk '$2 != "total" && $1 > 900 { print $2 " " $1 }')
[ -z "$long" ] && pass layout_files_under_900_lines ||
	fail layout_files_under_900_lines "$(tr '\n' ' ' <<<"$long")"

# the library holds no function of the command's own code
so=build/libbpfprobe.so
if [ ! -f "$so" ] || ! ls build/obj/sysinfo/*.o build/obj/inspect/*.o >/dev/null 2>&1; then
	fail layout_library_without_cli "build first: $so, build/obj/sysinfo or build/obj/inspect missing"
else
	cmd_funcs=$(nm --defined-only build/obj/sysinfo/*.o build/obj/inspect/*.o build/obj/trace/*.o build/obj/cli/*.o 2>/dev/null |
		awk '$2 == "T" { print $3 }' | sort -u)
	lib_funcs=$(nm "$so" 2>/dev/null | awk '$2 == "T" || $2 == "t" { print $3 }' | sort -u)
	both=$(comm -12 <(echo "$cmd_funcs") <(echo "$lib_funcs"))
	if [ -n "$cmd_funcs" ] && [ -z "$both" ]; then
		pass layout_library_without_cli
	else
		fail layout_library_without_cli "in $so: $(head -5 <<<"$both" | tr '\n' ' ')"
	fi
fi
