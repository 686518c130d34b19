/* Shared by the CUs of the "argx" test target (issue 3's arguments). */
#ifndef ARGX_H
#define ARGX_H

#if defined(__clang__)
#define NOINLINE __attribute__((noinline, used))
#else
#define NOINLINE __attribute__((noinline, noclone, used))
#endif

struct pair { long x; long y; };
struct pt { int x; int y; };
struct mix { int a; short b; signed char c; long d; };
struct bf { unsigned int lo : 4; signed int mid : 7; unsigned int hi : 21; };
struct bf64 { unsigned long long e : 40; long long f : 20; unsigned int g : 3; };
struct gs { int a; short b; long *p; };
struct fl { float f; double d; };

extern volatile long sink;
extern long g_counter;
int other_get(void);
long other_counter(void);

#endif
