#!/usr/bin/env bash
# Installs the Debian packages bpfprobe needs to build, test and run the demo,
# only those missing. Safe to run again. Extra package names given as
# arguments are installed too (bench/ and fuzz/ ask for their own).
set -eu
pkgs=(gcc make clang llvm libbpf-dev libdw-dev libelf-dev zlib1g-dev liblzma-dev libbz2-dev
      libc6-dev libstdc++-12-dev	# the static command: libc.a, libstdc++.a's demangler
      libtraceevent-dev linux-libc-dev bpftool linux-perf jq strace
      procps iproute2	# the tests' pgrep/ps, the VM module tests' ip
      util-linux	# setpriv and unshare (unprivileged and PID namespace tests)
      pkgconf man-db	# the install test: pkg-config --libs bpfprobe, man bpfprobe
      qemu-system-x86 busybox-static
      libc6-dbg dwz	# glibc's DWARF (exec=libc.so.6); DWZ test files
      g++ libstdc++6-12-dbg	# the C++ tests: their target, libstdc++'s debug build
      liblua5.4-0-dbg libdb5.3-dbg python3.11-dbg	# the coverage (bench/coverage.sh) and its tests
      lua5.4	# trace on a real program (tests/e2e/trace.sh)
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
