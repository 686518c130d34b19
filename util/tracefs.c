// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* tracefs is often not mounted (it is not on our CI machines): mount it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>
#include "util/log.h"
#include "util/tracefs.h"

static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

static int has_trace_file(const char *root)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/trace", root);
	return access(path, F_OK) == 0;
}

const char *bp_tracefs__root(void)
{
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (has_trace_file(roots[i]))
			return roots[i];
	if (mount("nodev", roots[0], "tracefs", 0, NULL) == 0 && has_trace_file(roots[0]))
		return roots[0];
	bp_err("tracefs is not mounted and mounting it on %s failed: %s (CAP_SYS_ADMIN is needed)\n",
	       roots[0], strerror(errno));
	return NULL;
}

int bp_tracefs__write(const char *root, const char *rel, const char *str)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, str, strlen(str));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

static FILE *open_event_file(const char *root, const char *event, const char *file)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/events/%s/%s", root, event, file);
	return fopen(path, "re");
}

int bp_tracefs__event_id(const char *root, const char *event)
{
	FILE *f = open_event_file(root, event, "id");
	int id, err;

	if (!f)
		return -errno;
	err = fscanf(f, "%d", &id) == 1 && id >= 0 ? id : -EINVAL;
	fclose(f);
	return err;
}

/* Lines read "\tfield:TYPE NAME[N];\toffset:O;\tsize:S;\tsigned:G;". */
int bp_tracefs__field_offset(const char *root, const char *event, const char *field)
{
	FILE *f = open_event_file(root, event, "format");
	char line[512];
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret == -ENOENT && fgets(line, sizeof(line), f)) {
		char *decl = strstr(line, "field:"), *semi, *name, *off;

		if (!decl || !(semi = strchr(decl, ';')) || !(off = strstr(semi, "offset:")))
			continue;
		*semi = '\0';
		name = strrchr(decl, ' ');
		if (!name || strncmp(name + 1, field, strlen(field)) ||
		    (name[1 + strlen(field)] && name[1 + strlen(field)] != '['))
			continue;
		ret = atoi(off + strlen("offset:"));
	}
	fclose(f);
	return ret;
}
