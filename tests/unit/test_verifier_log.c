// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The reason line of verifier logs (loader/verifier_log.c), from real logs. */
#include "loader/verifier_log.h"
#include "tests/unit/test.h"

static void check(const char *log, const char *want)
{
	char buf[256];

	bp_verifier_log__reason(log, buf, sizeof(buf));
	CHECK_STR(buf, want);
}

static void test_gpl(void)
{
	check("arg#0 reference type('UNKNOWN ') size cannot be determined: -22\n"
	      "0: R1=ctx() R10=fp0\n"
	      "; bpf_printk(\"i=%ld\", i); @ nolic.c:6\n"
	      "0: (b7) r2 = 0                        ; R2=0\n"
	      "7: (85) call bpf_trace_printk#6\n"
	      "cannot call GPL-restricted function from non-GPL compatible program\n"
	      "processed 7 insns (limit 1000000) max_states_per_insn 0 total_states 0 peak_states 0 mark_read 0\n",
	      "cannot call GPL-restricted function from non-GPL compatible program");
}

static void test_loop(void)
{
	check("0: R1=ctx() R10=fp0\n"
	      "3: (05) goto pc-2\n"
	      "infinite loop detected at insn 2\n"
	      "verification time 32 usec\n"
	      "stack depth 0\n"
	      "processed 5 insns (limit 1000000)\n",
	      "infinite loop detected at insn 2");
	check("back-edge from insn 7 to 5\n", "back-edge from insn 7 to 5");
}

static void test_helper(void)
{
	check("0: R1=ctx() R10=fp0\n0: (85) call bpf_skb_load_bytes#26\n"
	      "program of this type cannot use helper bpf_skb_load_bytes#26\n"
	      "processed 1 insns (limit 1000000)\n",
	      "program of this type cannot use helper bpf_skb_load_bytes#26");
	check("0: (85) call unknown#212\nunknown func unknown#212\n", "unknown func unknown#212");
	check("0: R1=ctx() R10=fp0\n0: (79) r1 = *(u64 *)(r2 +0)\nR2 !read_ok\nprocessed 1 insns\n",
	      "R2 !read_ok");
}

static void test_empty(void)
{
	char buf[8] = "x";

	CHECK_INT(bp_verifier_log__reason("", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "");
	CHECK_INT(bp_verifier_log__reason("processed 1 insns\n", buf, sizeof(buf)), 0);
	/* cut to the buffer */
	CHECK_INT(bp_verifier_log__reason("a long reason\n", buf, sizeof(buf)), 7);
	CHECK_STR(buf, "a long ");
}

int main(void)
{
	RUN(test_gpl);
	RUN(test_loop);
	RUN(test_helper);
	RUN(test_empty);
	return TEST_EXIT();
}
