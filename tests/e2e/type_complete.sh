# Types a unit only declares, completed from the unit that defines them
# (probes/dwarf/type_complete.c), as gdb does: `p->b` where this unit has
# only `struct one;` reads the member of the definition in another unit
# (two identical definitions are one), with the function index, without
# it (--no-cache: one walk of the units) and through a DWZ alternate file;
# resolve says where the type was defined. A struct defined differently in
# two units is an error naming both; one defined nowhere says so. In C++
# the scope counts: ns::T and ::T are different types.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$tmp" || exit 1
cat >decl.c <<'EOF'
struct one;
struct dup;
struct none;
enum mode;

__attribute__((noinline)) long use_one(struct one *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
	return 1;
}

__attribute__((noinline)) long use_dup(struct dup *d)
{
	__asm__ volatile("" : : "r"(d) : "memory");
	return 2;
}

__attribute__((noinline)) long use_none(struct none *n, enum mode *m)
{
	__asm__ volatile("" : : "r"(n), "r"(m) : "memory");
	return 3;
}
EOF
cat >def_a.c <<'EOF'
struct one { long a; int b; char c; };
struct dup { int x; };
enum mode { M_OFF = -1, M_ON = 1 };
struct one g_one = { 11, 22, 33 };
struct dup g_dup_a = { 44 };
enum mode g_mode = M_OFF;
int g_mode_value = M_OFF;
EOF
cat >def_b.c <<'EOF'
struct dup { long x; long y; };
struct dup g_dup_b = { 55, 66 };
EOF
cat >main.c <<'EOF'
#include <stdio.h>
/* the same layout as def_a.c's: one definition */
struct one { long a; int b; char c; };
struct dup;
struct none;
enum mode;
extern struct one g_one;
extern struct dup g_dup_a;
extern enum mode g_mode;
extern int g_mode_value;
long use_one(struct one *p);
long use_dup(struct dup *d);
long use_none(struct none *n, enum mode *m);

int main(void)
{
	printf("TRUTH b %d\nTRUTH c %d\nTRUTH mode %d\n", g_one.b, g_one.c, g_mode_value);
	fflush(stdout);
	return !(use_one(&g_one) + use_dup(&g_dup_a) + use_none(0, &g_mode));
}
EOF
cd - >/dev/null || exit 1
if ! (cd "$tmp" && gcc -O2 -g -o app decl.c def_a.c def_b.c main.c) 2>"$tmp/cc.err"; then
	fail type_complete_build "gcc: $(head -3 "$tmp/cc.err")"
	exit 0
fi
BIN=$tmp/app

# resolve's arguments ("argN EXPR: TYPE, at WHERE: FETCH") of a SEC
args_of() { "$BPFPROBE" resolve "$@" 2>&1 | grep -E '^ +arg[0-9]|cannot|incomplete|differently'; }

# --- completed, with the index and without ------------------------------------
for how in index no_cache; do
	opt=
	[ $how = no_cache ] && opt=--no-cache
	out=$(args_of $opt "exec=$BIN;func=use_one p->b p->c")
	if grep -q "arg1 p->b: int, at reg rdi; struct one defined in unit def_a.c (.*def_a.c:1)" <<<"$out" &&
	   grep -q "arg2 p->c: char," <<<"$out" && grep -q '(%rdi + 12)' <<<"$out"; then
		pass "type_complete_resolve_$how"
	else
		fail "type_complete_resolve_$how" "$(tr '\n' ' ' <<<"$out")"
	fi
	out=$(args_of $opt "exec=$BIN;func=use_dup d->x")
	if grep -q "struct dup is declared, not defined, in this compilation unit, and 2 units of $BIN define it differently: unit def_a.c (.*def_a.c:2), 4 bytes; unit def_b.c (.*def_b.c:1), 16 bytes" <<<"$out"; then
		pass "type_complete_ambiguous_$how"
	else
		fail "type_complete_ambiguous_$how" "$(tr '\n' ' ' <<<"$out")"
	fi
	out=$(args_of $opt "exec=$BIN;func=use_none n->x")
	if grep -q "struct none is incomplete here (declared, not defined, in this compilation unit), and no other unit of $BIN defines it" <<<"$out"; then
		pass "type_complete_none_$how"
	else
		fail "type_complete_none_$how" "$(tr '\n' ' ' <<<"$out")"
	fi
	# an enum declared only here reads with its definition's size and sign
	out=$(args_of $opt "exec=$BIN;func=use_none m[0]")
	if grep -q "arg1 m\[0\]: enum mode, at reg rsi; enum mode defined in unit def_a.c" <<<"$out" &&
	   grep -q 's32 \*(u32 \*)(%rsi)' <<<"$out"; then
		pass "type_complete_enum_$how"
	else
		fail "type_complete_enum_$how" "$(tr '\n' ' ' <<<"$out")"
	fi
done

# --- the values --------------------------------------------------------------
why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip type_complete_values "$why"
else
	cat >"$tmp/prog.c" <<EOF
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$BIN;func=use_one p->b p->c")
int one(void *ctx, int err, long b, long c)
{
	if (err)
		bpf_printk("ERR b %d", err);
	bpf_printk("GOT b %ld", b);
	bpf_printk("GOT c %ld", c);
	return 0;
}
SEC("exec=$BIN;func=use_none m[0]")
int mode(void *ctx, int err, long m)
{
	bpf_printk("GOT mode %ld", m);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOF
	out=$(timeout 60 "$BPFPROBE" load --quiet-meta "$tmp/prog.c" -- "$BIN" 2>&1)
	check_whats type_complete_values "$out" $? b c mode
fi

# --- through a DWZ alternate file ---------------------------------------------
if ! command -v dwz >/dev/null; then
	fail type_complete_dwz "dwz is not installed (scripts/deps.sh installs it)"
else
	mkdir -p "$tmp/dwz"
	cp "$BIN" "$tmp/dwz/app"
	cp "$BIN" "$tmp/dwz/other"
	objcopy --only-keep-debug "$tmp/dwz/app" "$tmp/dwz/app.debug"
	objcopy --only-keep-debug "$tmp/dwz/other" "$tmp/dwz/other.debug"
	objcopy --strip-debug "$tmp/dwz/app"
	if dwz -m "$tmp/dwz/common.debug" -M "$tmp/dwz/common.debug" \
	       "$tmp/dwz/app.debug" "$tmp/dwz/other.debug" 2>"$tmp/dwz.err" &&
	   readelf -S "$tmp/dwz/app.debug" 2>/dev/null | grep -q gnu_debugaltlink; then
		objcopy --add-gnu-debuglink="$tmp/dwz/app.debug" "$tmp/dwz/app"
		out=$(args_of "exec=$tmp/dwz/app;func=use_one p->b")
		if grep -q "arg1 p->b: int, at reg rdi; struct one defined in .*def_a.c:1)" <<<"$out" &&
		   grep -q '(%rdi + 8)' <<<"$out"; then
			pass type_complete_dwz
		else
			fail type_complete_dwz "$(tr '\n' ' ' <<<"$out")"
		fi
	else
		fail type_complete_dwz "dwz failed: $(cat "$tmp/dwz.err")"
	fi
fi

# --- C++: the same name in another scope is another type ----------------------
cat >"$tmp/decl.cc" <<'EOF'
namespace ns { struct T; }
struct T;
__attribute__((noinline)) long use_t(ns::T *a, T *b)
{
	__asm__ volatile("" : : "r"(a), "r"(b) : "memory");
	return 1;
}
EOF
cat >"$tmp/def.cc" <<'EOF'
namespace ns { struct T { long x; int y; }; }
struct T { int q; };
ns::T g_nt = { 1, 2 };
T g_t = { 3 };
long use_t(ns::T *a, T *b);
int main() { return !use_t(&g_nt, &g_t); }
EOF
if (cd "$tmp" && g++ -O2 -g -o cxx decl.cc def.cc) 2>"$tmp/cc.err"; then
	out=$(args_of "exec=$tmp/cxx;func=use_t a->y b->q")
	if grep -q "arg1 a->y: int, at reg rdi; struct ns::T defined in unit def.cc (.*def.cc:1)" <<<"$out" &&
	   grep -q '(%rdi + 8)' <<<"$out" &&
	   grep -q "arg2 b->q: int, at reg rsi; struct T defined in unit def.cc (.*def.cc:2)" <<<"$out"; then
		pass type_complete_cxx_scope
	else
		fail type_complete_cxx_scope "$(tr '\n' ' ' <<<"$out")"
	fi
else
	fail type_complete_cxx_scope "g++: $(head -3 "$tmp/cc.err")"
fi
