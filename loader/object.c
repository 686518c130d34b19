// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpfprobe_object: open (parse annotations), load (resolve, prototype,
 * instances), attach, destroy. Every error path undoes what it did, so a
 * failed call leaves nothing loaded or attached.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "loader/attach_probe.h"
#include "loader/entry_values.h"
#include "loader/map_trace.h"
#include "loader/metadata.h"
#include "loader/object.h"
#include "loader/stack_maps.h"
#include "loader/verifier_log.h"
#include "util/log.h"
#include "util/opts.h"
#include "util/pidns.h"
#include "util/ref.h"
#include "util/stop.h"

/* The verifier's log of the program libbpf failed to load: libbpf retries
 * a failed load with the log on, into this buffer when given one. */
#define KERNEL_LOG_SIZE	(1u << 20)
/* libbpf's warnings during the load, said after our own message */
#define HELD_LOG_SIZE	4096

static int parse_program(struct bp_program *p)
{
	char msg[512];
	int err;

	err = bp_spec__parse(p->sec, &p->spec, msg, sizeof(msg));
	if (err) {
		bp_err("program '%s': %s\n", p->name, msg);
		return err;
	}
	return 0;
}

static int collect_programs(struct bpfprobe_object *obj)
{
	struct bpf_program *prog;
	int n = 0, err = 0;

	bpf_object__for_each_program(prog, obj->obj)
		n++;
	obj->progs = calloc(n ? n : 1, sizeof(*obj->progs));
	if (!obj->progs)
		return -ENOMEM;
	bpf_object__for_each_program(prog, obj->obj) {
		struct bp_program *p;

		if (!bp_handler__claimed(prog))
			continue;	/* a standard libbpf section: libbpf owns it */
		bp_handler__forget(prog);
		p = &obj->progs[obj->nprogs++];
		p->record_map_fd = -1;
		p->record.err_member = -1;
		p->prog = prog;
		p->name = bpf_program__name(prog);
		p->sec = bpf_program__section_name(prog);
		if (!err)
			err = parse_program(p);
	}
	return err;
}

struct bpfprobe_object *bpfprobe_object__open(const char *path,
					      const struct bpfprobe_open_opts *opts)
{
	struct bpfprobe_object *obj;
	int err;

	if (!path || !OPTS_VALID(opts, bpfprobe_open_opts)) {
		errno = EINVAL;
		return NULL;
	}
	obj = calloc(1, sizeof(*obj));
	if (!obj) {
		errno = ENOMEM;
		return NULL;
	}
	bp_follow__init(&obj->follow);
	obj->stack_samples_fd = obj->stack_map_fd = -1;
	obj->path = strdup(path);
	if (OPTS_HAS(opts, vmlinux) && opts->vmlinux)
		obj->vmlinux = strdup(opts->vmlinux);
	if (OPTS_HAS(opts, source) && opts->source)
		obj->source = realpath(opts->source, NULL) ?: strdup(opts->source);
	if (OPTS_HAS(opts, no_cache))
		obj->no_cache = opts->no_cache;
	if (OPTS_HAS(opts, view_pid) && opts->view_pid > 0)
		obj->view_pid = opts->view_pid;
	if (OPTS_HAS(opts, follow))
		obj->follow_form = opts->follow;
	err = bp_elf__check_bpf(path, &obj->license);
	if (!err) {
		/* the section handler claims the programs libbpf opens */
		bp_handler__lock();
		err = bp_handler__register();
		obj->kernel_log = calloc(1, KERNEL_LOG_SIZE);
		if (!obj->kernel_log)
			err = -ENOMEM;
		if (!err) {
			LIBBPF_OPTS(bpf_object_open_opts, lopts,
				.kernel_log_buf = obj->kernel_log,
				.kernel_log_size = KERNEL_LOG_SIZE,
			);

			obj->obj = bpf_object__open_file(path, &lopts);
			if (!obj->obj) {
				char msg[128];

				/* its own codes (4001...) are not strerror()'s */
				err = -errno;
				libbpf_strerror(err, msg, sizeof(msg));
				bp_err("libbpf cannot open '%s': %s\n", path, msg);
			}
		}
		if (!err)
			err = collect_programs(obj);
		bp_handler__unlock();
	}
	if (!err && !obj->nprogs)
		bp_info("'%s' has no annotated program; loading it as a plain libbpf object\n", path);
	if (err) {
		bpfprobe_object__destroy(obj);
		errno = -err;
		return NULL;
	}
	return obj;
}

/* -v: where each probe point is and how each argument is fetched */
static void log_points(const struct bp_program *p)
{
	char desc[160], seen[PATH_MAX + 64];

	for (int j = 0; j < p->npoints; j++) {
		const struct bp_point *pt = &p->points[j];

		seen[0] = '\0';
		if (pt->seen_as)
			snprintf(seen, sizeof(seen), ", %s as process %d sees it", pt->seen_as,
				 (int)pt->seen_by);

		if (pt->kernel)
			bp_info("program '%s': probe point kernel %s%s%s+0x%llx%s at 0x%llx (arguments from %s)\n",
				p->name, pt->module ? pt->module : "", pt->module ? ":" : "",
				pt->func, (unsigned long long)pt->offset,
				pt->is_return ? "%return" : "", (unsigned long long)pt->addr,
				pt->source ? pt->source : "?");
		else
			/* "inlined into main", "symbol clone_me.constprop.0" and
			 * the line say which copy and line a point is */
			bp_info("program '%s': probe point %s:%s%s%s%s%s%s at 0x%llx (file offset 0x%llx, CU %s, line %s:%d)%s\n",
				p->name, pt->binary, pt->func, pt->is_return ? "%return" : "",
				pt->caller ? " inlined into " : "", pt->caller ? pt->caller : "",
				pt->symbol ? " symbol " : "", pt->symbol ? pt->symbol : "",
				(unsigned long long)pt->addr, (unsigned long long)pt->offset,
				pt->cu ? pt->cu : "?", pt->src_file ? pt->src_file : "?",
				pt->src_line, seen);
		for (int k = 0; k < pt->plan.nargs; k++) {
			bp_fetch__format(&pt->plan.args[k], desc, sizeof(desc));
			bp_info("  arg%d %s (%s, at %s): %s\n", k + 1,
				pt->arg_name[k] ? pt->arg_name[k] : "?",
				pt->type_name[k] ? pt->type_name[k] : "?",
				pt->loc_desc[k] ? pt->loc_desc[k] : "?", desc);
		}
	}
}

int bp_object__resolve_programs(struct bpfprobe_object *obj)
{
	struct bp_resolver *r = bp_resolver__new();
	int err = 0;

	if (!r || bp_resolver__set_vmlinux(r, obj->vmlinux)) {
		bp_resolver__free(r);
		return -ENOMEM;
	}
	bp_resolver__set_no_cache(r, obj->no_cache);
	bp_resolver__set_resolution_cache(r, !obj->no_cache);
	if (obj->view_pid > 0) {
		char why[PATH_MAX + 256];

		err = bp_resolver__set_view(r, obj->view_pid, why, sizeof(why));
		if (err) {
			bp_err("%s\n", why);
			bp_resolver__free(r);
			return err;
		}
	}
	if (obj->obj && obj->nprogs && !bpf_object__btf(obj->obj))
		bp_err("warning: '%s' has no BTF (built without -g): the programs' prototypes cannot be checked against their SEC() annotations (the ABI: int prog(void *ctx, int err, u64 arg1, ...))\n",
		       obj->path);
	for (int i = 0; i < obj->nprogs && !err; i++) {
		struct bp_program *p = &obj->progs[i];

		/* a bare SEC text (bpfprobe resolve 'SEC') has no object */
		if (obj->obj)
			err = bp_btf__check_prototype(obj->obj, p);
		if (err)
			break;
		err = bp_stop__requested() ? -EINTR :
		      bp_resolver__resolve(r, &p->spec, &p->points, &p->npoints);
		/* a stop is the caller's to say */
		if (err && err != -EINTR)
			bp_err("program '%s': cannot resolve SEC(\"%s\")\n", p->name, p->sec);
		if (err)
			break;
		log_points(p);
	}
	if (!err) {
		char why[128];

		/* what its root held may have gone with it */
		err = bp_resolver__view_check(r, why, sizeof(why));
		if (err)
			bp_err("%s\n", why);
	}
	/* the binaries resolved stay open until the probes attach to them */
	if (!err)
		err = bp_resolver__take_holds(r, &obj->holds);
	bp_resolver__free(r);
	return err;
}

static int resolve_all(struct bpfprobe_object *obj)
{
	int err = bp_object__resolve_programs(obj);

	/* resolving needs no kprobes; loading for one does */
	for (int i = 0; i < obj->nprogs && !err; i++) {
		struct bp_program *p = &obj->progs[i];
		char what[300];

		if (p->spec.map) {
			/* fentry, else kprobes */
			snprintf(what, sizeof(what), "program '%s' (map=%s;%s)", p->name,
				 p->spec.map, p->spec.func);
			err = bp_map_trace__choose(what, p->points, p->npoints);
		} else if (!p->spec.exec) {
			err = bp_kprobe__check_available(p->spec.func);
		}
	}
	return err;
}

/*
 * What failed, first: the user's source (load PROG.c) rather than the
 * cached object, and the verifier's or libbpf's reason rather than an
 * errno. The whole log follows at the info level (-v).
 */
static void report_load_failure(const struct bpfprobe_object *obj, int err, const char *held)
{
	const char *what = obj->source ? obj->source : obj->path;
	char reason[512] = "";

	/* the verifier refuses with EACCES too: its reason, when it said one */
	if ((err == -EPERM || err == -EACCES) &&
	    !(obj->kernel_log && bp_verifier_log__reason(obj->kernel_log, reason, sizeof(reason)))) {
		bp_err("loading '%s': permission denied: loading BPF programs needs CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN); run bpfprobe as root\n",
		       what);
		return;
	}
	if (obj->kernel_log && bp_verifier_log__reason(obj->kernel_log, reason, sizeof(reason)))
		bp_err("loading '%s' failed: the kernel's verifier refused it: %s\n", what, reason);
	else if (held && *held)
		bp_err("loading '%s' failed: %.*s\n", what,
		       (int)strcspn(held + (strncmp(held, "libbpf: ", 8) ? 0 : 8), "\n"),
		       held + (strncmp(held, "libbpf: ", 8) ? 0 : 8));
	else
		bp_err("loading '%s' failed: %s\n", what, strerror(-err));
	/* a body reading its record, in an object without BTF: its
	 * prototype cannot say it takes one */
	if (strstr(reason, "R2 invalid mem access") && !bpf_object__btf(obj->obj))
		bp_err("  '%s' has no BTF: a program that reads a record through its second parameter (int prog(void *ctx, struct S *a)) needs it to say so; build it with clang -g. Without BTF, r2 is the fetch-error flag of perf's register ABI\n",
		       what);
	/* libbpf loads the object with its own license section, or none */
	if (strstr(reason, "GPL"))
		bp_err("  '%s' has no GPL-compatible license; add the line:  char LICENSE[] SEC(\"license\") = \"GPL\";\n",
		       what);
	if (obj->source)
		bp_info("  (compiled to %s)\n", obj->path);
	bp_err("  (bpfprobe -v shows %s)\n", *reason ? "the verifier's log" : "libbpf's messages");
}

static void object_free(void *obj);
static bool has_uprobes(const struct bpfprobe_object *obj);

/*
 * uprobe_multi links where the kernel has them (6.6+), unless
 * BPFPROBE_UPROBE_MULTI=0 asks for one perf event per point (what kernels
 * before 6.6 get anyway).
 */
static bool use_uprobe_multi(const struct bpfprobe_object *obj)
{
	const char *env = getenv("BPFPROBE_UPROBE_MULTI");

	if (!has_uprobes(obj))
		return false;
	if (env && !strcmp(env, "0")) {
		bp_info("uprobe_multi links: not used (BPFPROBE_UPROBE_MULTI=0): one perf event per probe point\n");
		return false;
	}
	return bp_uprobe_multi__supported();
}

static int object_load(struct bpfprobe_object *obj)
{
	char held[HELD_LOG_SIZE];
	int err;

	if (!obj || !obj->obj)
		return -EINVAL;
	if (obj->loaded || obj->aps)
		return -EBUSY;
	err = resolve_all(obj);
	if (!err)
		err = bp_instances__build(obj);
	if (!err)
		err = bp_entry_values__load(obj);
	if (!err)
		err = bp_stack_maps__create(obj);
	if (!err)
		err = bp_record_stack__prepare(obj);
	if (err) {
		bp_record_stack__close(obj);
		return err;
	}

	bp_handler__lock();
	bp_handler__set_loading(obj);
	bp_log__hold_libbpf(held, sizeof(held));
	err = bpf_object__load(obj->obj);
	/* the last record program's log, before anything else reads it */
	if (!err)
		bp_record_stack__note(obj);
	bp_record_stack__close(obj);
	if (err)
		report_load_failure(obj, err, held);
	/* libbpf's own words: after ours when it failed (-v), else as usual */
	bp_log__release_libbpf(err ? BPFPROBE_INFO : BPFPROBE_WARN);
	if (err && obj->kernel_log && *obj->kernel_log)
		bp_info("the verifier's log:\n%s\n", obj->kernel_log);
	bp_handler__set_loading(NULL);
	bp_handler__unlock();
	free(obj->kernel_log);
	obj->kernel_log = NULL;
	if (err) {
		bp_entry_values__close(obj);
		return err;
	}
	/* how uprobes attach decides how their programs load */
	obj->uprobe_multi = use_uprobe_multi(obj);
	/* the guards' set, gate and counts, before the instances that use them */
	err = bp_follow__create_maps(&obj->follow, obj->ninsts);
	for (int i = 0; i < obj->ninsts && !err; i++)
		err = bp_stop__requested() ? -EINTR : bp_instance__load(obj, &obj->insts[i]);
	/* an output made from it holds it (util/ref.h) */
	if (!err)
		err = bp_ref__init(obj, object_free);
	if (err) {
		bp_instances__close(obj);
		bp_follow__close(&obj->follow);
		bp_entry_values__close(obj);
		bpf_object__close(obj->obj);
		obj->obj = NULL;
		return err;
	}
	/* what `bpfprobe list` shows about programs bpfprobe loaded */
	bp_meta__bind_object(obj);
	obj->loaded = true;
	return 0;
}

int bpfprobe_object__load(struct bpfprobe_object *obj)
{
	return bp_api_err(object_load(obj));
}

static bool is_annotated(const struct bpfprobe_object *obj, const struct bpf_program *prog)
{
	for (int i = 0; i < obj->nprogs; i++)
		if (obj->progs[i].prog == prog)
			return true;
	return false;
}

/* Programs in standard libbpf sections (tracepoint/, uprobe/, ...) are
 * attached the way libbpf's skeletons do it. */
static int attach_standard(struct bpfprobe_object *obj)
{
	struct bpf_program *prog;
	int n = 0;

	bpf_object__for_each_program(prog, obj->obj)
		n++;
	obj->std_links = calloc(n ? n : 1, sizeof(*obj->std_links));
	if (!obj->std_links)
		return -ENOMEM;
	bpf_object__for_each_program(prog, obj->obj) {
		struct bpf_link *link;

		if (is_annotated(obj, prog) || !bpf_program__autoload(prog))
			continue;
		link = bpf_program__attach(prog);
		if (!link) {
			int err = -errno;

			bp_err("program '%s': cannot attach SEC(\"%s\"): %s\n",
			       bpf_program__name(prog), bpf_program__section_name(prog),
			       strerror(-err));
			return err;
		}
		obj->std_links[obj->nstd_links++] = link;
	}
	return 0;
}

/* A kprobe fires in every task: its BPF program is not filtered by pid. */
static int attach_kernel(struct bpfprobe_object *obj, struct bp_attach_point *ap, pid_t pid)
{
	const struct bp_point *pt = ap->point;
	struct bp_kprobe_target t = {
		.func = pt->kaddr ? NULL : pt->func,
		.offset = pt->kaddr ? 0 : pt->offset,
		.addr = pt->kaddr,
		.retprobe = pt->is_return,
		.cookie = (uint64_t)(ap - obj->aps),
	};

	if (pid >= 0)
		bp_info("program '%s': kernel probe %s fires in every process, not only %d\n",
			ap->owner->name, pt->func, (int)pid);
	return bp_kprobe__attach(obj->insts[ap->instance].fd, &t, &ap->perf_fd, &ap->link_fd);
}

/* The global pid follow starts from, or a negative errno after a message. */
static pid_t follow_seed(pid_t pid, pid_t global_pid)
{
	if (pid <= 0) {
		bp_err("following processes needs a pid to start from\n");
		return -EINVAL;
	}
	if (global_pid > 0)
		return global_pid;
	if (bp_pidns__is_initial())
		return pid;
	bp_err("following process %d: inside a PID namespace the kernel numbers it differently; pass its global pid (bpfprobe_pid__global())\n",
	       (int)pid);
	return -EINVAL;
}

static bool has_uprobes(const struct bpfprobe_object *obj)
{
	for (int i = 0; i < obj->naps; i++)
		if (!obj->aps[i].point->kernel)
			return true;
	return false;
}

static int object_attach(struct bpfprobe_object *obj, const struct bpfprobe_attach_opts *opts)
{
	pid_t pid = -1, global_pid = 0, perf_pid, seed = 0;
	bool follow = false, watch = false;
	int err = 0, mode = 0;

	if (!obj || !obj->loaded || !OPTS_VALID(opts, bpfprobe_attach_opts))
		return -EINVAL;
	/* a second attachment would leave the first one's links behind */
	if (obj->attached)
		return -EBUSY;
	if (OPTS_HAS(opts, pid))
		pid = opts->pid;
	if (OPTS_HAS(opts, follow))
		follow = opts->follow;
	if (OPTS_HAS(opts, global_pid))
		global_pid = opts->global_pid;
	if (OPTS_HAS(opts, watch_execs))
		watch = opts->watch_execs;
	perf_pid = pid;
	/* offsets go only into the files they were found in */
	err = bp_attach_binaries__check(obj);
	if (err)
		return err;
	follow = follow && has_uprobes(obj);
	if (follow) {
		seed = follow_seed(pid, global_pid);
		if (seed < 0)
			return seed;
		if (kill(pid, 0) && errno == ESRCH) {
			bp_err("cannot follow process %d: no such process\n", (int)pid);
			return -ESRCH;
		}
	}
	/* the uprobe instances' form: with the followed-set check only when
	 * following (else the kernel filters by pid, or nothing is filtered) */
	err = bp_instances__set_follow(obj, follow);
	if (err)
		return err;
	if (follow) {
		/* what the followed processes exec, looked at as they do */
		if (watch)
			mode = bp_exec_watch__setup(obj);
		if (mode < 0)
			return mode;
		/* the set's programs first, so no child is missed; the guards
		 * then let only the followed processes through */
		err = bp_follow__start(&obj->follow, seed, (unsigned int)mode);
		if (err)
			return err;
		perf_pid = -1;
	}
	/* first, so activations entered from now on are saved */
	if (!err)
		err = bp_entry_values__attach(obj, perf_pid);
	for (int i = 0; i < obj->naps && !err; i++) {
		struct bp_attach_point *ap = &obj->aps[i];
		struct bp_uprobe_target t = {
			.path = ap->point->binary,
			.file = bp_attach_binaries__path(obj, ap->point->binary),
			.offset = ap->point->offset,
			.retprobe = ap->point->is_return,
			.pid = perf_pid,
			.cookie = (uint64_t)i,	/* the point's index (bpfprobe.h) */
			.ref_ctr_offset = ap->point->ref_ctr_offset,
		};

		/* a stop (SIGINT, SIGTERM) is seen between points: a perf
		 * event per point takes 50 ms each to undo */
		if (bp_stop__requested()) {
			err = -EINTR;
			break;
		}
		if (ap->point->map.on && ap->point->map.fentry) {
			if (pid >= 0)
				bp_info("program '%s': map tracing sees every process's changes, not only %d's\n",
					ap->owner->name, (int)pid);
			err = bp_fentry__attach(obj->insts[ap->instance].fd, ap->point->func,
						&ap->link_fd);
		}
		else if (ap->point->kernel)
			err = attach_kernel(obj, ap, pid);
		else if (obj->uprobe_multi)
			continue;	/* all at once, below */
		else
			err = bp_uprobe__attach(obj->insts[ap->instance].fd, &t, &ap->perf_fd,
						&ap->link_fd);
		if (err)
			bp_err("program '%s': cannot attach to %s:%s\n", ap->owner->name,
			       ap->point->binary, ap->point->func);
	}
	if (!err && bp_stop__requested())
		err = -EINTR;
	if (!err && obj->uprobe_multi)
		err = bp_attach_points__uprobe_multi(obj, perf_pid);
	if (!err)
		err = attach_standard(obj);
	/* the uprobes went into the files held; a path renamed over while
	 * they did now names a file they are not in: not what was asked */
	if (!err)
		err = bp_attach_binaries__check(obj);
	if (err) {
		bpfprobe_object__detach(obj);
	} else {
		char buf[32];

		obj->attached = true;
		/* a running process (-p): what it runs and maps already */
		if (mode > 0)
			bp_exec_watch__look(obj, obj->follow.seed);
		if (obj->follow.seed > 0)
			snprintf(buf, sizeof(buf), "%d+", (int)pid);
		else
			snprintf(buf, sizeof(buf), "%d", (int)pid);
		/* libbpf attaches standard sections in every process */
		bp_meta__update_object(obj, "pid", buf, true);
	}
	return err;
}

int bpfprobe_object__attach(struct bpfprobe_object *obj, const struct bpfprobe_attach_opts *opts)
{
	return bp_api_err(object_attach(obj, opts));
}

void bpfprobe_object__detach(struct bpfprobe_object *obj)
{
	if (!obj)
		return;
	/* the probes before the set's gate (off, every process passes) */
	bp_attach_points__close(obj->aps, obj->naps);
	bp_exec_watch__detach(obj);
	/* nothing is held any more, what was goes on */
	bp_follow__stop(&obj->follow);
	bp_entry_values__detach(obj);
	for (int i = 0; i < obj->nstd_links; i++)
		bpf_link__destroy(obj->std_links[i]);
	free(obj->std_links);
	obj->std_links = NULL;
	obj->nstd_links = 0;
	obj->attached = false;
}

/* Once nothing holds it: the caller (destroy) and the outputs made from it. */
static void object_free(void *o)
{
	struct bpfprobe_object *obj = o;

	bpfprobe_object__detach(obj);
	bp_instances__close(obj);
	bp_follow__close(&obj->follow);
	bp_exec_watch__free(&obj->watch);
	bp_entry_values__close(obj);
	bp_record_stack__close(obj);
	bp_stack_maps__close(obj);
	if (obj->obj)
		bpf_object__close(obj->obj);
	for (int i = 0; i < obj->nprogs; i++) {
		bp_record__free(&obj->progs[i].record);
		bp_spec__free(&obj->progs[i].spec);
		bp_points__free(obj->progs[i].points, obj->progs[i].npoints);
		bp_load_info__free(&obj->progs[i].info);
	}
	free(obj->progs);
	free(obj->insts);
	free(obj->aps);
	bp_binary_holds__free(&obj->holds);
	free(obj->license);
	free(obj->vmlinux);
	free(obj->source);
	free(obj->kernel_log);
	free(obj->path);
	free(obj);
}

void bpfprobe_object__destroy(struct bpfprobe_object *obj)
{
	if (!obj)
		return;
	/* the probes stop now; what an output still reads stays until it goes */
	bpfprobe_object__detach(obj);
	if (!bp_ref__put(obj))
		object_free(obj);
}
