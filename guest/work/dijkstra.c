/*
 * dijkstra: single-source shortest paths on a weighted digraph held as an
 * adjacency matrix, run from every source. Checked against Floyd-Warshall
 * (all pairs, a different algorithm) and against a small graph whose
 * distances are known by hand.
 */
#include "common.h"

#define N 20
#define INF 0x3FFFFFFF /* half of INT_MAX: INF + weight cannot overflow */

static int32_t adj[N][N]; /* 0 = no edge (except the diagonal) */
static int32_t dist_dj[N][N], dist_fw[N][N];

/* O(N^2) Dijkstra with a linear scan for the closest unvisited node. */
static void dijkstra(int n, int32_t g[][N], int src, int32_t *dist)
{
	uint8_t done[N] = {0};

	for (int i = 0; i < n; i++)
		dist[i] = INF;
	dist[src] = 0;
	for (int round = 0; round < n; round++) {
		int u = -1;

		for (int i = 0; i < n; i++)
			if (!done[i] && (u < 0 || dist[i] < dist[u]))
				u = i;
		if (dist[u] == INF)
			break; /* the rest is unreachable */
		done[u] = 1;
		for (int v = 0; v < n; v++)
			if (g[u][v] != 0 && dist[u] + g[u][v] < dist[v])
				dist[v] = dist[u] + g[u][v];
	}
}

static void floyd_warshall(int n, int32_t g[][N], int32_t d[][N])
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			d[i][j] = (i == j) ? 0 : (g[i][j] != 0 ? g[i][j] : INF);
	for (int k = 0; k < n; k++)
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				if (d[i][k] + d[k][j] < d[i][j])
					d[i][j] = d[i][k] + d[k][j];
}

/* 5 nodes: 0->1 (10), 0->2 (3), 2->1 (4), 1->3 (2), 2->3 (8), 3->4 (7), 2->4 (20). */
static int check_known(void)
{
	static int32_t g[N][N];
	static const int32_t want[5] = {0, 7, 3, 9, 16};
	int32_t d[N];

	g[0][1] = 10, g[0][2] = 3, g[2][1] = 4, g[1][3] = 2;
	g[2][3] = 8, g[3][4] = 7, g[2][4] = 20;
	dijkstra(5, g, 0, d);
	for (int i = 0; i < 5; i++)
		if (d[i] != want[i])
			return fail("dijkstra", "known graph: dist[%d]=%ld, want %ld", i,
				    (long)d[i], (long)want[i]);
	return 0;
}

int main(void)
{
	uint32_t seed = 0xD1D1D1D1u;
	int64_t sum = 0;
	int unreachable = 0;

	if (check_known() != 0)
		return 1;
	/* About 1 edge in 4, weights 1..99; some nodes may be unreachable. */
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			adj[i][j] = (i != j && rng_next(&seed) % 4 == 0) ? 1 + rng_next(&seed) % 99 : 0;

	for (int s = 0; s < N; s++)
		dijkstra(N, adj, s, dist_dj[s]);
	floyd_warshall(N, adj, dist_fw);
	for (int i = 0; i < N; i++) {
		for (int j = 0; j < N; j++) {
			if (dist_dj[i][j] != dist_fw[i][j])
				return fail("dijkstra", "%d->%d: dijkstra %ld, floyd-warshall %ld", i,
					    j, (long)dist_dj[i][j], (long)dist_fw[i][j]);
			if (dist_dj[i][j] == INF)
				unreachable++;
			else
				sum += dist_dj[i][j];
		}
	}
	printf("dijkstra ok: sum of distances %lld, %d unreachable pairs\n", (long long)sum,
	       unreachable);
	return 0;
}
