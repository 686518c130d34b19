#!/usr/bin/env bash
# Builds the VM initramfs beside the kernel fetched by fetch-kernel.sh and
# prints its path ($CACHE/kernel-REL/initramfs.cpio). It holds a static
# busybox, guest-init.sh as /init and the 9p+virtio modules; everything else
# comes from the host's root, which /init mounts read-only over 9p.
# Rebuilt only when an input changed. Needs busybox-static (its cpio applet
# writes the archive, so no cpio package is needed).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
busybox=${BUSYBOX:-/bin/busybox}

log() { echo "mkinitramfs: $*" >&2; }
die() { log "$*"; exit 1; }

kdir=$("$here/fetch-kernel.sh") || die "no kernel"
out=$kdir/initramfs.cpio

fresh() {
	[ -f "$out" ] || return 1
	local f
	for f in "$here/guest-init.sh" "$here/mkinitramfs.sh" "$busybox" "$kdir/modules.load"; do
		[ "$f" -nt "$out" ] && return 1
	done
	return 0
}

if fresh; then
	echo "$out"
	exit 0
fi

exec 9>"$kdir/../.lock"
flock 9
if fresh; then
	echo "$out"
	exit 0
fi

[ -x "$busybox" ] || die "$busybox not found: apt-get install busybox-static (or make deps)"
# The initramfs has no libraries: busybox must be the static one.
if LC_ALL=C readelf -l "$busybox" 2>/dev/null | grep -c 'Requesting program interpreter' >/dev/null; then
	die "$busybox is dynamically linked: apt-get install busybox-static"
fi

stage=$(mktemp -d "$kdir/.initramfs.XXXXXX")
trap 'rm -rf "$stage" "$out.tmp.$$"' EXIT
mkdir -p "$stage/bin" "$stage/dev" "$stage/proc" "$stage/sys" "$stage/host" "$stage/tmp"
cp "$busybox" "$stage/bin/busybox"
install -m 755 "$here/guest-init.sh" "$stage/init"
cp "$kdir/modules.load" "$stage/modules.load"
while read -r m; do
	mkdir -p "$stage/$(dirname "$m")"
	cp "$kdir/$m" "$stage/$m"
done <"$kdir/modules.load"

(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | "$busybox" cpio -o -H newc 2>/dev/null) >"$out.tmp.$$"
mv "$out.tmp.$$" "$out"
log "built $out ($(du -k "$out" | cut -f1) KiB)"
echo "$out"
