// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Reading one option of the running kernel's configuration. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "util/kconfig.h"

/* Either file is a text (or gzip'ed) list of "CONFIG_X=y" and
 * "# CONFIG_X is not set" lines; gzopen reads plain files too. */
static int lookup(const char *path, const char *option)
{
	size_t len = strlen(option);
	char line[512];
	gzFile f;
	int found = 0;

	f = gzopen(path, "rb");
	if (!f)
		return -ENOENT;
	while (gzgets(f, line, sizeof(line))) {
		if (!strncmp(line, option, len) && line[len] == '=') {
			found = line[len + 1] == 'y' || line[len + 1] == 'm';
			break;
		}
	}
	gzclose(f);
	/* an option absent from the file is not set */
	return found;
}

int bp_kconfig__get(const char *option)
{
	char path[300];
	struct utsname u;
	int ret;

	ret = lookup("/proc/config.gz", option);
	if (ret != -ENOENT || uname(&u))
		return ret;
	snprintf(path, sizeof(path), "/boot/config-%s", u.release);
	return lookup(path, option);
}
