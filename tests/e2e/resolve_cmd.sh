# `bpfprobe resolve`, `vars` and `funcs`: what they print (text and --json,
# checked with jq), that they agree with each other, with the loader and
# with nm, and that they need no privileges.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

command -v jq >/dev/null || { fail resolve_cmd "jq is missing (make deps installs it)"; exit 0; }

tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
T=$PWD/build/targets

# check NAME CMD...: PASS when CMD succeeds, else FAIL with what it printed
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$(head -c 1500 <<<"$out")"
	fi
}

# jqcheck NAME FILE FILTER: FILTER must yield true on the JSON in FILE
jqcheck() {
	if jq -e "$3" "$2" >/dev/null 2>&1; then
		pass "$1"
	else
		fail "$1" "jq '$3' is not true on: $(jq -c . "$2" 2>&1 | head -c 1500)"
	fi
}

# --- resolve -----------------------------------------------------------------

for v in $VARIANTS; do
	out=$tmp/basic-$v.json
	if ! "$BPFPROBE" resolve --json build/bpf/args__basic-$v.o >"$out" 2>"$tmp/err"; then
		fail "resolve_json_$v" "exit non-zero: $(cat "$tmp/err")"
		continue
	fi
	# the twin program: one point per static copy, each its own instance
	jqcheck "resolve_json_twin_$v" "$out" '
		[.programs[] | select(.name == "twin")][0] as $p
		| ($p.points | length) == 2
		and ($p.points[0].instance != $p.points[1].instance)
		and ([$p.points[].cu | split("/")[-1]] | sort) == ["twin_a.c", "twin_b.c"]
		and ([$p.instances[].name] | sort) == ["twin", "twin_1"]
		and ([$p.instances[].points[]] | sort) == [0, 1]
		and ($p.points | all(.args[0].type == "int" and .args[0].fetch.size == 4
				     and .args[0].fetch.signed))'
	# neg_args a: an int, sign-extended from 32 bits
	jqcheck "resolve_json_neg_$v" "$out" '
		[.programs[] | select(.name == "neg")][0] as $p
		| ($p.points | length) == 1 and $p.points[0].func == "neg_args"
		and ($p.points[0].args | map(.name)) == ["a", "b", "c"]
		and ($p.points[0].args | map(.fetch.size)) == [4, 8, 2]
		and ($p.points[0].args | all(.fetch.signed))
		and $p.points[0].args[0].type == "int"
		and $p.points[0].return == false and $p.points[0].inline == false'
	# every point names one of its program's instances, and each has a prologue
	jqcheck "resolve_json_instances_$v" "$out" '
		.programs | length >= 10 and all(
			([.instances[].id]) as $ids
			| (.points | all(.instance as $i | $ids | index($i) != null))
			and (.instances | all(.insns > 0 and (.prologue | length) > 0
					      and (.prologue | length) <= .insns)))'
	jqcheck "resolve_json_return_$v" "$out" '
		[.programs[] | select(.name == "ret")][0].points[0]
		| .return and .args[0].name == "$retval" and .args[0].fetch.reg == "rax"
		  and .args[0].fetch.size == 8 and .args[0].fetch.signed'
done

# exact values where the locations are known (gcc -O2, clang -O0)
jqcheck resolve_json_gcc_O2_locations "$tmp/basic-gcc-O2.json" '
	([.programs[] | select(.name == "neg")][0].points[0].args) as $a
	| $a[0].location == "reg rdi" and $a[0].fetch.text == "s32 %rdi"
	  and $a[1].location == "reg rsi" and $a[2].fetch.text == "s16 %rdx"
	  and ([.programs[] | select(.name == "twin")][0].points
	       | map({(.cu | split("/")[-1]): .args[0].location}) | add)
	      == {"twin_a.c": "reg rdi", "twin_b.c": "reg rsi"}
	  and ([.programs[] | select(.name == "req")][0].points[0].args[0]
	       | .fetch.derefs == [{"off": 8, "user": true}, {"off": 4, "user": true}]
	         and .type == "int")'
jqcheck resolve_json_clang_O0_frame "$tmp/basic-clang-O0.json" '
	[.programs[] | select(.name == "neg")][0].points[0].args[0]
	| .location == "rbp-4 (frame)" and .fetch.base == "reg" and .fetch.reg == "rbp"
	  and .fetch.derefs == [{"off": -4, "user": true}]'

# the text form says the same (a's int: loaded whole and cut, or with cpu
# v4 where the kernel's release has it, a sign-extending load of 4 bytes)
text=$("$BPFPROBE" resolve build/bpf/args__basic-gcc-O2.o 2>&1)
if grep -qF "arg1 a: int, at reg rdi: s32 %rdi" <<<"$text" &&
   grep -q "^  instance [0-9]* 'twin_1', used by point 1, prologue:" <<<"$text" &&
   grep -q "^ *0: r3 = \*(\(u64\|s32\) \*)(r1 +112)" <<<"$text"; then
	pass resolve_text
else
	fail resolve_text "$(head -30 <<<"$text")"
fi

# SEC text instead of an object
"$BPFPROBE" resolve --json --compact "exec=$T/args-gcc-O2;ev=handle_req req->hdr->len conn->fd" \
	>"$tmp/sec.json" 2>"$tmp/err"
jqcheck resolve_sec_text "$tmp/sec.json" '
	.object == null and (.sec | startswith("exec=")) and (.programs | length) == 1
	and .programs[0].name == "ev" and .programs[0].points[0].func == "handle_req"
	and (.programs[0].points[0].args | map(.expr)) == ["req->hdr->len", "conn->fd"]
	and (.programs[0].points[0].args[0].fetch.derefs | length) == 2'
# a global: at its link-time address (nm's) plus the load bias
"$BPFPROBE" resolve --json "exec=$T/args-gcc-O2;neg_args @sink" >"$tmp/global.json" 2>"$tmp/err"
jqcheck resolve_global "$tmp/global.json" "
	.programs[0].points[0].args[0].fetch
	| .base == \"addr\" and .add == $(printf '%d' "0x$(nm "$T/args-gcc-O2" | awk '$3 == "sink" { print $1 }')")
	  and .anchor.kind == \"ip\""
if [ "$(wc -l <"$tmp/sec.json")" -eq 1 ]; then
	pass resolve_compact_one_line
else
	fail resolve_compact_one_line "$(wc -l <"$tmp/sec.json") lines"
fi

# needs no privileges: the same output as nobody (copies of the tool and
# the target: the checkout may be unreadable to nobody)
if [ "$(id -u)" -eq 0 ]; then
	mkdir -p "$tmp/nobody"
	nb=$(nobody_copy "$tmp/nobody")
	cp "$T/args-gcc-O2" "$tmp/nobody/args" && chmod 755 "$tmp/nobody/args"
	chmod 755 "$tmp"
	sec="exec=$tmp/nobody/args;p=handle_req req->hdr->len conn->fd req->inner.y"
	as_root=$("$nb" resolve --json "$sec" 2>&1)
	as_nobody=$(as_nobody "$nb" resolve --json "$sec" 2>&1)
	if [ -n "$as_root" ] && [ "$as_nobody" = "$as_root" ]; then
		pass resolve_unprivileged
	else
		fail resolve_unprivileged "$(head -5 <<<"$as_nobody")"
	fi
else
	check resolve_unprivileged "$BPFPROBE" resolve build/bpf/args__basic-gcc-O2.o
fi

# loads nothing: not one bpf() or perf_event_open() call
if command -v strace >/dev/null; then
	# execve shows that strace did trace it
	strace -f -qq -e trace=execve,bpf,perf_event_open -o "$tmp/strace" \
		"$BPFPROBE" resolve build/bpf/args__features-gcc-O2.o >/dev/null 2>&1
	calls=$(grep -v 'execve(' "$tmp/strace")
	if grep -q 'execve(' "$tmp/strace" && [ -z "$calls" ]; then
		pass resolve_no_bpf_syscalls
	else
		fail resolve_no_bpf_syscalls "$(head -3 "$tmp/strace")"
	fi
else
	fail resolve_no_bpf_syscalls "strace is missing (make deps installs it)"
fi

# standard libbpf sections beside annotated ones are named, not resolved
"$BPFPROBE" resolve --json build/bpf/args__mixed-gcc-O2.o >"$tmp/mixed.json"
jqcheck resolve_standard_sections "$tmp/mixed.json" '
	(.programs | map(.name)) == ["mixed"]
	and (.standard_programs | map(.name)) == ["std_uprobe"]
	and (.standard_programs[0].sec | startswith("uprobe/"))'

# bad input: the loader's messages, a non-zero exit
prog() {
	local params=${2:-"void *ctx, int err, long a"}
	printf '#include <linux/bpf.h>\n#include <bpf/bpf_helpers.h>\n'
	printf 'SEC("%s")\nint badprog(%s) { return 0; }\n' "$1" "$params"
	printf 'char LICENSE[] SEC("license") = "GPL";\n'
}
prog "exec=$T/args-gcc-O2;p=handle_req req->lenn" | mkobj "$tmp/nomember.o"
prog "exec=$T/args-gcc-O2;p=no_such_function a" | mkobj "$tmp/nofunc.o"
prog "exec=$T/args-gcc-O2;p=neg_args a" "void *ctx, int err, long a, long b" | mkobj "$tmp/proto.o"
prog "exec=$T/args-gcc-O2;p=neg_args a b c a" | mkobj "$tmp/fourargs.o"
echo 'not an object' >"$tmp/notelf.o"
bad_msgs=("struct req has no member 'lenn'" "function 'no_such_function' not found"
	  "program 'badprog' takes 4 parameters" "at most 3" "is not an ELF file")
i=0
for o in nomember nofunc proto fourargs notelf; do
	err=$("$BPFPROBE" resolve "$tmp/$o.o" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 0 ] && grep -qF -- "${bad_msgs[$i]}" <<<"$err"; then
		pass "resolve_bad_$o"
	else
		fail "resolve_bad_$o" "exit $rc, stderr: $err"
	fi
	# load (which needs privileges) stops at the same place with the same words
	if [ -z "$(uprobe_unavailable)" ]; then
		lerr=$(timeout 60 "$BPFPROBE" load "$tmp/$o.o" -- /bin/true 2>&1 >/dev/null)
		missing=$(grep -vxF -f <(printf '%s\n' "$lerr") <<<"$err")
		if [ -z "$missing" ]; then
			pass "resolve_bad_${o}_as_load"
		else
			fail "resolve_bad_${o}_as_load" "load did not say: $missing (load said: $lerr)"
		fi
	fi
	i=$((i + 1))
done
err=$("$BPFPROBE" resolve 2>&1)
[ $? -eq 2 ] && grep -q usage <<<"$err" && pass resolve_usage || fail resolve_usage "$err"

# "NAME IDX: INSN" for each prologue instruction, from load -v's stderr or
# resolve's text output
prologue_lines() {
	awk -v q="'" '
		/^instance .* prologue \(/ || /^  instance [0-9]+ .*, used by/ {
			split($0, a, q); n = a[2]; next }
		n != "" && /^ *[0-9]+: / { sub(/^ */, ""); print n " " $0; next }
		{ n = "" }' | sort
}

# resolve shows the instances and prologues load builds (load -v prints them)
if [ -z "$(uprobe_unavailable)" ]; then
	for v in gcc-O2 clang-O0; do
		lout=$(timeout 60 "$BPFPROBE" load -v build/bpf/args__basic-$v.o -- /bin/true 2>&1)
		want=$(sed -n "s/^instance '\([^']*\)' prologue (\([0-9]*\) insns):$/\1 \2/p" <<<"$lout" | sort)
		got=$(jq -r '.programs[].instances[] | "\(.name) \(.insns)"' "$tmp/basic-$v.json" | sort)
		lins=$(prologue_lines <<<"$lout")
		rins=$("$BPFPROBE" resolve build/bpf/args__basic-$v.o | prologue_lines)
		if [ -n "$want" ] && [ "$want" = "$got" ] && [ -n "$lins" ] && [ "$lins" = "$rins" ]; then
			pass "resolve_matches_load_$v"
		else
			fail "resolve_matches_load_$v" "load: $want / resolve: $got
$(diff <(echo "$lins") <(echo "$rins") | head -10)"
		fi
	done
fi

# --- vars --------------------------------------------------------------------

for v in $VARIANTS; do
	"$BPFPROBE" vars --json "$T/args-$v" handle_req >"$tmp/vars.json" 2>"$tmp/err"
	jqcheck "vars_handle_req_$v" "$tmp/vars.json" '
		(.points | length) == 1 and .points[0].func == "handle_req"
		and (.points[0].vars | map({(.name): .type}) | add)
		    == {"req": "req_t *", "conn": "const struct conn *"}
		and (.points[0].vars | all(.kind == "param" and .fetchable
					   and .fetch.size == 8 and (.fetch.signed | not)))'
done
"$BPFPROBE" vars --json "$T/args-gcc-O2" handle_req 'ret_neg%return' opt_out >"$tmp/vars.json"
jqcheck vars_gcc_O2_values "$tmp/vars.json" '
	(.points | map(.func)) == ["handle_req", "ret_neg", "opt_out"]
	and (.points[0].vars | map(.location)) == ["reg rdi", "reg rsi"]
	and (.points[1].return and .points[1].vars[0].name == "$retval"
	     and .points[1].vars[0].type == "long int"
	     and .points[1].vars[0].fetch.text == "s64 %rax")
	and (.points[2].vars | map(.name)) == ["x", "unused"]'
"$BPFPROBE" vars --json "$T/args-clang-O2" opt_out main >"$tmp/vars.json"
jqcheck vars_clang_O2_unfetchable "$tmp/vars.json" '
	(.points[0].vars[] | select(.name == "unused")
	 | (.fetchable | not) and (.why | test("optimized out")) and .fetch == null)
	and (.points[1].vars[] | select(.name == "rounds")
	     | (.fetchable | not) and (.available | length) > 0
	       and .available[0].start > .addr)'

out=$("$BPFPROBE" vars "$T/args-gcc-O2" handle_req 2>&1)
if grep -qxF "  param  req: req_t *, at reg rdi: u64 %rdi" <<<"$out" &&
   grep -qxF "  param  conn: const struct conn *, at reg rsi: u64 %rsi" <<<"$out"; then
	pass vars_text
else
	fail vars_text "$out"
fi

# vars says fetchable exactly when a program asking for it resolves, with
# the same fetch and the same reason
for v in $VARIANTS; do
	bad=
	for f in handle_req main opt_out lost_arg many_args; do
		"$BPFPROBE" vars --json --compact "$T/args-$v" "$f" >"$tmp/v.json" || bad+=" $f:exit"
		while IFS=$'\t' read -r name fetchable fetch why; do
			sec="exec=$T/args-$v;$f $name"
			if [ "$fetchable" = true ]; then
				# "    arg1 NAME: TYPE, at LOCATION: FETCH"
				got=$("$BPFPROBE" resolve "$sec" 2>&1 | grep '^    arg1 ')
				[ "${got##*: }" = "$fetch" ] || bad+=" $f:$name($got != $fetch)"
			else
				err=$("$BPFPROBE" resolve "$sec" 2>&1 >/dev/null) &&
					bad+=" $f:$name(resolves)"
				grep -qF -- "$why" <<<"$err" || bad+=" $f:$name(why: $why / $err)"
			fi
		done < <(jq -r '.points[0].vars[] | [.name, .fetchable, (.fetch.text // ""),
			       (.why // "")] | @tsv' "$tmp/v.json")
	done
	if [ -z "$bad" ]; then
		pass "vars_agrees_with_resolve_$v"
	else
		fail "vars_agrees_with_resolve_$v" "$bad"
	fi
done

err=$("$BPFPROBE" vars "$T/args-gcc-O2" no_such_function 2>&1)
[ $? -eq 1 ] && grep -qF "'no_such_function' not found" <<<"$err" &&
	pass vars_unknown_function || fail vars_unknown_function "$err"
err=$("$BPFPROBE" vars "$T/args-gcc-O2" "neg_args a" 2>&1)
[ $? -eq 1 ] && grep -qF "arguments given" <<<"$err" &&
	pass vars_arguments_refused || fail vars_arguments_refused "$err"

# --- funcs -------------------------------------------------------------------

# addr_of BIN SYM: the symbol's address per nm, as a decimal number
addr_of() {
	printf '%d' "0x$(nm "$1" | awk -v s="$2" '$3 == s && $2 ~ /^[tT]$/ { print $1; exit }')"
}

for v in $VARIANTS; do
	out=$("$BPFPROBE" funcs "$T/args-$v" 'neg*' 2>&1)
	if [ "$(wc -l <<<"$out")" -eq 1 ] &&
	   [[ "$out" =~ ^neg_args\ +0x0*([0-9a-f]+)\ +out-of-line\ +tests/targets/args/main.c$ ]] &&
	   [ "$((16#${BASH_REMATCH[1]}))" -eq "$(addr_of "$T/args-$v" neg_args)" ]; then
		pass "funcs_glob_$v"
	else
		fail "funcs_glob_$v" "$out"
	fi
	"$BPFPROBE" funcs --json "$T/types-$v" >"$tmp/funcs.json"
	jqcheck "funcs_json_$v" "$tmp/funcs.json" "
		.debuginfo and (.functions | map(select(.name == \"tiny\"))
			| length == 1 and .[0].inline and .[0].caller == \"locals\"
			  and .[0].kind == \"inline\")
		and (.functions[] | select(.name == \"locals\")
		     | .addr == $(addr_of "$T/types-$v" locals) and .kind == \"out-of-line\"
		       and .offset == .addr and .decl_line > 0)
		and (.functions | map(.name) | . == sort)"
done

# a binary without DWARF: the symbol table; an alias DWARF knows by another name
printf 'int f(int a) { return a + 1; }\nint main(void) { return f(1); }\n' >"$tmp/nodbg.c"
gcc -O0 -o "$tmp/nodbg" "$tmp/nodbg.c"
"$BPFPROBE" funcs --json "$tmp/nodbg" f >"$tmp/f.json"
jqcheck funcs_symtab "$tmp/f.json" "
	(.debuginfo | not) and (.functions | length) == 1
	and .functions[0].kind == \"symbol\" and .functions[0].cu == null
	and .functions[0].addr == $(addr_of "$tmp/nodbg" f)"
printf 'int real(int x) { return x * 2; }\nint other(int) __attribute__((alias("real")));\nint main(void) { return other(1); }\n' >"$tmp/alias.c"
gcc -g -O2 -o "$tmp/alias" "$tmp/alias.c"
out=$("$BPFPROBE" funcs "$tmp/alias" 'other' 2>&1)
if [[ "$out" =~ ^other\ +0x[0-9a-f]+\ +alias\ +.*alias.c\ \(alias\ of\ real\)$ ]]; then
	pass funcs_alias
else
	fail funcs_alias "$out"
fi

err=$("$BPFPROBE" funcs "$T/args-gcc-O2" 'zz_none*' 2>&1)
[ $? -eq 1 ] && grep -qF "no function matches 'zz_none*'" <<<"$err" &&
	pass funcs_no_match || fail funcs_no_match "$err"
err=$("$BPFPROBE" funcs /nonexistent/app 2>&1)
[ $? -eq 1 ] && grep -qF "/nonexistent/app" <<<"$err" &&
	pass funcs_missing_binary || fail funcs_missing_binary "$err"
