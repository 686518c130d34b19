/* Asks for a few real-time priorities, for samples/setscheduler.bpf.c. */
#include <sched.h>
#include <stdio.h>

int main(void)
{
	static const int prios[] = { 10, 20, 30 };
	struct sched_param p = { 0 };

	for (unsigned int i = 0; i < sizeof(prios) / sizeof(prios[0]); i++) {
		p.sched_priority = prios[i];
		if (sched_setscheduler(0, SCHED_FIFO, &p))
			perror("sched_setscheduler");
		printf("app: prio %d\n", prios[i]);
	}
	p.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &p);
	printf("app: prio 0\n");
	return 0;
}
