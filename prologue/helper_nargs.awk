# Writes a C table of each BPF helper's argument count, indexed by helper
# id, from libbpf's bpf_helper_defs.h (prologue/prologue.mk runs it), whose
# declarations read
#   static long (*bpf_map_update_elem)(void *map, const void *key, ...) = (void *) 2;
# Named parameters count, "(void)" is none. A variadic helper
# (bpf_trace_printk) takes all five: the verifier checks only its typed
# arguments (fmt and size), but the helper reads the others at run time,
# and clang passes a variadic argument that already sits in its register
# (a program's parameter, say) without writing it.
function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

/^static .*= \(void \*\) [0-9]+;$/ {
	id = $0
	sub(/.*= \(void \*\) /, "", id)
	sub(/;$/, "", id)
	id += 0
	rest = $0
	# "(*NAME)(PARAMS) = (void *) ID;" after the return type
	if (!sub(/^[^(]*\(\*/, "", rest)) {
		bad = bad "\n  " $0
		next
	}
	name = rest
	sub(/\).*/, "", name)
	if (!sub(/^[a-z_0-9]+\)\(/, "", rest) || !sub(/\) = \(void \*\) [0-9]+;$/, "", rest)) {
		bad = bad "\n  " $0
		next
	}
	rest = trim(rest)
	n = 0
	if (rest != "void" && rest != "") {
		n = split(rest, part, ",")
		if (trim(part[n]) == "...")
			n = 5
	}
	if (id in nargs) {
		bad = bad "\n  " $0 " (id " id " twice)"
		next
	}
	nargs[id] = n
	names[id] = name
	if (id > max)
		max = id
	count++
}

END {
	if (bad != "" || !count) {
		printf "%s: cannot read helper declarations%s\n", FILENAME,
		       bad != "" ? ":" bad : " (none found)" > "/dev/stderr"
		exit 1
	}
	printf "/* Generated from %s by prologue/helper_nargs.awk: do not edit. */\n", FILENAME
	printf "#ifndef BPFPROBE_HELPER_NARGS_H\n#define BPFPROBE_HELPER_NARGS_H\n\n"
	printf "/* The arguments each helper reads, by id; -1: unknown id. */\n"
	printf "static const signed char bp_helper_nargs[%d] = {\n", max + 1
	for (id = 0; id <= max; id++) {
		if (id in nargs)
			printf "\t%d,\t/* %d %s */\n", nargs[id], id, names[id]
		else
			printf "\t-1,\t/* %d */\n", id
	}
	printf "};\n\n#endif /* BPFPROBE_HELPER_NARGS_H */\n"
}
