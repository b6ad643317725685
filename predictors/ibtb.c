#include "predictors/ibtb.h"

#include <stdlib.h>
#include <string.h>

struct ibtb_entry {
	uint32_t target;
	uint8_t tag;
	uint8_t valid;
};

struct ibtb {
	unsigned entries, sets;
	uint32_t pir;		  /* 13 bits */
	uint8_t *lru;		  /* per set: the least recently used way */
	struct ibtb_entry *entry; /* sets * IBTB_WAYS, way-major within a set */
};

int ibtb_config_check(unsigned entries)
{
	if (entries && (entries < 2 || entries > IBTB_MAX_ENTRIES || (entries & (entries - 1))))
		return error("ibtb: %u entries is not 0 or a power of two in 2..%u", entries,
			     IBTB_MAX_ENTRIES);
	return 0;
}

struct ibtb *ibtb_new(unsigned entries)
{
	struct ibtb *b;

	if (ibtb_config_check(entries))
		return NULL;
	b = xcalloc(1, sizeof(*b));
	b->entries = entries;
	b->sets = entries / IBTB_WAYS;
	b->lru = xcalloc(b->sets ? b->sets : 1, 1);
	b->entry = xcalloc(entries ? entries : 1, sizeof(*b->entry));
	return b;
}

void ibtb_free(struct ibtb *b)
{
	if (!b)
		return;
	free(b->lru);
	free(b->entry);
	free(b);
}

void ibtb_reset(struct ibtb *b)
{
	b->pir = 0;
	memset(b->lru, 0, b->sets);
	memset(b->entry, 0, b->entries * sizeof(*b->entry));
}

unsigned ibtb_entries(const struct ibtb *b)
{
	return b->entries;
}

unsigned ibtb_sets(const struct ibtb *b)
{
	return b->sets;
}

/* TRaptor Sec. 5.1: PIR[12:0] = ((PIR[12:0] << 2) xor PC[16:4]) | Outcome */
uint32_t ibtb_pir_next(uint32_t pir, uint32_t pc, int outcome)
{
	return (((pir << 2) ^ ((pc >> 4) & IBTB_PIR_MASK)) | !!outcome) & IBTB_PIR_MASK;
}

/* iBTB.tag = PIR[7:0] xor PC[17:10] */
uint32_t ibtb_tag_of(uint32_t pir, uint32_t pc)
{
	return (pir ^ (pc >> 10)) & 0xff;
}

/* iBTB.index = PIR[12:8] xor PC[8:4], low log2(sets) bits (see ibtb.h) */
uint32_t ibtb_index_of(uint32_t pir, uint32_t pc, unsigned sets)
{
	uint32_t mask = sets ? sets - 1 : 0;

	return ((pir >> 8) ^ (pc >> 4)) & 0x1f & mask;
}

uint32_t ibtb_pir(const struct ibtb *b)
{
	return b->pir;
}

void ibtb_pir_update(struct ibtb *b, uint32_t pc, int outcome)
{
	b->pir = ibtb_pir_next(b->pir, pc, outcome);
}

/* The way of set holding tag, or -1. */
static int find(const struct ibtb *b, uint32_t set, uint32_t tag)
{
	const struct ibtb_entry *e = &b->entry[set * IBTB_WAYS];

	for (int w = 0; w < IBTB_WAYS; w++)
		if (e[w].valid && e[w].tag == tag)
			return w;
	return -1;
}

int ibtb_lookup(const struct ibtb *b, uint32_t pc, uint32_t *target)
{
	uint32_t set, tag;
	int w;

	if (!b->entries)
		return 0;
	set = ibtb_index_of(b->pir, pc, b->sets);
	tag = ibtb_tag_of(b->pir, pc);
	w = find(b, set, tag);
	if (w < 0)
		return 0;
	*target = b->entry[set * IBTB_WAYS + w].target;
	return 1;
}

void ibtb_update(struct ibtb *b, uint32_t pc, uint32_t target)
{
	uint32_t set, tag;
	struct ibtb_entry *e;
	int w;

	if (!b->entries)
		return;
	set = ibtb_index_of(b->pir, pc, b->sets);
	tag = ibtb_tag_of(b->pir, pc);
	e = &b->entry[set * IBTB_WAYS];
	w = find(b, set, tag);
	if (w < 0) {
		if (!e[0].valid)
			w = 0;
		else if (!e[1].valid)
			w = 1;
		else
			w = b->lru[set];
		e[w].valid = 1;
		e[w].tag = tag;
	}
	e[w].target = target;
	b->lru[set] = !w; /* two ways: the other one is now least recent */
}

unsigned ibtb_lru_way(const struct ibtb *b, uint32_t set)
{
	return b->sets ? b->lru[set & (b->sets - 1)] : 0;
}

size_t ibtb_state_size(const struct ibtb *b)
{
	return sizeof(uint32_t) + b->sets + b->entries * (size_t)6;
}

void ibtb_save(const struct ibtb *b, void *buf)
{
	uint8_t *p = buf;

	memcpy(p, &b->pir, 4);
	p += 4;
	memcpy(p, b->lru, b->sets);
	p += b->sets;
	for (unsigned i = 0; i < b->entries; i++, p += 6) {
		memcpy(p, &b->entry[i].target, 4);
		p[4] = b->entry[i].tag;
		p[5] = b->entry[i].valid;
	}
}

int ibtb_restore(struct ibtb *b, const void *buf)
{
	const uint8_t *p = buf;

	memcpy(&b->pir, p, 4);
	p += 4;
	memcpy(b->lru, p, b->sets);
	p += b->sets;
	for (unsigned i = 0; i < b->entries; i++, p += 6) {
		memcpy(&b->entry[i].target, p, 4);
		b->entry[i].tag = p[4];
		b->entry[i].valid = p[5];
		if (p[5] > 1) {
			ibtb_reset(b);
			return error("ibtb: bad saved state: entry %u valid byte %u", i, p[5]);
		}
	}
	for (unsigned s = 0; s < b->sets; s++)
		if (b->lru[s] > 1) {
			unsigned v = b->lru[s];

			ibtb_reset(b);
			return error("ibtb: bad saved state: set %u LRU %u", s, v);
		}
	if (b->pir & ~IBTB_PIR_MASK) {
		uint32_t pir = b->pir;

		ibtb_reset(b);
		return error("ibtb: bad saved state: PIR 0x%x wider than 13 bits", pir);
	}
	return 0;
}
