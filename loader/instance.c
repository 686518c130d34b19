// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Program instances: one per distinct fetch plan of a program. Each is the
 * prototype's final (relocated) instructions with the preamble replaced by
 * the plan's prologue, loaded with the prototype's BTF and func/line info
 * shifted by the prologue's extra length.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "loader/attach_probe.h"
#include "loader/cpu_v4.h"
#include "loader/entry_values.h"
#include "loader/metadata.h"
#include "loader/object.h"
#include "loader/verifier_log.h"
#include "probes/maps.h"
#include "prologue/guard.h"
#include "prologue/liveness.h"
#include "prologue/prologue.h"
#include "util/log.h"

#define LOG_BUF_SIZE (16u << 20)
#define LOG_TAIL_LINES 40

/* An fentry program is loaded for its one function. */
static __u32 fentry_btf_id(const struct bp_point *pt)
{
	return pt->map.on && pt->map.fentry ? pt->map.btf_id : 0;
}

static int find_or_add_instance(struct bpfprobe_object *obj, struct bp_program *p,
				const struct bp_point *pt, uint8_t unread)
{
	const struct bp_plan *plan = &pt->plan;
	struct bp_instance *n;
	int count = 0;

	for (int i = 0; i < obj->ninsts; i++) {
		if (obj->insts[i].owner != p)
			continue;
		if (obj->insts[i].unread == unread && bp_plan__equal(&obj->insts[i].plan, plan) &&
		    obj->insts[i].attach_btf_id == fentry_btf_id(pt))
			return i;
		count++;
	}
	n = realloc(obj->insts, (obj->ninsts + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	obj->insts = n;
	n = &obj->insts[obj->ninsts];
	memset(n, 0, sizeof(*n));
	n->owner = p;
	n->plan = *plan;
	n->unread = unread;
	n->fd = -1;
	/* a program's map-tracing points share one guard per form */
	bp_map_point__guards(pt, &n->guards);
	n->attach_btf_id = fentry_btf_id(pt);
	for (int k = 0; k < plan->nargs; k++)
		bp_fetch__format(&plan->args[k], n->plan_text[k], sizeof(n->plan_text[k]));
	/* Instances of one program are told apart by a suffix: prog, prog_1, ... */
	if (count)
		snprintf(n->name, sizeof(n->name), "%.*s_%d", 10, p->name, count % 10000);
	else
		snprintf(n->name, sizeof(n->name), "%s", p->name);
	return obj->ninsts++;
}

/*
 * The registers of r1..r5 p's prologues need not set: those its prototype
 * does not declare, and those its body (without the preamble) writes
 * before any read.
 */
static uint8_t unread_regs(const struct bp_program *p, const struct bpf_insn *body,
			   size_t cnt)
{
	uint8_t unread = p->proto_unread;

	if (body)
		unread |= BP_UNREAD_ALL & ~bp_liveness__entry(body, cnt);
	return unread;
}

/* Groups every probe point by plan; fills obj->aps with the instance each uses. */
int bp_instances__build(struct bpfprobe_object *obj)
{
	int total = 0;

	for (int i = 0; i < obj->nprogs; i++)
		total += obj->progs[i].npoints;
	obj->aps = calloc(total ? total : 1, sizeof(*obj->aps));
	if (!obj->aps)
		return -ENOMEM;
	for (int i = 0; i < obj->nprogs; i++) {
		struct bp_program *p = &obj->progs[i];

		for (int j = 0; j < p->npoints; j++) {
			struct bp_attach_point *ap = &obj->aps[obj->naps++];
			int idx;

			/* what the prototype says; the body's liveness is
			 * added by bp_instances__set_body() */
			p->unread = p->proto_unread;
			idx = find_or_add_instance(obj, p, &p->points[j], p->unread);

			if (idx < 0)
				return idx;
			ap->owner = p;
			ap->point = &p->points[j];
			ap->instance = idx;
			ap->perf_fd = -1;
			ap->link_fd = -1;
			ap->multi_of = -1;
		}
	}
	return 0;
}

/*
 * At the prototype load: body is the program's final instructions, as the
 * instances will run them after their prologues. All plans of a program
 * change alike, so the grouping into instances stays what it was.
 */
void bp_instances__set_body(struct bpfprobe_object *obj, struct bp_program *p,
			    const struct bpf_insn *body, size_t cnt)
{
	uint8_t unread = unread_regs(p, body, cnt);
	char list[32] = "";
	size_t n = 0;

	for (int r = 1; r <= 5; r++)
		if (!(unread & (1u << r)))
			n += snprintf(list + n, sizeof(list) - n, " r%d", r);
	bp_debug("program '%s': its prologues set only what it reads of r1..r5:%s\n",
		 p->name, n ? list : " none");
	p->unread = unread;
	for (int i = 0; i < obj->ninsts; i++)
		if (obj->insts[i].owner == p)
			obj->insts[i].unread = unread;
}

/* The reason first, the log's end at the info level (bpfprobe -v). */
static void report_failure(const struct bp_instance *inst, int err, const char *log)
{
	char reason[512], errbuf[128];
	const char *start = log ? log + strlen(log) : NULL;
	int lines = 0;

	if (log && bp_verifier_log__reason(log, reason, sizeof(reason))) {
		bp_err("program '%s': loading instance '%s' failed: the kernel's verifier refused it: %s\n",
		       inst->owner->name, inst->name, reason);
		bp_err("  (bpfprobe -v shows the verifier's log)\n");
	} else {
		libbpf_strerror(err, errbuf, sizeof(errbuf));
		bp_err("program '%s': loading instance '%s' failed: %s\n", inst->owner->name,
		       inst->name, errbuf);
	}
	if (!log || !*log)
		return;
	while (start > log && lines <= LOG_TAIL_LINES)
		if (*--start == '\n')
			lines++;
	if (start != log)
		start++;
	bp_info("verifier log for '%s' (last lines):\n%s%s", inst->name, start,
		*start && start[strlen(start) - 1] != '\n' ? "\n" : "");
}

static void print_insns(const struct bp_instance *inst, const struct bpf_insn *insns, int cnt)
{
	char line[128];

	/* the guard (follow.h) first, then the prologue, each from 0 */
	for (int i = 0; i < cnt; i++) {
		int at = i < inst->guard_len ? i : i - inst->guard_len;

		if (i == 0 && inst->guard_len)
			bp_info("instance '%s' guard (%d insns):\n", inst->name, inst->guard_len);
		if (i == inst->guard_len)
			bp_info("instance '%s' prologue (%d insns):\n", inst->name,
				inst->prologue_len);
		bp_insn__format(&insns[i], i + 1 < cnt ? &insns[i + 1] : NULL, line, sizeof(line));
		bp_info("  %3d: %s\n", at, line);
	}
	if (cnt == inst->guard_len)
		bp_info("instance '%s' prologue (0 insns):\n", inst->name);
}

static int load_with(struct bpfprobe_object *obj, struct bp_instance *inst,
		     const struct bpf_insn *insns, size_t cnt, char *log, size_t log_size)
{
	const struct bp_load_info *li = &inst->owner->info;
	void *func_info, *line_info;
	int fd, err;

	err = bp_load_info__shifted(li, inst->guard_len + inst->prologue_len -
				    inst->owner->preamble_len,
				    &func_info, &line_info);
	if (err)
		return err;
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		.expected_attach_type = li->expected_attach_type,
		.prog_flags = li->prog_flags,
		.kern_version = li->kern_version,
		.prog_btf_fd = li->prog_btf_fd,
		.func_info = func_info,
		.func_info_cnt = li->func_info_cnt,
		.func_info_rec_size = li->func_info_rec_size,
		.line_info = line_info,
		.line_info_cnt = li->line_info_cnt,
		.line_info_rec_size = li->line_info_rec_size,
		.log_buf = log,
		.log_size = log ? log_size : 0,
		.log_level = log ? 1 : 0,
	);
	if (inst->attach_btf_id) {
		/* fentry: ctx is the function's arguments */
		opts.expected_attach_type = BPF_TRACE_FENTRY;
		opts.attach_btf_id = inst->attach_btf_id;
	} else if (obj->uprobe_multi && inst->owner->spec.exec) {
		/* attached through uprobe_multi links (attach_uprobe_multi.c) */
		opts.expected_attach_type = BP_TRACE_UPROBE_MULTI;
	}
	fd = bpf_prog_load(inst->attach_btf_id ? BPF_PROG_TYPE_TRACING : BPF_PROG_TYPE_KPROBE,
			   inst->name, obj->license, insns, cnt, &opts);
	err = fd < 0 ? -errno : fd;
	free(func_info);
	free(line_info);
	return err;
}

/* The guard (follow.h) at insns: returns its length or a negative errno. */
static int gen_guard(struct bpfprobe_object *obj, struct bp_instance *inst,
		     struct bpf_insn *insns)
{
	struct bp_guards gs;
	int n;

	bp_follow__guards(&obj->follow, (int)(inst - obj->insts), !!inst->owner->spec.exec,
			  obj->follow_form, &gs);
	/*
	 * A map-tracing instance's guard (bp_map_point__guards) keeps it to
	 * its map. Those instances probe the kernel, so following adds no
	 * guard of its own; what the map guard refuses are other maps'
	 * changes, not hits in other processes: they are not counted.
	 */
	if (inst->guards.n) {
		if (gs.n + inst->guards.n > BP_MAX_GUARDS) {
			bp_err("program '%s': too many guards (%d, at most %d)\n",
			       inst->owner->name, gs.n + inst->guards.n, BP_MAX_GUARDS);
			return -E2BIG;
		}
		for (int k = 0; k < inst->guards.n; k++)
			gs.v[gs.n++] = inst->guards.v[k];
		gs.refused_fd = -1;
	}
	n = bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS);
	if (n < 0)
		bp_err("program '%s': cannot generate the guard: %s\n", inst->owner->name,
		       strerror(-n));
	return n;
}

/* The plan's prologue at insns: its length, or a negative errno after a
 * message. */
static int gen_prologue(struct bpfprobe_object *obj, struct bp_instance *inst, bool cpu_v4,
			struct bpf_insn *insns)
{
	struct bp_prologue_opts opts = {
		.entry_map_fd = bp_entry_values__map_fd(obj),
		.stack_samples_fd = obj->stack_samples_fd,
		.stack_map_fd = obj->stack_map_fd,
		.cpu_v4 = cpu_v4,
	};
	int rec_off, n;

	if (!inst->owner->record_abi) {
		n = bp_prologue__gen_opts(&inst->plan, inst->unread, &opts, insns,
					  BP_PROLOGUE_MAX_INSNS);
	} else {
		/* the record ABI: the record below the stack the body uses */
		n = bp_record_stack__offset(inst->owner, &inst->plan, &rec_off);
		if (n)
			return n;
		n = bp_prologue__gen_record(&inst->plan, rec_off, inst->unread, &opts, insns,
					    BP_PROLOGUE_MAX_INSNS);
	}
	if (n < 0)
		bp_err("program '%s': cannot generate the prologue: %s\n", inst->owner->name,
		       strerror(-n));
	return n;
}

int bp_instance__load(struct bpfprobe_object *obj, struct bp_instance *inst)
{
	const struct bpf_insn *proto = bpf_program__insns(inst->owner->prog);
	size_t proto_cnt = bpf_program__insn_cnt(inst->owner->prog);
	int preamble = inst->owner->preamble_len;
	struct bpf_insn *insns;
	size_t body = proto_cnt - preamble;
	int glen, plen, fd, v4 = bp_cpu_v4__usable();

	insns = malloc((BP_GUARDS_MAX_INSNS + BP_PROLOGUE_MAX_INSNS + body) * sizeof(*insns));
	if (!insns)
		return -ENOMEM;
	glen = v4 < 0 ? v4 : gen_guard(obj, inst, insns);
	plen = glen < 0 ? glen : gen_prologue(obj, inst, v4, insns + glen);
	if (plen < 0) {
		free(insns);
		return plen;
	}
	inst->guard_len = glen;
	inst->prologue_len = plen;
	inst->follow_check = obj->follow_form && inst->owner->spec.exec;
	plen += glen;
	print_insns(inst, insns, plen);
	memcpy(insns + plen, proto + preamble, body * sizeof(*insns));

	fd = load_with(obj, inst, insns, plen + body, NULL, 0);
	if (fd < 0) {
		char *log = calloc(1, LOG_BUF_SIZE);
		int err = fd, again = -1;

		if (log)
			again = load_with(obj, inst, insns, plen + body, log, LOG_BUF_SIZE);
		if (again >= 0) {
			close(again);	/* loaded the second time: nothing to say */
			log[0] = '\0';
		}
		report_failure(inst, err, log);
		free(log);
		free(insns);
		return err;
	}
	free(insns);
	inst->fd = fd;
	return 0;
}

int bp_instances__set_follow(struct bpfprobe_object *obj, bool follow)
{
	bool was = obj->follow_form;
	int err = 0;

	obj->follow_form = follow;
	for (int i = 0; i < obj->ninsts && !err; i++) {
		struct bp_instance *inst = &obj->insts[i];
		struct bp_instance was_inst = *inst;

		if (!inst->owner->spec.exec || inst->follow_check == follow)
			continue;
		bp_debug("instance '%s': loaded again, %s the followed-set check\n", inst->name,
			 follow ? "with" : "without");
		err = bp_instance__load(obj, inst);
		if (err) {
			*inst = was_inst;
			continue;
		}
		if (was_inst.fd >= 0)
			close(was_inst.fd);
		bp_meta__bind_instance(obj, inst);
	}
	if (err)
		obj->follow_form = was;
	return err;
}

void bp_instances__close(struct bpfprobe_object *obj)
{
	for (int i = 0; i < obj->ninsts; i++) {
		if (obj->insts[i].fd >= 0)
			close(obj->insts[i].fd);
		obj->insts[i].fd = -1;
	}
}
