// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The processes an unwinder has modules for: each one's maps at some
 * time (uw_at.c makes them: a snapshot, or what the kernel reported) and
 * a Dwfl of its modules, reported from those maps (not from
 * /proc/PID/maps at unwind time: the process may be gone) and opened at
 * once, so that the modules' files are mapped here while they are the
 * ones the process ran. A module's file is opened through
 * /proc/PID/map_files/ (the very file, even deleted) while the process
 * lives, else through its root, else by its path if it is still the same
 * device and inode. A module the kernel reported by its executable
 * mapping alone is opened before it is reported to the Dwfl: its span
 * comes from its program headers. The vDSO is this process's own copy:
 * every process of a kernel maps the same image.
 *
 * The Dwfl gets libdwfl's unwinder with thread callbacks of our own:
 * registers from the sample, memory from the sample's stack bytes, else
 * from /proc/PID/mem while the process lives (opened when the process is
 * noted, so that a pid reused later cannot answer for it).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <gelf.h>

#include "unwind/uw_core.h"
#include "unwind/uw_elf.h"
#include "unwind/uw_sym.h"

const void *uw_unwinder__vdso(struct bp_unwinder *u, size_t *size)
{
	if (!u->vdso_tried) {
		u->vdso_tried = true;
		if (uw_elf__vdso(&u->vdso, &u->vdso_size))
			u->vdso = NULL;
	}
	*size = u->vdso_size;
	return u->vdso;
}

struct uw_mod *uw_proc__mod(Dwfl_Module *mod)
{
	void **userdata = NULL;

	dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	return userdata ? *userdata : NULL;
}

bool uw_proc__alive(const struct uw_proc *p)
{
	__u64 now;

	return p->may_live && !uw_proc__start_time(p->pid, &now) && now == p->maps->start_time;
}

/* Opens um's file as the process mapped it (uw_elf__open's errors). */
static int open_module(struct uw_mod *um, Elf **elf)
{
	const struct uw_map *m = um->m;
	struct uw_proc *p = um->p;
	char path[4200];
	bool alive = uw_proc__alive(p);
	int err = -ENOENT;

	if (alive) {
		snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", (int)p->pid,
			 (unsigned long long)m->first_start, (unsigned long long)m->first_end);
		err = uw_elf__open(path, NULL, elf);
		if (!err)
			return 0;
		if (!m->deleted) {
			snprintf(path, sizeof(path), "/proc/%d/root%s", (int)p->pid, m->path);
			err = uw_elf__open(path, m, elf);
			if (!err)
				return 0;
		}
	}
	if (m->deleted)
		return alive ? err : -ENOENT;
	return uw_elf__open(m->path, m, elf);
}

int uw_proc__pread(struct uw_mod *um, void *buf, size_t len, __u64 off)
{
	const struct uw_map *m = um->m;
	char path[4200];
	struct stat st;
	ssize_t n;
	int fd = -1;

	if (uw_proc__alive(um->p)) {
		snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", (int)um->p->pid,
			 (unsigned long long)m->first_start, (unsigned long long)m->first_end);
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0 && !m->deleted && !m->vdso) {
		fd = open(m->path, O_RDONLY | O_CLOEXEC);
		/* only the file the process mapped */
		if (fd >= 0 && (fstat(fd, &st) || st.st_ino != m->ino ||
				major(st.st_dev) != m->dev_major || minor(st.st_dev) != m->dev_minor)) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0)
		return -ENOENT;
	n = pread(fd, buf, len, (off_t)off);
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

int uw_proc__find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		      Dwarf_Addr base, char **file_name, Elf **elfp)
{
	struct uw_mod *um = *userdata;
	const void *image;
	size_t size;

	*elfp = NULL;
	if (!um)
		return -1;
	if (um->m->vdso) {
		image = uw_unwinder__vdso(um->p->u, &size);
		*elfp = image ? elf_memory((char *)image, size) : NULL;
		um->open_err = *elfp ? 0 : -ENOENT;
		return -1;
	}
	if (um->pending) {
		/* opened already, for its span */
		*elfp = um->pending;
		um->pending = NULL;
	} else if (!um->open_err) {
		um->open_err = open_module(um, elfp);
	}
	if (*elfp)
		*file_name = strdup(um->m->path);
	return -1;
}

/* Thread callbacks: one thread, the sample's. */
static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct uw_proc *p = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = p;
	return p->s && p->s->tid ? (pid_t)p->s->tid : p->pid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	*thread_argp = arg;
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct uw_proc *p = arg;
	const struct bp_stack_sample *s = p->s;
	__u64 rsp = s->regs[1];
	bool stack = addr >= rsp && addr - rsp < UW_STACK_REACH;

	if (stack && addr - rsp <= s->size && s->size - (addr - rsp) >= sizeof(*result)) {
		memcpy(result, s->stack + (addr - rsp), sizeof(*result));
		return true;
	}
	/* the live stack holds other frames now, unless asked for */
	if (p->mem_fd >= 0 && !p->u->sample_only && (!stack || p->u->live_stack) &&
	    pread(p->mem_fd, result, sizeof(*result), (off_t)addr) == sizeof(*result))
		return true;
	p->read_failed = true;
	p->failed_addr = addr;
	return false;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	const struct bp_stack_sample *s = ((struct uw_proc *)arg)->s;
	/* DWARF numbers: rbx 3, rbp 6, rsp 7, r12..r15 12..15 */
	Dwarf_Word rbx = s->regs[3], bp_sp[2] = { s->regs[2], s->regs[1] };

	return dwfl_thread_state_registers(thread, 3, 1, &rbx) &&
	       dwfl_thread_state_registers(thread, 6, 2, bp_sp) &&
	       dwfl_thread_state_registers(thread, 12, 4, (const Dwarf_Word *)&s->regs[4]) &&
	       (dwfl_thread_state_register_pc(thread, s->regs[0]), true);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

void uw_proc__free(struct uw_proc *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nmods; i++) {
		uw_dbg__free(p->mods[i].own);
		if (p->mods[i].pending)
			elf_end(p->mods[i].pending);
	}
	if (p->dwfl)
		dwfl_end(p->dwfl);
	free(p->mods);
	free(p->memo);
	uw_maps__free(p->maps);
	if (p->mem_fd >= 0)
		close(p->mem_fd);
	free(p);
}

/*
 * Opens the modules the kernel reported by their executable mapping, for
 * their span (low, high: from their program headers, where the mapping
 * puts them); one that cannot be opened keeps its mapping's, and says
 * why when a frame is in it. Spans then overlapping (a module's
 * reported over another's data, which was unmapped) are cut back.
 */
static void open_reported(struct uw_proc *p)
{
	struct uw_maps *maps = p->maps;
	struct uw_mod *um;
	size_t i;

	for (i = 0; i < maps->n; i++) {
		struct uw_map *m = &maps->v[i];
		__u64 low, high;

		if (!m->exec_only)
			continue;
		um = &p->mods[i];
		um->p = p;
		um->m = m;
		um->open_err = open_module(um, &um->pending);
		if (um->open_err)
			continue;
		if (uw_elf__module_span(um->pending, m->first_start, m->first_off, &low, &high)) {
			elf_end(um->pending);
			um->pending = NULL;
			um->open_err = -ENOEXEC;
			continue;
		}
		m->low = low;
		m->high = high > m->first_end ? high : m->first_end;
	}
	for (i = 1; i < maps->n; i++) {
		struct uw_map *prev = &maps->v[i - 1], *m = &maps->v[i];

		if (prev->high <= m->low)
			continue;
		/* keep each one's executable mapping: cut the span below */
		if (m->low > prev->first_end || !prev->exec_only)
			prev->high = m->low;
		else
			prev->high = prev->first_end;
		if (prev->high <= prev->low)
			prev->high = prev->low + 1;
	}
}

/* Reports the maps' modules and opens them. */
static int build_dwfl(struct uw_proc *p)
{
	Elf *arch_elf = NULL;
	size_t i, n = p->maps->n;
	struct uw_mod *mods;

	p->dwfl = dwfl_begin(&p->u->proc_cb);
	/* one per map, by index, while the reported ones are opened */
	mods = calloc(n ? n : 1, sizeof(*mods));
	if (!p->dwfl || !mods) {
		free(mods);
		return -ENOMEM;
	}
	p->mods = mods;
	open_reported(p);
	dwfl_report_begin(p->dwfl);
	for (i = 0; i < n; i++) {
		const struct uw_map *m = &p->maps->v[i];
		struct uw_mod *um = &p->mods[p->nmods];
		void **userdata = NULL;

		if (um != &mods[i])
			*um = mods[i];
		um->p = p;
		um->m = m;
		um->mod = dwfl_report_module(p->dwfl, m->path, m->low, m->high);
		if (!um->mod) {
			if (um->pending)
				elf_end(um->pending);
			um->pending = NULL;
			continue;
		}
		dwfl_module_info(um->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
		if (userdata)
			*userdata = um;
		p->nmods++;
	}
	if (dwfl_report_end(p->dwfl, NULL, NULL))
		return -ENOMEM;
	/* open every module now, while its file is the one mapped */
	for (i = 0; i < p->nmods; i++) {
		Dwarf_Addr bias;
		Elf *elf = dwfl_module_getelf(p->mods[i].mod, &bias);

		if (elf && !arch_elf && !p->mods[i].m->vdso)
			arch_elf = elf;
	}
	/* a sample holds x86-64 registers: a 32-bit process is not unwound */
	if (arch_elf) {
		GElf_Ehdr eh;

		if (!gelf_getehdr(arch_elf, &eh) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
		    eh.e_machine != EM_X86_64) {
			p->why_not = "it is not an x86-64 process";
			return 0;
		}
	}
	/* the architecture from a module of the process (NULL: libdwfl looks) */
	p->attached = dwfl_attach_state(p->dwfl, arch_elf, p->pid, &thread_callbacks, p);
	if (!p->attached)
		p->why_not = dwfl_errmsg(-1);
	return 0;
}

struct uw_proc *uw_proc__get(struct bp_unwinder *u, pid_t pid)
{
	size_t i;

	for (i = 0; i < u->nprocs; i++) {
		if (u->procs[i]->pid == pid) {
			u->procs[i]->stamp = ++u->clock;
			return u->procs[i];
		}
	}
	return NULL;
}

static void drop(struct bp_unwinder *u, size_t i)
{
	uw_proc__free(u->procs[i]);
	u->procs[i] = u->procs[--u->nprocs];
}

void uw_proc__forget(struct bp_unwinder *u, pid_t pid)
{
	size_t i;

	for (i = 0; i < u->nprocs; i++) {
		if (u->procs[i]->pid == pid) {
			drop(u, i);
			return;
		}
	}
}

int uw_proc__build(struct bp_unwinder *u, pid_t pid, struct uw_maps *maps,
		   const struct uw_proc_key *key, struct uw_proc **out)
{
	char path[64];
	struct uw_proc *p;
	size_t i, lru;
	int err;

	p = calloc(1, sizeof(*p));
	if (!p) {
		uw_maps__free(maps);
		return -ENOMEM;
	}
	p->u = u;
	p->pid = pid;
	p->maps = maps;
	p->key = *key;
	p->mem_fd = -1;
	if (key->may_live) {
		__u64 start;

		/* bound to this process before it is checked: a later reuse
		 * of the pid cannot answer for it */
		snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
		p->mem_fd = open(path, O_RDONLY | O_CLOEXEC);
		/* the maps of a snapshot say when it started; reported ones
		 * ask (a process that started after the sample is another) */
		if (!maps->start_time && !uw_proc__start_time(pid, &start) &&
		    uw_proc__older_than(start, key->time_ns))
			maps->start_time = start;
		p->may_live = maps->start_time != 0;
	}
	err = build_dwfl(p);
	if (err) {
		uw_proc__free(p);
		return err;
	}
	uw_proc__forget(u, pid);
	if (u->nprocs == (size_t)u->max_procs) {
		for (lru = 0, i = 1; i < u->nprocs; i++)
			if (u->procs[i]->stamp < u->procs[lru]->stamp)
				lru = i;
		/* without reports, a process's snapshot goes with its modules */
		if (!u->hists.tracking)
			uw_hists__forget(&u->hists, u->procs[lru]->pid);
		drop(u, lru);
	}
	p->stamp = ++u->clock;
	u->procs[u->nprocs++] = p;
	*out = p;
	return 0;
}
