# The record ABI (probes/record_plan.h): tests/bpf/record__*.bpf.c on the record
# target in every build variant, each record printed by bpfprobe's typed
# output (JSON, and text for strings) and compared with the truth the
# target prints; then what is refused, and how it is said.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip record_e2e "$why"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A jq program per object: its record as the target's TRUTH line says it
declare -A FORM=(
	[mixed]='"mixed8 a=\(.a) b=\(.b) c=\(.c) d=\(.d) e=\(.e) f=\(.f) g=\(.g) h=\(.h)"'
	[strings]='"strs s1=\(.s1) s2=\(.s2) s3=\(.s3) s4=\(.s4) s5=\(.s5 | explode | map(if . == 65533 then "?" else [.] | implode end) | join("")) err=\(.err)"'
	[structs]='"structs v.a=\(.v.a) v.b=\(.v.b) v.name=\(.v.name) p.a=\(.p.a) p.b=\(.p.b) p.name=\(.p.name)"'
	[params]='"six a=\(.a) b=\(.b) c=\(.c) d=\(.d) e=\(.e) f=\(.f)"'
)
# what each TRUTH line starts with
declare -A FUNC=([mixed]=mixed8 [strings]=strs [structs]=structs [params]=six)

# clang -O2 keeps no location for mixed8's stack-passed arguments at its
# entry (gdb reads them only past the prologue): that variant is refused
for v in $VARIANTS; do
	for t in mixed strings structs params; do
		name="record_${t}_$v"
		out=$(timeout 60 "$BPFPROBE" load --json build/bpf/record__$t-$v.o -- build/targets/record-$v 2>"$tmp/err")
		rc=$?
		if [ "$t-$v" = mixed-clang-O2 ]; then
			if [ $rc -ne 0 ] && grep -q "argument 'g': optimized out at" "$tmp/err"; then
				pass "$name"
			else
				fail "$name" "exit $rc, want the refusal: $(tail -3 "$tmp/err")"
			fi
			continue
		fi
		# the workload's stdout goes to stderr with --json
		truth=$(grep -h "^TRUTH ${FUNC[$t]} " "$tmp/err" | sed 's/^TRUTH //')
		got=$(jq -r "select(.type == \"record\") | .data | ${FORM[$t]}" <<<"$out" 2>&1)
		# the strings' s5 is bytes ff fe 'a' 'b', not UTF-8: two U+FFFD in JSON
		[ "$t" = strings ] && got=${got/s5=??ab/s5=ff fe 61 62}
		if [ $rc -ne 0 ]; then
			fail "$name" "exit $rc: $(tail -3 "$tmp/err")"
		elif [ -z "$truth" ] || [ "$got" != "$truth" ]; then
			fail "$name" "got '$got', truth '$truth'"
		elif [ "$t" = mixed ] && [ "$(jq -r 'select(.type == "record") | .data.err' <<<"$out")" != 0 ]; then
			fail "$name" "err is not 0: $out"
		else
			pass "$name"
		fi
	done
done

# the stack-passed 7th and 8th by their ABI position, where clang -O2's
# DWARF has no location for them at the entry (-O2: at -O0 the probe
# moves past the prologue, where $argN means nothing)
for v in gcc-O2 clang-O2; do
	out=$(timeout 60 "$BPFPROBE" load --json build/bpf/record__argn-$v.o -- build/targets/record-$v 2>"$tmp/err")
	rc=$?
	truth=$(grep -h "^TRUTH mixed8 " "$tmp/err" | sed 's/^TRUTH //')
	got=$(jq -r "select(.type == \"record\") | .data | ${FORM[mixed]}" <<<"$out" 2>&1)
	if [ $rc -eq 0 ] && [ -n "$truth" ] && [ "$got" = "$truth" ]; then
		pass "record_argn_$v"
	else
		fail "record_argn_$v" "exit $rc, got '$got', truth '$truth': $(tail -2 "$tmp/err")"
	fi
done

# :string on a record's char array member (:ustring too: user memory)
mkobj "$tmp/str.o" <<EOF
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct args { char s1[8]; char s2[8]; };
struct { __uint(type, BPF_MAP_TYPE_RINGBUF); __uint(max_entries, 4096); } events SEC(".maps");
SEC("exec=$PWD/build/targets/record-gcc-O2;func=strs s1:string s2:ustring")
int strp(void *ctx, struct args *a)
{
	bpf_ringbuf_output(&events, a, sizeof(*a), 0);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOF
got=$(timeout 60 "$BPFPROBE" load --json "$tmp/str.o" -- build/targets/record-gcc-O2 2>/dev/null |
      jq -r 'select(.type == "record") | .data | "\(.s1) \(.s2)"')
if [ "$got" = "hello a strin" ]; then
	pass record_string_suffix
else
	fail record_string_suffix "got '$got'"
fi

# text output: strings quoted, bytes that are not UTF-8 escaped, err bits
out=$(timeout 60 "$BPFPROBE" load --quiet-meta build/bpf/record__strings-gcc-O2.o -- build/targets/record-gcc-O2 2>&1)
want='{ .s1 = "hello", .s2 = "a string much l", .s3 = "", .s4 = "", .s5 = "\xff\xfeab", .err = 12 }'
if grep -qF -- "$want" <<<"$out"; then
	pass record_strings_text
else
	fail record_strings_text "no line '$want' in: $(grep events <<<"$out")"
fi

# bad_record NAME SEC STRUCT PROTO-PARAMS -- WANT...: a program that must be
# refused with every WANT in its message, leaving nothing loaded
T=$PWD/build/targets/record-gcc-O2
bad_record() {
	local name=$1 sec=$2 decl=$3 params=$4 err rc w
	shift 5
	mkobj "$tmp/$name.o" <<EOF || { fail "record_bad_$name" "does not compile"; return; }
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct big { long a; int b; char name[12]; };
$decl
SEC("exec=$T;$sec")
int badprog(void *ctx, $params)
{
	bpf_printk("%d", sizeof(ctx));
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOF
	err=$(timeout 60 "$BPFPROBE" load "$tmp/$name.o" -- /bin/true 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 0 ] || [ $rc -ge 124 ]; then
		fail "record_bad_$name" "exit $rc, want a failure: $err"
		return
	fi
	for w in "$@"; do
		if ! grep -qF -- "$w" <<<"$err"; then
			fail "record_bad_$name" "lacks '$w': $err"
			return
		fi
	done
	if ! nothing_loaded badprog; then
		fail "record_bad_$name" "a program stayed loaded"
		return
	fi
	pass "record_bad_$name"
}

# the newcomer's prototype: named like the arguments, shifted by err
bad_record misplaced_err "func=six a b" "" "long a, long b" -- \
	"parameter 2 'a' receives err, the fetch-error flag, but it is named like SEC argument 1 'a'" \
	"write it as int badprog(void *ctx, int err, u64 a, u64 b)"
bad_record four_registers "func=six a b c d" "" "int err, long a, long b, long c" -- \
	"4 arguments given, at most 3 fit in R3..R5" "first extra argument: 'd'" \
	"more fit in a record: int badprog(void *ctx, struct args *a)"
bad_record member_unfilled "func=six a" "struct args { long a; long zz; };" "struct args *r" -- \
	"member 'zz' of struct args is filled by no argument (arguments: a)"
bad_record no_member "func=six a b" "struct args { long a; };" "struct args *r" -- \
	"argument 'b' fills member 'b' of struct args, which has none (members: a)"
bad_record params_no_member "func=six \$params" "struct args { long a; long b; };" "struct args *r" -- \
	"argument 'c' fills member 'c' of struct args, which has none (members: a, b)"
bad_record err_not_u64 "func=six a" "struct args { long a; int err; };" "struct args *r" -- \
	"member 'err' of struct args is int: the fetch-error bits need a __u64"
bad_record too_large "func=six a" "struct args { long a; char big[600]; };" "struct args *r" -- \
	"struct args is 608 bytes, but a record lives in the BPF stack"
bad_record string_of_int "func=six a" "struct args { char a[16]; };" "struct args *r" -- \
	"'a' is int: its member (char[16]) wants a string"
bad_record bytes_of_pointer "func=structs p" "struct args { struct big p; };" "struct args *r" -- \
	"'p' is 8 bytes (type const struct big *), fewer than the 24 of its member: for what it points to, write '*p'"
bad_record cast_string "func=six e:u32" "struct args { char e[16]; };" "struct args *r" -- \
	"'e:u32' casts a value (:u32), but its member wants a string"
bad_record string_in_register "func=strs s1:string" "" "int err, long s1" -- \
	"argument 's1:string' is a string, which fits no register of R3..R5" "int badprog(void *ctx, struct args *a) with a member char s1[N]"
bad_record string_to_integer "func=strs s1:string" "struct args { long s1; };" "struct args *r" -- \
	"argument 's1:string' is a string, but its member 's1' is long: make it a char array (char s1[N])"
bad_record bitfield "func=six a" "struct args { long a:8; };" "struct args *r" -- \
	"member 'a' is a bitfield"
bad_record twice "func=six a b a=c" "struct args { long a; long b; };" "struct args *r" -- \
	"arguments 'a' and 'a=c' both fill member 'a'"
# without BTF the prototype cannot say it takes a record
clang -O2 -target bpf -I/usr/include/$(uname -m)-linux-gnu -x c -c - -o "$tmp/nobtf.o" <<EOF
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct args { long a; };
SEC("exec=$T;func=six a")
int badprog(void *ctx, struct args *r)
{
	bpf_printk("%ld", r->a);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOF
err=$(timeout 60 "$BPFPROBE" load "$tmp/nobtf.o" -- /bin/true 2>&1 >/dev/null)
if [ $? -ne 0 ] && grep -qF "has no BTF: a program that reads a record through its second parameter" <<<"$err" &&
   nothing_loaded badprog; then
	pass record_bad_no_btf
else
	fail record_bad_no_btf "$err"
fi
exit 0
