// SPDX-License-Identifier: GPL-2.0
/*
 * C++ test target (issue 14): qualified names, an operator, overloads
 * picked by their parameters, references ('.' through them, a reference
 * to a scalar), this->member, a base class's member. Prints the truth the
 * e2e test compares with: "TRUTH what values...".
 */
#include <cstdio>
#include <cstdlib>
#include <new>

volatile long sink;
void *volatile psink;	/* a new whose pointer escapes is not elided */

void *operator new(std::size_t sz)
{
	void *p = std::malloc(sz ? sz : 1);

	if (!p)
		throw std::bad_alloc();
	return p;
}

void operator delete(void *p) noexcept
{
	std::free(p);
}

void operator delete(void *p, std::size_t) noexcept
{
	std::free(p);
}

namespace geo {

struct Base {
	long base_id;
};

struct Shape : Base {
	long w, h;

	__attribute__((noinline)) long area() const
	{
		return w * h + sink;
	}
};

struct Point {
	long x, y;
};

__attribute__((noinline)) long scale(int v)
{
	return v * 3L + sink;
}

__attribute__((noinline)) long scale(double v)
{
	return (long)(v * 2) + sink;
}

__attribute__((noinline)) long touch(const Point &p, long &counter, const Shape &s)
{
	counter += p.x;
	return p.y + counter + s.base_id + sink;
}

} /* namespace geo */

int main(int argc, char **argv)
{
	geo::Shape s;
	geo::Point pt = { 7 + argc, -9 };
	long counter = 100;

	s.base_id = 5;
	s.w = 6 + argc;
	s.h = 8;
	std::printf("TRUTH area %ld %ld %ld\n", s.w, s.h, s.base_id);
	sink = s.area();
	std::printf("TRUTH scale %d\n", 40 + argc);
	sink = geo::scale(40 + argc);
	sink = geo::scale(2.5);
	std::printf("TRUTH touch %ld %ld %ld\n", pt.x, pt.y, counter);
	std::printf("TRUTH base %ld\n", s.base_id);
	sink = geo::touch(pt, counter, s);
	std::printf("TRUTH new %zu\n", sizeof(geo::Shape));
	geo::Shape *h = new geo::Shape();
	psink = h;
	delete static_cast<geo::Shape *>(psink);
	return 0;
}
