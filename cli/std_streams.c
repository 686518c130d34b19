// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * stdout and stderr as fopencookie() streams over descriptors 1 and 2
 * (std_streams.h): each piece stdio hands over is escaped (util/utf8.h)
 * and written with one write(2) when it can be, so that a pipe shared
 * with the workload still gets whole lines. A UTF-8 sequence cut between
 * two pieces is held back until the next one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/std_streams.h"
#include "util/utf8.h"

struct stream {
	int fd;
	int err;		/* the first write that failed: -errno */
	unsigned char tail[4];	/* an incomplete UTF-8 sequence held back */
	size_t ntail;
	char *buf;		/* escaped text */
	size_t cap;
};

static struct stream out_stream = { .fd = STDOUT_FILENO };
static struct stream err_stream = { .fd = STDERR_FILENO };
static bool said;

static int write_all(struct stream *s, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(s->fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;

			s->err = -e;
			errno = e;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Without memory for the escaped text: piece by piece, escaped all the same. */
static int emit_pieces(struct stream *s, const char *p, size_t n)
{
	char e[2 * BP_ESC_MAX];

	while (n) {
		size_t plain = bp_utf8__plain_len(p, n, 0), k;

		if (write_all(s, p, plain))
			return -1;
		p += plain;
		n -= plain;
		if (!n)
			break;
		/* one byte, or the two of a C1 control */
		k = n > 1 && (unsigned char)p[0] == 0xc2 && (unsigned char)p[1] < 0xa0 ? 2 : 1;
		if (write_all(s, e, bp_utf8__escape(e, p, k, 0)))
			return -1;
		p += k;
		n -= k;
	}
	return 0;
}

/* p[0..n) escaped, in one write when memory allows. */
static int emit(struct stream *s, const char *p, size_t n)
{
	if (bp_utf8__plain_len(p, n, 0) == n)
		return write_all(s, p, n);
	if (n > s->cap / BP_ESC_MAX) {
		char *b = realloc(s->buf, n * BP_ESC_MAX);

		if (!b)
			return emit_pieces(s, p, n);
		s->buf = b;
		s->cap = n * BP_ESC_MAX;
	}
	return write_all(s, s->buf, bp_utf8__escape(s->buf, p, n, 0));
}

/* The sequence held back, completed by what comes now (buf) or not.
 * Returns how many bytes of buf it took, or -1 after a failed write. */
static ssize_t finish_tail(struct stream *s, const char *buf, size_t size)
{
	unsigned char seq[8];
	size_t n = s->ntail, take = size < 4 - n ? size : 4 - n, len;

	memcpy(seq, s->tail, n);
	memcpy(seq + n, buf, take);
	s->ntail = 0;
	len = bp_utf8__seq_len(seq, n + take);
	if (len)
		return emit(s, (const char *)seq, len) ? -1 : (ssize_t)(len - n);
	if (take == size && bp_utf8__partial_tail(seq, n + take) == n + take) {
		/* still cut: keep waiting */
		memcpy(s->tail, seq, n + take);
		s->ntail = n + take;
		return (ssize_t)size;
	}
	/* not UTF-8 after all: its bytes are escaped one by one */
	return emit(s, (const char *)seq, n) ? -1 : 0;
}

/* fopencookie's write: size on success, 0 on failure (stdio's error). */
static ssize_t stream_write(void *cookie, const char *buf, size_t size)
{
	struct stream *s = cookie;
	size_t start = 0, keep;

	if (s->err) {
		errno = -s->err;
		return 0;
	}
	if (s->ntail) {
		ssize_t took = finish_tail(s, buf, size);

		if (took < 0)
			return 0;
		start = (size_t)took;
	}
	if (start == size)
		return (ssize_t)size;
	keep = bp_utf8__partial_tail((const unsigned char *)buf + start, size - start);
	if (emit(s, buf + start, size - start - keep))
		return 0;
	memcpy(s->tail, buf + size - keep, keep);
	s->ntail = keep;
	return (ssize_t)size;
}

/* What is held back at the end is no UTF-8: escaped. */
static void flush_tail(struct stream *s)
{
	size_t n = s->ntail;

	s->ntail = 0;
	if (n && !s->err)
		emit(s, (const char *)s->tail, n);
}

int bp_stdio__init(bool block)
{
	cookie_io_functions_t io = { .write = stream_write };
	FILE *out = fopencookie(&out_stream, "w", io);
	FILE *err = fopencookie(&err_stream, "w", io);

	if (!out || !err) {
		if (out)
			fclose(out);
		if (err)
			fclose(err);
		return -ENOMEM;
	}
	fflush(stdout);
	fflush(stderr);
	if (block && !isatty(STDOUT_FILENO))
		setvbuf(out, NULL, _IOFBF, 1 << 16);
	else
		setvbuf(out, NULL, _IOLBF, 0);
	setvbuf(err, NULL, _IONBF, 0);
	stdout = out;
	stderr = err;
	return 0;
}

int bp_stdio__out_error(void)
{
	return out_stream.err;
}

void bp_stdio__said(void)
{
	said = true;
}

int bp_stdio__finish(const char *cmd, int code)
{
	fflush(stdout);
	flush_tail(&out_stream);
	fflush(stderr);
	flush_tail(&err_stream);
	if (!out_stream.err)
		return code;
	if (!said && out_stream.err != -EPIPE)
		fprintf(stderr, "bpfprobe %s: cannot write to stdout: %s: the output is incomplete\n",
			cmd, strerror(-out_stream.err));
	if (code)
		return code;
	return out_stream.err == -EPIPE ? 128 + SIGPIPE : 1;
}
