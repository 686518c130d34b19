/* Out of sight in its own file: keeps the caller's values live after the
 * probed lines, so DWARF has a location for them there. */
#include "points.h"

NOINLINE void use3(long a, long b, long c)
{
	sink = a ^ b ^ c;
}
