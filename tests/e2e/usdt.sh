# SDT markers (probes/usdt/): the sdt target's markers of every operand
# form, a marker of two sites and semaphores, in every build variant, then
# Debian's python3.11 and libstdc++, each value against what the program
# prints itself; the markers command; and what is refused.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip usdt_e2e "$why"
	exit 0
fi

tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'kill $target 2>/dev/null; rm -rf "$tmp"' EXIT

# a trace line (JSON) as the target's TRUTH line says it
FORMS='"forms a1=\(.a1) a2=\(.a2) a3=\(.a3) a4=\(.a4) a5=\(.a5) a6=\(.a6) a7=\(.a7) a8=\(.a8) a9=\(.a9) a10=\(.a10) a11=\(.a11)"'
AUTO='"auto a=\(.a) b=\(.b) c=\(.c) d=\(.d) e=\(.e) s=\(.s)"'

for v in $VARIANTS; do
	T=build/targets/sdt-$v
	out=$(timeout 60 "$BPFPROBE" trace --json \
		"exec=$T;%sdt:forms a1=arg1 a2=arg2 a3=arg3 a4=arg4 a5=arg5 a6=arg6 a7=arg7 a8=arg8 a9=arg9 a10=arg10 a11=arg11" \
		"exec=$T;%sdt:auto a=arg1 b=arg2 c=arg3 d=arg4 e=arg5 s=arg6:string" \
		"exec=$T;%sdt:sites arg1" "exec=$T;%sdt:sem arg1" -- "$T" 2>"$tmp/err")
	rc=$?
	got=$(jq -r 'select(.point == "sdt:forms") | .args | '"$FORMS" <<<"$out"
	      jq -r 'select(.point == "sdt:auto") | .args | '"$AUTO" <<<"$out"
	      jq -r 'select(.point | startswith("sdt:sites")) | .args.arg1' <<<"$out" | sort -n |
		sed '1s/^/sites first=/; 2s/^/sites second=/'
	      jq -r 'select(.point == "sdt:sem") | "sem v=\(.args.arg1)"' <<<"$out")
	truth=$(sed -n 's/^TRUTH //p' "$tmp/err" | grep -v '^sem enabled')
	if [ $rc -ne 0 ]; then
		fail "usdt_target_$v" "exit $rc: $(tail -3 "$tmp/err")"
	elif [ "$(sort <<<"$got")" != "$(sort <<<"$truth")" ]; then
		fail "usdt_target_$v" "fetched values differ (< truth, > fetched): $(diff <(sort <<<"$truth") <(sort <<<"$got") | tr '\n' ' ')"
	elif ! grep -q '^TRUTH sem enabled=1' "$tmp/err"; then
		fail "usdt_target_$v" "the semaphore of sdt:sem was not raised"
	else
		pass "usdt_target_$v"
	fi
done

# the register ABI: a C program on a marker's two sites
mkobj "$tmp/reg.o" <<EOF
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$PWD/build/targets/sdt-clang-O2;%sdt:sites arg1 arg1:u8")
int sites(void *ctx, int err, long v, long low)
{
	bpf_printk("GOT v=%ld low=%ld err=%d", v, low, err);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOF
out=$(timeout 60 "$BPFPROBE" load --quiet-meta "$tmp/reg.o" -- build/targets/sdt-clang-O2 2>&1)
got=$(grep -o 'GOT v=.*' <<<"$out" | sort | tr '\n' ' ')
if [ "$got" = "GOT v=21 low=21 err=0 GOT v=63 low=63 err=0 " ]; then
	pass usdt_register_abi
else
	fail usdt_register_abi "got '$got': $(tail -3 <<<"$out")"
fi

# no tracer: the semaphores stay down and the guarded markers are silent
if build/targets/sdt-gcc-O2 | grep -q '^TRUTH sem enabled=0'; then
	pass usdt_semaphore_down_untraced
else
	fail usdt_semaphore_down_untraced "enabled without a tracer"
fi

# a process running now: its semaphore is raised when the probe attaches
build/targets/sdt-gcc-O2 -w 20 >"$tmp/pid.out" &
target=$!
sleep 0.3
timeout 60 "$BPFPROBE" trace -p $target 'exec=build/targets/sdt-gcc-O2;%sdt:sem arg1' \
	>"$tmp/pid.trace" 2>"$tmp/pid.err" &
tracer=$!
wait $target 2>/dev/null
# -p traces until Ctrl-C: the target has done its part
wait_grep 'sdt:sem arg1=' "$tmp/pid.trace"
kill -INT $tracer 2>/dev/null
wait $tracer
rc=$?
out=$(cat "$tmp/pid.trace")
if [ $rc -eq 0 ] && grep -q '^TRUTH sem enabled=1' "$tmp/pid.out" && grep -q 'sdt:sem arg1=77$' <<<"$out"; then
	pass usdt_semaphore_running_process
else
	fail usdt_semaphore_running_process "exit $rc: $(cat "$tmp/pid.out" | head -3) / $out / $(tail -2 "$tmp/pid.err")"
fi

# the markers command
out=$("$BPFPROBE" markers build/targets/sdt-gcc-O2 'sdt:s*' 2>&1)
if grep -q '^sdt:sites  2 sites, semaphore 0x' <<<"$out" && grep -q '^sdt:sem  1 site, semaphore' <<<"$out" &&
   [ "$(grep -c '^  0x' <<<"$out")" -eq 3 ] && grep -qF -- '-8@%r' <<<"$out"; then
	pass usdt_markers_list
else
	fail usdt_markers_list "$out"
fi
n=$("$BPFPROBE" markers --json build/targets/sdt-gcc-O2 | jq '[.markers[].sites[]] | length')
if [ "$n" = "$(readelf -n build/targets/sdt-gcc-O2 | grep -c 'Provider: sdt')" ]; then
	pass usdt_markers_json
else
	fail usdt_markers_json "$n sites in JSON"
fi

# prelink moved the binary after its notes were written: the notes'
# addresses (marker, base, semaphore) are 0x1000 lower than where it has
# them now, and .stapsdt.base's address says by how much
python3 tests/e2e/sdt_prelinked.py build/targets/sdt-gcc-O2 "$tmp/sdt-prelinked" 0x1000 &&
	chmod 755 "$tmp/sdt-prelinked"
want=$("$BPFPROBE" markers --json build/targets/sdt-gcc-O2 | jq -c '.markers[] | [.name, .semaphore, [.sites[].addr]]')
got=$("$BPFPROBE" markers --json "$tmp/sdt-prelinked" | jq -c '.markers[] | [.name, .semaphore, [.sites[].addr]]')
out=$(timeout 60 "$BPFPROBE" trace "exec=$tmp/sdt-prelinked;%sdt:sites arg1" \
	"exec=$tmp/sdt-prelinked;%sdt:sem arg1" -- "$tmp/sdt-prelinked" 2>&1)
if [ -n "$want" ] && [ "$got" = "$want" ] && grep -q '^TRUTH sem enabled=1' <<<"$out" &&
   [ "$(grep -o 'sdt:s[a-z]*[@x0-9a-f]* arg1=[0-9]*' <<<"$out" | sed 's/@0x[0-9a-f]*//' | sort | tr '\n' ' ')" = "sdt:sem arg1=77 sdt:sites arg1=21 sdt:sites arg1=63 " ]; then
	pass usdt_prelinked_notes
else
	fail usdt_prelinked_notes "markers: $want / $got; trace: $(tail -5 <<<"$out")"
fi

# python3.11: function__entry fires on the tracing path (a profile
# function set), with the semaphore raised
cat >"$tmp/app.py" <<'EOF'
import sys

def greet(name):
    return "hello " + name

def add(a, b):
    return a + b

sys.setprofile(lambda *a: None)
for f in (greet, add):
    c = f.__code__
    print("TRUTH %s %s %d" % (c.co_filename, c.co_name, c.co_firstlineno), file=sys.stderr)
greet("x")
add(1, 2)
sys.setprofile(None)
EOF
out=$(timeout 60 "$BPFPROBE" trace --json \
	'exec=/usr/bin/python3.11;%python:function__entry file=arg1:string func=arg2:string line=arg3' \
	-- /usr/bin/python3.11 "$tmp/app.py" 2>"$tmp/py.err")
rc=$?
got=$(jq -r '.args | "\(.file) \(.func) \(.line)"' <<<"$out" | grep -E ' (greet|add) ' | sort -u)
truth=$(sed -n 's/^TRUTH //p' "$tmp/py.err" | sort -u)
if [ $rc -eq 0 ] && [ -n "$truth" ] && [ "$got" = "$truth" ]; then
	pass usdt_python_function_entry
else
	fail usdt_python_function_entry "exit $rc, got '$got', truth '$truth': $(tail -2 "$tmp/py.err")"
fi

# libstdc++: throw's second argument is the thrown type's type_info,
# whose name (mangled) is 8 bytes into it
cat >"$tmp/throw.cc" <<'EOF'
#include <cstdio>
#include <stdexcept>
#include <typeinfo>
int main()
{
	try { throw std::runtime_error("x"); } catch (std::exception &e) {
		std::fprintf(stderr, "TRUTH %s\n", typeid(e).name());
	}
	try { throw 42; } catch (int &) {
		std::fprintf(stderr, "TRUTH %s\n", typeid(int).name());
	}
	return 0;
}
EOF
if g++ -O2 -o "$tmp/throw" "$tmp/throw.cc"; then
	out=$(timeout 60 "$BPFPROBE" trace --json \
		'exec=libstdc++.so.6;%libstdcxx:throw type=+8(arg2):string' -- "$tmp/throw" 2>"$tmp/cc.err")
	rc=$?
	got=$(jq -r '.args.type' <<<"$out")
	truth=$(sed -n 's/^TRUTH //p' "$tmp/cc.err")
	if [ $rc -eq 0 ] && [ -n "$truth" ] && [ "$got" = "$truth" ]; then
		pass usdt_libstdcxx_throw
	else
		fail usdt_libstdcxx_throw "exit $rc, got '$got', truth '$truth': $(tail -2 "$tmp/cc.err")"
	fi
else
	fail usdt_libstdcxx_throw "g++ failed"
fi

# bad input: each refused naming the culprit, nothing loaded
bad() {
	local name=$1 spec=$2 err rc w
	shift 2
	err=$(timeout 60 "$BPFPROBE" trace "$spec" -- /bin/true 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 0 ] || [ $rc -ge 124 ]; then
		fail "usdt_bad_$name" "exit $rc: $err"
		return
	fi
	for w in "$@"; do
		grep -qF -- "$w" <<<"$err" || { fail "usdt_bad_$name" "lacks '$w': $err"; return; }
	done
	pass "usdt_bad_$name"
}
T=$PWD/build/targets/sdt-gcc-O2
bad no_marker "exec=$T;%sdt:nosuch arg1" "no marker sdt:nosuch in $T (its markers: sdt:auto, sdt:forms, sdt:vector, sdt:sites, sdt:sem)"
bad no_notes "exec=/bin/true;%sdt:x arg1" "has no SDT markers (no .note.stapsdt notes)"
bad vector "exec=$T;%sdt:vector arg1" "sdt:vector at 0x" "operand 1 of sdt:vector '8@%xmm0' is a floating-point or vector register"
bad no_such_arg "exec=$T;%sdt:sem arg2" "sdt:sem has 1 argument (-8@\$77): there is no arg2"
bad dollar_arg "exec=$T;%sdt:sem \$arg1" "a marker's arguments are arg1, arg2, ..."
bad member "exec=$T;%sdt:sem arg1->x" "'arg1' in argument 'arg1->x' has no type, so no member"
bad no_exec "%sdt:sem arg1" "marker '%sdt:sem' needs exec=BIN"
exit 0
