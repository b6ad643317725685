/*
 * nbody (multicore): a few steps of a softened gravitational n-body system
 * in Q16.16 fixed point, all masses 1 and the time step folded into G.
 *
 * Per step: every core computes the acceleration of its bodies (body i to
 * core i mod n); barrier; every core moves its bodies; barrier. The pair
 * force is always computed with the lower-numbered body first and negated
 * for the other, so F(i,j) = -F(j,i) bit for bit and the total momentum
 * (sum of velocities) is conserved *exactly*. Core 0 checks that, and re-runs
 * the whole simulation serially from the start: the final state must be
 * identical. 64-bit division (__aeabi_ldivmod) and an integer square root
 * do the heavy lifting. Works for any num_cores() from 1 to 8.
 */
#include <string.h>

#include "common.h"

#define NB 10
#define STEPS 3
#define ONE (1 << 16) /* 1.0 in Q16.16 */
#define EPS2 (ONE / 4) /* softening: r^2 + 0.25 never vanishes */

struct vec {
	int32_t x, y, z;
};

struct state {
	struct vec pos[NB], vel[NB], acc[NB];
};

static struct state par, ser; /* parallel run, serial re-run */
static struct barrier bar = BARRIER_INIT;

/* floor(sqrt(v)), bit by bit. */
static uint64_t isqrt64(uint64_t v)
{
	uint64_t r = 0, bit = 1ULL << 62;

	while (bit > v)
		bit >>= 2;
	while (bit != 0) {
		if (v >= r + bit) {
			v -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/* Force on body lo from body hi (lo < hi), Q16.16: G d / (|d|^2 + eps^2)^1.5 */
static struct vec pair_force(const struct vec *plo, const struct vec *phi)
{
	int64_t dx = phi->x - plo->x, dy = phi->y - plo->y, dz = phi->z - plo->z;
	int64_t r2 = ((dx * dx + dy * dy + dz * dz) >> 16) + EPS2; /* Q16 */
	int64_t r = (int64_t)isqrt64((uint64_t)r2 << 16);        /* Q16 */
	int64_t r3 = (r2 * r) >> 16;                               /* Q16 */
	struct vec f;

	/* G = 1/64 in these units keeps a step's velocity change small. */
	f.x = (int32_t)((dx << 10) / r3);
	f.y = (int32_t)((dy << 10) / r3);
	f.z = (int32_t)((dz << 10) / r3);
	return f;
}

static void accelerate(struct state *s, int i)
{
	struct vec a = {0, 0, 0};

	for (int j = 0; j < NB; j++) {
		if (j == i)
			continue;
		int lo = i < j ? i : j, hi = i < j ? j : i;
		struct vec f = pair_force(&s->pos[lo], &s->pos[hi]);
		int sign = i == lo ? 1 : -1;

		a.x += sign * f.x;
		a.y += sign * f.y;
		a.z += sign * f.z;
	}
	s->acc[i] = a;
}

static void move(struct state *s, int i)
{
	s->vel[i].x += s->acc[i].x;
	s->vel[i].y += s->acc[i].y;
	s->vel[i].z += s->acc[i].z;
	s->pos[i].x += s->vel[i].x >> 4;
	s->pos[i].y += s->vel[i].y >> 4;
	s->pos[i].z += s->vel[i].z >> 4;
}

/* Bodies on a rough 3-D lattice within +-8 units, small initial velocities. */
static void init_body(struct state *s, int i)
{
	uint32_t h = (uint32_t)(i + 1) * 0x9E3779B1u;

	s->pos[i].x = ((i % 3) - 1) * 5 * ONE + (int32_t)(h & 0xFFFF);
	s->pos[i].y = ((i / 3 % 3) - 1) * 5 * ONE + (int32_t)((h >> 8) & 0xFFFF);
	s->pos[i].z = ((i / 9) - 1) * 5 * ONE + (int32_t)((h >> 16) & 0xFFFF);
	s->vel[i].x = (int32_t)(h % 2001) - 1000;
	s->vel[i].y = (int32_t)(h / 7 % 2001) - 1000;
	s->vel[i].z = (int32_t)(h / 49 % 2001) - 1000;
}

static struct vec momentum(const struct state *s)
{
	struct vec p = {0, 0, 0};

	for (int i = 0; i < NB; i++) {
		p.x += s->vel[i].x;
		p.y += s->vel[i].y;
		p.z += s->vel[i].z;
	}
	return p;
}

static int check(unsigned n, struct vec p0)
{
	struct vec p1 = momentum(&par);

	if (p1.x != p0.x || p1.y != p0.y || p1.z != p0.z)
		return fail("nbody", "%u cores: momentum (%ld,%ld,%ld) became (%ld,%ld,%ld)", n,
			    (long)p0.x, (long)p0.y, (long)p0.z, (long)p1.x, (long)p1.y,
			    (long)p1.z);
	for (int i = 0; i < NB; i++)
		init_body(&ser, i);
	for (int step = 0; step < STEPS; step++) {
		for (int i = 0; i < NB; i++)
			accelerate(&ser, i);
		for (int i = 0; i < NB; i++)
			move(&ser, i);
	}
	if (memcmp(&ser, &par, sizeof(ser)) != 0)
		return fail("nbody", "%u cores: parallel and serial runs differ", n);
	return 0;
}

int main(void)
{
	unsigned me = core_id(), n = num_cores();
	struct vec p0;

	for (int i = (int)me; i < NB; i += (int)n)
		init_body(&par, i);
	barrier_wait(&bar);
	p0 = momentum(&par);
	for (int step = 0; step < STEPS; step++) {
		for (int i = (int)me; i < NB; i += (int)n)
			accelerate(&par, i);
		barrier_wait(&bar); /* all forces use the old positions */
		for (int i = (int)me; i < NB; i += (int)n)
			move(&par, i);
		barrier_wait(&bar);
	}
	if (me != 0)
		return 0;
	if (check(n, p0) != 0)
		return 1;
	printf("nbody ok: %u cores, %d bodies, %d steps, body 0 at (%ld,%ld,%ld)/65536\n", n, NB,
	       STEPS, (long)par.pos[0].x, (long)par.pos[0].y, (long)par.pos[0].z);
	return 0;
}
