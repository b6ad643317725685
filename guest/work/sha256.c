/*
 * sha256: FIPS 180-4 SHA-256, checked against the standard vectors ("", "abc",
 * the 448-bit message) and against digests computed on the host with Python's
 * hashlib for longer generated inputs. Long inputs are hashed both in one call
 * and fed in uneven pieces, which exercises the partial-block path.
 */
#include <string.h>

#include "common.h"

struct sha256 {
	uint32_t h[8];
	uint8_t block[64];
	uint32_t fill;  /* bytes in block */
	uint64_t total; /* bytes hashed */
};

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha256_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

	memcpy(s->h, iv, sizeof(iv));
	s->fill = 0;
	s->total = 0;
}

static void sha256_block(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64];
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		k = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d;
	h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

static void sha256_update(struct sha256 *s, const uint8_t *p, size_t n)
{
	s->total += n;
	while (n > 0) {
		size_t take = 64 - s->fill < n ? 64 - s->fill : n;

		memcpy(s->block + s->fill, p, take);
		s->fill += take;
		p += take;
		n -= take;
		if (s->fill == 64) {
			sha256_block(s->h, s->block);
			s->fill = 0;
		}
	}
}

static void sha256_final(struct sha256 *s, uint8_t out[32])
{
	uint64_t bits = s->total * 8;
	uint8_t pad = 0x80;

	sha256_update(s, &pad, 1);
	pad = 0;
	while (s->fill != 56)
		sha256_update(s, &pad, 1);
	for (int i = 7; i >= 0; i--) {
		uint8_t byte = (uint8_t)(bits >> (8 * i));
		sha256_update(s, &byte, 1);
	}
	for (int i = 0; i < 32; i++)
		out[i] = (uint8_t)(s->h[i / 4] >> (24 - 8 * (i % 4)));
}

static void to_hex(const uint8_t d[32], char out[65])
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 0; i < 32; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[64] = '\0';
}

/* Hash p[0..n) in one call, or in pieces of 1, 2, 3, ... bytes. */
static void hash(const uint8_t *p, size_t n, int pieces, char hex[65])
{
	struct sha256 s;
	uint8_t d[32];

	sha256_init(&s);
	if (!pieces) {
		sha256_update(&s, p, n);
	} else {
		for (size_t off = 0, step = 1; off < n; off += step, step++)
			sha256_update(&s, p + off, n - off < step ? n - off : step);
	}
	sha256_final(&s, d);
	to_hex(d, hex);
}

/* Hash in one call and, if both, in pieces too; compare with want. */
static int expect(const char *what, const uint8_t *p, size_t n, int both, const char *want)
{
	char got[65];

	for (int pieces = 0; pieces <= both; pieces++) {
		hash(p, n, pieces, got);
		if (strcmp(got, want) != 0)
			return fail("sha256", "%s (%s): %s", what, pieces ? "pieces" : "one call",
				    got);
	}
	return 0;
}

#define GEN_LEN 1000
static uint8_t gen[GEN_LEN];

int main(void)
{
	static const char abc448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	int bad = 0;

	bad |= expect("empty", (const uint8_t *)"", 0, 1,
		      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	bad |= expect("abc", (const uint8_t *)"abc", 3, 1,
		      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	bad |= expect("448-bit", (const uint8_t *)abc448, strlen(abc448), 1,
		      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	memset(gen, 'a', 1000);
	bad |= expect("1000 x a", gen, 1000, 0,
		      "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
	/* Python: bytes(((i*31+7)^(i>>8))&0xff for i in range(1000)) */
	for (uint32_t i = 0; i < GEN_LEN; i++)
		gen[i] = (uint8_t)((i * 31 + 7) ^ (i >> 8));
	bad |= expect("generated", gen, GEN_LEN, 1,
		      "4cdc56c9b07775cf51fa4ad851ad5f5d7a030d6efc5742821dd0609f15beffac");
	if (bad)
		return 1;
	printf("sha256 ok\n");
	return 0;
}
