/*
 * crc32: CRC-32 (IEEE 802.3) and CRC-32C (Castagnoli), reflected.
 *
 * Each CRC is computed bit by bit and through a 256-entry table built at run
 * time; both must give the published check values for "123456789" and must
 * agree with each other on a pseudo-random buffer. The buffer is also fed in
 * uneven pieces to check that the running CRC composes.
 */
#include <string.h>

#include "common.h"

#define POLY_CRC32 0xEDB88320u  /* reflected 0x04C11DB7 */
#define POLY_CRC32C 0x82F63B78u /* reflected 0x1EDC6F41 */
#define BUF_LEN 2048

static uint8_t buf[BUF_LEN];
static uint32_t table32[256], table32c[256];

/* Running form: crc is the register after ~init, so pieces chain. */
static uint32_t crc_bitwise(uint32_t poly, uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (poly & (0u - (crc & 1u)));
	}
	return ~crc;
}

static void crc_make_table(uint32_t poly, uint32_t *table)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c & 1u) ? (c >> 1) ^ poly : c >> 1;
		table[i] = c;
	}
}

static uint32_t crc_table(const uint32_t *table, uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ *p++) & 0xFFu] ^ (crc >> 8);
	return ~crc;
}

/* Feed buf in pieces of 1, 2, 3, ... bytes. */
static uint32_t crc_pieces(const uint32_t *table)
{
	uint32_t crc = 0;
	size_t off = 0, step = 1;

	while (off < BUF_LEN) {
		size_t n = BUF_LEN - off < step ? BUF_LEN - off : step;

		crc = crc_table(table, crc, buf + off, n);
		off += n;
		step++;
	}
	return crc;
}

static int check_vectors(void)
{
	static const uint8_t msg[] = "123456789";
	const size_t n = strlen((const char *)msg);
	uint32_t a = crc_bitwise(POLY_CRC32, 0, msg, n);
	uint32_t b = crc_table(table32, 0, msg, n);
	uint32_t c = crc_bitwise(POLY_CRC32C, 0, msg, n);
	uint32_t d = crc_table(table32c, 0, msg, n);

	if (a != 0xCBF43926u || b != 0xCBF43926u)
		return fail("crc32", "check value %08lx/%08lx, want cbf43926", (unsigned long)a,
			    (unsigned long)b);
	if (c != 0xE3069283u || d != 0xE3069283u)
		return fail("crc32c", "check value %08lx/%08lx, want e3069283", (unsigned long)c,
			    (unsigned long)d);
	return 0;
}

int main(void)
{
	uint32_t seed = 0x12345678u;

	crc_make_table(POLY_CRC32, table32);
	crc_make_table(POLY_CRC32C, table32c);
	if (table32[1] != 0x77073096u || table32[255] != 0x2D02EF8Du)
		return fail("crc32", "table[1]=%08lx table[255]=%08lx", (unsigned long)table32[1],
			    (unsigned long)table32[255]);
	if (check_vectors() != 0)
		return 1;

	for (size_t i = 0; i < BUF_LEN; i++)
		buf[i] = (uint8_t)rng_next(&seed);

	uint32_t a = crc_bitwise(POLY_CRC32, 0, buf, BUF_LEN);
	uint32_t b = crc_table(table32, 0, buf, BUF_LEN);
	uint32_t c = crc_pieces(table32);
	uint32_t d = crc_bitwise(POLY_CRC32C, 0, buf, BUF_LEN);
	uint32_t e = crc_table(table32c, 0, buf, BUF_LEN);
	uint32_t f = crc_pieces(table32c);

	if (a != b || b != c)
		return fail("crc32", "buffer %08lx %08lx %08lx", (unsigned long)a, (unsigned long)b,
			    (unsigned long)c);
	if (d != e || e != f)
		return fail("crc32c", "buffer %08lx %08lx %08lx", (unsigned long)d, (unsigned long)e,
			    (unsigned long)f);
	/* Appending the CRC (little-endian) makes the residue a constant. */
	uint8_t tail[4] = {(uint8_t)a, (uint8_t)(a >> 8), (uint8_t)(a >> 16), (uint8_t)(a >> 24)};
	uint32_t r = ~crc_table(table32, a, tail, 4);
	if (r != 0xDEBB20E3u)
		return fail("crc32", "residue %08lx, want debb20e3", (unsigned long)r);

	printf("crc32 ok: crc32=%08lx crc32c=%08lx\n", (unsigned long)a, (unsigned long)d);
	return 0;
}
