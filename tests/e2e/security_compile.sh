# bpfprobe load prog.c as root trusts no file another user could have
# written: a cache directory of another user (HOME/XDG_CACHE_HOME kept by
# `sudo -E`) is not used, nothing is written into it, a symlink planted
# there is not followed, <bpf/...> never comes from the source's
# directory, and a different clang in PATH does not reuse old objects.
# The other user is created here and removed at exit.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip security_compile "$why"
	exit 0
fi
tmp=$(mktemp -d)
chmod 755 "$tmp"
U=bpfpc$$
cleanup() {
	userdel "$U" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
if ! useradd -M -N -r -d /nonexistent -s /usr/sbin/nologin "$U" 2>"$tmp/ua.err"; then
	fail security_compile_user "useradd: $(cat "$tmp/ua.err")"
	exit 0
fi
as_user() { runuser -u "$U" -- "$@"; }

T=$PWD/build/targets/args-gcc-O2
mkdir "$tmp/src"
{ echo "#define TARGET \"$T\""; cat tests/bpf/args__basic.bpf.c; } >"$tmp/src/prog.c"
# what a user would plant: the same probes, printing something else
sed 's/GOT /PLANTED /' "$tmp/src/prog.c" >"$tmp/planted.c"
clang $BPF_CFLAGS -c "$tmp/planted.c" -o "$tmp/planted.o" || { fail security_compile_build "clang"; exit 0; }

# 1. the object name root's own cache gives this source
XDG_CACHE_HOME=$tmp/rootcache timeout 60 "$BPFPROBE" load "$tmp/src/prog.c" -- "$T" >/dev/null 2>&1
name=$(basename "$(ls "$tmp"/rootcache/bpfprobe/*.o 2>/dev/null | head -1)")
# 2. the user's cache holds that name, their object, and a symlink to a
# root file where the preprocessor output of the next run would go
mkdir -p "$tmp/ucache/bpfprobe"
chown -R "$U" "$tmp/ucache"
as_user cp "$tmp/planted.o" "$tmp/ucache/bpfprobe/${name:-x.o}"
echo "root's secret" >"$tmp/victim"
chmod 600 "$tmp/victim"
# bash's $$ is the pid bpfprobe runs as after exec: the old pre.PID.i
out=$(XDG_CACHE_HOME=$tmp/ucache U=$U V=$tmp/victim D=$tmp/ucache/bpfprobe \
	timeout 60 bash -c 'runuser -u "$U" -- ln -s "$V" "$D/pre.$$.i"; exec "$0" "$@"' \
	"$BPFPROBE" load "$tmp/src/prog.c" -- "$T" 2>"$tmp/err")
if [ -z "$name" ]; then
	fail security_compile_user_cache "root's own cache got no object: $(cat "$tmp/err")"
elif grep -q PLANTED <<<"$out" || ! compare_truth "$out" >/dev/null; then
	fail security_compile_user_cache "the object planted in another user's cache was loaded: $(head -3 <<<"$out")"
elif ! grep -q "not using the compile cache: $tmp/ucache is owned by uid" "$tmp/err"; then
	fail security_compile_user_cache "no message saying why the cache was not used: $(cat "$tmp/err")"
else
	pass security_compile_user_cache
fi
if [ "$(cat "$tmp/victim")" != "root's secret" ]; then
	fail security_compile_no_symlink_follow "a symlink planted in the user's cache was written through"
elif [ -n "$(find "$tmp/ucache" -user root)" ]; then
	fail security_compile_no_symlink_follow "root wrote into the user's cache: $(find "$tmp/ucache" -user root)"
else
	pass security_compile_no_symlink_follow
fi

# the cache directory itself owned by the user, or group-writable
mkdir -p "$tmp/g/bpfprobe"
chmod 775 "$tmp/g/bpfprobe"
XDG_CACHE_HOME=$tmp/g timeout 60 "$BPFPROBE" load "$tmp/src/prog.c" -- "$T" >/dev/null 2>"$tmp/err"
if grep -q "not using the compile cache: $tmp/g/bpfprobe is writable by its group" "$tmp/err" &&
   [ -z "$(ls "$tmp/g/bpfprobe")" ]; then
	pass security_compile_group_writable_cache
else
	fail security_compile_group_writable_cache "$(cat "$tmp/err"; ls "$tmp/g/bpfprobe")"
fi
mkdir "$tmp/lnk" && ln -s "$tmp/rootcache/bpfprobe" "$tmp/lnk/bpfprobe"
XDG_CACHE_HOME=$tmp/lnk timeout 60 "$BPFPROBE" load "$tmp/src/prog.c" -- "$T" >/dev/null 2>"$tmp/err"
if grep -q "not using the compile cache: $tmp/lnk/bpfprobe is a symbolic link" "$tmp/err"; then
	pass security_compile_symlinked_cache
else
	fail security_compile_symlinked_cache "$(cat "$tmp/err")"
fi

# 2. <bpf/bpf_helpers.h> comes from the system, "x.h" from the source's directory
mkdir -p "$tmp/src/bpf"
echo '#error planted header used' >"$tmp/src/bpf/bpf_helpers.h"
echo '#define LOCAL_HEADER_SEEN 1' >"$tmp/src/local.h"
{ echo '#include "local.h"'; echo '#ifndef LOCAL_HEADER_SEEN'; echo '#error no local header'; echo '#endif'
  cat "$tmp/src/prog.c"; } >"$tmp/src/prog2.c"
out=$(XDG_CACHE_HOME=$tmp/rootcache timeout 60 "$BPFPROBE" load "$tmp/src/prog2.c" -- "$T" 2>"$tmp/err")
if compare_truth "$out" >/dev/null; then
	pass security_compile_iquote_source_dir
else
	fail security_compile_iquote_source_dir "$(cat "$tmp/err")"
fi

# 11. another clang in PATH (same preprocessor output, another object)
mkdir "$tmp/bin1" "$tmp/bin2" "$tmp/src11"
cp "$tmp/src/prog.c" "$tmp/src11/"
printf '#!/bin/sh\nexec %s "$@"\n' "$(command -v clang)" >"$tmp/bin1/clang"
printf '#!/bin/sh\nexec %s "$@"\n' "$(command -v clang)" >"$tmp/bin2/clang"
chmod 755 "$tmp/bin1/clang" "$tmp/bin2/clang"
PATH=$tmp/bin1:$PATH XDG_CACHE_HOME=$tmp/cc timeout 60 "$BPFPROBE" load -v "$tmp/src11/prog.c" -- "$T" >/dev/null 2>"$tmp/err1"
PATH=$tmp/bin2:$PATH XDG_CACHE_HOME=$tmp/cc timeout 60 "$BPFPROBE" load -v "$tmp/src11/prog.c" -- "$T" >/dev/null 2>"$tmp/err2"
PATH=$tmp/bin2:$PATH XDG_CACHE_HOME=$tmp/cc timeout 60 "$BPFPROBE" load -v "$tmp/src11/prog.c" -- "$T" >/dev/null 2>"$tmp/err3"
if grep -q "^compiling " "$tmp/err1" && grep -q "^compiling " "$tmp/err2" &&
   grep -q "using cached object" "$tmp/err3"; then
	pass security_compile_key_has_compiler
else
	fail security_compile_key_has_compiler "first: $(grep -h 'compil\|cached' "$tmp/err1"); other clang: $(grep -h 'compil\|cached' "$tmp/err2"); again: $(grep -h 'compil\|cached' "$tmp/err3")"
fi
