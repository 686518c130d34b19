# A lazy pattern reads the source file DWARF names: only a regular file,
# and only up to a size limit. DWARF naming /dev/zero must not make
# `resolve` grow without bound, nor a FIFO hang it; each gets a message
# naming the file and why.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkfifo "$tmp/fifo.c"
truncate -s 65M "$tmp/big.c"
# #line makes gcc record these names as the functions' source files
cat >"$tmp/t.c" <<EOC
#line 1 "/dev/zero"
int lazy_zero(int x)
{
	return x + 1;
}
#line 1 "$tmp/fifo.c"
int lazy_fifo(int x)
{
	return x * 2;
}
#line 1 "$tmp/big.c"
int lazy_big(int x)
{
	return x * 3;
}
int main(int c, char **v) { return lazy_zero(c) + lazy_fifo(c) + lazy_big(c); }
EOC
gcc -g -O0 -o "$tmp/t" "$tmp/t.c" || { fail lazy_source_build "gcc"; exit 0; }

# NAME FUNC FILE WHY
check() {
	local err rc
	# ulimit: the old reader of /dev/zero grew without bound (not under
	# ASan, whose shadow memory alone is terabytes of address space)
	err=$( (case "$BPFPROBE" in */asan/*) ;; *) ulimit -v 1000000 ;; esac
		timeout 20 "$BPFPROBE" resolve "exec=$tmp/t;$2;return*") 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 1 ] && grep -qF "cannot read source file $3 for the lazy pattern 'return*': $4" <<<"$err"; then
		pass "$1"
	else
		fail "$1" "exit $rc: $err"
	fi
}
check lazy_source_dev_zero lazy_zero /dev/zero "not a regular file"
check lazy_source_fifo lazy_fifo "$tmp/fifo.c" "not a regular file"
check lazy_source_too_big lazy_big "$tmp/big.c" "larger than 64 MiB"
