/* Shared by the CUs of the "points" test target (probe point forms). */
#ifndef POINTS_TARGET_H
#define POINTS_TARGET_H

#if defined(__clang__)
#define NOINLINE __attribute__((noinline, used))
#else
#define NOINLINE __attribute__((noinline, noclone, used))
#endif
/* gcc may clone these (.constprop.N, .isra.N): the point of the test */
#define CLONABLE __attribute__((noinline))

extern volatile long sink;
/* read through it so the compiler cannot fold arguments into constants */
extern volatile int opaque;

void use3(long a, long b, long c);
int line_abs(int a, long b);
int lazy_fn(int x, int y);
int file_a(int v);
int file_b(int v);
int glob_one(int x);
int glob_two(long pad, int x);
int glob_three(long p1, long p2, int x);
int globber(int x);
int call_twin_a(int v);
int call_twin_b(int v);
int inl_caller1(int a, int b);
int inl_caller2(int a, int b);
int inl_via_pointer(int a, int b);
int force_keep(int v, int w);
int force_drop(int w);
int clone_user1(int x);
int clone_user2(int x);
int clone_user3(int m, int x);
int isra_user(long a);

#endif /* POINTS_TARGET_H */
