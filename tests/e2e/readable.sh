# Values only a debugger used to read (issue 14), by value: the readable
# target in every build (gcc and clang, -O0 to -O3, -Os, LTO) prints the
# truth of entry values away from the entry (recursion too), arithmetic on
# run-time values, implicit pointers, a clone's dropped parameter, an
# inlined copy read through location views, thread-locals in threads, and
# errno at libc's open%return, a parameter at its entry whose first view
# is the pointer passed (then a constant), an inlined function's static
# local; the fetched values must equal it. In the
# gcc -O2 build each of those is checked to be what it tests (the DWARF
# could change with a compiler). An activation the entry probe missed
# (attached mid-call) must fail the fetch, not give another value.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip readable_e2e "$why"
	exit 0
fi

T=$PWD/build/targets
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; [ -n "$tpid" ] && kill $tpid 2>/dev/null' EXIT
variants=$(ls "$T" | sed -n 's/^readable-//p')
[ -n "$variants" ] || { fail readable_e2e "no build/targets/readable-* (make tests-build)"; exit 0; }

# check NAME WHATS OBJ...: loads the objects on the variant's build; the
# "GOT what ..." lines of the WHATS must equal the "TRUTH what ..." ones,
# as multisets
check() {
	local name=$1 whats=$2 v=$3 out rc got truth
	shift 3
	out=$(timeout 60 "$BPFPROBE" load --quiet-meta "$@" -- "$T/readable-$v" 2>&1)
	rc=$?
	got=$(sed -n 's/^GOT //p' <<<"$out" | grep -E "^($whats) " | sort)
	truth=$(sed -n 's/^TRUTH //p' <<<"$out" | grep -E "^($whats) " | sort)
	if [ $rc -ne 0 ]; then
		fail "$name" "exit $rc: $(grep -v '^TRUTH\|^GOT' <<<"$out" | tail -3)"
	elif [ -z "$truth" ] || [ "$got" != "$truth" ]; then
		fail "$name" "$(diff <(echo "$truth") <(echo "$got") | tr '\n' ' ') $(grep '^ERR' <<<"$out" | tr '\n' ' ')"
	else
		pass "$name"
	fi
}

# what each build keeps (gcc 12, clang 14): every build the entry values,
# thread-locals and errno; the rest where the compiler describes it
for v in $variants; do
	check "readable_$v" "ev|rec|errno" $v build/bpf/readable__all-$v.o
	# clang's LTO leaves no trace of tls_counter (no location, no symbol)
	[ $v = clang-O2-lto ] || check "readable_tls_$v" tls $v build/bpf/readable__tls-$v.o
	case $v in
	*-lto)	;;
	gcc-*|clang-O0)
		check "readable_more_$v" "ar|ip|isra|rotl" $v build/bpf/readable__more-$v.o ;;
	*)	check "readable_rotl_$v" rotl $v build/bpf/readable__rotl-$v.o ;;
	esac
	# gcc -O1 and up: "views 0..3: rdi", then "constant 0" at the entry
	# (clang: constant 0 only; gcc's LTO drops the parameter from its
	# clone, whose DWARF then says constant 0 everywhere)
	case $v in
	gcc-O0|clang-*|*-lto)	;;
	*)	check "readable_quiet_$v" quiet $v build/bpf/readable__quiet-$v.o ;;
	esac
	# an inlined function's static local, in its abstract instance only
	# (gdb finds neither clang's, in an anonymous subprogram, nor gcc
	# LTO's, left without a location)
	case $v in
	clang-*|*-lto)	;;
	*)	check "readable_static_$v" bump $v build/bpf/readable__static-$v.o ;;
	esac
done

# what the gcc -O2 build tests: each argument reads what it is meant to
R=$(for o in all tls more quiet static; do "$BPFPROBE" resolve build/bpf/readable__$o-gcc-O2.o 2>&1; done)
expect_kind() {
	local name=$1 arg=$2 pattern=$3
	if grep -E "arg[0-9] $arg:" <<<"$R" | grep -qE -- "$pattern"; then
		pass "readable_kind_$name"
	else
		fail "readable_kind_$name" "'$arg' is not read through $pattern: $(grep -E "arg[0-9] $arg:" <<<"$R" | head -1)"
	fi
}
expect_kind entry_value a 'DW_OP_entry_value.*entry\(%rdi@'
expect_kind entry_value_rec n 'entry\(%rdi@'
expect_kind arithmetic t 'DW_OP_shl.*<<'
expect_kind implicit_pointer 'p->x' 'DW_OP_implicit_pointer'
expect_kind parameter_ref 'fs->other' 'DW_OP_GNU_parameter_ref'
expect_kind location_view 'n' 'DW_OP_lit7.*location view'
expect_kind entry_view 'st->other' 'at reg rdi \(location view\)'
expect_kind static_local_inlined total 'at global @0x'
expect_kind tls tls_counter 'form_tls_address.*task'
expect_kind errno errno 'form_tls_address.*task.*@0x'

# attached mid-call: the activation's entry was never saved
if grep -E "arg1 a:" <<<"$("$BPFPROBE" resolve "exec=$T/readable-gcc-O2;ev_blocked;sink2=4;* a" 2>&1)" |
		grep -q 'entry('; then
	"$T/readable-gcc-O2" block >"$tmp/target.out" &
	tpid=$!
	for _ in $(seq 100); do
		grep -q READY "$tmp/target.out" && break
		sleep 0.1
	done
	"$BPFPROBE" load --quiet-meta -p $tpid build/bpf/readable__all-gcc-O2.o >"$tmp/out" 2>"$tmp/err" &
	bp=$!
	for _ in $(seq 200); do
		grep -q 'blocked' "$tmp/out" && break
		sleep 0.1
	done
	kill -TERM $bp
	wait $bp
	kill $tpid 2>/dev/null
	wait $tpid 2>/dev/null
	tpid=
	if grep -q '^ERR blocked' "$tmp/out" && ! grep -q '^GOT blocked' "$tmp/out"; then
		pass readable_entry_missed_mid_call
	else
		fail readable_entry_missed_mid_call "$(head -3 "$tmp/out" | tr '\n' ' ') $(tail -2 "$tmp/err" | tr '\n' ' ')"
	fi
else
	fail readable_entry_missed_mid_call "gcc -O2 no longer makes ev_blocked's a an entry value"
fi
