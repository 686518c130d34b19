#!/bin/busybox sh
# shellcheck shell=dash
# /init of the VM initramfs (built by mkinitramfs.sh; run by run.sh).
#
# It loads the 9p modules, mounts the host's / read-only at /host (9p tag
# "hostroot"), mounts over it the guest's proc, sys, dev, tracefs, debugfs,
# bpffs, cgroup2 and tmpfs on /tmp, /run, /var/tmp, mounts the read-write
# shares listed in the control share (the repository, at its host path), and
# runs /run/bpfprobe-vm/cmd (written by run.sh) with bash chrooted into
# /host: every host tool and library is there, under the guest's kernel.
# Its stdout goes to ttyS1 and its stderr to ttyS2; ttyS0 is the console.
# The exit status is written to the control share ("status") and to the
# isa-debug-exit port 0xf4, which ends qemu.

PATH=/bin:/sbin:/usr/bin:/usr/sbin
export PATH
/bin/busybox mkdir -p /proc /sys /dev /host /sbin /usr/bin /usr/sbin /tmp
/bin/busybox --install -s

mount -t devtmpfs dev /dev
exec </dev/null >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sys /sys

ctl=/host/run/bpfprobe-vm

# Report status N (0..255) and stop the VM.
finish() {
	rc=$1
	[ -d "$ctl" ] && echo "$rc" >"$ctl/status"
	# The port takes one byte; qemu exits with (byte << 1) | 1.
	# shellcheck disable=SC2059
	printf "\\$(printf '%03o' $((rc & 255)))" |
		dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	poweroff -f
	sleep 10
}

fail() {
	echo "vm-init: $*"
	# tell the host through stderr too, when it is already set up
	[ -c /dev/ttyS2 ] && echo "vm-init: $*" >/dev/ttyS2
	finish 125
}

opt9p="trans=virtio,version=9p2000.L,msize=262144"

while read -r m; do
	insmod "/$m" || fail "insmod $m failed"
done </modules.load

mount -t 9p -o "$opt9p,ro,cache=loose" hostroot /host || fail "cannot mount the host root"

mount -t proc proc /host/proc || fail "cannot mount /proc"
mount -t sysfs sys /host/sys || fail "cannot mount /sys"
mount -t devtmpfs dev /host/dev || fail "cannot mount /dev"
mkdir -p /host/dev/pts /host/dev/shm
mount -t devpts -o newinstance,ptmxmode=0666 devpts /host/dev/pts
mount -t tmpfs -o mode=1777 shm /host/dev/shm
# devtmpfs has no /dev/fd: bash's process substitution needs it
ln -sf /proc/self/fd /host/dev/fd
ln -sf /proc/self/fd/0 /host/dev/stdin
ln -sf /proc/self/fd/1 /host/dev/stdout
ln -sf /proc/self/fd/2 /host/dev/stderr
mount -t tracefs tracefs /host/sys/kernel/tracing || fail "cannot mount tracefs"
mount -t debugfs debugfs /host/sys/kernel/debug
mount -t bpf bpf /host/sys/fs/bpf || fail "cannot mount bpffs"
mount -t cgroup2 cgroup2 /host/sys/fs/cgroup
for d in /tmp /run /var/tmp; do
	[ -d "/host$d" ] && mount -t tmpfs -o mode=1777 tmpfs "/host$d"
done
mkdir -p "$ctl"
mount -t 9p -o "$opt9p" ctl "$ctl" || fail "cannot mount the control share"

# Read-write shares: lines "TAG PATH", mounted at PATH inside the chroot.
if [ -f "$ctl/mounts" ]; then
	while read -r tag path; do
		[ -n "$tag" ] || continue
		# (under /tmp, the mount point is in the guest's tmpfs: make it)
		[ -d "/host$path" ] || mkdir -p "/host$path"
		mount -t 9p -o "$opt9p" "$tag" "/host$path" || fail "cannot mount $path"
	done <"$ctl/mounts"
fi

ip link set lo up 2>/dev/null
hostname bpfprobe-vm

# Serial lines: raw, so that bytes pass unchanged (no \n -> \r\n).
exec 3<>/dev/ttyS1 4<>/dev/ttyS2
stty raw -echo <&3
stty raw -echo <&4

[ -x /host/bin/bash ] || fail "no /bin/bash on the host"
chroot /host /bin/bash /run/bpfprobe-vm/cmd </dev/null >&3 2>&4
rc=$?

# Closing the last reference waits until the UARTs have sent everything.
exec 3>&- 4>&-
finish "$rc"
