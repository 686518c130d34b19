# Every bad input: a clear message naming the culprit on stderr, a non-zero
# exit, and nothing left loaded.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip bad_input "$why"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
T=$PWD/build/targets/args-gcc-O2

# expect_fail NAME OBJ PATTERN... : load OBJ must fail with every PATTERN in stderr
expect_fail() {
	local name=$1 obj=$2 err rc p
	shift 2
	err=$(timeout 60 "$BPFPROBE" load "$obj" -- /bin/true 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 0 ] || [ $rc -ge 124 ]; then
		fail "bad_$name" "exit status $rc, want a failure; stderr: $err"
		return
	fi
	for p in "$@"; do
		if ! grep -qF -- "$p" <<<"$err"; then
			fail "bad_$name" "stderr lacks '$p': $err"
			return
		fi
	done
	if ! nothing_loaded badprog; then
		fail "bad_$name" "a program stayed loaded"
		return
	fi
	pass "bad_$name"
}

# prog SEC [PARAMS]: a program named badprog with that SEC
prog() {
	local params=${2:-"void *ctx, int err, long a"}
	printf '#include <linux/bpf.h>\n#include <bpf/bpf_helpers.h>\n'
	printf 'SEC("%s")\nint badprog(%s) { return 0; }\n' "$1" "$params"
	printf 'char LICENSE[] SEC("license") = "GPL";\n'
}

prog "exec=$T;p=no_such_function a" | mkobj "$tmp/nofunc.o"
expect_fail unknown_function "$tmp/nofunc.o" no_such_function

prog "exec=$T;p=handle_req req->lenn" | mkobj "$tmp/nomember.o"
expect_fail unknown_member "$tmp/nomember.o" lenn "struct req" hdr

prog "exec=$T;p=neg_args a->x" | mkobj "$tmp/nonptr.o"
expect_fail arrow_on_non_pointer "$tmp/nonptr.o" "->" "'a'"

prog "exec=$T;p=neg_args a b c a" | mkobj "$tmp/fourargs.o"
expect_fail more_than_3_args "$tmp/fourargs.o" "at most 3"

prog "exec=/nonexistent/app;p=main argc" | mkobj "$tmp/nobin.o"
expect_fail missing_binary "$tmp/nobin.o" /nonexistent/app

gcc -O2 -o "$tmp/nodebug" tests/targets/args/*.c
prog "exec=$tmp/nodebug;p=neg_args a" | mkobj "$tmp/nodebug.o"
expect_fail no_debug_info "$tmp/nodebug.o" "$tmp/nodebug" "debug info"

# clang drops an unused parameter's location; gcc sets main's local
# rounds only later (an entry value, as lost_arg's v at +5, is readable)
prog "exec=$PWD/build/targets/args-clang-O2;p=opt_out unused" | mkobj "$tmp/optout.o"
expect_fail optimized_out_clang-O2 "$tmp/optout.o" "'unused'" "optimized out"
prog "exec=$PWD/build/targets/args-gcc-O2;p=main rounds" | mkobj "$tmp/lost.o"
expect_fail optimized_out_gcc-O2 "$tmp/lost.o" "'rounds'" "optimized out" "0x"

prog "exec=$T;p=neg_args a->" | mkobj "$tmp/malformed.o"
expect_fail malformed_sec "$tmp/malformed.o" "a->"

prog "exec=$T;colour=red;p=neg_args a" | mkobj "$tmp/badkey.o"
expect_fail unknown_key "$tmp/badkey.o" colour

expect_fail not_bpf_elf /bin/true "/bin/true" "not a BPF ELF"
echo "just text" >"$tmp/text.o"
expect_fail not_elf "$tmp/text.o" "$tmp/text.o" "not an ELF"
expect_fail missing_object "$tmp/none.o" "$tmp/none.o"

prog "exec=$T;p=neg_args a" "void *ctx, int err, long a, long b" | mkobj "$tmp/proto.o"
expect_fail signature_mismatch "$tmp/proto.o" badprog "4 parameters"

# without privileges: the message names the capability
prog "exec=$T;p=neg_args a" | mkobj "$tmp/ok.o"
chmod 755 "$tmp"
chmod 644 "$tmp/ok.o"
if command -v setpriv >/dev/null; then
	err=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$BPFPROBE" load "$tmp/ok.o" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 0 ] && grep -q "CAP_BPF" <<<"$err"; then
		pass bad_no_permission
	else
		fail bad_no_permission "exit $rc, stderr: $err"
	fi
else
	skip bad_no_permission "setpriv (util-linux) is not installed"
fi

# the prototype verifies with the arguments zero; an instance whose body is
# unsafe with a real value is rejected, and the verifier's log is shown
cat <<EOC | mkobj "$tmp/verifier.o"
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$T;p=neg_args a")
int badprog(void *ctx, int err, long a)
{
	volatile char buf[8] = {};
	return buf[a];
}
char LICENSE[] SEC("license") = "GPL";
EOC
expect_fail verifier_rejects_instance "$tmp/verifier.o" "badprog" "verifier log"
