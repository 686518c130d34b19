/*
 * SDT markers (tests/e2e/usdt.sh): every operand form of x86-64's
 * assembler (registers of each width, a constant, memory at a register
 * plus a displacement, base + index * scale, a symbol off %rip), a marker
 * with several sites, and markers behind semaphores. Each marker's values
 * are printed first as a "TRUTH ..." line.
 *   sdt-target [-w SECONDS]   waits up to SECONDS for the semaphore of
 *                             sdt:sem to be raised (a tracer attaching
 *                             to the running process), then fires it
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sdt.h>

/* the semaphores a tracer's uprobe raises: provider_name_semaphore (with
 * _SDT_HAS_SEMAPHORES every marker has one) */
#define SEMAPHORE(name) \
	unsigned short sdt_##name##_semaphore __attribute__((section(".probes"), used))
SEMAPHORE(sem);
SEMAPHORE(sites);
SEMAPHORE(auto);
SEMAPHORE(forms);
SEMAPHORE(vector);

long g_counter = 4242;
long g_pair[2] = { 11, -22 };

/* a real call, arguments where the ABI puts them */
#if defined(__clang__)
#define NOINLINE __attribute__((noinline, used))
#else
#define NOINLINE __attribute__((noipa, used))
#endif

/* The compiler's own choice of operands (the "nor" constraint). */
NOINLINE long compiler_forms(long a, int b, short c, signed char d, unsigned int e, const char *s)
{
	printf("TRUTH auto a=%ld b=%d c=%d d=%d e=%u s=%s\n", a, b, c, d, e, s);
	STAP_PROBE6(sdt, auto, a, b, c, d, e, s);
	return a + b + c + d + e;
}

/* Every operand form, written out: rbx = arr, rcx = idx (2), rdx = 0x1234. */
NOINLINE long forced_forms(long *arr, long idx)
{
	long h = 0x1234;

	printf("TRUTH forms a1=%ld a2=%ld a3=%ld a4=-7 a5=%d a6=%d a7=%d a8=%d a9=%ld a10=%ld a11=%ld\n",
	       arr[idx], arr[idx], arr[1], (int)idx, (int)(signed char)idx, (int)((h >> 8) & 0xff),
	       (int)(h & 0xffff), g_counter, g_pair[1], g_pair[1]);
	__asm__ __volatile__(
		"movq %[b], %%rbx\n\t"
		"movq %[i], %%rcx\n\t"
		"movq %[h], %%rdx\n\t"
		STAP_PROBE_ASM(sdt, forms, -8@(%%rbx,%%rcx,8) -8@0(%%rbx,%%rcx,8) -8@8(%%rbx) -4@$-7 -4@%%ecx -1@%%cl 1@%%dh 2@%%dx -8@g_counter(%%rip) -8@g_pair+8(%%rip) -8@8+g_pair(%%rip))
		"nop\n\t"
		:: [b] "r"(arr), [i] "r"(idx), [h] "r"(h) : "rbx", "rcx", "rdx", "memory");
	/* what no probe can read: a vector register */
	__asm__ __volatile__(STAP_PROBE_ASM(sdt, vector, 8@%%xmm0) "nop\n\t" ::: "memory");
	return arr[idx];
}

/* One marker, two sites with operands of their own. */
NOINLINE long sites(long v)
{
	long w = v * 3;

	printf("TRUTH sites first=%ld\n", v);
	if (sdt_sites_semaphore)
		STAP_PROBE1(sdt, sites, v);
	printf("TRUTH sites second=%ld\n", w);
	if (sdt_sites_semaphore)
		STAP_PROBE1(sdt, sites, w);
	return w;
}

int main(int argc, char **argv)
{
	long arr[4] = { 100, -200, 300000000000L, 400 };
	volatile long idx = 2;
	double wait = 0;
	long sink = 0;

	if (argc > 2 && !strcmp(argv[1], "-w"))
		wait = atof(argv[2]);
	/* a tracer attaching to this process raises the semaphore */
	for (int i = 0; wait > 0 && i < wait * 20 && !sdt_sem_semaphore; i++)
		usleep(50000);
	printf("TRUTH sem enabled=%d\n", sdt_sem_semaphore ? 1 : 0);
	fflush(stdout);
	if (sdt_sem_semaphore) {
		printf("TRUTH sem v=%ld\n", 77L);
		fflush(stdout);
		STAP_PROBE1(sdt, sem, 77L);
	}
	sink += compiler_forms(-1234567890123L, -5, -300, -7, 4000000000u, "marker");
	sink += forced_forms(arr, idx);
	sink += sites(21);
	printf("done %ld\n", sink);
	return 0;
}
