/* Allocates a few known sizes, for samples/malloc.bpf.c. */
#include <stdio.h>
#include <stdlib.h>

/* a pointer the compiler must keep: else it drops malloc/free pairs */
void *volatile keep;

int main(void)
{
	static const size_t sizes[] = { 100, 2000, 30000, 400000 };

	setvbuf(stdout, NULL, _IONBF, 0);
	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		keep = malloc(sizes[i]);
		printf("app: malloc %zu\n", sizes[i]);
		free(keep);
	}
	return 0;
}
