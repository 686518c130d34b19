// SPDX-License-Identifier: GPL-2.0
/* perf's fetch arguments on the fetch target stripped to its .dynsym. */
#include "fetch_progs.h"
