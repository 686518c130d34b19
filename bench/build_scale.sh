#!/usr/bin/env bash
# build_scale.sh NCU NFUNC: prints the path of the resolution-at-scale program
# (bench/gen_scale.c) with NCU compilation units of NFUNC functions, built
# -O2 -g. Building 400x150 takes minutes: the result is cached under
# build/bench-cache/, keyed by the generator's source, the sizes, the
# compiler and the flags, so it is built once.
set -eu
cd "$(dirname "$0")/.."
ncu=$1 nfunc=$2
cc=${CC:-gcc}
cflags="-O2 -g"
key=$({ cat bench/gen_scale.c; echo "$ncu $nfunc $cflags"; $cc --version | head -1; } |
	sha256sum | cut -c1-12)
dir=build/bench-cache/scale-${ncu}x${nfunc}-$key
if [ -x "$dir/scale" ]; then
	echo "$PWD/$dir/scale"
	exit 0
fi
mkdir -p build/bench-cache
work=$(mktemp -d "build/bench-cache/.scale-${ncu}x${nfunc}.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "bench: building the ${ncu}x${nfunc} program once (cached in $dir); this takes minutes" >&2
$cc -O2 -o "$work/gen_scale" bench/gen_scale.c
mkdir "$work/src"
"$work/gen_scale" "$work/src" "$ncu" "$nfunc"
start=$(date +%s)
(cd "$work/src" && ls ./*.c | xargs -P "$(nproc)" -I{} sh -c "$cc $cflags -c {} -o {}.o")
$cc -o "$work/scale" "$work"/src/*.o
echo "bench: built in $(($(date +%s) - start)) s: $(du -h "$work/scale" | cut -f1)" >&2
rm -rf "$work/src"
rm -rf "$dir"
mv "$work" "$dir"
trap - EXIT
echo "$PWD/$dir/scale"
