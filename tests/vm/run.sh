#!/usr/bin/env bash
# tests/vm/run.sh CMD [ARG...]
#
# Runs CMD in a qemu (TCG) VM booted on Debian's current 6.1 kernel, which
# has kprobes (this host's kernel has not). Inside, the host's / is mounted
# read-only and the repository read-write at the same path, and CMD runs
# chrooted there, in the same working directory, with the same environment:
# host binaries and libraries work unchanged. /tmp, /run and /var/tmp are
# private tmpfs. CMD's stdout and stderr come out here as its own, and its
# exit status is this script's.
#
# Exit 125: the VM could not be had (no qemu, no kernel) or it stopped
# without reporting a status (its console log is printed then).
# Exit 124: BPFPROBE_VM_TIMEOUT expired.
#
# Environment:
#   BPFPROBE_VM_CACHE    kernel/initramfs cache (default build/vm-cache)
#   BPFPROBE_VM_MEM      guest memory in MiB (default 1024)
#   BPFPROBE_VM_TIMEOUT  seconds before the VM is killed (default 3600, 0: none)
#   BPFPROBE_VM_RW       more host directories to share read-write, space-separated
#   BPFPROBE_VM_APPEND   more kernel command-line arguments
#   BPFPROBE_VM_DEBUG=1  show the console (kernel messages) on stderr
#   BPFPROBE_VM_CONSOLE=FILE  save the console (kernel messages) there
#   BPFPROBE_VM_CPU      qemu -cpu model (default qemu64: faster under TCG than max)
#   BPFPROBE_VM_KERNEL   boot this kernel image instead (modules must match)
#   BPFPROBE_VM_QEMU_OPTS  more qemu options (word-split)
# Inside, BPFPROBE_VM=1, BPFPROBE_VM_KREL is the kernel release and
# BPFPROBE_VM_MODULES the directory of the extra modules (dummy.ko, brd.ko).
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
top=$(cd "$here/../.." && pwd -P)
qemu=${QEMU:-qemu-system-x86_64}

die() {
	echo "vm: $*" >&2
	exit 125
}

[ $# -ge 1 ] || die "usage: $0 CMD [ARG...]"
command -v "$qemu" >/dev/null ||
	die "$qemu not found: apt-get install qemu-system-x86 (or make deps)"
initrd=$("$here/mkinitramfs.sh") || die "cannot get the VM kernel or build its initramfs (see above)"
kdir=$(dirname "$initrd")
krel=$(cat "$kdir/release")
kernel=$kdir/vmlinuz
[ -f "$kdir/vmlinux" ] && kernel=$kdir/vmlinux # PVH boot: ~3 s faster
kernel=${BPFPROBE_VM_KERNEL:-$kernel}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bpfprobe-vm.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/ctl"

# Read-write shares: the repository, and BPFPROBE_VM_RW.
rw=("$top")
for d in ${BPFPROBE_VM_RW:-}; do
	[ -d "$d" ] || die "BPFPROBE_VM_RW: $d is not a directory"
	rw+=("$(cd "$d" && pwd -P)")
done
shares=()
i=0
for d in "${rw[@]}"; do
	shares+=(-virtfs "local,path=${d//,/,,},mount_tag=rw$i,security_model=none,multidevs=remap")
	echo "rw$i $d" >>"$tmp/ctl/mounts"
	i=$((i + 1))
done

cwd=$(pwd -P)
merge=0
[ "$(readlink /proc/$$/fd/1)" = "$(readlink /proc/$$/fd/2)" ] && merge=1
{
	echo "# written by tests/vm/run.sh, run by bash in the VM"
	while IFS= read -r name; do
		case $name in
		PWD | OLDPWD | SHLVL | _ | BASH* | SHELLOPTS | EUID | UID | PPID | TMPDIR) continue ;;
		esac
		printf 'export %s=%q\n' "$name" "${!name}"
	done < <(compgen -e)
	printf 'export BPFPROBE_VM=1 BPFPROBE_VM_KREL=%q BPFPROBE_VM_MODULES=%q\n' \
		"$krel" "$kdir/lib/modules/$krel"
	# stdout and stderr are one file here (a terminal, `>log 2>&1`): one
	# serial line keeps their order, and writes through one file offset.
	[ "$merge" = 1 ] && echo 'exec 2>&1'
	printf 'cd -- %q 2>/dev/null || { echo "vm: %s is not in the VM (/tmp is private); running in %s" >&2; cd -- %q; }\n' \
		"$cwd" "$cwd" "$top" "$top"
	printf 'exec'
	printf ' %q' "$@"
	echo
} >"$tmp/ctl/cmd"

# qemu must not reopen /dev/stderr: if it is a regular file, writes through
# two file offsets overwrite each other. Serial lines meant for stderr go
# into a FIFO that cat copies to our fd 2. We hold the FIFO open (fd 7) so
# that neither side blocks opening it; closing it after qemu gives cat EOF.
mkfifo "$tmp/stderr.fifo" || die "mkfifo failed"
exec 7<>"$tmp/stderr.fifo"
cat "$tmp/stderr.fifo" >&2 7>&- &
catpid=$!

# ttyS0, the console, has the kernel's messages and /init's: they go to a
# log, shown if the VM fails, never mixed with CMD's output (ttyS1, ttyS2).
append="console=ttyS0 panic=-1 rdinit=/init ${BPFPROBE_VM_APPEND:-}"
if [ "${BPFPROBE_VM_DEBUG:-0}" = 1 ]; then
	console=(-chardev "file,id=con,path=${tmp//,/,,}/stderr.fifo" -serial chardev:con)
	merge=1
else
	console=(-serial "file:${tmp//,/,,}/console.log")
fi
if [ "$merge" = 1 ]; then
	ttys2=(-serial null)
else
	ttys2=(-chardev "file,id=err,path=${tmp//,/,,}/stderr.fifo" -serial chardev:err)
fi
# BPFPROBE_VM_CONSOLE=FILE keeps the console log.
[ -n "${BPFPROBE_VM_CONSOLE:-}" ] && trap 'cp "$tmp/console.log" "$BPFPROBE_VM_CONSOLE" 2>/dev/null; rm -rf "$tmp"' EXIT

timeout=${BPFPROBE_VM_TIMEOUT:-3600}
tcmd=()
[ "$timeout" != 0 ] && tcmd=(timeout --foreground -k 10 "$timeout")

# In the background, so that a signal to this script (or Ctrl-C) is passed
# on at once and ends the VM.
interrupted=0
qpid=
trap 'interrupted=1; [ -n "$qpid" ] && kill -TERM "$qpid" 2>/dev/null' INT TERM HUP
# shellcheck disable=SC2086 # BPFPROBE_VM_QEMU_OPTS is word-split on purpose
"${tcmd[@]}" "$qemu" \
	-nodefaults -no-user-config -nographic \
	-machine pc,accel=tcg -cpu "${BPFPROBE_VM_CPU:-qemu64}" -m "${BPFPROBE_VM_MEM:-1024}" -smp 1 \
	-no-reboot -nic none \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-kernel "$kernel" -initrd "$initrd" -append "$append" \
	"${console[@]}" \
	-chardev stdio,id=out,signal=off -serial chardev:out \
	"${ttys2[@]}" \
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
	-virtfs "local,path=${tmp//,/,,}/ctl,mount_tag=ctl,security_model=none" \
	"${shares[@]}" ${BPFPROBE_VM_QEMU_OPTS:-} </dev/null 7>&- &
qpid=$!
while :; do
	wait "$qpid"
	qrc=$?
	kill -0 "$qpid" 2>/dev/null || break # else a signal interrupted wait
done
exec 7>&-
wait "$catpid"

if [ "$interrupted" = 1 ]; then
	echo "vm: interrupted" >&2
	exit 130
fi

if [ -f "$tmp/ctl/status" ]; then
	exit "$(cat "$tmp/ctl/status")"
fi
if [ "$qrc" = 124 ] && [ "$timeout" != 0 ]; then
	echo "vm: timed out after $timeout s (BPFPROBE_VM_TIMEOUT)" >&2
	exit 124
fi
echo "vm: the VM stopped without reporting a status (qemu exit $qrc)" >&2
if [ -s "$tmp/console.log" ]; then
	echo "vm: last console lines:" >&2
	tail -n 40 "$tmp/console.log" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\r$//' >&2
fi
if [ $((qrc & 1)) = 1 ] && [ "$qrc" -gt 1 ]; then
	exit $((qrc >> 1)) # from isa-debug-exit, 7 bits only
fi
exit 125
