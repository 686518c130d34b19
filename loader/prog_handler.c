// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The libbpf fallback SEC() handler. Every section libbpf does not know
 * (that is, our annotations) lands here as a kprobe-type program. At the
 * prototype load, after libbpf relocated maps, globals, CO-RE and
 * subprograms, we prepend r2..r5 = 0 so the body verifies with the args
 * zeroed (the record ABI: r2 = a record, r3..r5 = 0), and shift
 * func_info/line_info by the same amount: the step perf 6.1 missed, which
 * is why it cannot load objects built with -g.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "loader/object.h"
#include "prologue/prologue.h"
#include "util/log.h"
#include "util/grow.h"

/* all of the state below, and libbpf's calls into it */
static pthread_mutex_t handler_lock = PTHREAD_MUTEX_INITIALIZER;
static int handler_id;
static const struct bpf_program **claimed;
static size_t nclaimed, claimed_cap;
static struct bpfprobe_object *loading;

static int setup_prog(struct bpf_program *prog, long cookie)
{
	if (bp_grow((void **)&claimed, nclaimed, &claimed_cap, sizeof(*claimed), 16))
		return -ENOMEM;
	claimed[nclaimed++] = prog;
	return 0;
}

static struct bp_program *find_program(struct bpf_program *prog)
{
	if (!loading)
		return NULL;
	for (int i = 0; i < loading->nprogs; i++)
		if (loading->progs[i].prog == prog)
			return &loading->progs[i];
	return NULL;
}

static int prepare_load(struct bpf_program *prog, struct bpf_prog_load_opts *opts, long cookie)
{
	struct bp_program *p = find_program(prog);
	size_t cnt = bpf_program__insn_cnt(prog);
	struct bpf_insn *insns;
	int err;

	if (!p) {
		bp_err("program '%s': SEC(\"%s\") is not a known libbpf section nor a probe annotation\n",
		       bpf_program__name(prog), bpf_program__section_name(prog));
		return -EINVAL;
	}
	/* the stack the verifier saw the last record program use */
	bp_record_stack__note(loading);
	err = bp_load_info__capture(&p->info, opts, p->preamble_len);
	if (err)
		return err;
	/* libbpf reads opts->*_info during this very load: point it at our
	 * shifted copies, which live until the object is destroyed. */
	opts->func_info = p->info.func_info;
	opts->line_info = p->info.line_info;
	/* the final body: what it reads decides what the prologues set */
	bp_instances__set_body(loading, p, bpf_program__insns(prog), cnt);

	insns = malloc((cnt + p->preamble_len) * sizeof(*insns));
	if (!insns)
		return -ENOMEM;
	if (p->record_abi)
		bp_prologue__record_preamble(insns, p->record_map_fd);
	else
		bp_prologue__preamble(insns);
	memcpy(insns + p->preamble_len, bpf_program__insns(prog), cnt * sizeof(*insns));
	err = bpf_program__set_insns(prog, insns, cnt + p->preamble_len);
	free(insns);
	if (!err && p->record_abi)
		bp_record_stack__expect(loading, p);
	return err;
}

void bp_handler__lock(void)
{
	pthread_mutex_lock(&handler_lock);
}

void bp_handler__unlock(void)
{
	pthread_mutex_unlock(&handler_lock);
}

/* With the lock held. */
int bp_handler__register(void)
{
	LIBBPF_OPTS(libbpf_prog_handler_opts, opts,
		.prog_setup_fn = setup_prog,
		.prog_prepare_load_fn = prepare_load,
	);
	int id;

	if (handler_id > 0)
		return 0;
	id = libbpf_register_prog_handler(NULL, BPF_PROG_TYPE_KPROBE, 0, &opts);
	if (id < 0) {
		bp_err("cannot register the libbpf section handler: %s\n", strerror(-id));
		return id;
	}
	handler_id = id;
	return 0;
}

bool bp_handler__claimed(const struct bpf_program *prog)
{
	for (size_t i = 0; i < nclaimed; i++)
		if (claimed[i] == prog)
			return true;
	return false;
}

void bp_handler__forget(const struct bpf_program *prog)
{
	for (size_t i = 0; i < nclaimed; i++) {
		if (claimed[i] == prog) {
			claimed[i] = claimed[--nclaimed];
			return;
		}
	}
}

void bp_handler__set_loading(struct bpfprobe_object *obj)
{
	loading = obj;
}
