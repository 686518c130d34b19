// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * /proc/PID/maps read into modules: consecutive mappings of one file (same
 * device, inode and path) make one module, as libdwfl's own report does;
 * only files with an executable mapping are kept, and the vDSO.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "unwind/uw_maps.h"
#include "util/grow.h"

void uw_maps__free(struct uw_maps *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
	free(m);
}

/* The whole of a /proc file (NUL-terminated, malloc'd), or NULL with errno. */
static char *slurp(const char *path, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap), *tmp;
	ssize_t r;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (cap - n < 4096) {
			tmp = realloc(buf, cap * 2);
			if (!tmp) {
				r = -1;
				errno = ENOMEM;
				break;
			}
			buf = tmp;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r <= 0)
			break;
		n += r;
	}
	if (r < 0) {
		int e = errno;

		close(fd);
		free(buf);
		errno = e;
		return NULL;
	}
	close(fd);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

int uw_proc__start_time(pid_t pid, __u64 *ticks)
{
	char path[64], *buf, *p;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	buf = slurp(path, NULL);
	if (!buf)
		return errno == ENOMEM ? -ENOMEM : -ESRCH;
	/* the command may hold spaces and parentheses: fields follow the last ')' */
	p = strrchr(buf, ')');
	/* field 3 (state) comes first; starttime is field 22 */
	for (i = 3; p && i <= 22; i++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p || sscanf(p, "%llu", (unsigned long long *)ticks) != 1) {
		free(buf);
		return -ESRCH;
	}
	free(buf);
	return 0;
}

int uw_maps__exe(pid_t pid, __u64 *dev, __u64 *ino)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	if (stat(path, &st))
		return -ESRCH;
	*dev = st.st_dev;
	*ino = st.st_ino;
	return 0;
}

static __u64 clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

bool uw_proc__older_than(__u64 start_time, __u64 sample_ns)
{
	long hz = sysconf(_SC_CLK_TCK);
	__u64 start_ns, sample_boot;

	if (!sample_ns || hz <= 0)
		return true;
	start_ns = start_time * (1000000000ULL / hz);
	/* starttime counts on the boot clock, which runs on in suspend;
	 * bpf_ktime_get_ns() does not. Today's difference is at least the
	 * one at the sample, which can only make the process look older. */
	sample_boot = sample_ns + (clock_ns(CLOCK_BOOTTIME) - clock_ns(CLOCK_MONOTONIC));
	/* starttime has the clock tick's grain */
	return start_ns <= sample_boot + 2 * (1000000000ULL / hz);
}

static int add_map(struct uw_maps *m, const struct uw_map *map)
{
	int err = bp_grow((void **)&m->v, m->n, &m->cap, sizeof(*m->v), 32);

	if (err)
		return err;
	m->v[m->n++] = *map;
	return 0;
}

/* Parses one line of maps into cur (path pointing into line). */
static int parse_line(char *line, struct uw_map *cur, bool *exec)
{
	unsigned long long start, end, off, ino;
	unsigned int major, minor;
	char perms[8];
	int n = -1;
	char *path;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &off,
		   &major, &minor, &ino, &n) < 7 || n < 0)
		return -EIO;
	path = line + n;
	path += strspn(path, " \t");
	*cur = (struct uw_map){
		.low = start, .high = end, .first_start = start, .first_end = end,
		.first_off = off, .ino = ino, .dev_major = major, .dev_minor = minor,
		.path = path,
	};
	*exec = perms[2] == 'x';
	return 0;
}

static bool same_file(const struct uw_map *a, const struct uw_map *b)
{
	return a->ino == b->ino && a->dev_major == b->dev_major && a->dev_minor == b->dev_minor &&
	       !strcmp(a->path, b->path);
}

/* Keeps group (its path still in the maps text) when it is a module. */
static int keep(struct uw_maps *m, struct uw_map *group, bool exec)
{
	static const char deleted[] = " (deleted)";
	struct uw_map copy = *group;
	size_t len;

	if (!exec)
		return 0;
	if (!strcmp(group->path, "[vdso]")) {
		copy.vdso = true;
	} else if (group->path[0] != '/' || (!group->ino && !group->dev_major && !group->dev_minor)) {
		/* anonymous memory, [vsyscall], [stack]: no module */
		return 0;
	}
	len = strlen(copy.path);
	if (len > sizeof(deleted) - 1 && !strcmp(copy.path + len - (sizeof(deleted) - 1), deleted)) {
		copy.deleted = true;
		len -= sizeof(deleted) - 1;
	}
	copy.path = strndup(copy.path, len);
	if (!copy.path)
		return -ENOMEM;
	if (add_map(m, &copy)) {
		free(copy.path);
		return -ENOMEM;
	}
	return 0;
}

static int parse_maps(struct uw_maps *m, char *text)
{
	struct uw_map group = { 0 }, cur;
	bool have = false, group_exec = false, exec;
	char *line, *next;
	int err;

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		err = parse_line(line, &cur, &exec);
		if (err)
			return err;
		if (have && cur.ino && same_file(&group, &cur) && cur.low >= group.high) {
			/* another part of the same file */
			group.high = cur.high;
			group_exec |= exec;
			continue;
		}
		if (!cur.ino && have && cur.path[0] != '[' && !*cur.path) {
			/* anonymous memory between a file's parts (its .bss) */
			continue;
		}
		if (have) {
			err = keep(m, &group, group_exec);
			if (err)
				return err;
		}
		group = cur;
		group_exec = exec;
		have = true;
	}
	return have ? keep(m, &group, group_exec) : 0;
}

int uw_maps__read(pid_t pid, struct uw_maps **out)
{
	struct uw_maps *m;
	char path[64], *text;
	__u64 before, after;
	int err;

	*out = NULL;
	err = uw_proc__start_time(pid, &before);
	if (err)
		return err;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->pid = pid;
	m->start_time = before;
	m->taken_ns = clock_ns(CLOCK_MONOTONIC);
	/* a kernel thread has none: then no module either */
	uw_maps__exe(pid, &m->exe_dev, &m->exe_ino);
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	text = slurp(path, NULL);
	if (!text) {
		err = errno == ENOMEM ? -ENOMEM : -ESRCH;
		goto err;
	}
	err = parse_maps(m, text);
	free(text);
	if (err)
		goto err;
	/* the same process all along (not a pid reused meanwhile), with
	 * maps: a zombie's are empty */
	if (uw_proc__start_time(pid, &after) || after != before || !m->n) {
		err = -ESRCH;
		goto err;
	}
	*out = m;
	return 0;
err:
	uw_maps__free(m);
	return err;
}

const struct uw_map *uw_maps__find(const struct uw_maps *m, __u64 addr)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < m->v[mid].low)
			hi = mid;
		else if (addr >= m->v[mid].high)
			lo = mid + 1;
		else
			return &m->v[mid];
	}
	return NULL;
}

struct uw_maps *uw_maps__dup(const struct uw_maps *m)
{
	struct uw_maps *d = calloc(1, sizeof(*d));
	size_t i;

	if (!d)
		return NULL;
	*d = *m;
	d->v = NULL;
	d->n = d->cap = 0;
	if (!m->n)
		return d;
	d->v = calloc(m->n, sizeof(*d->v));
	if (!d->v) {
		free(d);
		return NULL;
	}
	d->cap = m->n;
	for (i = 0; i < m->n; i++) {
		d->v[i] = m->v[i];
		d->v[i].path = strdup(m->v[i].path);
		if (!d->v[i].path) {
			uw_maps__free(d);
			return NULL;
		}
		d->n++;
	}
	return d;
}

int uw_maps__insert(struct uw_maps *m, const struct uw_map *map)
{
	size_t i;

	if (add_map(m, map)) {
		free(map->path);
		return -ENOMEM;
	}
	/* one step down per module above it: it usually goes last */
	for (i = m->n - 1; i > 0 && m->v[i - 1].low > map->low; i--)
		m->v[i] = m->v[i - 1];
	m->v[i] = *map;
	return 0;
}

void uw_maps__cut(struct uw_maps *m, __u64 start, __u64 end)
{
	size_t i, k = 0;

	for (i = 0; i < m->n; i++) {
		const struct uw_map *v = &m->v[i];
		__u64 low = v->exec_only ? v->first_start : v->low;
		__u64 high = v->exec_only ? v->first_end : v->high;

		if (low < end && start < high) {
			free(m->v[i].path);
			continue;
		}
		m->v[k++] = m->v[i];
	}
	m->n = k;
}

bool uw_maps__same(const struct uw_maps *a, const struct uw_maps *b)
{
	size_t i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++) {
		const struct uw_map *x = &a->v[i], *y = &b->v[i];

		if (x->first_start != y->first_start || x->first_end != y->first_end ||
		    x->first_off != y->first_off || x->ino != y->ino ||
		    x->dev_major != y->dev_major || x->dev_minor != y->dev_minor ||
		    x->exec_only != y->exec_only || x->vdso != y->vdso ||
		    x->deleted != y->deleted || strcmp(x->path, y->path) ||
		    (!x->exec_only && (x->low != y->low || x->high != y->high)))
			return false;
	}
	return true;
}
