# make install into a DESTDIR; a program built only against the installed
# header and pkg-config loads and attaches an object; man pages render.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! make -s install DESTDIR="$tmp" PREFIX=/usr >"$tmp/log" 2>&1; then
	fail install_make "$(tail -5 "$tmp/log")"
	exit 0
fi
pass install_make

for f in usr/sbin/bpfprobe usr/lib/libbpfprobe.a usr/lib/libbpfprobe.so.0 \
	 usr/include/bpfprobe/bpfprobe.h usr/lib/pkgconfig/bpfprobe.pc \
	 usr/share/man/man8/bpfprobe.8 usr/share/man/man3/libbpfprobe.3 \
	 usr/share/bash-completion/completions/bpfprobe; do
	[ -e "$tmp/$f" ] || { fail install_files "missing $f"; break; }
done && pass install_files

soname=$(readelf -d "$tmp/usr/lib/libbpfprobe.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
exported=$(nm -D --defined-only "$tmp/usr/lib/libbpfprobe.so" | awk '{print $3}' | grep -v '^bpfprobe_' | grep -v '^LIBBPFPROBE')
if [ "$soname" = libbpfprobe.so.0 ] && [ -z "$exported" ]; then
	pass install_soname_and_exports
else
	fail install_soname_and_exports "soname '$soname', non-API exports: $exported"
fi

export PKG_CONFIG_SYSROOT_DIR="$tmp" PKG_CONFIG_LIBDIR="$tmp/usr/lib/pkgconfig:/usr/lib/x86_64-linux-gnu/pkgconfig:/usr/share/pkgconfig"
# shellcheck disable=SC2046
if gcc -o "$tmp/lib_example" samples/lib_example.c $(pkg-config --cflags --libs bpfprobe) 2>"$tmp/cc"; then
	pass install_pkg_config_build
else
	fail install_pkg_config_build "$(cat "$tmp/cc")"
fi

if man -l "$tmp/usr/share/man/man8/bpfprobe.8" 2>/dev/null | grep -q "SEC" &&
   MANPATH="$tmp/usr/share/man" man -w bpfprobe >/dev/null 2>&1; then
	pass install_man_page
else
	fail install_man_page "man bpfprobe does not render from the installed tree"
fi

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip install_lib_example_runs "$why"
	exit 0
fi
out=$(LD_LIBRARY_PATH="$tmp/usr/lib" timeout 60 "$tmp/lib_example" \
	build/samples/lib_ringbuf.bpf.o build/samples/demo_app 2>&1)
app=$(sed -n 's/^app: request \([0-9]*\) len=\([0-9]*\) fd=\([0-9]*\).*/id=\1 len=\2 fd=\3/p' <<<"$out" | sort)
ev=$(sed -n 's/^event //p' <<<"$out" | sort)
if [ -n "$app" ] && [ "$app" = "$ev" ]; then
	pass install_lib_example_runs
else
	fail install_lib_example_runs "app: $app; events: $ev"
fi
