/* Globs, inline copies, force=, gcc clones. */
#include "points.h"

/* glob_* x: x in a different register (or frame slot) in each */
NOINLINE int glob_one(int x)
{
	sink = x;
	return x;
}

NOINLINE int glob_two(long pad, int x)
{
	sink = pad + x;
	return x;
}

NOINLINE int glob_three(long p1, long p2, int x)
{
	sink = p1 + p2 + x;
	return x;
}

/* must not match glob_* */
NOINLINE int globber(int x)
{
	sink = x;
	return x;
}

/* inlined into both callers, and out of line through a pointer */
static inline __attribute__((always_inline)) int inl_add(int x, int y)
{
	sink = x * y;			/* INL_BODY (funcs.c:33) */
	return x + y;
}

NOINLINE int inl_caller1(int a, int b)
{
	return inl_add(a, b) + 1;
}

NOINLINE int inl_caller2(int a, int b)
{
	return inl_add(b, a) * 2;
}

int (*volatile inl_ptr)(int, int) = inl_add;

NOINLINE int inl_via_pointer(int a, int b)
{
	return inl_ptr(a, b);
}

/* force_* v: force_drop has no v, so only force=yes loads */
NOINLINE int force_keep(int v, int w)
{
	sink = v - w;
	return v;
}

NOINLINE int force_drop(int w)
{
	sink = w;
	return w;
}

/* gcc -O2/-O3 specializes it for mode == 2 (clone_me.constprop.0) */
static CLONABLE int clone_me(int mode, int x)
{
	if (mode == 2)
		sink = x * 5;
	else
		sink = x - mode;
	return x + 1;
}

NOINLINE int clone_user1(int x)
{
	return clone_me(2, x);
}

NOINLINE int clone_user2(int x)
{
	return clone_me(2, x + 1);
}

NOINLINE int clone_user3(int m, int x)
{
	return clone_me(m, x);
}

/* gcc -O2 passes p->a instead of p (isra_me.isra.0) */
struct pair {
	long a;
	long b;
};

static CLONABLE int isra_me(const struct pair *p)
{
	sink = p->a * 3;
	return (int)p->a;
}

NOINLINE int isra_user(long a)
{
	struct pair p = { a, 2 };

	return isra_me(&p);
}
