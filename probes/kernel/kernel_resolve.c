// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel resolver's driver: a spec without exec= -> the kernel
 * function's probe points (kallsyms), checked for probeability, with
 * argument plans from DWARF (a matching vmlinux / module debug file) or
 * else from kernel BTF.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "util/kconfig.h"
#include "probes/kernel/kernel.h"
#include "util/log.h"

#define MAX_BTF_FUNCS	16
#define MAX_MODULE_BTFS	16

struct module_btf {
	char *name;
	struct btf *btf;
};

struct bp_kernel {
	struct bp_kernel_paths paths;
	struct bp_kallsyms *ksyms;
	struct btf *vmlinux_btf;
	struct module_btf mods[MAX_MODULE_BTFS];
	int nmods;
	char *vmlinux;		/* DWARF file found (or given); NULL: none */
	bool vmlinux_looked;
};

static const struct bp_kernel_paths default_paths = {
	.kallsyms = BP_KALLSYMS_PATH,
	.btf_dir = "/sys/kernel/btf",
	.filter_functions = "/sys/kernel/tracing/available_filter_functions",
	.blacklist = "/sys/kernel/debug/kprobes/blacklist",
};

struct bp_kernel *bp_kernel__new(void)
{
	struct bp_kernel *k = calloc(1, sizeof(*k));

	if (k)
		k->paths = default_paths;
	return k;
}

void bp_kernel__set_paths(struct bp_kernel *k, const struct bp_kernel_paths *p)
{
	if (p->kallsyms)
		k->paths.kallsyms = p->kallsyms;
	if (p->btf_dir)
		k->paths.btf_dir = p->btf_dir;
	if (p->filter_functions)
		k->paths.filter_functions = p->filter_functions;
	if (p->blacklist)
		k->paths.blacklist = p->blacklist;
	if (p->vmlinux)
		k->paths.vmlinux = p->vmlinux;
	k->paths.no_build_id_check = p->no_build_id_check;
}

void bp_kernel__free(struct bp_kernel *k)
{
	if (!k)
		return;
	bp_kallsyms__free(k->ksyms);
	for (int i = 0; i < k->nmods; i++) {
		free(k->mods[i].name);
		btf__free(k->mods[i].btf);
	}
	btf__free(k->vmlinux_btf);
	free(k->vmlinux);
	free(k);
}

/* What one resolution knows, and says in messages. */
struct kspec {
	const struct bp_spec *spec;
	char *module;			/* normalized; NULL: vmlinux */
	const struct bp_ksym *syms;	/* kallsyms entries of the function */
	int nsyms;
	/* no other function anywhere has that name: a kprobe can name it
	 * (the kernel refuses an ambiguous name: probe by address then) */
	bool unique;
	char where[300];		/* "FUNC in the kernel", "FUNC in module M" */
	struct bp_report *rep;		/* NULL: say it (bp_err) */
};

static int load_kallsyms(struct bp_kernel *k, struct kspec *ks)
{
	struct bp_diag d = {};
	int err;

	if (k->ksyms)
		return 0;
	err = bp_kallsyms__load(k->paths.kallsyms, &k->ksyms, &d);
	bp_report__diag(ks->rep, &d, ks->where);
	return err;
}

/* --- which function -------------------------------------------------------- */

static void list_clone(const char *clone, void *ctx)
{
	char *buf = ctx;
	size_t n = strlen(buf);

	if (n < 200)
		snprintf(buf + n, 256 - n, "%s%s", n ? ", " : "", clone);
}

static bool module_loaded(const char *module)
{
	char path[300];

	snprintf(path, sizeof(path), "/sys/module/%s", module);
	return !access(path, F_OK);
}

static int not_found(struct bp_kernel *k, struct kspec *ks)
{
	const char *func = ks->spec->func;
	char clones[256] = "";

	if (ks->module && !module_loaded(ks->module)) {
		bp_report__line(ks->rep, "%s: module '%s' is not loaded (no /sys/module/%s)\n", ks->where,
				ks->module, ks->module);
		return -ENOENT;
	}
	if (bp_kallsyms__clones(k->ksyms, func, list_clone, clones)) {
		bp_report__line(ks->rep, "%s: no such function in %s, only compiler-made copies (%s): probe one of those by name; the compiler changed their parameters, so only register-level arguments make sense there\n",
				ks->where, k->paths.kallsyms, clones);
		return -ENOENT;
	}
	bp_report__line(ks->rep, "%s: no such function in %s: misspelled, %s, or inlined into every caller\n",
			ks->where, k->paths.kallsyms,
			ks->module ? "not in that module" : "in a module that is not loaded");
	return -ENOENT;
}

/* The module that holds the function when module= does not say. */
static int guess_module(struct kspec *ks)
{
	const struct bp_ksym *s = ks->syms;
	const char *first = s[0].module;

	for (int i = 1; i < ks->nsyms; i++) {
		const char *m = s[i].module;

		if ((m == NULL) != (first == NULL) || (m && strcmp(m, first))) {
			bp_report__line(ks->rep, "%s: functions of that name are in several places (%s, %s): say which with module=NAME (vmlinux for the kernel image)\n",
					ks->where, first ? first : "vmlinux", m ? m : "vmlinux");
			return -EINVAL;
		}
	}
	if (first) {
		ks->module = strdup(first);
		if (!ks->module)
			return -ENOMEM;
	}
	return 0;
}

static void set_where(struct kspec *ks)
{
	if (ks->module)
		snprintf(ks->where, sizeof(ks->where), "%s in module %s", ks->spec->func,
			 ks->module);
	else
		snprintf(ks->where, sizeof(ks->where), "%s in the kernel", ks->spec->func);
}

static int find_function(struct bp_kernel *k, struct kspec *ks)
{
	const struct bp_spec *spec = ks->spec;
	const char *scope;
	int err;

	if (spec->module) {
		ks->module = bp_module__normalize(spec->module);
		if (!ks->module)
			return -ENOMEM;
		if (!strcmp(ks->module, "vmlinux")) {
			free(ks->module);
			ks->module = NULL;
		}
	}
	set_where(ks);
	err = load_kallsyms(k, ks);
	if (err)
		return err;
	ks->unique = bp_kallsyms__find(k->ksyms, spec->func, NULL, &ks->syms) == 1;
	scope = spec->module ? (ks->module ? ks->module : "vmlinux") : NULL;
	ks->nsyms = bp_kallsyms__find(k->ksyms, spec->func, scope, &ks->syms);
	if (!ks->nsyms)
		return not_found(k, ks);
	if (!spec->module) {
		err = guess_module(ks);
		if (err)
			return err;
		set_where(ks);
	}
	/* kptr_restrict shows every address as 0 */
	if (!ks->unique && !ks->syms[0].addr) {
		bp_report__line(ks->rep, "%s: %d functions have that name and %s hides their addresses (kptr_restrict): run as root\n",
				ks->where, ks->nsyms, k->paths.kallsyms);
		return -EPERM;
	}
	return 0;
}

/* Blacklisted or notrace functions: the kernel refuses a kprobe there.
 * Lists that cannot be read (tracefs, debugfs not mounted) say nothing. */
static int check_probeable(struct bp_kernel *k, struct kspec *ks)
{
	const char *func = ks->spec->func;
	const char *mod = ks->module ? ks->module : "vmlinux";

	if (bp_klist__has(k->paths.blacklist, func, NULL) == 1) {
		bp_report__line(ks->rep, "%s: on the kprobe blacklist (%s): the kernel does not allow probing it\n",
				ks->where, k->paths.blacklist);
		return -EPERM;
	}
	/* kprobe events refuse functions ftrace cannot trace, unless built
	 * with CONFIG_KPROBE_EVENTS_ON_NOTRACE */
	if (bp_kconfig__get("CONFIG_KPROBE_EVENTS_ON_NOTRACE") != 1 &&
	    bp_klist__has(k->paths.filter_functions, func, mod) == 0) {
		bp_report__line(ks->rep, "%s: not probeable: notrace (not in %s; e.g. marked notrace or noinstr), which kprobe events refuse\n",
				ks->where, k->paths.filter_functions);
		return -EPERM;
	}
	return 0;
}

/* --- points ---------------------------------------------------------------- */

/* The common part of every point: function, module, where it is. */
static int init_point(const struct kspec *ks, int i, const char *binary,
		      const char *source, struct bp_point *pt)
{
	pt->kernel = true;
	pt->is_return = ks->spec->is_return;
	pt->func = strdup(ks->spec->func);
	pt->binary = strdup(binary);
	pt->source = strdup(source);
	pt->module = ks->module ? strdup(ks->module) : NULL;
	if (!pt->func || !pt->binary || !pt->source || (ks->module && !pt->module))
		return -ENOMEM;
	if (!pt->addr)
		pt->addr = ks->syms[i].addr + pt->offset;
	return 0;
}

/* A copy of the first point's plan for another address of the function. */
static int copy_args(const struct bp_point *from, struct bp_point *to)
{
	to->plan = from->plan;
	for (int j = 0; j < from->plan.nargs && j < BP_MAX_ARGS; j++) {
		to->loc_desc[j] = from->loc_desc[j] ? strdup(from->loc_desc[j]) : NULL;
		to->type_name[j] = from->type_name[j] ? strdup(from->type_name[j]) : NULL;
		to->arg_name[j] = from->arg_name[j] ? strdup(from->arg_name[j]) : NULL;
		if ((from->loc_desc[j] && !to->loc_desc[j]) ||
		    (from->type_name[j] && !to->type_name[j]) ||
		    (from->arg_name[j] && !to->arg_name[j]))
			return -ENOMEM;
	}
	return 0;
}

/* --- BTF ------------------------------------------------------------------- */

static int no_btf(struct kspec *ks, const char *path, int err)
{
	bp_report__line(ks->rep, "%s: argument '%s' needs the kernel's types, but there is no kernel BTF (%s: %s; CONFIG_DEBUG_INFO_BTF%s is off) and no vmlinux with DWARF (looked in /usr/lib/debug/boot, /boot, /lib/modules/RELEASE): install the kernel's debug info (e.g. the linux-image-RELEASE-dbg package)\n",
			ks->where, ks->spec->args[0].text ? ks->spec->args[0].text : ks->spec->args[0].var,
			path, strerror(-err), ks->module ? "_MODULES" : "");
	return -ENODATA;
}

static int load_btf(struct bp_kernel *k, struct kspec *ks, struct btf **out,
		    char *path, size_t pathlen)
{
	struct btf *btf;
	int i;

	snprintf(path, pathlen, "%s/vmlinux", k->paths.btf_dir);
	if (!k->vmlinux_btf) {
		btf = btf__parse(path, NULL);
		if (!btf)
			return no_btf(ks, path, -errno);
		k->vmlinux_btf = btf;
	}
	*out = k->vmlinux_btf;
	if (!ks->module)
		return 0;
	snprintf(path, pathlen, "%s/%s", k->paths.btf_dir, ks->module);
	for (i = 0; i < k->nmods; i++) {
		if (!strcmp(k->mods[i].name, ks->module)) {
			*out = k->mods[i].btf;
			return 0;
		}
	}
	if (k->nmods == MAX_MODULE_BTFS) {
		bp_report__line(ks->rep, "%s: more than %d modules probed at once\n", ks->where, MAX_MODULE_BTFS);
		return -E2BIG;
	}
	btf = btf__parse_split(path, k->vmlinux_btf);
	if (!btf)
		return no_btf(ks, path, -errno);
	k->mods[k->nmods].name = strdup(ks->module);
	if (!k->mods[k->nmods].name) {
		btf__free(btf);
		return -ENOMEM;
	}
	k->mods[k->nmods++].btf = btf;
	*out = btf;
	return 0;
}

/* The BTF FUNC that describes the function: one, or several alike. */
static int btf_func(const struct btf *btf, const struct kspec *ks, const char *path,
		    __u32 *id)
{
	__u32 ids[MAX_BTF_FUNCS];
	int n = bp_kbtf__find_funcs(btf, ks->spec->func, ids, MAX_BTF_FUNCS);

	if (!n) {
		bp_report__line(ks->rep, "%s: no BTF description in %s, so its parameters are unknown (pahole leaves out functions whose calling convention the compiler changed): install the kernel's debug info (vmlinux with DWARF), or probe it without arguments\n",
				ks->where, path);
		return -ENOENT;
	}
	if (n > 1 && !bp_kbtf__same_protos(btf, ids, n)) {
		bp_report__line(ks->rep, "%s: %d functions of that name with different prototypes in %s, and BTF does not say which address is which: install the kernel's debug info (vmlinux with DWARF)\n",
				ks->where, n, path);
		return -ENOTUNIQ;
	}
	*id = ids[0];
	return 0;
}

/* Whether spec's arguments do without the function's types: perf's fetch
 * arguments without member chains ($argN is untyped then). */
static bool untyped_ok(const struct bp_spec *spec)
{
	for (int i = 0; i < spec->nargs; i++)
		if (spec->args[i].farg == BP_FARG_NONE || spec->args[i].nsteps)
			return false;
	return true;
}

/* Whether BTF describes ks's function, found without a word said. */
static bool btf_describes(struct bp_kernel *k, struct kspec *ks)
{
	char path[512];
	__u32 ids[MAX_BTF_FUNCS];
	struct btf *btf;
	int n;

	snprintf(path, sizeof(path), "%s/vmlinux", k->paths.btf_dir);
	if (access(path, R_OK))
		return false;
	snprintf(path, sizeof(path), "%s/%s", k->paths.btf_dir, ks->module ? ks->module : "vmlinux");
	if (access(path, R_OK) || load_btf(k, ks, &btf, path, sizeof(path)))
		return false;
	n = bp_kbtf__find_funcs(btf, ks->spec->func, ids, MAX_BTF_FUNCS);
	return n == 1 || (n > 1 && bp_kbtf__same_protos(btf, ids, n));
}

static int resolve_btf(struct bp_kernel *k, struct kspec *ks, struct bp_point *pts)
{
	const struct bp_spec *spec = ks->spec;
	char path[512], source[600];
	struct btf *btf = NULL;
	__u32 id = 0;
	int i, err;

	if (spec->nargs && untyped_ok(spec) && !btf_describes(k, ks)) {
		struct bp_diag d = {};

		err = bp_kbtf__resolve_args(NULL, 0, spec, ks->where, &pts[0], &d);
		bp_report__diag(ks->rep, &d, ks->where);
		if (err)
			return err;
		snprintf(source, sizeof(source), "kallsyms %s (no BTF for it: untyped)",
			 k->paths.kallsyms);
	} else if (spec->nargs) {
		err = load_btf(k, ks, &btf, path, sizeof(path));
		if (!err)
			err = btf_func(btf, ks, path, &id);
		if (!err) {
			struct bp_diag d = {};

			err = bp_kbtf__resolve_args(btf, id, spec, ks->where, &pts[0], &d);
			bp_report__diag(ks->rep, &d, ks->where);
		}
		if (err)
			return err;
		snprintf(source, sizeof(source), "BTF %s", path);
	} else {
		snprintf(source, sizeof(source), "kallsyms %s", k->paths.kallsyms);
	}
	for (i = 0; i < ks->nsyms; i++) {
		struct bp_point *pt = &pts[i];

		pt->offset = spec->has_offset ? spec->offset : 0;
		/* an ambiguous name is probed by address */
		if (!ks->unique)
			pt->kaddr = ks->syms[i].addr + pt->offset;
		err = init_point(ks, i, ks->module ? ks->module : "vmlinux", source, pt);
		if (!err && i)
			err = copy_args(&pts[0], pt);
		if (err)
			return err;
	}
	return 0;
}

/* --- DWARF ----------------------------------------------------------------- */

/* The debug file to use for ks's function, or NULL for BTF. */
static char *dwarf_file(struct bp_kernel *k, const struct kspec *ks)
{
	bool check = !k->paths.no_build_id_check;

	if (k->paths.vmlinux) {
		/* a given vmlinux serves the kernel image only; "" turns DWARF off */
		if (!*k->paths.vmlinux || ks->module)
			return NULL;
		return strdup(k->paths.vmlinux);
	}
	if (ks->module)
		return bp_kdwarf__find(ks->module, check);
	if (!k->vmlinux_looked) {
		k->vmlinux = bp_kdwarf__find(NULL, check);
		k->vmlinux_looked = true;
	}
	return k->vmlinux ? strdup(k->vmlinux) : NULL;
}

/*
 * DWARF gives link-time addresses, kallsyms run-time ones: with one
 * function of that name, func + offset is all a kprobe needs; with
 * several, pair them in address order (KASLR moves all text alike).
 */
static int match_addresses(const struct kspec *ks, struct bp_point *pts, int n)
{
	int64_t delta;

	if (n == 1 && ks->nsyms == 1) {
		if (!ks->unique)
			pts[0].kaddr = ks->syms[0].addr + pts[0].offset;
		return 0;
	}
	if (n != ks->nsyms) {
		bp_report__line(ks->rep, "%s: %d functions of that name in the kernel, %d in its debug info %s: cannot tell which is which\n",
				ks->where, ks->nsyms, n, pts[0].binary);
		return -ENOTUNIQ;
	}
	delta = ks->syms[0].addr - (pts[0].addr - pts[0].offset);
	for (int i = 0; i < n; i++) {
		if ((int64_t)(ks->syms[i].addr - (pts[i].addr - pts[i].offset)) != delta) {
			bp_report__line(ks->rep, "%s: the addresses of the %d functions of that name in %s do not match the running kernel's\n",
					ks->where, n, pts[0].binary);
			return -ENOTUNIQ;
		}
		pts[i].kaddr = pts[i].addr + delta;
	}
	return 0;
}

static int resolve_dwarf(const struct bp_kernel_dwarf *dwarf, struct kspec *ks,
			 const char *path, struct bp_point **points, int *npoints)
{
	char source[600];
	struct bp_point *pts;
	int i, n, err;

	err = dwarf->resolve(dwarf->ctx, path, ks->spec, ks->where, &pts, &n, ks->rep);
	if (err)
		return err;
	err = match_addresses(ks, pts, n);
	snprintf(source, sizeof(source), "DWARF %s", path);
	for (i = 0; i < n && !err; i++) {
		free(pts[i].binary);
		pts[i].binary = NULL;
		free(pts[i].func);
		pts[i].func = NULL;
		err = init_point(ks, i, path, source, &pts[i]);
	}
	if (err) {
		bp_points__free(pts, n);
		return err;
	}
	*points = pts;
	*npoints = n;
	return 0;
}

/* --- the spec -------------------------------------------------------------- */

static int check_spec(const struct bp_spec *spec, struct bp_report *rep)
{
	const char *what = spec->func_glob ? "a glob" : spec->has_line ? "a line number" :
			   spec->lazy ? "a lazy pattern" : spec->src ? "a source file" : NULL;

	if (what) {
		bp_report__line(rep, "%s: %s in a kernel probe point is not supported: kernel probes take FUNC, FUNC+OFFS or FUNC%%return\n",
				spec->point ? spec->point : spec->text ? spec->text : "?", what);
		return -EOPNOTSUPP;
	}
	if (!spec->func || !*spec->func) {
		bp_report__line(rep, "SEC(\"%s\"): no function named\n", spec->text ? spec->text : "");
		return -EINVAL;
	}
	for (int i = 0; i < spec->nargs; i++) {
		if (spec->args[i].global) {
			bp_report__line(rep, "%s: argument '%s': kernel globals are not supported: name a parameter\n",
					spec->func, spec->args[i].text ? spec->args[i].text : spec->args[i].var);
			return -EOPNOTSUPP;
		}
	}
	if (spec->nargs < 0 || spec->nargs > bp_spec__max_args(spec)) {
		bp_report__line(rep, "%s: %d arguments requested, at most %d fit in %s\n",
				spec->func, spec->nargs, bp_spec__max_args(spec),
				spec->record ? "a record" : "R3..R5");
		return -E2BIG;
	}
	return 0;
}

int bp_kernel__resolve(struct bp_kernel *k, const struct bp_kernel_dwarf *dw,
		       const struct bp_spec *spec, struct bp_point **points,
		       int *npoints, struct bp_report *rep)
{
	struct kspec ks = { .spec = spec, .rep = rep };
	struct bp_point *pts = NULL;
	char *dwarf = NULL;
	int err;

	err = check_spec(spec, rep);
	if (!err)
		err = find_function(k, &ks);
	if (!err)
		err = check_probeable(k, &ks);
	if (err)
		goto out;
	/* locations need DWARF or BTF only when there are arguments */
	dwarf = spec->nargs ? dwarf_file(k, &ks) : NULL;
	if (dwarf) {
		bp_info("%s: arguments from DWARF in %s\n", ks.where, dwarf);
		err = resolve_dwarf(dw, &ks, dwarf, points, npoints);
		goto out;
	}
	pts = calloc(ks.nsyms, sizeof(*pts));
	if (!pts) {
		err = -ENOMEM;
		goto out;
	}
	err = resolve_btf(k, &ks, pts);
	if (err) {
		bp_points__free(pts, ks.nsyms);
		goto out;
	}
	*points = pts;
	*npoints = ks.nsyms;
out:
	if (err == -ENOMEM)
		bp_report__line(rep, "%s: out of memory\n", spec->func ? spec->func : "?");
	free(dwarf);
	free(ks.module);
	return err;
}
