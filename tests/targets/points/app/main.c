/*
 * pointsapp: calls libpoints.so's lib_mul() and prints the truth,
 * "TRUTH lib pid=PID a=A b=B" per call.
 *   pointsapp [ROUNDS [PAUSE_MS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

long lib_mul(int a, long b);

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	int pause_ms = argc > 2 ? atoi(argv[2]) : 0;
	struct timespec ts = { pause_ms / 1000, (pause_ms % 1000) * 1000000L };

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; i < rounds; i++) {
		int a = -3 - i;
		long b = 7000000000L + i;

		lib_mul(a, b);
		printf("TRUTH lib pid=%d a=%d b=%ld\n", getpid(), a, b);
		if (pause_ms)
			nanosleep(&ts, NULL);
	}
	return 0;
}
