# Helpers of the fault tests (tests/e2e/fault_*.sh source this file; run on
# its own it does nothing). Each fault script probes its own copy of the
# args target (its own inode: no other test's probe can fire there) through
# programs whose names start with a per-run prefix, so programs and links of
# tests running at the same time are never mistaken for leftovers.
[ "${BASH_SOURCE[0]}" = "$0" ] && exit 0

fault_setup() {
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	V=$tmp/victim
	cp build/targets/args-gcc-O2 "$V"
	P=$(printf 'f%04x' $((RANDOM ^ $$ & 0xffff)))
}

# fault_obj OUT.o: programs ${P}_req (3 args, pointer chains) and ${P}_neg
# on the victim; they print GOT lines in the target's TRUTH format
fault_obj() {
	mkobj "$1" <<EOC
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("exec=$V;p=handle_req req->hdr->len conn->fd req->inner.y")
int ${P}_req(void *ctx, int err, long len, long fd, long y)
{
	if (err)
		bpf_printk("ERR handle_req err=%d", err);
	else
		bpf_printk("GOT handle_req len=%ld fd=%ld y=%ld", len, fd, y);
	return 0;
}
SEC("exec=$V;p=neg_args a b c")
int ${P}_neg(void *ctx, int err, long a, long b, long c)
{
	if (err)
		bpf_printk("ERR neg_args err=%d", err);
	else
		bpf_printk("GOT neg_args a=%ld b=%ld c=%ld", a, b, c);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOC
}

# Ids of the loaded programs whose names start with $P.
fault_progs() {
	bpftool prog show 2>/dev/null |
		awk -v p="$P" '$3 == "name" && index($4, p) == 1 { sub(":", "", $1); print $1 }'
}

# Ids of the links that hold any of the program ids given.
fault_links() {
	local ids=" $* "
	bpftool link show 2>/dev/null |
		awk -v ids="$ids" '{ for (i = 1; i < NF; i++) if ($i == "prog" && index(ids, " " $(i + 1) " ")) { sub(":", "", $1); print $1 } }'
}

# Waits (10 s at most) until nothing of ours is loaded or linked;
# prints what is left otherwise. $@: program ids seen before.
fault_gone() {
	local left
	for _ in $(seq 100); do
		left="$(fault_progs | tr '\n' ' ')$(fault_links "$@" | sed 's/^/link /' | tr '\n' ' ')"
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	echo "still loaded: programs/links $left"
	return 1
}

# bpfprobe's tracefs instances now, one name a line.
instances_now() {
	ls /sys/kernel/tracing/instances 2>/dev/null | grep '^bpfprobe\.'
}

# The instances not in $1 (an earlier instances_now) of a bpfprobe whose
# pid is $2 or a little more (started through timeout: its child) that no
# live bpfprobe holds (each holds an flock on its own): what that run left.
instances_left() {
	local i pid
	# bpfprobe.PID.RANDOM: an older bpfprobe's bpfprobe.PID is not ours
	for i in $(instances_now | grep -vxF -e "${1:-no instance}" | grep '^bpfprobe\.[0-9]*\.'); do
		pid=${i#bpfprobe.}
		pid=${pid%%.*}
		[ "$pid" -ge "$2" ] 2>/dev/null && [ "$pid" -le $(($2 + 10)) ] || continue
		flock -n "/sys/kernel/tracing/instances/$i" true 2>/dev/null && echo "$i"
	done
}

# Waits (10 s at most) until process $1 is stopped (SIGSTOP) or gone.
wait_stopped() {
	local st
	for _ in $(seq 200); do
		st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
		[ "$st" = T ] && return 0
		sleep 0.05
	done
	return 1
}

# True once process $1 no longer runs (gone or a zombie), within 5 s.
wait_gone() {
	local st
	for _ in $(seq 100); do
		st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 0
		[ "$st" = Z ] && return 0
		sleep 0.05
	done
	return 1
}

# The count of lines matching $2 in file $1 once it has not changed for
# half a second (output still in flight has arrived; 10 s at most).
settled_count() {
	local n m
	n=$(grep -c -- "$2" "$1")
	for _ in $(seq 20); do
		sleep 0.5
		m=$(grep -c -- "$2" "$1")
		[ "$m" = "$n" ] && break
		n=$m
	done
	echo "$n"
}

# The first byte of function $2 in the file $3 (default $V), in hex.
file_byte() {
	local bin=${3:-$V} vaddr off
	vaddr=$((16#$(nm "$bin" | awk -v f="$1" '$3 == f { print $1; exit }')))
	# file offset of vaddr through the PT_LOAD that maps it
	off=$(readelf -lW "$bin" | awk '$1 == "LOAD" { print $2, $3 }' |
		while read -r o v; do
			if [ $((vaddr)) -ge $((v)) ]; then echo $((vaddr - v + o)); fi
		done | tail -1)
	dd if="$bin" bs=1 count=1 skip="$off" iflag=skip_bytes 2>/dev/null | od -An -tx1 | tr -d ' \n'
}

# The first byte of function $2 as process $1 sees it now (0xcc: a uprobe
# breakpoint is in place). The victim is a PIE mapped from file offset 0.
mem_byte() {
	local pid=$1 func=$2 bin=${3:-$V} base vaddr
	base=$(awk -v b="$bin" '$6 == b && $3 == "00000000" { split($1, r, "-"); print r[1]; exit }' \
		"/proc/$pid/maps")
	vaddr=$(nm "$bin" | awk -v f="$func" '$3 == f { print $1; exit }')
	[ -n "$base" ] && [ -n "$vaddr" ] || return 1
	dd if="/proc/$pid/mem" bs=1 count=1 skip=$((16#$base + 16#$vaddr)) iflag=skip_bytes \
		2>/dev/null | od -An -tx1 | tr -d ' \n'
}
