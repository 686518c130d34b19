// SPDX-License-Identifier: GPL-2.0
/* perf's fetch arguments on the fetch target built without -g (no DWARF). */
#include "fetch_progs.h"
