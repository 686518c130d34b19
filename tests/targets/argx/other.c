/* A static named like one in main.c: a plain name resolves in the probed function's own file. */
#include "argx.h"

static int s_val = 1234;

int other_get(void)
{
	return s_val++;
}
