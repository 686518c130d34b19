/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A tiny unit-test harness. Each test prints one line the runner counts:
 *   PASS name | FAIL name: why | SKIP name: why
 */
#ifndef BPFPROBE_TEST_H
#define BPFPROBE_TEST_H

#include <stdio.h>
#include <string.h>

static int test_cur_failed;
static int test_total_failed;

#define CHECK(cond, ...) do {							\
	if (!(cond)) {								\
		if (!test_cur_failed)						\
			printf("FAIL %s: ", test_cur_name);			\
		else								\
			printf("      also: ");					\
		printf("%s:%d: %s: ", __FILE__, __LINE__, #cond);		\
		printf(__VA_ARGS__);						\
		printf("\n");							\
		test_cur_failed = 1;						\
	}									\
} while (0)

#define CHECK_STR(got, want) do {						\
	const char *g_ = (got), *w_ = (want);					\
	CHECK(g_ && w_ && !strcmp(g_, w_), "got '%s', want '%s'",		\
	      g_ ? g_ : "(null)", w_ ? w_ : "(null)");				\
} while (0)

#define CHECK_INT(got, want) do {						\
	long long g_ = (long long)(got), w_ = (long long)(want);		\
	CHECK(g_ == w_, "got %lld, want %lld", g_, w_);				\
} while (0)

static const char *test_cur_name;

/* Runs fn as the test called name (a string that outlives the run). */
#define RUN_AS(fn, name) do {							\
	test_cur_name = (name);							\
	test_cur_failed = 0;							\
	fn();									\
	if (!test_cur_failed)							\
		printf("PASS %s\n", (name));					\
	test_total_failed += test_cur_failed;					\
	fflush(stdout);								\
} while (0)

#define RUN(fn) RUN_AS(fn, #fn)

/* Runs fn with the bool flag false, then true as the test named fn and
 * suffix (a string literal), and leaves flag false. */
#define RUN_TWICE(fn, flag, suffix) do {					\
	flag = false;								\
	RUN_AS(fn, #fn);							\
	flag = true;								\
	RUN_AS(fn, #fn suffix);							\
	flag = false;								\
} while (0)

#define SKIP(fn, why) printf("SKIP %s: %s\n", #fn, why)

#define TEST_EXIT() (test_total_failed ? 1 : 0)

#endif /* BPFPROBE_TEST_H */
