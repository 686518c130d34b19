# The layout README's "Layout" table promises: each folder includes only
# what it may use, and the library carries none of the command's code.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

# includes_outside DIR ALLOWED-REGEX: the project includes of DIR's files
# that do not match ALLOWED-REGEX, one "file: header" a line
includes_outside() {
	grep -rHo '^#include "[^"]*"' --include='*.c' --include='*.h' "$1" |
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

check util util 'util/.*|bpfprobe/bpfprobe\.h'
check prologue prologue 'prologue/.*|util/.*|bpf_helper_nargs\.h'
check probes probes 'probes/.*|prologue/.*|util/.*'
check loader loader 'loader/.*|probes/.*|prologue/.*|util/.*'
check output output 'output/.*|util/.*'
check sysinfo sysinfo 'sysinfo/.*|loader/metadata\.h|util/.*'
check cli cli 'cli/.*|sysinfo/.*|loader/inspect\.h|util/.*'
# map tracing resolves through kernel BTF; nothing in probes/ uses it but the front door
bad=$(includes_outside probes/map 'probes/map/.*|probes/kernel/.*|probes/(diag|report|point|spec)\.h|prologue/.*|util/.*')
[ -z "$bad" ] && pass layout_probes_map || fail layout_probes_map "$(tr '\n' ' ' <<<"$bad")"
# kernel resolution may use the DWARF resolver, never the other way
bad=$(includes_outside probes/dwarf 'probes/dwarf/.*|probes/(diag|report|point|spec)\.h|prologue/.*|util/.*')
[ -z "$bad" ] && pass layout_probes_dwarf || fail layout_probes_dwarf "$(tr '\n' ' ' <<<"$bad")"

# the library holds no function of the command's own code
so=build/libbpfprobe.so
if [ ! -f "$so" ] || ! ls build/obj/sysinfo/*.o >/dev/null 2>&1; then
	fail layout_library_without_cli "build first: $so or build/obj/sysinfo missing"
else
	cmd_funcs=$(nm --defined-only build/obj/sysinfo/*.o build/obj/cli/*.o 2>/dev/null |
		awk '$2 == "T" { print $3 }' | sort -u)
	lib_funcs=$(nm "$so" 2>/dev/null | awk '$2 == "T" || $2 == "t" { print $3 }' | sort -u)
	both=$(comm -12 <(echo "$cmd_funcs") <(echo "$lib_funcs"))
	if [ -n "$cmd_funcs" ] && [ -z "$both" ]; then
		pass layout_library_without_cli
	else
		fail layout_library_without_cli "in $so: $(head -5 <<<"$both" | tr '\n' ' ')"
	fi
fi
