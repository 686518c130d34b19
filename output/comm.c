// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <fcntl.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output/comm.h"

#define SLOTS 512
#define COMM_LEN 16

struct comm_slot {
	int pid;
	unsigned int round;
	char comm[COMM_LEN + 1];
};

struct bp_comm_cache {
	char cmdlines[PATH_MAX];
	unsigned int round;
	struct comm_slot slots[SLOTS];
};

struct bp_comm_cache *bp_comm_cache__new(const char *tracefs_root)
{
	struct bp_comm_cache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (tracefs_root)
		snprintf(c->cmdlines, sizeof(c->cmdlines), "%s/saved_cmdlines", tracefs_root);
	c->round = 1;
	return c;
}

void bp_comm_cache__free(struct bp_comm_cache *c)
{
	free(c);
}

void bp_comm_cache__next_round(struct bp_comm_cache *c)
{
	c->round++;
}

static bool read_proc_comm(int pid, char *out)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, out, COMM_LEN);
	close(fd);
	if (n <= 0)
		return false;
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return true;
}

/* saved_cmdlines: one "PID COMM" per line */
static bool read_saved_cmdline(const char *path, int pid, char *out)
{
	char line[128];
	bool found = false;
	FILE *f;

	if (!*path)
		return false;
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *sp;

		if (atoi(line) != pid || !(sp = strchr(line, ' ')))
			continue;
		snprintf(out, COMM_LEN + 1, "%s", sp + 1);
		out[strcspn(out, "\n")] = '\0';
		found = true;
	}
	fclose(f);
	return found;
}

const char *bp_comm_cache__get(struct bp_comm_cache *c, int pid)
{
	struct comm_slot *s = &c->slots[(unsigned int)pid % SLOTS];
	char comm[COMM_LEN + 1];

	if (s->pid == pid && s->round == c->round)
		return s->comm;
	if (pid == 0) {
		snprintf(comm, sizeof(comm), "<idle>");
	} else if (!read_proc_comm(pid, comm)) {
		if (s->pid == pid) {	/* exited since we saw it */
			s->round = c->round;
			return s->comm;
		}
		if (!read_saved_cmdline(c->cmdlines, pid, comm))
			snprintf(comm, sizeof(comm), "<...>");
	}
	s->pid = pid;
	s->round = c->round;
	memcpy(s->comm, comm, sizeof(comm));
	return s->comm;
}
