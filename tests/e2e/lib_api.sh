# The library's iteration over programs, probe points and instances.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip lib_api "$why"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -Iinclude -o "$tmp/api_info" tests/lib/api_info.c build/libbpfprobe.a \
	-lbpf -ldw -lelf -lz -ltraceevent || { fail lib_api_build "cc failed"; exit 0; }
out=$("$tmp/api_info" build/bpf/args__basic-gcc-O2.o 2>&1)
rc=$?
# twin: one program, two points (two CUs), two instances with different plans
twin_points=$(grep -c '^point twin twin instance=' <<<"$out")
twin_insts=$(grep '^instance [0-9]* twin' <<<"$out")
if [ $rc -eq 0 ] && grep -q '^program twin args=1 points=2 kernel=0$' <<<"$out" &&
   [ "$twin_points" -eq 2 ] && [ "$(wc -l <<<"$twin_insts")" -eq 2 ] &&
   grep -q '^instance [0-9]* twin of twin fd_ok=1 args=1 \[s32 %rdi\]$' <<<"$out" &&
   grep -q '^instance [0-9]* twin_1 of twin fd_ok=1 args=1 \[s32 %rsi\]$' <<<"$out" &&
   grep -q '^instance [0-9]* neg of neg fd_ok=1 args=3 \[s32 %rdi\] \[s64 %rsi\] \[s16 %rdx\]$' <<<"$out" &&
   ! grep -q 'fd_ok=0' <<<"$out"; then
	pass lib_api_programs_points_instances
else
	fail lib_api_programs_points_instances "exit $rc: $out"
fi
