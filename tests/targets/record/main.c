/*
 * The record ABI's target (tests/e2e/record.sh): functions whose arguments
 * a record-ABI program fetches, each printing the truth first as a
 * "TRUTH ..." line, in the form the test turns the records into.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* a real call, with the arguments where the ABI puts them, used */
#if defined(__clang__)
#define NOINLINE __attribute__((noinline, used))
#else
#define NOINLINE __attribute__((noipa, used))
#endif

struct big {
	long a;
	int b;
	char name[12];
};

NOINLINE long mixed8(int8_t a, uint16_t b, int32_t c, uint64_t d, int64_t e,
				   char f, unsigned char g, short h)
{
	/* the record converts each as C does: a (int8_t) into a __s64,
	 * c (int32_t) into a __u16, d into a __u8 */
	printf("TRUTH mixed8 a=%lld b=%u c=%u d=%u e=%lld f=%d g=%u h=%d\n", (long long)a,
	       (unsigned)b, (unsigned)(uint16_t)c, (unsigned)(uint8_t)d, (long long)e, f, g, h);
	return a + b + c + (long)d + e + f + g + h;
}

NOINLINE long strs(const char *s1, const char *s2, const char *s3, const char *s4,
		   const char *s5)
{
	printf("TRUTH strs s1=%s s2=%.15s s3= s4= s5=ff fe 61 62 err=12\n", s1, s2);
	/* s3 (NULL) and s4 (unmapped) are not read: their values are used */
	return (long)strlen(s1) + (long)strlen(s2) + (long)s3 + (long)s4 + s5[2];
}

/* v is passed in memory (larger than 16 bytes), p points to one */
NOINLINE long structs(struct big v, const struct big *p)
{
	printf("TRUTH structs v.a=%ld v.b=%d v.name=%s p.a=%ld p.b=%d p.name=%s\n", v.a, v.b,
	       v.name, p->a, p->b, p->name);
	return v.a + v.b + v.name[0] + p->a + p->b + p->name[0];
}

NOINLINE long six(int a, long b, unsigned int c, short d, const char *e, long f)
{
	printf("TRUTH six a=%d b=%ld c=%u d=%d e=%s f=%ld\n", a, b, c, d, e, f);
	return a + b + c + d + f + (long)strlen(e);
}

int main(void)
{
	static const char long_text[] = "a string much longer than sixteen bytes, cut at fifteen";
	static const char not_utf8[] = "\xff\xfe" "ab";
	struct big v = { .a = -1234567890123L, .b = 42, .name = "by value" };
	struct big w = { .a = 77, .b = -9, .name = "by pointer" };
	volatile long sink = 0;
	/* volatile: no argument is a constant the compiler could fold in */
	volatile int8_t a = -5;
	volatile uint16_t b = 65000;
	volatile int32_t c = -70000;
	volatile uint64_t d = 0x1234567890abcdefULL;
	volatile int64_t e = -9000000000LL;
	volatile char f = 'x';
	volatile unsigned char g = 200;
	volatile short h = -300;
	const char *volatile s1 = "hello", *volatile s2 = long_text, *volatile s3 = NULL;
	const char *volatile s4, *volatile s5 = not_utf8, *volatile e6 = "sixth";
	volatile int i1 = -1;
	volatile long l2 = 1L << 40, l6 = 66;
	volatile unsigned int u3 = 4000000000u;
	volatile short h4 = -2;
	char *unmapped;

	/* an address that faults: mapped, then unmapped */
	unmapped = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (unmapped == MAP_FAILED)
		return 1;
	munmap(unmapped, 4096);
	s4 = unmapped;

	sink += mixed8(a, b, c, d, e, f, g, h);
	sink += strs(s1, s2, s3, s4, s5);
	sink += structs(v, &w);
	sink += six(i1, l2, u3, h4, e6, l6);
	printf("done %ld\n", (long)sink);
	return 0;
}
