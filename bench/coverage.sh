#!/usr/bin/env bash
# What bpfprobe can read of real programs: for each binary, every function
# entry (out-of-line copies and inlined copies: `bpfprobe vars --json BIN
# '*'`), every parameter and local in scope there, sorted by the class
# `vars` gives it:
#   fetchable    a program asking for it there loads
#   absent       it has no value there (optimized out at that address)
#   aggregate    a struct, union or array: its members are read by name
#   implicit     a pointer only DWARF knows (DW_OP_implicit_pointer): it
#                has no value of its own, what it points to is readable
#   fp-register  in an xmm register or computed in floating point, which
#                no BPF program can read or compute
#   refused      anything else: bpfprobe cannot read it (the reasons are
#                listed)
# and the points `vars` could not list at all (errors). Prints a Markdown
# table (and the refusals by reason, and per binary the seconds and peak
# memory `vars` took); exits 1 when any binary has a refusal or an error.
#
#   bench/coverage.sh [BPFPROBE] [BIN...]
# The default binaries are Debian's, read with their -dbg DWARF
# (scripts/deps.sh installs them): liblua5.4 (liblua5.4-0-dbg), libdb-5.3
# (libdb5.3-dbg), python3.11 (python3.11-dbg, gcc LTO + PGO).
set -u
BPFPROBE=${1:-build/bpfprobe}
[ $# -gt 0 ] && shift
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(liblua5.4.so.0 libdb-5.3.so /usr/bin/python3.11)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# per binary: class counts, points, errors; the refusals' reasons
classify='
	[.points[] | .vars[]] as $v
	| {
		points: (.points | length),
		errors: ([.points[] | select(.error != null)] | length),
		vars: ($v | length),
		fetchable: ([$v[] | select(.class == "fetchable")] | length),
		absent: ([$v[] | select(.class == "absent")] | length),
		aggregate: ([$v[] | select(.class == "aggregate")] | length),
		implicit: ([$v[] | select(.class == "implicit")] | length),
		fp: ([$v[] | select(.class == "fp_register")] | length),
		refused: ([$v[] | select(.class == "refused")] | length)
	  }
	| "\(.points) \(.errors) \(.vars) \(.fetchable) \(.absent) \(.aggregate) \(.implicit) \(.fp) \(.refused)"'
reasons='
	[.points[] | .vars[] | select(.class == "refused") | .why
	 | gsub("\u0027[^\u0027]*\u0027"; "X") | gsub("0x[0-9a-f]+"; "N")
	 | gsub(" \\(parameters:.*"; "") | .[0:110]]
	| group_by(.) | map("\(length)\t\(.[0])") | .[]'

status=0
rows=()
details=()
for b in "${bins[@]}"; do
	name=$(basename "$b")
	if ! /usr/bin/time -f "%e %M" -o "$tmp/time" "$BPFPROBE" vars --json "$b" '*' \
		>"$tmp/$name.json" 2>"$tmp/$name.err"; then
		rows+=("| $name | vars failed: $(tail -1 "$tmp/$name.err") |")
		status=1
		continue
	fi
	read -r points errors vars fetch absent aggr impl fp refused < <(jq -r "$classify" "$tmp/$name.json")
	read -r secs kb <"$tmp/time"
	present=$((vars - absent - aggr))
	rows+=("| $name | $points | $vars | $present | $fetch | $impl | $fp | **$refused** | $absent | $aggr | $errors |")
	details+=("$name: vars took ${secs} s, $((kb / 1024)) MiB")
	if [ "$refused" -gt 0 ] || [ "$errors" -gt 0 ]; then
		status=1
		while IFS= read -r r; do
			details+=("  refused: $r")
		done < <(jq -r "$reasons" "$tmp/$name.json")
		[ "$errors" -gt 0 ] && details+=("  errors: $(jq -r '[.points[] | .error // empty] | unique | .[0:3] | join("; ")' "$tmp/$name.json")")
	fi
done

echo "| binary | function entries | variables | present, not aggregate | fetchable | implicit pointer (target read) | in an xmm register or FP arithmetic | refused | absent (optimized out) | aggregate | entries not listed |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
printf '%s\n' "${rows[@]}"
echo
printf '%s\n' "${details[@]}"
exit $status
