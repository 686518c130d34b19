// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include "cli/options.h"
#include "cli/std_streams.h"

#define MAX_OPTS	32
#define HELP_KEY	'h'
#define HELP_COL	28	/* where the options' help starts */

static const struct bp_cli_opt help_opt = {
	"help", HELP_KEY, no_argument, NULL, "show this help and exit",
};

/* cmd's options, then --help */
static int all_opts(const struct bp_cli_cmd *cmd, const struct bp_cli_opt **v)
{
	int n = 0;

	for (const struct bp_cli_opt *o = cmd->opts; o && o->name && n < MAX_OPTS - 1; o++)
		v[n++] = o;
	v[n++] = &help_opt;
	return n;
}

static void build(const struct bp_cli_cmd *cmd, struct option *lo, char *so)
{
	const struct bp_cli_opt *v[MAX_OPTS];
	int n = all_opts(cmd, v), k = 0;

	if (cmd->options_first)
		so[k++] = '+';
	so[k++] = ':';	/* a missing argument is ':', not '?' */
	for (int i = 0; i < n; i++) {
		lo[i] = (struct option){ v[i]->name, v[i]->has_arg, NULL, v[i]->key };
		if (v[i]->key < 256) {
			so[k++] = (char)v[i]->key;
			if (v[i]->has_arg == required_argument)
				so[k++] = ':';
			else if (v[i]->has_arg == optional_argument) {
				so[k++] = ':';
				so[k++] = ':';
			}
		}
	}
	lo[n] = (struct option){};
	so[k] = '\0';
}

/* Edit distance of a and b (short strings), capped at 9. */
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int row[64], prev, tmp;

	if (la > 60 || lb > 60)
		return 9;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb] > 9 ? 9 : row[lb];
}

const char *bp_cli__closest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	int best_d = 3;

	if (!*word)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		int d = distance(word, names[i]);

		/* a prefix of a name (several options, a long name with one dash) */
		if (!strncmp(names[i], word, strlen(word)) && strlen(word) > 1)
			d = 0;
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	/* one letter off in a two-letter word is no guess */
	return best && (best_d == 0 || strlen(word) > 2) ? best : NULL;
}

/* The option bad (as written, "--jsn", "-json") is closest to, or NULL. */
static const struct bp_cli_opt *closest(const struct bp_cli_cmd *cmd, const char *bad)
{
	const struct bp_cli_opt *v[MAX_OPTS];
	const char *names[MAX_OPTS], *best;
	int n = all_opts(cmd, v);
	char word[64];

	while (*bad == '-')
		bad++;
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(bad, "="), bad);
	for (int i = 0; i < n; i++)
		names[i] = v[i]->name;
	best = bp_cli__closest(word, names, n);
	for (int i = 0; best && i < n; i++)
		if (names[i] == best)
			return v[i];
	return NULL;
}

static void say_bad(const struct bp_cli_cmd *cmd, const char *what, const char *bad)
{
	const struct bp_cli_opt *o = closest(cmd, bad);

	fprintf(stderr, "bpfprobe %s: %s '%s'", cmd->name, what, bad);
	if (o && o->key < 256)
		fprintf(stderr, "; did you mean '--%s' (-%c)?", o->name, o->key);
	else if (o)
		fprintf(stderr, "; did you mean '--%s'?", o->name);
	fprintf(stderr, "\n");
	bp_cli__usage(cmd);
}

int bp_cli__next(const struct bp_cli_cmd *cmd, int argc, char **argv)
{
	struct option lo[MAX_OPTS + 1];
	char so[3 * MAX_OPTS + 3];
	int c, prev = optind ? optind : 1;

	build(cmd, lo, so);
	opterr = 0;
	c = getopt_long(argc, argv, so, lo, NULL);
	if (c == HELP_KEY) {
		bp_cli__help(cmd, stdout);
		exit(bp_stdio__finish(cmd->name, 0));
	}
	if (c == ':') {
		fprintf(stderr, "bpfprobe %s: option '%s' needs an argument\n", cmd->name,
			argv[optind - 1]);
		bp_cli__usage(cmd);
		return '?';
	}
	if (c == '?') {
		/* the word getopt stopped at: a long option, or -x in -xyz */
		const char *word = argv[optind > prev ? optind - 1 : prev];
		char one[3] = { '-', (char)optopt, '\0' };

		if (word[0] == '-' && word[1] == '-')
			say_bad(cmd, strchr(word, '=') || closest(cmd, word) ?
				"unknown or ambiguous option" : "unknown option", word);
		else if (optopt && strlen(word) > 2)
			say_bad(cmd, "unknown option", word);
		else
			say_bad(cmd, "unknown option", optopt ? one : word);
	}
	return c;
}

void bp_cli__usage(const struct bp_cli_cmd *cmd)
{
	fprintf(stderr, "usage: bpfprobe %s [OPTIONS]%s%s\n", cmd->name, *cmd->operands ? " " : "",
		cmd->operands);
	fprintf(stderr, "'bpfprobe %s --help' lists the options\n", cmd->name);
}

void bp_cli__help(const struct bp_cli_cmd *cmd, FILE *f)
{
	const struct bp_cli_opt *v[MAX_OPTS];
	int n = all_opts(cmd, v);

	fprintf(f, "usage: bpfprobe %s [OPTIONS]%s%s\n\n%s\n\noptions:\n", cmd->name,
		*cmd->operands ? " " : "", cmd->operands, cmd->what);
	for (int i = 0; i < n; i++) {
		char head[64];
		const char *h = v[i]->help;
		int len;

		if (v[i]->key < 256)
			len = snprintf(head, sizeof(head), "  -%c, --%s", v[i]->key, v[i]->name);
		else
			len = snprintf(head, sizeof(head), "      --%s", v[i]->name);
		if (v[i]->arg && v[i]->has_arg == optional_argument)
			len += snprintf(head + len, sizeof(head) - len, "[=%s]", v[i]->arg);
		else if (v[i]->arg)
			len += snprintf(head + len, sizeof(head) - len, " %s", v[i]->arg);
		fprintf(f, "%-*s%s", HELP_COL, head, len >= HELP_COL ? "\n" : "");
		/* continuation lines line up under the first */
		for (bool first = len < HELP_COL; *h; first = false) {
			size_t l = strcspn(h, "\n");

			fprintf(f, "%*s%.*s\n", first ? 0 : HELP_COL, "", (int)l, h);
			h += l + (h[l] == '\n');
		}
	}
}

const char *bp_cli__local_file(const char *name, char *buf, size_t len)
{
	struct stat st;

	char *abs;

	if (strchr(name, '/') || stat(name, &st) || !S_ISREG(st.st_mode))
		return name;
	abs = realpath(name, NULL);
	snprintf(buf, len, "%s", abs ? abs : name);
	free(abs);
	return buf;
}

int bp_cli__parse_pid(const char *cmd, const char *arg, pid_t *pid)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || end == arg || v <= 0 || v > INT_MAX) {
		fprintf(stderr, "bpfprobe %s: bad pid '%s'\n", cmd, arg);
		return -EINVAL;
	}
	*pid = (pid_t)v;
	return 0;
}
