// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Pinned sessions: BPFPROBE_PIN_ROOT/NAME holds an attached object's links
 * (link_INSTANCE_N), program instances (prog_NAME) and maps (map_NAME), so
 * its probes keep running after bpfprobe exits; removing the directory's
 * entries drops the last references and the kernel detaches and unloads.
 *
 * bpffs refuses '.' in names (reserved for itself): pins use '_' instead,
 * and a user's NAME starts with a letter or digit, so the staging
 * directories (_new-NAME-PID, _old-NAME-PID) never clash with one.
 *
 * A session is pinned into a staging directory and renamed into
 * place, so a NAME is either complete or absent, and --replace swaps the
 * new one in before the old one is removed: no moment without probes.
 * The staging directory, and the old NAME while it is replaced, are locked
 * (util/dirlock.h) by the bpfprobe at work: those of a killed one are
 * found unlocked and reclaimed by the next (pin_dir.c).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "loader/metadata.h"
#include "loader/object.h"
#include "loader/pin_dir.h"
#include "util/dirlock.h"
#include "util/log.h"
#include "util/opts.h"

#define BPFFS_MOUNT "/sys/fs/bpf"
#define NAME_MAX_LEN 64

/*
 * BPFPROBE_PIN_ROOT, or the directory $BPFPROBE_PIN_ROOT names (an
 * absolute path under the BPF filesystem's mount): a test suite, or a
 * second user of the machine, keeps its sessions apart from the default.
 */
static const char *pin_root(void)
{
	const char *env = getenv("BPFPROBE_PIN_ROOT");

	if (env && env[0] == '/' && !strncmp(env, BPFFS_MOUNT "/", strlen(BPFFS_MOUNT) + 1) &&
	    !strstr(env, "/.."))
		return env;
	return BPFPROBE_PIN_ROOT;
}

const char *bpfprobe_pin__root(void)
{
	return pin_root();
}

static bool name_ok(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (!n || n > NAME_MAX_LEN || name[0] == '_' || name[0] == '-')
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return false;
	return true;
}

static int check_name(const char *name)
{
	if (name_ok(name))
		return 0;
	bp_err("bad pin name '%s': use 1..%d letters, digits, '_' or '-', starting with a letter or digit\n",
	       name ? name : "", NAME_MAX_LEN);
	return -EINVAL;
}

static int ensure_bpffs(void)
{
	struct statfs sfs;

	if (!statfs(BPFFS_MOUNT, &sfs) && sfs.f_type == BPF_FS_MAGIC)
		return 0;
	if (mount("bpffs", BPFFS_MOUNT, "bpf", 0, "mode=0700")) {
		int err = -errno;

		bp_err("cannot mount the BPF filesystem on %s: %s%s\n", BPFFS_MOUNT, strerror(-err),
		       err == -EPERM ? " (needs CAP_SYS_ADMIN)" : "");
		return err;
	}
	bp_info("mounted the BPF filesystem on %s\n", BPFFS_MOUNT);
	return 0;
}

static int make_dir(const char *path)
{
	if (!mkdir(path, 0700) || errno == EEXIST)
		return 0;
	bp_err("cannot create %s: %s\n", path, strerror(errno));
	return -errno;
}

static int pin_fd(int fd, const char *dir, const char *what, const char *name, int n)
{
	char path[PATH_MAX], *p;
	int len;

	if (n >= 0)
		len = snprintf(path, sizeof(path), "%s/%s_%s_%d", dir, what, name, n);
	else
		len = snprintf(path, sizeof(path), "%s/%s_%s", dir, what, name);
	/* map names such as "obj.rodata": no '.' in bpffs */
	for (p = path + len - 1; p > path && *p != '/'; p--)
		if (*p == '.')
			*p = '_';
	if (!bpf_obj_pin(fd, path))
		return 0;
	bp_err("cannot pin %s: %s\n", path, strerror(errno));
	return -errno;
}

static bool is_annotated(const struct bpfprobe_object *obj, const struct bpf_program *prog)
{
	for (int i = 0; i < obj->nprogs; i++)
		if (obj->progs[i].prog == prog)
			return true;
	return false;
}

static int pin_points(struct bpfprobe_object *obj, const char *dir)
{
	int err = 0;

	for (int i = 0; i < obj->naps && !err; i++) {
		struct bp_attach_point *ap = &obj->aps[i];

		if (ap->multi_of >= 0)
			continue;	/* pinned with the link that holds it */
		if (ap->link_fd < 0) {
			bp_err("program '%s': the probe on %s:%s was attached without a bpf_link (kernel before 5.15?): it cannot be pinned\n",
			       ap->owner->name, ap->point->binary, ap->point->func);
			return -EOPNOTSUPP;
		}
		err = pin_fd(ap->link_fd, dir, "link", obj->insts[ap->instance].name, i);
	}
	for (int i = 0; i < obj->ninsts && !err; i++)
		err = pin_fd(obj->insts[i].fd, dir, "prog", obj->insts[i].name, -1);
	/* the programs that keep the followed set current */
	for (int i = 0; i < BP_FOLLOW_PROGS && !err; i++) {
		if (obj->follow.prog_fd[i] < 0)
			continue;
		if (obj->follow.link_fd[i] < 0) {
			bp_err("following processes: a tracepoint was attached without a bpf_link: it cannot be pinned\n");
			return -EOPNOTSUPP;
		}
		err = pin_fd(obj->follow.link_fd[i], dir, "link", "follow", i);
	}
	return err;
}

static int pin_standard(struct bpfprobe_object *obj, const char *dir)
{
	struct bpf_program *prog;
	struct bpf_map *map;
	int err = 0;

	for (int i = 0; i < obj->nstd_links && !err; i++) {
		const struct bpf_program *p = NULL;
		struct bpf_link_info li = {};
		__u32 len = sizeof(li);
		int fd = bpf_link__fd(obj->std_links[i]);

		/* only real bpf_links pin; a perf event attached by ioctl does not */
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &li, &len)) {
			bp_err("a standard program's attachment is not a bpf_link: it cannot be pinned\n");
			return -EOPNOTSUPP;
		}
		bpf_object__for_each_program(prog, obj->obj) {
			struct bpf_prog_info pi = {};
			__u32 plen = sizeof(pi);

			if (bpf_program__fd(prog) >= 0 &&
			    !bpf_obj_get_info_by_fd(bpf_program__fd(prog), &pi, &plen) &&
			    pi.id == li.prog_id)
				p = prog;
		}
		err = pin_fd(fd, dir, "link", p ? bpf_program__name(p) : "std", i);
	}
	bpf_object__for_each_program(prog, obj->obj)
		if (!err && !is_annotated(obj, prog) && bpf_program__fd(prog) >= 0)
			err = pin_fd(bpf_program__fd(prog), dir, "prog", bpf_program__name(prog), -1);
	bpf_object__for_each_map(map, obj->obj)
		if (!err && bpf_map__fd(map) >= 0)
			err = pin_fd(bpf_map__fd(map), dir, "map", bpf_map__name(map), -1);
	return err;
}

static void session_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", pin_root(), name);
}

/* A directory (not a symlink to one) of that name. */
static int pin_exists(const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	if (!name_ok(name))
		return -EINVAL;
	session_path(path, sizeof(path), name);
	return !lstat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * Locks session NAME, which is to be replaced or removed: -EBUSY when
 * another bpfprobe is at it; -EPERM (after a message) when NAME is not a
 * bpfprobe session, which is left alone; -ENOENT when it does not exist.
 */
static int lock_session(const char *name, const char *what)
{
	char path[PATH_MAX];
	int fd, ours;

	session_path(path, sizeof(path), name);
	fd = bp_dirlock__try(path);
	if (fd == -EWOULDBLOCK) {
		bp_err("pinned session '%s' (%s) is being replaced or removed by another bpfprobe: not %s\n",
		       name, path, what);
		return -EBUSY;
	}
	if (fd == -ELOOP || fd == -ENOTDIR) {
		bp_err("%s is a symbolic link or not a directory, not a bpfprobe session: not %s\n", path,
		       what);
		return -EPERM;
	}
	if (fd < 0)
		return fd;
	ours = bp_pin_dir__is_session(pin_root(), name, name);
	if (ours != 1) {
		bp_err("%s is not a bpfprobe session (no program pinned in it carries bpfprobe's metadata naming '%s'): not %s\n",
		       path, name, what);
		close(fd);
		return -EPERM;
	}
	return fd;
}

/*
 * PREFIX NAME-PID, or with a random tail after the first attempt: another
 * PID namespace may hold the same pid, and a name that exists is someone
 * else's, never adopted.
 */
static void staging_path(char *buf, size_t len, const char *prefix, const char *name, int attempt)
{
	unsigned int r = 0;

	if (attempt && getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = (unsigned int)attempt * 2654435761u;
	if (attempt)
		snprintf(buf, len, "%s/%s%s-%dr%08x", pin_root(), prefix, name, (int)getpid(), r);
	else
		snprintf(buf, len, "%s/%s%s-%d", pin_root(), prefix, name, (int)getpid());
}

/* Moves the staging directory to NAME, the old NAME aside first. */
static int install(const char *staging, const char *name, bool replace)
{
	char final[PATH_MAX], old[PATH_MAX];
	bool moved_old = false;
	int old_lock = -1;

	session_path(final, sizeof(final), name);
	if (replace) {
		struct stat st;

		/* rename() would put a directory over an empty one there */
		for (int tries = 0; tries < 8; tries++) {
			staging_path(old, sizeof(old), BP_PIN_STAGING_OLD, name, tries);
			if (lstat(old, &st) && errno == ENOENT)
				break;
		}
		/* held across the renames: the old session, aside, is never
		 * taken for one whose replace was killed */
		old_lock = lock_session(name, "replaced");
		if (old_lock < 0 && old_lock != -ENOENT)
			return old_lock;
		if (old_lock >= 0 && !rename(final, old))
			moved_old = true;
	}
	if (rename(staging, final)) {
		int err = errno == ENOTEMPTY || errno == EEXIST ? -EEXIST : -errno;

		if (moved_old)
			rename(old, final);
		if (err == -EEXIST)
			bp_err("pin name '%s' exists (%s): unload it first or use --replace\n", name, final);
		else
			bp_err("cannot rename %s to %s: %s\n", staging, final, strerror(-err));
		if (old_lock >= 0)
			close(old_lock);
		return err;
	}
	if (moved_old && bp_pin_dir__remove(pin_root(), strrchr(old, '/') + 1, name, false))
		bp_err("warning: could not remove the replaced session's pins in %s\n", old);
	if (old_lock >= 0)
		close(old_lock);
	return 0;
}

static int object_pin(struct bpfprobe_object *obj, const char *name,
		      const struct bpfprobe_pin_opts *opts)
{
	bool replace = false;
	char staging[PATH_MAX];
	int err, lock = -EAGAIN;

	if (!obj || !obj->loaded || !OPTS_VALID(opts, bpfprobe_pin_opts))
		return -EINVAL;
	err = check_name(name);
	if (err)
		return err;
	if (OPTS_HAS(opts, replace))
		replace = opts->replace;
	bp_pin_dir__reclaim(pin_root());
	if (!replace && bpfprobe_pin__exists(name) == 1) {
		bp_err("pin name '%s' exists (%s/%s): unload it first or use --replace\n",
		       name, pin_root(), name);
		return -EEXIST;
	}
	err = ensure_bpffs();
	if (!err)
		err = make_dir(pin_root());
	if (err)
		return err;
	/* locked while we fill it: a killed run's is unlocked, reclaimed */
	for (int tries = 0; tries < 8 && (lock == -EAGAIN || lock == -EEXIST); tries++) {
		staging_path(staging, sizeof(staging), BP_PIN_STAGING_NEW, name, tries);
		lock = bp_dirlock__create(staging, 0700);
	}
	if (lock < 0) {
		bp_err("cannot create %s: %s\n", staging, strerror(-lock));
		return lock;
	}
	bp_meta__update_object(obj, "pin", name, false);
	err = pin_points(obj, staging);
	if (!err)
		err = pin_standard(obj, staging);
	if (!err)
		err = install(staging, name, replace);
	if (!err) {
		obj->follow.pinned = true;
		/* no one is left to look at execs: nothing is held, what was goes on */
		bp_follow__set_watch(&obj->follow, 0);
		bp_follow__read_events(&obj->follow, NULL, NULL);
	}
	if (err) {
		bp_pin_dir__remove(pin_root(), strrchr(staging, '/') + 1, name, true);
		bp_meta__update_object(obj, "pin", "", false);
		rmdir(pin_root());	/* only if empty */
	}
	close(lock);
	return err;
}

static int pin_remove(const char *name)
{
	char path[PATH_MAX];
	int err = check_name(name), lock;

	if (err)
		return err;
	session_path(path, sizeof(path), name);
	bp_pin_dir__reclaim(pin_root());
	if (bpfprobe_pin__exists(name) != 1) {
		struct stat st;

		if (lstat(path, &st) && errno == EACCES) {
			bp_err("cannot look at %s: permission denied (run as root)\n", path);
			return -EACCES;
		}
		if (!lstat(path, &st)) {
			bp_err("%s is a symbolic link or not a directory, not a bpfprobe session: left as it is\n",
			       path);
			return -EPERM;
		}
		bp_err("no pinned bpfprobe session '%s' (%s does not exist)\n", name, path);
		return -ENOENT;
	}
	lock = lock_session(name, "removed");
	if (lock < 0)
		return lock;
	err = bp_pin_dir__remove(pin_root(), name, name, false);
	close(lock);
	rmdir(pin_root());	/* the last one leaves nothing behind */
	return err;
}

static int pin_for_each(int (*cb)(const char *name, void *ctx), void *ctx)
{
	char **names = NULL;
	struct dirent *de;
	int n = 0, err = 0;
	DIR *d;

	bp_pin_dir__reclaim(pin_root());
	d = opendir(pin_root());
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	/* names first: cb may remove entries */
	while ((de = readdir(d))) {
		char **nn;

		if (!name_ok(de->d_name) || de->d_type != DT_DIR)
			continue;
		/* another tool's directory under the root is not a session */
		if (bp_pin_dir__is_session(pin_root(), de->d_name, de->d_name) != 1) {
			bp_info("%s/%s is not a bpfprobe session: left out\n", pin_root(), de->d_name);
			continue;
		}
		nn = realloc(names, (n + 1) * sizeof(*nn));
		if (!nn || !(nn[n] = strdup(de->d_name))) {
			names = nn ? nn : names;
			err = -ENOMEM;
			break;
		}
		names = nn;
		n++;
	}
	closedir(d);
	for (int i = 0; i < n; i++) {
		if (!err)
			err = cb(names[i], ctx);
		free(names[i]);
	}
	free(names);
	return err;
}

int bpfprobe_pin__exists(const char *name)
{
	return bp_api_err(pin_exists(name));
}

int bpfprobe_object__pin(struct bpfprobe_object *obj, const char *name,
			 const struct bpfprobe_pin_opts *opts)
{
	return bp_api_err(object_pin(obj, name, opts));
}

int bpfprobe_pin__remove(const char *name)
{
	return bp_api_err(pin_remove(name));
}

int bpfprobe_pin__for_each(int (*cb)(const char *name, void *ctx), void *ctx)
{
	return bp_api_err(pin_for_each(cb, ctx));
}
