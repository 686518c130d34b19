# Every bad input of issue 2, and failures injected half-way through load
# and attach, checked for all three promises at once: the message names the
# culprit, the exit status is 1 (an error, not a crash or a timeout), and
# nothing is left: no program or link of ours, no tracefs instance of the
# failed run, and the workload never ran (bad_input.sh checks the messages
# in more detail; this checks the cleanup).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fault_helpers.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip fault_bad_input "$why"
	exit 0
fi
fault_setup
trap 'rm -rf "$tmp"' EXIT
mkdir -m 777 "$tmp/mark"
gcc -O2 -shared -fPIC -o "$tmp/stop.so" tests/e2e/fault_stop.c -ldl ||
	fail fault_bad_build_stopper "gcc failed"

# bad NAME OBJ [ENV...] -- PATTERN...: `load OBJ -- CMD` must fail cleanly
bad() {
	local name=fault_bad_$1 obj=$2 envs=() err rc p bp left
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	rm -f "$tmp/mark/ran"
	insts=$(instances_now)
	# a preload reaches only the build whose glibc is shared
	local cmd=$BPFPROBE
	[[ " ${envs[*]}" == *" LD_PRELOAD="* ]] && cmd=$BPFPROBE_PRELOADABLE
	env "${envs[@]}" timeout 60 "$cmd" load "$obj" -- sh -c "touch $tmp/mark/ran" \
		>/dev/null 2>"$tmp/err" &
	bp=$!
	wait $bp
	rc=$?
	err=$(cat "$tmp/err")
	check_failed "$name" "$rc" "$err" "$bp" "$@"
}

# check_failed NAME RC STDERR PID PATTERN...
check_failed() {
	local name=$1 rc=$2 err=$3 bp=$4 p left
	# insts: instances_now before the run
	shift 4
	if [ "$rc" -ne 1 ]; then
		fail "$name" "exit status $rc, want 1; stderr: $err"
		return
	fi
	for p in "$@"; do
		if ! grep -qF -- "$p" <<<"$err"; then
			fail "$name" "stderr lacks '$p': $err"
			return
		fi
	done
	if [ -e "$tmp/mark/ran" ]; then
		fail "$name" "the workload ran although loading failed"
	elif ! left=$(fault_gone); then
		fail "$name" "$left"
	elif left=$(instances_left "$insts" "$bp") && [ -n "$left" ]; then
		fail "$name" "its tracefs instance stayed: $left"
	else
		pass "$name"
	fi
}

# obj NAME SEC [PARAMS]: a one-program object; the program is ${P}_NAME
obj() {
	local params=${3:-"void *ctx, int err, long a"}
	printf '#include <linux/bpf.h>\n#include <bpf/bpf_helpers.h>\n
SEC("%s")\nint %s(%s) { return 0; }\nchar LICENSE[] SEC("license") = "GPL";\n' \
		"$2" "${P}_$1" "$params" | mkobj "$tmp/$1.o"
	echo "$tmp/$1.o"
}

bad unknown_function "$(obj fn "exec=$V;p=no_such_function a")" -- no_such_function
bad unknown_member "$(obj mem "exec=$V;p=handle_req req->lenn")" -- lenn "struct req" hdr
bad arrow_on_non_pointer "$(obj arrow "exec=$V;p=neg_args a->x")" -- "->" "'a'"
bad more_than_3_args "$(obj four "exec=$V;p=neg_args a b c a")" -- "at most 3"
bad missing_binary "$(obj nobin "exec=$tmp/nonexistent;p=main argc")" -- "$tmp/nonexistent"
gcc -O2 -o "$tmp/nodebug" tests/targets/args/*.c
bad no_debug_info "$(obj nodbg "exec=$tmp/nodebug;p=neg_args a")" -- "$tmp/nodebug" "debug info"
bad optimized_out "$(obj optout "exec=$PWD/build/targets/args-clang-O2;p=opt_out unused")" -- \
	"'unused'" "optimized out"
bad malformed_sec "$(obj malformed "exec=$V;p=neg_args a->")" -- "a->"
bad unknown_key "$(obj key "exec=$V;colour=red;p=neg_args a")" -- colour
bad not_bpf_elf /bin/true -- /bin/true "not a BPF ELF"
# a broken object says what is broken, not libbpf's "Unknown error 4001"
o=$(obj whole "exec=$V;p=neg_args a")
head -c 3000 "$o" >"$tmp/truncated.o"
bad truncated_object "$tmp/truncated.o" -- "$tmp/truncated.o" "truncated or corrupt"
# the section name string table's last byte (its final NUL) made an 'x'
cp "$o" "$tmp/nonul.o"
shstr=$(readelf -hW "$o" | sed -n 's/.*[Ss]ection header string table index: *//p')
end=$(readelf -SW "$o" | sed 's/^ *\[ *\([0-9]*\)\]/\1/' |
	awk -v n="$shstr" '$1 == n { print "16#" $5 " + 16#" $6 }')
printf x | dd of="$tmp/nonul.o" bs=1 seek=$((end - 1)) conv=notrunc status=none
bad strtab_without_nul "$tmp/nonul.o" -- "$tmp/nonul.o" "does not end with a NUL byte"
# a struct member's type id past the last BTF type: libbpf 1.1 crashed on
# it (found by fuzz/fuzz_object.c; kept as one of its seeds)
bad damaged_btf fuzz/corpus/object/crash-btf-member-past-last-type.o -- \
	"its .BTF section is damaged" "refers to type 133, past the last type"
# a license section without bytes (SHT_NOBITS): bpfprobe read a NULL buffer
bad license_nobits fuzz/corpus/object/crash-license-nobits.o -- \
	"its license section holds no bytes"
mkfifo "$tmp/fifo.o"
bad fifo_object "$tmp/fifo.o" -- "$tmp/fifo.o" "not a regular file"
bad signature_mismatch "$(obj sig "exec=$V;p=neg_args a" "void *ctx, int err, long a, long b")" -- \
	"${P}_sig" "4 parameters"

# a good program beside a bad one: the good one must not stay loaded
cat <<EOC | mkobj "$tmp/two.o"
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$V;p=neg_args a") int ${P}_good(void *ctx, int err, long a) { return 0; }
SEC("exec=$V;p=no_such_function a") int ${P}_bad(void *ctx, int err, long a) { return 0; }
char LICENSE[] SEC("license") = "GPL";
EOC
bad second_program_unknown_function "$tmp/two.o" -- no_such_function "${P}_bad"

# the verifier rejects the second instance after the first one loaded
cat <<EOC | mkobj "$tmp/verif.o"
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$V;p=neg_args a") int ${P}_good(void *ctx, int err, long a) { return 0; }
SEC("exec=$V;p=neg_args a")
int ${P}_unsafe(void *ctx, int err, long a)
{
	volatile char buf[8] = {};
	return buf[a];
}
char LICENSE[] SEC("license") = "GPL";
EOC
bad verifier_rejects_second_instance "$tmp/verif.o" -- "${P}_unsafe" "the kernel's verifier refused it: "

# injected: the second program's instance cannot be loaded, the second
# uprobe cannot be created (after the first one was attached)
fault_obj "$tmp/obj.o"
bad instance_load_fails_midway "$tmp/obj.o" FAULT_FAIL_AT="load:${P}_neg:2" \
	LD_PRELOAD="$tmp/stop.so" -- "${P}_neg" "Too many open files"
# one perf event per point (kernels before 6.6), the second one failing
bad attach_fails_midway "$tmp/obj.o" BPFPROBE_UPROBE_MULTI=0 FAULT_FAIL_AT=perf-uprobe:2 \
	LD_PRELOAD="$tmp/stop.so" -- "cannot attach" "${P}_neg" "Too many open files"
# the uprobe_multi link failing, where the kernel has them (the first
# such link create is bpfprobe's probe of the kernel for them)
if [ "$(uname -r | cut -d. -f1)" -gt 6 ] || { [ "$(uname -r | cut -d. -f1)" -eq 6 ] && [ "$(uname -r | cut -d. -f2)" -ge 6 ]; }; then
	bad attach_multi_link_fails "$tmp/obj.o" FAULT_FAIL_AT=uprobe-multi:2 LD_PRELOAD="$tmp/stop.so" -- \
		"cannot attach" "uprobe_multi link" "Too many open files"
fi

# -p of a process that does not exist
insts=$(instances_now)
timeout 60 "$BPFPROBE" load -p 999999 "$tmp/obj.o" >/dev/null 2>"$tmp/err" &
bp=$!
wait $bp
check_failed fault_bad_missing_pid $? "$(cat "$tmp/err")" $bp "process 999999: no such process"

# without privileges: the message names the capability
o=$(obj perm "exec=$V;p=neg_args a")
chmod 644 "$o"
if command -v setpriv >/dev/null; then
	insts=$(instances_now)
	as_nobody "$(nobody_copy "$tmp")" load "$o" -- sh -c "touch $tmp/mark/ran" >/dev/null 2>"$tmp/err" &
	bp=$!
	wait $bp
	check_failed fault_bad_no_permission $? "$(cat "$tmp/err")" $bp CAP_BPF
else
	skip fault_bad_no_permission "setpriv (util-linux) is not installed"
fi
