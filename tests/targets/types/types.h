/* Shared by the CUs of the "types" test target (resolver type handling). */
#ifndef TYPES_TARGET_H
#define TYPES_TARGET_H

#include <stdbool.h>

#if defined(__clang__)
#define NOINLINE __attribute__((noinline, used))
#else
#define NOINLINE __attribute__((noinline, noclone, used))
#endif

extern volatile long sink;

struct flags {
	unsigned int a : 3;
	signed int b : 5;
	unsigned int c : 12;
	int d;
	unsigned long long e : 40;
	long long f : 20;
};

enum color { RED = -1, GREEN, BLUE };
enum level { LOW = 1, HIGH = 200 };

struct palette {
	enum color c;
	enum level l;
	bool ok;
};

struct fpair {
	float x;
	double y;
};

struct small {
	int x;
	int y;
};

struct big {
	long a, b;
	int c[4];
	short z;
};

struct node {
	struct node *next;
	int val;
};

struct outer {
	int kind;
	union {
		struct {
			int a;
			int b;
		};
		struct {
			long l;
			struct {
				short deep;
			};
		};
	};
	char name[8];
	int grid[2][3];
	struct node *list;
	struct node nodes[2];
	void *opaque;
	struct hidden *hid;	/* never defined: incomplete */
};

#endif
