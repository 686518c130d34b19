// SPDX-License-Identifier: GPL-2.0
/*
 * E2E programs for the C++ target (tests/targets/readable_cxx): qualified
 * names, this->member (and a base class's member), an overload picked by
 * its parameters, '.' through a reference, a reference to a scalar, an
 * operator. Each prints "GOT what ..." as the target prints "TRUTH what".
 */
#include "argx_report.h"

SEC("exec=" TARGET ";area=geo::Shape::area this->w this->h this->base_id")
int area(void *ctx, int err, long w, long h, long id)
{
	REPORT(err, "area", "%ld %ld %ld", w, h, id);
	return 0;
}

/* not geo::scale(double) */
SEC("exec=" TARGET ";scale=geo::scale(int) v")
int scale(void *ctx, int err, long v)
{
	REPORT(err, "scale", "%ld", v);
	return 0;
}

/* p is a Point const&, counter a long& */
SEC("exec=" TARGET ";touch=geo::touch p.x p.y counter")
int touch(void *ctx, int err, long x, long y, long counter)
{
	REPORT(err, "touch", "%ld %ld %ld", x, y, counter);
	return 0;
}

/* a base class's member through a reference */
SEC("exec=" TARGET ";base=geo::touch s.base_id")
int base(void *ctx, int err, long id)
{
	REPORT(err, "base", "%ld", id);
	return 0;
}

SEC("exec=" TARGET ";opnew=operator new(unsigned long) sz")
int opnew(void *ctx, int err, long sz)
{
	REPORT(err, "new", "%ld", sz);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
