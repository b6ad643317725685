#include "replay/index.h"

#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h> /* crc32 */

#include "replay/ckstore.h"
#include "replay/mem.h"
#include "replay/summary.h"
#include "util/zpack.h"

/*
 * The header, little-endian (docs/FORMAT.md, "The index file"):
 *
 *   0      8     16                48       80       112      144      176
 *   +------+--+--+----------------+--------+--------+--------+--------+--------+
 *   |magic |vr|hs|      key       |manifest|  ELF   |   cf   |   lv   |  body  |
 *   |RAPTORIX  |  |    SHA-256     |SHA-256 |SHA-256 |SHA-256 |SHA-256 |SHA-256 |
 *   +------+--+--+----------------+--------+--------+--------+--------+--------+
 *   208        216        224    232    240        248        256        264 268 272
 *   +----------+----------+------+------+----------+----------+----------+---+---+
 *   | interval |state_size|count |pages |end steps |end posit.|body bytes| 0 |crc|
 *   +----------+----------+------+------+----------+----------+----------+---+---+
 *
 * vr: format version (u32), hs: header size (u32, 272); crc: CRC-32 of
 * bytes 0..267. The body (body bytes, right after the header) is `count`
 * records (see write_record).
 */
#define HDR_SIZE 272
#define MAGIC "RAPTORIX"
/* the most the time index may inflate to */
#define TIX_MAX ((uint64_t)1 << 32)
#define O_VERSION 8
#define O_HSIZE 12
#define O_KEY 16
#define O_FILES 48 /* manifest, ELF, cf, lv: 32 bytes each */
#define O_BODYSUM 176
#define O_INTERVAL 208
#define O_STATE 216
#define O_COUNT 224
#define O_PAGES 232
#define O_END_STEPS 240
#define O_END_POS 248
#define O_BODY 256
#define O_CRC 268
#define NFILES 4
#define CHUNK 65536

static const char *const file_what[NFILES] = {"manifest.ini", "the ELF", "the cf stream",
					      "the lv stream"};

struct rpl_idx {
	char *dir, *beside, *cache_dir, *cache;
	uint8_t files[NFILES][32]; /* each file's SHA-256 (lv: zero when none) */
	uint8_t key[32];
	uint64_t interval, state_size;
	/* the file found valid or written */
	char *path;
	uint64_t count, pages, end_steps, end_position, body, bytes;
	/* written: the bytes of the state blobs, how many states are deltas */
	uint64_t state_bytes, deltas;
};

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static uint32_t get32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

static char *join(const char *a, const char *b)
{
	char *s = xmalloc(strlen(a) + strlen(b) + 2);

	sprintf(s, "%s/%s", a, b);
	return s;
}

/* SHA-256 of a file's bytes. 0 / -1. */
static int hash_file(const char *path, uint8_t out[32])
{
	struct sha256_ctx h;
	uint8_t *buf = xmalloc(CHUNK);
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		free(buf);
		return error("%s: cannot open: %m", path);
	}
	sha256_init(&h);
	while ((n = read(fd, buf, CHUNK)) > 0)
		sha256_update(&h, (size_t)n, buf);
	close(fd);
	free(buf);
	if (n < 0)
		return error("%s: read error: %m", path);
	sha256_digest(&h, 32, out);
	return 0;
}

static char *cache_dir(const char *given)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *base, *d;

	if (given)
		return xstrdup(given);
	if (x && *x)
		return join(x, "raptor");
	base = join(home && *home ? home : ".", ".cache");
	d = join(base, "raptor");
	free(base);
	return d;
}

struct rpl_idx *rpl_idx_new(struct rpl *r, const char *cache)
{
	const struct st_manifest *mf = rpl_manifest(r);
	struct rpl_idx *x = xcalloc(1, sizeof(*x));
	const char *names[NFILES] = {"manifest.ini", mf->elf, mf->cf_file,
				     mf->lv_on ? mf->lv_file : NULL};
	struct sha256_ctx h;
	uint8_t v[12];
	char hex[65];

	x->dir = xstrdup(rpl_dir(r));
	x->interval = rpl_interval(r);
	x->state_size = rpl_state_size(r);
	for (int i = 0; i < NFILES; i++) {
		char *p;
		int k;

		if (!names[i])
			continue;
		p = join(x->dir, names[i]);
		k = hash_file(p, x->files[i]);
		free(p);
		if (k) {
			rpl_idx_free(x);
			return NULL;
		}
	}
	sha256_init(&h);
	put32(v, RPL_INDEX_VERSION);
	put64(v + 4, x->interval);
	sha256_update(&h, sizeof(v), v);
	sha256_update(&h, sizeof(x->files), &x->files[0][0]);
	sha256_digest(&h, 32, x->key);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", x->key[i]);
	x->beside = join(x->dir, RPL_INDEX_NAME);
	x->cache_dir = cache_dir(cache);
	x->cache = xmalloc(strlen(x->cache_dir) + 80);
	sprintf(x->cache, "%s/%.32s.raptor", x->cache_dir, hex);
	return x;
}

void rpl_idx_free(struct rpl_idx *x)
{
	if (!x)
		return;
	free(x->dir);
	free(x->beside);
	free(x->cache_dir);
	free(x->cache);
	free(x->path);
	free(x);
}

const char *rpl_idx_path(const struct rpl_idx *x)
{
	return x->path;
}

uint64_t rpl_idx_count(const struct rpl_idx *x)
{
	return x->count;
}

uint64_t rpl_idx_state_bytes(const struct rpl_idx *x, uint64_t *deltas)
{
	*deltas = x->deltas;
	return x->state_bytes;
}

uint64_t rpl_idx_bytes(const struct rpl_idx *x)
{
	return x->bytes;
}

/* ---- checking ------------------------------------------------------------------------ */

/*
 * Is the file at path a valid index for x? 1 yes (x's sizes filled), 0
 * absent, -1 invalid (a warning says why).
 */
static int check(struct rpl_idx *x, const char *path)
{
	uint8_t h[HDR_SIZE], sum[32], *buf;
	struct sha256_ctx sh;
	uint64_t body, left;
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY), ret = -1;

	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		/* not ours to read: not a fault of the index, nor one a rebuild would mend */
		warning("%s: cannot open: %m; not used", path);
		return 0;
	}
	if (fstat(fd, &st) || (n = pread(fd, h, HDR_SIZE, 0)) < 0) {
		warning("%s: cannot read: %m; not used", path);
		goto out;
	}
	if (n >= 8 && memcmp(h, MAGIC, 8)) {
		warning("%s: not a raptor index (no RAPTORIX magic); not used", path);
		goto out;
	}
	if (n < HDR_SIZE) {
		warning("%s: truncated: %zd bytes, shorter than the %d-byte header; not used", path,
			n, HDR_SIZE);
		goto out;
	}
	if (get32(h + O_CRC) != (uint32_t)crc32(0, h, O_CRC)) {
		warning("%s: damaged: the header's CRC-32 does not match; not used", path);
		goto out;
	}
	if (get32(h + O_VERSION) != RPL_INDEX_VERSION || get32(h + O_HSIZE) != HDR_SIZE) {
		warning("%s: index format version %u, this raptor reads version %d; not used", path,
			get32(h + O_VERSION), RPL_INDEX_VERSION);
		goto out;
	}
	if (get64(h + O_STATE) != x->state_size) {
		warning("%s: written by a raptor whose checkpoints are %llu bytes, this one's "
			"are %llu; not used",
			path, (unsigned long long)get64(h + O_STATE),
			(unsigned long long)x->state_size);
		goto out;
	}
	for (int i = 0; i < NFILES; i++)
		if (memcmp(h + O_FILES + 32 * i, x->files[i], 32)) {
			warning("%s: stale: %s changed since it was written; not used", path,
				file_what[i]);
			goto out;
		}
	if (get64(h + O_INTERVAL) != x->interval) {
		warning("%s: stale: written with --interval %llu, this replay uses %llu; not used",
			path, (unsigned long long)get64(h + O_INTERVAL),
			(unsigned long long)x->interval);
		goto out;
	}
	if (memcmp(h + O_KEY, x->key, 32)) {
		warning("%s: stale: its key differs; not used", path);
		goto out;
	}
	body = get64(h + O_BODY);
	if ((uint64_t)st.st_size != HDR_SIZE + body) {
		warning("%s: %s: %llu bytes, the header says %llu; not used", path,
			(uint64_t)st.st_size < HDR_SIZE + body ? "truncated" : "damaged",
			(unsigned long long)st.st_size, (unsigned long long)(HDR_SIZE + body));
		goto out;
	}
	if (!get64(h + O_COUNT) || get64(h + O_COUNT) > body ||
	    get64(h + O_PAGES) > get64(h + O_COUNT) * rpl_mem_npages()) {
		warning("%s: damaged: %llu checkpoints, %llu pages; not used", path,
			(unsigned long long)get64(h + O_COUNT),
			(unsigned long long)get64(h + O_PAGES));
		goto out;
	}
	buf = xmalloc(CHUNK);
	sha256_init(&sh);
	for (left = body; left;) {
		n = pread(fd, buf, left < CHUNK ? left : CHUNK, (off_t)(HDR_SIZE + body - left));
		if (n <= 0)
			break;
		sha256_update(&sh, (size_t)n, buf);
		left -= (uint64_t)n;
	}
	free(buf);
	sha256_digest(&sh, 32, sum);
	if (left || memcmp(sum, h + O_BODYSUM, 32)) {
		warning("%s: damaged: the body's SHA-256 does not match the header's; not used",
			path);
		goto out;
	}
	free(x->path);
	x->path = xstrdup(path);
	x->count = get64(h + O_COUNT);
	x->pages = get64(h + O_PAGES);
	x->end_steps = get64(h + O_END_STEPS);
	x->end_position = get64(h + O_END_POS);
	x->body = body;
	x->bytes = (uint64_t)st.st_size;
	ret = 1;
out:
	close(fd);
	return ret;
}

int rpl_idx_find(struct rpl_idx *x, int *bad)
{
	int k = check(x, x->beside);

	if (k < 0)
		*bad = 1;
	if (k > 0)
		return 1;
	k = check(x, x->cache);
	if (k < 0)
		*bad = 1;
	return k > 0;
}

/* ---- loading ------------------------------------------------------------------------- */

/* Read exactly n bytes. 0 / -1. */
static int bread(FILE *f, void *buf, size_t n)
{
	return fread(buf, 1, n, f) == n ? 0 : -1;
}

static int bread32(FILE *f, uint32_t *v)
{
	uint8_t b[4];

	if (bread(f, b, 4))
		return -1;
	*v = get32(b);
	return 0;
}

static int bread64(FILE *f, uint64_t *v)
{
	uint8_t b[8];

	if (bread(f, b, 8))
		return -1;
	*v = get64(b);
	return 0;
}

/*
 * A blob: u32 length, then that many bytes (util/zpack.h). Into *z (grown
 * as needed), at most `most` bytes. Its length, or 0 on error.
 */
static uint32_t bread_blob(FILE *f, uint8_t **z, size_t *cap, size_t most)
{
	uint32_t n;

	if (bread32(f, &n) || !n || n > most)
		return 0;
	if (n > *cap) {
		*cap = n;
		*z = xrealloc(*z, n);
	}
	return bread(f, *z, n) ? 0 : n;
}

/* A blob that unpacks to exactly n bytes at out. 0 / -1. */
static int bread_inflate(FILE *f, struct zpack *zp, uint8_t **z, size_t *cap, void *out, size_t n)
{
	uint32_t len = bread_blob(f, z, cap, zpack_bound(n));

	if (!len || zpack_unpack(zp, out, n, *z, len))
		return -1;
	return 0;
}

/* The time index's bytes as they unpack (rpl_tix_deserialize_from; ctx: the zpack). */
static long tix_source(void *ctx, uint8_t *buf, size_t cap)
{
	return zpack_unstream_read(ctx, buf, cap);
}

/* The initial image (write_initial_image); NULL with *what set if it is damaged. */
static struct rpl_mem *read_initial_image(FILE *f, struct zpack *zp, uint8_t *page, size_t pbytes,
					  uint8_t **z, size_t *zcap, const char **what)
{
	struct rpl_mem *init = rpl_mem_new();
	size_t np = rpl_mem_npages();
	uint32_t n, k, prev = 0;

	if (bread32(f, &n) || n > np) {
		*what = "has a damaged initial image";
		goto bad;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct rpl_mem_page *p;

		if (bread32(f, &k) || k >= np || (i && k <= prev) ||
		    bread_inflate(f, zp, z, zcap, page, pbytes)) {
			*what = "has a damaged initial image";
			goto bad;
		}
		prev = k;
		p = rpl_mem_page_new(init, page, page + RPL_MEM_PAGE_SIZE);
		rpl_mem_set_page(init, k, p);
		rpl_mem_page_put(init, p);
	}
	return init;
bad:
	rpl_mem_free(init);
	return NULL;
}

/*
 * A delta's key in the body (write_record): the latest record whose state
 * is whole, its steps; the writer's: whether there is one, its raw state
 * if raw_ok, a buffer for a delta.
 */
struct last_key {
	uint64_t rec, steps;
	int have, raw_ok;
	uint8_t *raw, *x;
};

/*
 * A delta record whose key the store has let go (rpl_ckstore_load
 * refused it): its raw state, the key's kbytes (klen, packed whole) and
 * the delta's dbytes (dlen) inflated and XORed, added raw (the store packs
 * it at a trim). 0 (dbytes freed, the rest the store's), or -1: a blob
 * does not inflate (nothing freed).
 */
static int load_raw(struct rpl_ckstore *ck, struct zpack *zp, const uint8_t *kbytes, size_t klen,
		    uint8_t *dbytes, size_t dlen, size_t state_size, uint64_t slot, uint64_t steps,
		    uint64_t position, struct rpl_mem *snap, const struct rpl_summary *sum)
{
	uint8_t *raw = xmalloc(state_size), *k = xmalloc(state_size);

	if (zpack_unpack(zp, k, state_size, kbytes, klen) ||
	    zpack_unpack(zp, raw, state_size, dbytes, dlen)) {
		free(raw);
		free(k);
		return -1;
	}
	for (size_t j = 0; j < state_size; j++)
		raw[j] ^= k[j];
	free(k);
	free(dbytes);
	if (rpl_ckstore_load(ck, slot, steps, position, raw, state_size, 0, UINT64_MAX, snap, sum))
		abort(); /* (no base: it cannot refuse) */
	return 0;
}

int rpl_idx_load(struct rpl_idx *x, struct rpl *r)
{
	struct rpl_mem *live = rpl_live_mem(r), *snap;
	size_t np = rpl_mem_npages(), zcap = 0, pbytes = RPL_MEM_PAGE_SIZE * 9 / 8;
	struct rpl_mem_page **table = NULL, **cur = NULL;
	uint64_t *next = NULL, *head = NULL, nid = 0, prev_steps = 0;
	struct rpl_summary *sum = xmalloc(sizeof(*sum));
	uint8_t *page = xmalloc(pbytes), *z = NULL, *kbytes = NULL;
	struct rpl_tindex *tix = NULL;
	struct rpl_mem *init = NULL;
	struct last_key key = {0, UINT64_MAX, 0, 0, NULL, NULL};
	uint64_t tlen;
	size_t klen = 0;
	struct rpl_ckstore *ck;
	const char *what = "ends early or does not inflate";
	struct zpack *zp;
	FILE *f = NULL;
	int ret = -1;

	if (!x->path)
		return error("%s: no valid index to load", x->dir);
	if (!(zp = zpack_new()))
		return error("%s: cannot set up the decompressor (out of memory?)", x->path);
	ck = rpl_ckstore_new(x->state_size, live, rpl_ckstore_budget(rpl_store(r)));
	f = fopen(x->path, "rb");
	if (!f || fseek(f, HDR_SIZE, SEEK_SET)) {
		error("%s: cannot read: %m", x->path);
		goto out;
	}
	table = xcalloc(x->pages ? x->pages : 1, sizeof(*table));
	next = xcalloc(x->pages ? x->pages : 1, sizeof(*next));
	head = xmalloc(x->count * sizeof(*head));
	memset(head, 0xff, x->count * sizeof(*head)); /* UINT64_MAX: an empty list */
	cur = xcalloc(np, sizeof(*cur));
	for (uint64_t i = 0; i < x->count; i++) {
		uint64_t slot, steps, position;
		uint32_t sealed, nnew, nref, len, delta;
		uint8_t *state;

		if (bread64(f, &slot) || bread64(f, &steps) || bread64(f, &position) ||
		    bread32(f, &sealed) ||
		    bread_inflate(f, zp, &z, &zcap, sum->pc,
				  sizeof(sum->pc) + sizeof(sum->rd) + sizeof(sum->wr)))
			goto bad;
		sum->sealed = sealed != 0;
		if ((i ? steps <= prev_steps : steps || position || slot) ||
		    position != slot * x->interval) {
			what = "has checkpoints out of order";
			goto bad;
		}
		prev_steps = steps;
		if (bread32(f, &delta) || (delta && (!key.have || delta != i - key.rec))) {
			what = "has a delta whose key is not the latest whole state before it";
			goto bad;
		}
		if (!(len = bread_blob(f, &z, &zcap, zpack_bound(x->state_size))))
			goto bad;
		state = xmalloc(len);
		memcpy(state, z, len);
		if (!delta) {
			/* the key of the deltas to come: its bytes, for when the store drops it */
			key.have = 1;
			key.rec = i;
			key.steps = steps;
			kbytes = xrealloc(kbytes, len);
			memcpy(kbytes, state, len);
			klen = len;
		}
		if (bread32(f, &nnew) || nnew > np || nid + nnew > x->pages) {
			free(state);
			what = "holds more pages than its header says";
			goto bad;
		}
		for (uint32_t k = 0; k < nnew; k++) {
			uint32_t last;

			if (bread32(f, &last) || last < i || last >= x->count ||
			    bread_inflate(f, zp, &z, &zcap, page, pbytes)) {
				free(state);
				goto bad;
			}
			table[nid] = rpl_mem_page_new(live, page, page + RPL_MEM_PAGE_SIZE);
			next[nid] = head[last];
			head[last] = nid++;
		}
		memset(cur, 0, np * sizeof(*cur));
		if (bread32(f, &nref) || nref > np) {
			free(state);
			goto bad;
		}
		for (uint32_t k = 0; k < nref; k++) {
			uint32_t pi, id;

			if (bread32(f, &pi) || bread32(f, &id) || pi >= np || id >= nid ||
			    !table[id]) {
				free(state);
				what = "refers to a page it does not hold";
				goto bad;
			}
			cur[pi] = table[id];
		}
		snap = rpl_mem_copy(live);
		for (size_t k = 0; k < np; k++)
			rpl_mem_set_page(snap, k, cur[k]);
		if (rpl_ckstore_load(ck, slot, steps, position, state, len, 1,
				     delta ? key.steps : UINT64_MAX, snap, sum)) {
			/* the store let the key go: the state raw, packed at the next trim */
			if (load_raw(ck, zp, kbytes, klen, state, len, x->state_size, slot, steps,
				     position, snap, sum)) {
				free(state);
				rpl_mem_free(snap);
				what = "has a checkpoint state that does not inflate";
				goto bad;
			}
		}
		rpl_ckstore_trim(ck, slot);
		/* the pages no later checkpoint holds: only the snapshots keep them now */
		for (uint64_t id = head[i]; id != UINT64_MAX; id = next[id]) {
			rpl_mem_page_put(live, table[id]);
			table[id] = NULL;
		}
	}
	if (nid != x->pages || bread64(f, &tlen) || tlen > TIX_MAX) {
		what = "does not end where its header says";
		goto bad;
	}
	if (tlen) {
		/* unpacked as it is read: the expanded lists are never whole in memory */
		uint32_t blen = bread_blob(f, &z, &zcap, zpack_bound(tlen));

		if (!blen)
			goto bad;
		zpack_unstream_begin(zp, z, blen);
		if (!(tix = rpl_tix_deserialize_from(tlen, tix_source, zp, x->interval, &what)))
			goto bad_tix;
	}
	if (!(init = read_initial_image(f, zp, page, pbytes, &z, &zcap, &what)))
		goto bad;
	if (fgetc(f) != EOF) {
		what = "does not end where its header says";
		goto bad;
	}
	ret = rpl_adopt(r, ck, x->end_steps, x->end_position);
	ck = NULL;
	if (!ret && tix)
		rpl_set_time_index(r, tix);
	else
		rpl_tix_free(tix);
	tix = NULL;
	if (!ret)
		rpl_set_initial_image(r, init);
	else
		rpl_mem_free(init);
	init = NULL;
	goto out;
bad_tix:
	error("%s: damaged: its time index %s", x->path, what);
	goto out;
bad:
	error("%s: damaged: its body %s", x->path, what);
out:
	for (uint64_t id = 0; table && id < x->pages; id++)
		if (table[id])
			rpl_mem_page_put(live, table[id]);
	rpl_ckstore_free(ck);
	if (f)
		fclose(f);
	free(table);
	free(next);
	free(head);
	free(cur);
	free(page);
	free(z);
	free(kbytes);
	zpack_free(zp);
	free(sum);
	rpl_tix_free(tix);
	rpl_mem_free(init);
	return ret;
}

/* ---- writing ------------------------------------------------------------------------- */

/* A distinct page: its identity, its id in write order, the last checkpoint holding it. */
struct pent {
	const struct rpl_mem_page *p;
	uint64_t id, first, last;
};

struct pmap {
	struct pent *v;
	size_t n, cap; /* cap: a power of two */
	uint64_t ids;  /* ids given so far, while writing */
};

static struct pent *pmap_get(struct pmap *m, const struct rpl_mem_page *p)
{
	size_t h;

	if (2 * (m->n + 1) > m->cap) {
		struct pmap g = {xcalloc(m->cap ? 2 * m->cap : 1024, sizeof(*g.v)), 0,
				 m->cap ? 2 * m->cap : 1024, m->ids};

		for (size_t i = 0; i < m->cap; i++)
			if (m->v[i].p)
				*pmap_get(&g, m->v[i].p) = m->v[i];
		free(m->v);
		*m = g;
	}
	h = (size_t)(((uintptr_t)p >> 4) * 0x9e3779b97f4a7c15ull) & (m->cap - 1);
	while (m->v[h].p && m->v[h].p != p)
		h = (h + 1) & (m->cap - 1);
	if (!m->v[h].p) {
		m->v[h].p = p;
		m->v[h].id = UINT64_MAX;
		m->n++;
	}
	return &m->v[h];
}

/* The body as it is written: its SHA-256 and size kept. */
struct bout {
	FILE *f;
	struct sha256_ctx sh;
	uint64_t bytes;
	int err;
	struct zpack *zp;
	uint8_t *z; /* compression scratch */
	size_t zcap;
};

static void bwrite(struct bout *w, const void *buf, size_t n)
{
	if (fwrite(buf, 1, n, w->f) != n)
		w->err = 1;
	sha256_update(&w->sh, n, buf);
	w->bytes += n;
}

static void bwrite32(struct bout *w, uint32_t v)
{
	uint8_t b[4];

	put32(b, v);
	bwrite(w, b, 4);
}

static void bwrite64(struct bout *w, uint64_t v)
{
	uint8_t b[8];

	put64(b, v);
	bwrite(w, b, 8);
}

/* A blob: u32 length, then the bytes. */
static void bwrite_blob(struct bout *w, const void *z, size_t n)
{
	bwrite32(w, (uint32_t)n);
	bwrite(w, z, n);
}

/* n bytes at buf, packed (util/zpack.h) as a blob. */
static void bwrite_deflate(struct bout *w, const void *buf, size_t n)
{
	size_t m = zpack_bound(n);

	if (m > w->zcap) {
		w->zcap = m;
		w->z = xrealloc(w->z, m);
	}
	if (!(m = zpack_pack(w->zp, w->z, w->zcap, buf, n))) {
		w->err = 1;
		return;
	}
	bwrite_blob(w, w->z, m);
}

/* The time index's bytes as they are made, into one packed blob (rpl_tix_serialize_to). */
struct tix_pack {
	struct bout *w;
	uint8_t *z;
	size_t cap, len;
	int err;
};

static void tix_piece(void *ctx, const uint8_t *p, size_t n)
{
	struct tix_pack *tp = ctx;

	if (!tp->err && zpack_stream_feed(tp->w->zp, p, n, 0, &tp->z, &tp->cap, &tp->len))
		tp->err = 1;
}

/* Record i, checkpoint i of ck, is the key now; raw: its raw state, or NULL (unpacked when needed). */
static void key_written(struct last_key *key, struct rpl_ckstore *ck, size_t i, const uint8_t *raw,
			size_t state_size)
{
	key->have = 1;
	key->rec = i;
	key->steps = rpl_ckstore_steps(ck, i);
	if (!key->raw) {
		key->raw = xmalloc(state_size);
		key->x = xmalloc(state_size);
	}
	key->raw_ok = raw != NULL;
	if (raw)
		memcpy(key->raw, raw, state_size);
}

/*
 * One record of the body (integers little-endian; a blob is a u32 length
 * and that many bytes of one zstd frame, util/zpack.h):
 *
 *   slot u64, steps u64, position u64, sealed u32,
 *   blob: the summary's bitmaps pc[1024 bytes], rd[8192], wr[8192],
 *   delta u32: 0, or the record is the delta-th after its key,
 *   blob: the state (state_size bytes inflated; a delta: XORed with the key's),
 *   nnew u32, nnew x { last u32, blob: data[4096] known[512] }  (pages first held here)
 *   nref u32, nref x { page index u32, page id u32 }            (the snapshot's pages)
 *
 * A page's id is its order of appearance; `last` is the last checkpoint
 * that holds it, so a reader can let go of it there. The states stay
 * compressed in the reader's store until restored. A delta's key is the
 * latest record before it whose delta is 0 (*key): the store's deltas on
 * it go as they are; a state the store holds raw, or as a delta on
 * another, becomes a delta on it where rpl_ckstore_may_key allows, else
 * whole (and the key of those after it).
 */
static int write_record(struct rpl_idx *x, struct bout *w, struct rpl_ckstore *ck, size_t i,
			struct pmap *m, struct last_key *key)
{
	size_t state_size = x->state_size;
	uint64_t at;
	const struct rpl_summary *sum = rpl_ckstore_sum_const(ck, i);
	const struct rpl_mem *mem;
	const uint8_t *state, *data, *known;
	size_t np = rpl_mem_npages(), len;
	uint32_t nnew = 0, nref = 0;
	uint8_t *buf;
	uint64_t base;
	int packed;

	bwrite64(w, rpl_ckstore_slot(ck, i));
	bwrite64(w, rpl_ckstore_steps(ck, i));
	bwrite64(w, rpl_ckstore_position(ck, i));
	bwrite32(w, (uint32_t)sum->sealed);
	bwrite_deflate(w, sum->pc, sizeof(sum->pc) + sizeof(sum->rd) + sizeof(sum->wr));
	state = rpl_ckstore_state_stored(ck, i, &len, &packed, &base);
	at = w->bytes + 4; /* the state's blob, after the delta field */
	if (base != UINT64_MAX && key->have && base == key->steps) {
		/* the store's delta, against the latest key written */
		bwrite32(w, (uint32_t)(i - key->rec));
		bwrite_blob(w, state, len);
		x->deltas++;
	} else if (packed && base == UINT64_MAX) {
		/* packed whole: a key as it is */
		bwrite32(w, 0);
		bwrite_blob(w, state, len);
		key_written(key, ck, i, NULL, state_size);
	} else {
		/* raw, or a delta against another: a delta against the latest key if it may be one */
		int delta = key->have && rpl_ckstore_may_key(ck, key->rec, i);

		if (delta && !key->raw_ok) {
			const uint8_t *k = rpl_ckstore_state(ck, key->rec, &mem);

			if (!k)
				return -1;
			memcpy(key->raw, k, state_size);
			key->raw_ok = 1;
		}
		if (!(state = rpl_ckstore_state(ck, i, &mem)))
			return -1;
		if (delta) {
			memcpy(key->x, state, state_size);
			for (size_t j = 0; j < state_size; j++)
				key->x[j] ^= key->raw[j];
			bwrite32(w, (uint32_t)(i - key->rec));
			bwrite_deflate(w, key->x, state_size);
			x->deltas++;
		} else {
			bwrite32(w, 0);
			bwrite_deflate(w, state, state_size);
			key_written(key, ck, i, state, state_size);
		}
	}
	x->state_bytes += w->bytes - at;
	mem = rpl_ckstore_mem(ck, i);
	for (size_t k = 0; k < np; k++) {
		const struct rpl_mem_page *p = rpl_mem_page(mem, k, &data, &known);

		if (p) {
			nref++;
			nnew += pmap_get(m, p)->first == i;
		}
	}
	bwrite32(w, nnew);
	buf = xmalloc(RPL_MEM_PAGE_SIZE * 9 / 8);
	for (size_t k = 0; k < np; k++) {
		const struct rpl_mem_page *p = rpl_mem_page(mem, k, &data, &known);
		struct pent *e;

		if (!p || (e = pmap_get(m, p))->first != i || e->id != UINT64_MAX)
			continue;
		e->id = m->ids++;
		bwrite32(w, (uint32_t)e->last);
		memcpy(buf, data, RPL_MEM_PAGE_SIZE);
		memcpy(buf + RPL_MEM_PAGE_SIZE, known, RPL_MEM_PAGE_SIZE / 8);
		bwrite_deflate(w, buf, RPL_MEM_PAGE_SIZE * 9 / 8);
	}
	free(buf);
	bwrite32(w, nref);
	for (size_t k = 0; k < np; k++) {
		const struct rpl_mem_page *p = rpl_mem_page(mem, k, &data, &known);

		if (!p)
			continue;
		bwrite32(w, (uint32_t)k);
		bwrite32(w, (uint32_t)pmap_get(m, p)->id);
	}
	return w->err ? -1 : 0;
}

/*
 * The initial image after the time index (rpl_read_mem):
 *   npages u32, npages x { page index u32, blob: data[4096] known[512] }
 * in increasing page index.
 */
static void write_initial_image(struct bout *w, const struct rpl_mem *init)
{
	size_t np = rpl_mem_npages();
	const uint8_t *data, *known;
	uint32_t n = 0;
	uint8_t *buf = xmalloc(RPL_MEM_PAGE_SIZE * 9 / 8);

	for (size_t k = 0; k < np; k++)
		n += rpl_mem_page(init, k, &data, &known) != NULL;
	bwrite32(w, n);
	for (size_t k = 0; k < np; k++) {
		if (!rpl_mem_page(init, k, &data, &known))
			continue;
		bwrite32(w, (uint32_t)k);
		memcpy(buf, data, RPL_MEM_PAGE_SIZE);
		memcpy(buf + RPL_MEM_PAGE_SIZE, known, RPL_MEM_PAGE_SIZE / 8);
		bwrite_deflate(w, buf, RPL_MEM_PAGE_SIZE * 9 / 8);
	}
	free(buf);
}

static int mkdirs(const char *dir)
{
	char *d = xstrdup(dir);

	for (char *p = d + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(d, 0755) && errno != EEXIST) {
				free(d);
				return error("%s: cannot create: %m", dir);
			}
			*p = '/';
		}
	if (mkdir(d, 0755) && errno != EEXIST) {
		free(d);
		return error("%s: cannot create: %m", dir);
	}
	free(d);
	return 0;
}

int rpl_idx_write(struct rpl_idx *x, struct rpl *r)
{
	struct rpl_ckstore *ck = rpl_store(r);
	size_t n = rpl_ckstore_count(ck), np = rpl_mem_npages();
	struct pmap m = {NULL, 0, 0, 0};
	struct last_key key = {0, UINT64_MAX, 0, 0, NULL, NULL};
	struct bout *w = NULL;
	uint8_t h[HDR_SIZE] = {0};
	const char *path = access(x->dir, W_OK) ? x->cache : x->beside;
	char *tmp = xmalloc(strlen(path) + 32);
	int fd = -1, ret = -1;

	/* every distinct page: the first and the last checkpoint holding it */
	for (size_t i = 0; i < n; i++) {
		const struct rpl_mem *mem = rpl_ckstore_mem(ck, i);
		const uint8_t *data, *known;

		for (size_t k = 0; k < np; k++) {
			const struct rpl_mem_page *p = rpl_mem_page(mem, k, &data, &known);
			struct pent *e;
			size_t before;

			if (!p)
				continue;
			before = m.n;
			e = pmap_get(&m, p);
			if (m.n != before)
				e->first = i;
			e->last = i;
		}
	}
	x->pages = m.n;
	if (path == x->cache && mkdirs(x->cache_dir))
		goto out;
	sprintf(tmp, "%s.tmp%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		error("%s: cannot create: %m", tmp);
		goto out;
	}
	w = xcalloc(1, sizeof(*w));
	if (!(w->zp = zpack_new())) {
		error("%s: cannot set up the compressor (out of memory?)", tmp);
		goto out;
	}
	if (!(w->f = fdopen(fd, "wb"))) {
		error("%s: cannot write: %m", tmp);
		goto out;
	}
	fd = -1;
	sha256_init(&w->sh);
	if (fwrite(h, 1, HDR_SIZE, w->f) != HDR_SIZE)
		w->err = 1;
	for (size_t i = 0; i < n && !w->err; i++)
		if (write_record(x, w, ck, i, &m, &key))
			w->err = 1;
	/* the time index: its length inflated (0: none), then a blob */
	if (!w->err && rpl_time_index(r)) {
		const struct rpl_tindex *t = rpl_time_index(r);
		uint64_t len = rpl_tix_serialized_size(t);
		struct tix_pack tp = { w, NULL, 0, 0, 0 };

		/* packed as it is made: the expanded lists are never whole in memory */
		bwrite64(w, len);
		if (zpack_stream_begin(w->zp, len) || rpl_tix_serialize_to(t, tix_piece, &tp) != len ||
		    tp.err || zpack_stream_feed(w->zp, NULL, 0, 1, &tp.z, &tp.cap, &tp.len))
			w->err = 1;
		else
			bwrite_blob(w, tp.z, tp.len);
		free(tp.z);
	} else {
		bwrite64(w, 0);
	}
	if (!w->err)
		write_initial_image(w, rpl_initial_image(r));
	memcpy(h, MAGIC, 8);
	put32(h + O_VERSION, RPL_INDEX_VERSION);
	put32(h + O_HSIZE, HDR_SIZE);
	memcpy(h + O_KEY, x->key, 32);
	memcpy(h + O_FILES, x->files, sizeof(x->files));
	sha256_digest(&w->sh, 32, h + O_BODYSUM);
	put64(h + O_INTERVAL, x->interval);
	put64(h + O_STATE, x->state_size);
	put64(h + O_COUNT, n);
	put64(h + O_PAGES, x->pages);
	put64(h + O_END_STEPS, rpl_steps(r));
	put64(h + O_END_POS, rpl_position(r));
	put64(h + O_BODY, w->bytes);
	put32(h + O_CRC, (uint32_t)crc32(0, h, O_CRC));
	if (w->err || fseek(w->f, 0, SEEK_SET) || fwrite(h, 1, HDR_SIZE, w->f) != HDR_SIZE ||
	    fflush(w->f) || fsync(fileno(w->f))) {
		error("%s: cannot write: %m", tmp);
		goto out;
	}
	if (fclose(w->f)) {
		w->f = NULL;
		error("%s: cannot write: %m", tmp);
		goto out;
	}
	w->f = NULL;
	if (rename(tmp, path)) {
		error("%s: cannot rename to %s: %m", tmp, path);
		goto out;
	}
	free(x->path);
	x->path = xstrdup(path);
	x->count = n;
	x->end_steps = rpl_steps(r);
	x->end_position = rpl_position(r);
	x->body = w->bytes;
	x->bytes = HDR_SIZE + w->bytes;
	ret = 0;
out:
	if (w) {
		if (w->f)
			fclose(w->f);
		zpack_free(w->zp);
		free(w->z);
		free(w);
	}
	if (fd >= 0)
		close(fd);
	if (ret)
		unlink(tmp);
	free(tmp);
	free(m.v);
	free(key.raw);
	free(key.x);
	return ret;
}
