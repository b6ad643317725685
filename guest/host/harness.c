/*
 * host/harness.c: run a multicore workload on the build machine with N
 * threads as N cores. The workload is compiled with -Dmain=guest_main and
 * -Iguest/host, so it sees host/board.h instead of the SDK's.
 * Usage: ./workload N   (1..8); exits with core 0's return value, like the
 * board, whose run ends when core 0 calls exit().
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "board.h"

int guest_main(void);

_Thread_local unsigned host_core;
unsigned host_ncores;

static int status[RAPTOR_MAX_CORES];

static void *core(void *arg)
{
	host_core = (unsigned)(uintptr_t)arg;
	status[host_core] = guest_main();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[RAPTOR_MAX_CORES];

	host_ncores = argc > 1 ? (unsigned)atoi(argv[1]) : 2;
	if (host_ncores < 1 || host_ncores > RAPTOR_MAX_CORES) {
		fprintf(stderr, "usage: %s CORES (1..%d)\n", argv[0], RAPTOR_MAX_CORES);
		return 2;
	}
	for (unsigned c = 0; c < host_ncores; c++)
		if (pthread_create(&t[c], NULL, core, (void *)(uintptr_t)c) != 0) {
			perror("pthread_create");
			return 2;
		}
	for (unsigned c = 0; c < host_ncores; c++)
		pthread_join(t[c], NULL);
	return status[0];
}
