/*
 * Test target for the resolver's type handling: bitfields, enums, floats,
 * nested anonymous members, multi-dimensional arrays, structs passed by
 * value, void functions, locals, an always-inlined function.
 */
#include <stdio.h>
#include <stdlib.h>
#include "types.h"

volatile long sink;

int bits(struct flags *f);
int colors(enum color c, enum level l, struct palette *p);
double fp(double d, float f, struct fpair *p);
int byval(struct small s, struct big b);
void nothing(int x);
int nested(struct outer *o, int (*m)[3], struct node **pp);
long locals(int n);

int main(int argc, char **argv)
{
	struct flags fl = { .a = 5, .b = -9, .c = 3000, .d = -1, .e = 0x123456789aULL, .f = -5000 };
	struct palette pal = { .c = RED, .l = HIGH, .ok = true };
	struct fpair fpr = { .x = 1.5f, .y = -2.25 };
	struct small s = { 3, 4 };
	struct big b = { 1, 2, { 5, 6, 7, 8 }, -9 };
	struct node n2 = { NULL, 77 }, n1 = { &n2, 66 };
	struct node *pn = &n1;
	struct outer o = { .kind = 1, .a = 2, .b = 3, .name = "abc", .list = &n1,
			   .grid = { { 1, 2, 3 }, { 4, 5, 6 } } };
	int m[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };

	(void)argv;
	o.nodes[1].val = 99;
	bits(&fl);
	colors(BLUE, LOW, &pal);
	fp(0.5, 2.0f, &fpr);
	byval(s, b);
	nothing(argc);
	nested(&o, m, &pn);
	printf("%ld\n", locals(argc + 2));
	return 0;
}
