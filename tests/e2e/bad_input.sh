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

# the prototype against the SEC, with BTF: the exact ABI for that SEC
prog "exec=$T;p=neg_args a b" "long a, long b" | mkobj "$tmp/noctx.o"
expect_fail proto_ctx_forgotten "$tmp/noctx.o" \
	"program 'badprog': parameter 1 'a' is an integer, but it receives ctx, a pointer: write it as int badprog(void *ctx, int err, u64 a, u64 b)"
prog "exec=$T;p=neg_args a b" "void *ctx, int err, long a, long b, long c" | mkobj "$tmp/five.o"
expect_fail proto_count_exact_abi "$tmp/five.o" \
	"program 'badprog' takes 5 parameters, but SEC(\"exec=$T;p=neg_args a b\") gives 4 (ctx, err and 2 fetched arguments): write it as int badprog(void *ctx, int err, u64 a, u64 b)"
prog "exec=$T;p=handle_req req->hdr->len conn->fd" "void *ctx, void *err, long len, long fd" |
	mkobj "$tmp/errptr.o"
expect_fail proto_err_not_integer "$tmp/errptr.o" \
	"parameter 2 'err' is a pointer, but it receives err, an integer: write it as int badprog(void *ctx, int err, u64 len, u64 fd)"
# without BTF (no -g) nothing can be checked: a warning, once per object
{ prog "exec=$T;p=neg_args a" "void *ctx, int err, long a, long b, long c"
  printf 'SEC("exec=%s;p=neg_args b")\nint badprog2(void *ctx, int err, long b) { return 0; }\n' "$T"; } |
	clang -O2 -target bpf -D__TARGET_ARCH_x86 -I/usr/include/$(uname -m)-linux-gnu -x c -c - -o "$tmp/nobtf.o"
err=$(timeout 60 "$BPFPROBE" load -q "$tmp/nobtf.o" -- /bin/true 2>&1 >/dev/null)
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c "has no BTF (built without -g): the programs' prototypes cannot be checked" <<<"$err")" -eq 1 ]; then
	pass bad_proto_no_btf_warns_once
else
	fail bad_proto_no_btf_warns_once "exit $rc: $err"
fi

# a load failure names the user's source (not the compile cache's object)
# and says the verifier's reason first; the whole log needs -v
cat >"$tmp/nolicense.c" <<EOC
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$T;p=neg_args a")
int badprog(void *ctx, int err, long a)
{
	bpf_printk("a=%ld", a);
	return 0;
}
EOC
err=$(timeout 60 "$BPFPROBE" load "$tmp/nolicense.c" -- /bin/true 2>&1 >/dev/null)
rc=$?
first=$(head -1 <<<"$err")
if [ $rc -eq 1 ] &&
   [ "$first" = "loading '$tmp/nolicense.c' failed: the kernel's verifier refused it: cannot call GPL-restricted function from non-GPL compatible program" ] &&
   grep -qF "add the line:  char LICENSE[] SEC(\"license\") = \"GPL\";" <<<"$err" &&
   ! grep -qE '\.cache|\.o([^[:alnum:]]|$)' <<<"$err" && ! grep -q 'processed [0-9]* insns' <<<"$err"; then
	pass bad_load_c_missing_license
else
	fail bad_load_c_missing_license "exit $rc: $err"
fi
if timeout 60 "$BPFPROBE" load -v "$tmp/nolicense.c" -- /bin/true 2>&1 | grep -q 'processed [0-9]* insns'; then
	pass bad_load_c_log_with_v
else
	fail bad_load_c_log_with_v "no verifier log with -v"
fi
cat >"$tmp/loop.c" <<EOC
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$T;p=neg_args a")
int badprog(void *ctx, int err, long a)
{
	volatile long k = 0;
	while (k < a)
		k += 0;
	return k;
}
char LICENSE[] SEC("license") = "GPL";
EOC
err=$(timeout 60 "$BPFPROBE" load "$tmp/loop.c" -- /bin/true 2>&1 >/dev/null)
rc=$?
if [ $rc -eq 1 ] && head -1 <<<"$err" | grep -q "program 'badprog': loading instance 'badprog' failed: the kernel's verifier refused it: infinite loop detected at insn" &&
   nothing_loaded badprog; then
	pass bad_load_c_unbounded_loop
else
	fail bad_load_c_unbounded_loop "exit $rc: $err"
fi

# without privileges: the message names the capability
prog "exec=$T;p=neg_args a" | mkobj "$tmp/ok.o"
chmod 755 "$tmp"
chmod 644 "$tmp/ok.o"
if command -v setpriv >/dev/null; then
	err=$(as_nobody "$(nobody_copy "$tmp")" load "$tmp/ok.o" 2>&1 >/dev/null)
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
expect_fail verifier_rejects_instance "$tmp/verifier.o" "program 'badprog': loading instance 'badprog' failed: the kernel's verifier refused it: "
