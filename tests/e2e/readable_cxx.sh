# C++ (issue 14): the readable_cxx target built with g++ and clang++ at
# -O0, -O2, -O3 prints its truth; the fetched values must equal it:
# qualified names, this->member and a base class's member, an overload
# picked by its parameters, '.' through a reference, a reference to a
# scalar, an operator. Then names in libstdc++'s debug build
# (libstdc++6-12-dbg): std::_Hash_bytes, operator new and its overloads,
# and `funcs` showing both spellings.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

T=$PWD/build/targets
variants=$(ls "$T" | sed -n 's/^readable_cxx-//p')

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip readable_cxx_e2e "$why"
elif [ -z "$variants" ]; then
	fail readable_cxx_e2e "no build/targets/readable_cxx-* (make tests-build)"
else
	for v in $variants; do
		out=$(timeout 60 "$BPFPROBE" load --quiet-meta "build/bpf/readable_cxx__all-$v.o" -- "$T/readable_cxx-$v" 2>&1)
		rc=$?
		got=$(sed -n 's/^GOT //p' <<<"$out" | sort)
		truth=$(sed -n 's/^TRUTH //p' <<<"$out" | sort)
		if [ $rc -ne 0 ]; then
			fail "readable_cxx_$v" "exit $rc: $(grep -v '^TRUTH\|^GOT' <<<"$out" | tail -3)"
		elif [ -z "$truth" ] || [ "$got" != "$truth" ]; then
			fail "readable_cxx_$v" "$(diff <(echo "$truth") <(echo "$got") | tr '\n' ' ')"
		else
			pass "readable_cxx_$v"
		fi
	done
fi

# resolve: each case must say (or fail with) what it shows
expect_resolve() {
	local name=$1 sec=$2 want=$3 out
	out=$("$BPFPROBE" resolve "$sec" 2>&1)
	if grep -qF -- "$want" <<<"$out"; then
		pass "$name"
	else
		fail "$name" "'$sec': wanted '$want': $(head -3 <<<"$out" | tr '\n' ' ')"
	fi
}
B=$T/readable_cxx-gcc-O2
# the double overload: its v is in xmm0 (the int one has it in rdi)
expect_resolve cxx_overload_double "exec=$B;geo::scale(double) v" "argument 'v': in floating-point register xmm0"
expect_resolve cxx_overload_unknown "exec=$B;geo::scale(long) v" "function 'geo::scale(long)' not found"
expect_resolve cxx_dot_on_pointer "exec=$B;geo::Shape::area this.w" "'.' on pointer 'this'"
expect_resolve cxx_reference_arrow "exec=$B;geo::touch p->x" "arg1 p->x: long int"

# libstdc++'s debug build (make deps installs libstdc++6-12-dbg)
L=/usr/lib/x86_64-linux-gnu/debug/libstdc++.so.6
if [ ! -e "$L" ]; then
	fail readable_cxx_libstdcxx "libstdc++6-12-dbg is not installed (make deps installs it)"
else
	expect_resolve cxx_qualified "exec=$L;func=std::_Hash_bytes len" "arg1 len: size_t"
	expect_resolve cxx_operator_new "exec=$L;func=operator new(unsigned long) sz" "arg1 sz: size_t"
	expect_resolve cxx_operator_new_all "exec=$L;func=operator new sz" "(parameters: <unnamed>, __p)"
	out=$("$BPFPROBE" funcs "$L" 'operator new*')
	if grep -q '^operator new .*\[operator new(unsigned long)\]' <<<"$out" &&
	   grep -q '\[operator new(unsigned long, std::nothrow_t const&)\]' <<<"$out"; then
		pass cxx_funcs_spellings
	else
		fail cxx_funcs_spellings "$(head -3 <<<"$out" | tr '\n' ' ')"
	fi
	# a const array of const elements (gcc writes both): one const
	out=$("$BPFPROBE" vars "$L" '_M_transfer' 2>&1)
	if grep -q '__PRETTY_FUNCTION__: const char\[' <<<"$out" && ! grep -q 'const const' <<<"$out"; then
		pass cxx_type_const_once
	else
		fail cxx_type_const_once "$(grep -m1 __PRETTY <<<"$out")"
	fi
	out=$("$BPFPROBE" funcs "$L" 'std::_Hash_bytes')
	if grep -q '^_Hash_bytes .*\[std::_Hash_bytes(void const\*, unsigned long, unsigned long)\]' <<<"$out"; then
		pass cxx_funcs_qualified_glob
	else
		fail cxx_funcs_qualified_glob "$out"
	fi
fi
