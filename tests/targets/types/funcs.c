/* Functions probed by the resolver's unit tests. */
#include "types.h"

NOINLINE int bits(struct flags *f)
{
	sink = f->a + f->b + f->c + f->d + (long)f->e + f->f;
	return (int)sink;
}

NOINLINE int colors(enum color c, enum level l, struct palette *p)
{
	sink = c + l + p->c + p->l + p->ok;
	return (int)sink;
}

NOINLINE double fp(double d, float f, struct fpair *p)
{
	sink = (long)(d + f + p->x + p->y);
	return d * 2;
}

NOINLINE int byval(struct small s, struct big b)
{
	sink = s.x + s.y + b.a + b.c[3] + b.z;
	return s.x;
}

NOINLINE void nothing(int x)
{
	sink = x;
}

NOINLINE int nested(struct outer *o, int (*m)[3], struct node **pp)
{
	sink = o->kind + o->a + o->b + o->l + o->deep + o->name[1] +
	       o->grid[1][2] + o->list->next->val + o->nodes[1].val +
	       m[1][2] + (*pp)->val + (long)o->opaque + (long)o->hid;
	return (int)sink;
}

static inline __attribute__((always_inline)) int tiny(int x)
{
	return x * 3 + (int)sink;
}

NOINLINE long locals(int n)
{
	long acc = 0;

	for (int i = 0; i < n; i++) {
		int sq = i * i + tiny(i);

		acc += sq;
		sink = acc;
	}
	return acc;
}
