// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: the DWARF resolver on mutated ELF/DWARF files.
 *
 * Each input is written to a file (libdwfl opens paths) and a fixed set of
 * specs naming the seed program's functions (fuzz/seeds/mini.c) is
 * resolved against it with a fresh resolver, twice: walking the DWARF
 * (--no-cache) and through the DWARF index, built by reading .debug_info's
 * bytes and stored in a cache directory of the fuzzer's own (where the
 * previous input's index is found stale). Errors are expected on garbage;
 * crashes, leaks and hangs are not.
 *
 * The input lives in a directory of the fuzzer's own, beside a FIFO named
 * fuzz-fifo.debug: the seed fifo-debuglink.elf names it as its debug file
 * (a debug link, and mutated ones may name it otherwise), which must be
 * skipped, never opened blocking. The seeds bomb-*.elf claim to inflate to
 * 1 GiB: refused before anything is inflated.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpfprobe/bpfprobe.h>
#include "fuzz/input_file.h"
#include "probes/resolve.h"
#include "probes/spec.h"

static const char *const specs[] = {
	"p=handle_req req->hdr->len conn->fd req->inner.y",
	"p=handle_req req->arr[2] req->u_s conn->last->hdr->flags",
	"p=many_args a7 a8 a1",
	"p=neg_args a b c",
	"p=neg_args%return $retval",
	"p=twin+4 x",
	/* perf's fetch arguments: the symbol table, $argN at the entry */
	"p=many_args $arg7 $arg8:s32 +8(+0($arg1))",
	"p=handle_req %di:string @handle_req+8 $arg1->hdr->len",
};

static const char *path;
static char cache[64], xdg[96], fifo[96];

static void remove_cache(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cache);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", cache);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* never ask a debuginfod server about a fuzzed build id */
	unsetenv("DEBUGINFOD_URLS");
	/* the input, a FIFO beside it, and the indexes of fuzzed files go
	 * to a directory of our own */
	snprintf(cache, sizeof(cache), "/tmp/bpfprobe-fuzz-cache-XXXXXX");
	if (!mkdtemp(cache))
		return 1;
	atexit(remove_cache);
	path = fuzz_input_init_in(cache, "input", "elf");
	snprintf(fifo, sizeof(fifo), "%s/fuzz-fifo.debug", cache);
	if (mkfifo(fifo, 0600))
		return 1;
	snprintf(xdg, sizeof(xdg), "%s/xdg", cache);
	setenv("XDG_CACHE_HOME", xdg, 1);
	/* the resolver's messages on garbage are expected: FUZZ_VERBOSE=1 shows them */
	if (!getenv("FUZZ_VERBOSE"))
		bpfprobe_set_print(NULL);
	return 0;
}

static void resolve_all(bool no_cache)
{
	struct bp_resolver *r = bp_resolver__new();
	char text[256], err[256];

	if (!r)
		return;
	bp_resolver__set_no_cache(r, no_cache);
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct bp_point *points = NULL;
		struct bp_spec spec;
		int npoints = 0;

		snprintf(text, sizeof(text), "exec=%s;%s", path, specs[i]);
		if (bp_spec__parse(text, &spec, err, sizeof(err)) == 0 &&
		    bp_resolver__resolve(r, &spec, &points, &npoints) == 0) {
			if (npoints < 1 || !points)
				abort();
			bp_points__free(points, npoints);
		}
		bp_spec__free(&spec);
	}
	bp_resolver__free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_input_write(data, size))
		return 0;
	resolve_all(true);
	resolve_all(false);
	return 0;
}
