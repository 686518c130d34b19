// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpfprobe_value__format(): one typed value as text or JSON, in memory. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfprobe/bpfprobe.h>

#include "output/json_out.h"
#include "output/text_out.h"
#include "util/json.h"

char *bpfprobe_value__format(const struct btf *btf, unsigned int type_id, const void *data,
			     size_t size, bool json)
{
	struct bp_typed v = { .btf = btf, .type_id = btf ? type_id : 0, .data = data,
			      .size = size };
	struct bp_json *j = NULL;
	size_t len = 0;
	char *buf = NULL;
	FILE *f;
	int err = 0;

	if (!data && size) {
		errno = EINVAL;
		return NULL;
	}
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	if (json) {
		j = bp_json__new(f, NULL);
		if (j)
			bp_jsonout__value(j, &v);
		err = j ? bp_json__free(j) : -ENOMEM;
	} else {
		bp_text__value(f, &v);
	}
	if (fclose(f) && !err)
		err = -EIO;
	if (err) {
		free(buf);
		errno = -err;
		return NULL;
	}
	/* a top-level JSON value ends its line */
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}
