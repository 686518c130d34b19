// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include "output/printk_event.h"
#include "util/log.h"

struct bp_printk_decoder {
	struct tep_handle *tep;
	struct tep_event *event;
	struct tep_format_field *str;
};

struct bp_printk_decoder *bp_printk_decoder__new(const char *format, size_t len)
{
	struct bp_printk_decoder *d = calloc(1, sizeof(*d));
	enum tep_errno err;

	if (!d)
		return NULL;
	d->tep = tep_alloc();
	if (!d->tep)
		goto fail;
	tep_set_long_size(d->tep, sizeof(long));
	tep_set_page_size(d->tep, getpagesize());
	err = tep_parse_event(d->tep, format, len, "bpf_trace");
	if (err) {
		char buf[128];

		tep_strerror(d->tep, err, buf, sizeof(buf));
		bp_err("cannot parse the bpf_trace_printk event format: %s\n", buf);
		goto fail;
	}
	d->event = tep_find_event_by_name(d->tep, "bpf_trace", "bpf_trace_printk");
	d->str = d->event ? tep_find_field(d->event, "bpf_string") : NULL;
	if (!d->str) {
		bp_err("the bpf_trace_printk event format has no bpf_string field\n");
		goto fail;
	}
	return d;
fail:
	bp_printk_decoder__free(d);
	return NULL;
}

void bp_printk_decoder__free(struct bp_printk_decoder *d)
{
	if (!d)
		return;
	tep_free(d->tep);
	free(d);
}

int bp_printk_decoder__decode(struct bp_printk_decoder *d, void *data, int size,
			      int *pid, const char **msg, size_t *len)
{
	struct tep_record rec = { .data = data, .size = size };
	const char *s;
	int n = 0;

	if (size < d->str->offset + d->str->size || tep_data_type(d->tep, &rec) != d->event->id)
		return 0;
	s = tep_get_field_raw(NULL, d->event, "bpf_string", &rec, &n, 0);
	if (!s || n < 0)
		return 0;
	/* the dynamic string must lie inside the event */
	if (s < (const char *)data || s + n > (const char *)data + size)
		return 0;
	*len = strnlen(s, n);
	while (*len && s[*len - 1] == '\n')
		(*len)--;
	*pid = tep_data_pid(d->tep, &rec);
	*msg = s;
	return 1;
}
