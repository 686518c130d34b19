#!/usr/bin/env bash
# build_unit.sh NFUNC: prints the path of the large-unit program: ONE
# compilation unit of NFUNC functions unitf_0 .. unitf_N-1 (int x each),
# built with clang -O0 -g (it builds 100k functions three times faster
# than gcc). Cached under build/bench-cache/, keyed by this script, the
# size and the compiler, so it is built once.
set -eu
cd "$(dirname "$0")/.."
n=$1
cc=${BENCH_UNIT_CC:-clang}
key=$({ cat bench/build_unit.sh; echo "$n"; $cc --version | head -1; } | sha256sum | cut -c1-12)
dir=build/bench-cache/unit-$n-$key
if [ -x "$dir/unit" ]; then
	echo "$PWD/$dir/unit"
	exit 0
fi
mkdir -p build/bench-cache
work=$(mktemp -d "build/bench-cache/.unit-$n.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "bench: building the $n-function unit once (cached in $dir)" >&2
awk -v n="$n" 'BEGIN {
	for (i = 0; i < n; i++)
		printf "int unitf_%d(int x) { return x + %d; }\n", i, i
	print "int main(int c, char **v) { return unitf_0(c); }"
}' >"$work/unit.c"
$cc -O0 -g -o "$work/unit" "$work/unit.c"
rm -rf "$dir"
mv "$work" "$dir"
trap - EXIT
echo "$PWD/$dir/unit"
