#!/usr/bin/env bash
# Fetches Debian's current amd64 kernel for the VM tests and prints the
# directory holding it:
#
#   $CACHE/kernel-REL/vmlinuz        the bzImage
#   $CACHE/kernel-REL/vmlinux        the same, decompressed, if it has a PVH
#                                    entry: qemu boots it directly, about 3 s
#                                    faster under TCG than the bzImage (no
#                                    decompressor, hence no KASLR either)
#   $CACHE/kernel-REL/config         its /boot/config (CONFIG_KPROBES=y, ...)
#   $CACHE/kernel-REL/System.map     Debian's (a stub: use /proc/kallsyms)
#   $CACHE/kernel-REL/release        REL, e.g. 6.1.0-57-amd64
#   $CACHE/kernel-REL/modules.load   the 9p+virtio modules, in load order
#   $CACHE/kernel-REL/modules.extra  small modules for module-probe tests
#   $CACHE/kernel-REL/lib/modules/REL/kernel/...  those .ko files
#
# The release is resolved through the meta package (linux-image-amd64 ->
# linux-image-6.1.0-NN-amd64), never hard-coded: old ABIs leave the archive.
# The .deb is downloaded once; only the files above are extracted from it.
# CACHE is $BPFPROBE_VM_CACHE, by default build/vm-cache in the repository.
# BPFPROBE_VM_KREL=REL pins a release (no apt look-up at all).
# Fast and silent when everything is cached; messages go to stderr.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
top=$(cd "$here/../.." && pwd -P)
cache=${BPFPROBE_VM_CACHE:-$top/build/vm-cache}

# Load order matters: each needs the ones before it.
MODS_9P="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci netfs fscache 9pnet 9pnet_virtio 9p"
# Small, dependency-free modules with functions easy to trigger from user space:
#   dummy: insmod creates dummy0; reading /sys/class/net/dummy0/statistics/*
#          calls dummy_get_stats64().
#   brd:   insmod brd rd_nr=1 rd_size=1024 gives /dev/ram0; reading it calls
#          brd_submit_bio().
MODS_EXTRA="dummy brd"

log() { echo "fetch-kernel: $*" >&2; }
die() { log "$*"; exit 1; }

mkdir -p "$cache"
cache=$(cd "$cache" && pwd -P)
exec 9>"$cache/.lock"
flock 9

# The package list changes only when apt's lists do: remember the answer.
lists_sig() {
	# shellcheck disable=SC2012
	{ ls -l --time-style=+%s /var/lib/apt/lists/ 2>/dev/null || true; } |
		{ grep Packages || true; } | cksum | cut -d' ' -f1
}

lookup() {
	{ apt-cache depends linux-image-amd64 2>/dev/null || true; } |
		sed -n 's/^ *Depends: <\{0,1\}\(linux-image-[0-9][^ >]*\)>\{0,1\}$/\1/p' | head -n1
}

resolve() {
	local sig pkg
	sig=$(lists_sig)
	if [ -f "$cache/resolved" ] && [ "$(cut -d' ' -f1 "$cache/resolved")" = "$sig" ]; then
		cut -d' ' -f2 "$cache/resolved"
		return
	fi
	pkg=$(lookup)
	if [ -z "$pkg" ] && [ "$(id -u)" -eq 0 ]; then
		log "linux-image-amd64 unknown to apt-cache: running apt-get update"
		apt-get update -qq >&2 || log "apt-get update failed"
		sig=$(lists_sig)
		pkg=$(lookup)
	fi
	[ -n "$pkg" ] && echo "$sig $pkg" >"$cache/resolved"
	echo "$pkg"
}

newest_cached() {
	# shellcheck disable=SC2012
	{ ls -d "$cache"/kernel-*/ 2>/dev/null || true; } | sort -V | while read -r d; do
		[ -f "$d/release" ] && basename "$d"
	done | tail -n1 | sed 's/^kernel-//'
}

want="mods=$MODS_9P extra=$MODS_EXTRA vmlinux=pvh"

if [ -n "${BPFPROBE_VM_KREL:-}" ]; then
	rel=$BPFPROBE_VM_KREL
else
	pkg=$(resolve)
	if [ -z "$pkg" ]; then
		rel=$(newest_cached)
		[ -n "$rel" ] || die "cannot resolve linux-image-amd64 (no apt lists?) and nothing is cached in $cache"
		log "cannot resolve linux-image-amd64; using cached $rel"
	else
		rel=${pkg#linux-image-}
	fi
fi
kdir=$cache/kernel-$rel

if [ -f "$kdir/release" ] && [ "$(cat "$kdir/want" 2>/dev/null)" = "$want" ]; then
	echo "$kdir"
	exit 0
fi

pkg=linux-image-$rel
# shellcheck disable=SC2012
deb=$(ls "$cache/${pkg}"_*.deb 2>/dev/null | sort -V | tail -n1 || true)
if [ -z "$deb" ]; then
	log "downloading $pkg (about 70 MB, once)"
	aptopt=()
	[ "$(id -u)" -eq 0 ] && aptopt=(-o APT::Sandbox::User=root)
	if ! (cd "$cache" && apt-get download -q "${aptopt[@]}" "$pkg" >&2); then
		old=$(newest_cached)
		if [ -n "$old" ] && [ "$old" != "$rel" ]; then
			log "download of $pkg failed; using cached $old"
			echo "$cache/kernel-$old"
			exit 0
		fi
		die "cannot download $pkg"
	fi
	# shellcheck disable=SC2012
	deb=$(ls "$cache/${pkg}"_*.deb | sort -V | tail -n1)
	# Older kernels' packages are not needed any more (their extracted trees
	# stay, in case a concurrent run still uses one).
	for d in "$cache"/linux-image-*.deb; do
		[ "$d" = "$deb" ] || rm -f "$d"
	done
fi

log "extracting $(basename "$deb")"
tmp=$(mktemp -d "$cache/.extract.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pats=("./boot/vmlinuz-$rel" "./boot/config-$rel" "./boot/System.map-$rel")
for m in $MODS_9P $MODS_EXTRA; do
	pats+=("./lib/modules/$rel/kernel/*/$m.ko*")
done
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards "${pats[@]}" ||
	die "extraction from $deb failed"

# Newer Debian kernels ship compressed modules; busybox insmod wants plain ones.
find "$tmp/lib/modules" \( -name '*.ko.xz' -o -name '*.ko.zst' -o -name '*.ko.gz' \) |
	while read -r f; do
		case "$f" in
		*.xz) xz -dc "$f" >"${f%.xz}" ;;
		*.zst) zstd -qdc "$f" >"${f%.zst}" ;;
		*.gz) gzip -dc "$f" >"${f%.gz}" ;;
		esac
		rm -f "$f"
	done

# The bzImage's payload, decompressed, if it is an ELF with a PVH entry note
# (XEN_ELFNOTE_PHYS32_ENTRY, type 0x12): qemu -kernel boots that directly.
extract_vmlinux() {
	local img=$1 out=$2 magic tool off
	for magic in xz gzip zstd; do
		case $magic in
		xz) off=$(LC_ALL=C grep -abo $'\xfd7zXZ\x00' "$img" | head -n1 | cut -d: -f1 || true); tool=(xz -dc --single-stream) ;;
		gzip) off=$(LC_ALL=C grep -abo $'\x1f\x8b\x08' "$img" | head -n1 | cut -d: -f1 || true); tool=(gzip -dc) ;;
		zstd) off=$(LC_ALL=C grep -abo $'\x28\xb5\x2f\xfd' "$img" | head -n1 | cut -d: -f1 || true); tool=(zstd -qdc) ;;
		esac
		if [ -z "$off" ] || ! command -v "${tool[0]}" >/dev/null; then
			continue
		fi
		tail -c +$((off + 1)) "$img" | "${tool[@]}" >"$out" 2>/dev/null || true
		if LC_ALL=C readelf -n "$out" 2>/dev/null | grep -c 'Xen.*0x00000012' >/dev/null; then
			return 0
		fi
	done
	rm -f "$out"
	log "no PVH-bootable vmlinux in the image: booting the bzImage (slower)"
}

modpath() {
	local p
	p=$(cd "$tmp" && find "lib/modules/$rel" -name "$1.ko" | head -n1)
	[ -n "$p" ] || die "module $1 not found in $deb"
	echo "$p"
}
for m in $MODS_9P; do modpath "$m"; done >"$tmp/modules.load"
for m in $MODS_EXTRA; do modpath "$m"; done >"$tmp/modules.extra"
mv "$tmp/boot/vmlinuz-$rel" "$tmp/vmlinuz"
mv "$tmp/boot/config-$rel" "$tmp/config"
mv "$tmp/boot/System.map-$rel" "$tmp/System.map"
rmdir "$tmp/boot"
extract_vmlinux "$tmp/vmlinuz" "$tmp/vmlinux"
grep -q '^CONFIG_KPROBES=y' "$tmp/config" || log "warning: $rel has no CONFIG_KPROBES"
echo "$want" >"$tmp/want"
echo "$rel" >"$tmp/release"
chmod 755 "$tmp"

rm -rf "$kdir"
mv "$tmp" "$kdir"
trap - EXIT
log "kernel $rel ready in $kdir"
echo "$kdir"
