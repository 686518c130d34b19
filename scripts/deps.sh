#!/usr/bin/env bash
# Installs the Debian packages bpfprobe needs to build, test and run the demo,
# only those missing. Safe to run again. Extra package names given as
# arguments are installed too (bench/ and fuzz/ ask for their own).
set -eu
# clang's sanitizer runtimes (make test-asan, make fuzz): a Recommends of
# clang that --no-install-recommends skips; Debian 12's clang is clang 14
clang_rt=libclang-rt-$({ clang -dumpversion 2>/dev/null || echo 14; } | cut -d. -f1)-dev
pkgs=(gcc make clang llvm libbpf-dev libdw-dev libelf-dev zlib1g-dev liblzma-dev libbz2-dev
      libc6-dev libstdc++-12-dev	# the static command: libc.a, libstdc++.a's demangler
      binutils	# ar for the build; the tests' readelf, nm, objcopy, strip
      libtraceevent-dev linux-libc-dev bpftool linux-perf jq strace
      procps iproute2	# the tests' pgrep/ps, the bench's sysctl, the VM module tests' ip
      util-linux bsdutils	# setpriv and unshare (unprivileged and PID namespace tests), script
      time	# /usr/bin/time: bench/coverage.sh's time and memory (make test runs it)
      pkgconf man-db	# the install test: pkg-config --libs bpfprobe, man bpfprobe
      qemu-system-x86 busybox-static
      xz-utils zstd	# tests/vm/fetch-kernel.sh: the VM kernel's image and modules
      "$clang_rt"
      libc6-dbg dwz	# glibc's DWARF (exec=libc.so.6); DWZ test files
      g++ libstdc++6-12-dbg	# the C++ tests: their target, libstdc++'s debug build
      liblua5.4-0-dbg libdb5.3-dbg python3.11-dbg	# the coverage (bench/coverage.sh) and its tests
      lua5.4	# trace on a real program (tests/e2e/trace.sh)
      gdb	# the frames the unwinder must give (tests/e2e/unwind.sh)
      systemtap-sdt-dev python3.11 postgresql-15	# SDT markers: <sys/sdt.h>, programs that ship them (tests/e2e/usdt*.sh)
      gdb python3 liblua5.4-dev libdb5.3-dev	# the truth: the differential test (tests/diff), the stacks (tests/e2e/stacks.sh)
      "$@")
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: need root to install: ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
