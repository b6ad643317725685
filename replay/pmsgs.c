/* pmsgs: a core's decoded-path messages, packed in chunks (pmsgs.h). */
#include "replay/pmsgs.h"

#include <stdlib.h>
#include <string.h>

#include "util/leb.h"
#include "util/util.h"

#define SEL_LITERAL RPL_PRECENT /* sel: ta follows */
#define HEAD_F 0x80
/* the most one message takes packed: the head, kind, n, at, key, ta, exc */
#define PACKED_MAX (1 + 6 * LEB_MAX)

/* The packer's and the unpacker's running state (the same on both sides). */
struct pstate {
	uint64_t at, key;
	uint32_t recent[RPL_PRECENT];
};

/* ta's slot in recent, or SEL_LITERAL; recent then has ta first (move to front). */
static unsigned recent_use(struct pstate *s, uint32_t ta, unsigned sel)
{
	unsigned i;

	if (sel == SEL_LITERAL)
		for (sel = 0; sel < RPL_PRECENT && s->recent[sel] != ta; sel++)
			;
	i = sel < RPL_PRECENT ? sel : RPL_PRECENT - 1;
	memmove(s->recent + 1, s->recent, i * sizeof(s->recent[0]));
	s->recent[0] = ta;
	return sel;
}

/* the kinds whose ta (BRANCH, GAP) or exc (EXC, TAIL) is stored; the others' is 0 */
static int has_ta(unsigned kind)
{
	return kind == CFW_P_BRANCH || kind == CFW_P_GAP;
}

static int has_exc(unsigned kind)
{
	return kind == CFW_P_EXC || kind == CFW_P_TAIL;
}

static void pack(struct pstate *s, uint8_t **p, const struct cfw_pmsg *m, uint64_t key)
{
	int f = m->kind > 7 || (!has_ta(m->kind) && m->ta) || (!has_exc(m->kind) && m->exc);
	uint8_t *head = (*p)++;
	unsigned sel = 0;

	put_uleb(p, m->n);
	put_uleb(p, zigzag(m->at, s->at));
	put_uleb(p, zigzag(key, s->key + m->n));
	if (f)
		put_uleb(p, m->kind);
	if (f || has_ta(m->kind)) {
		uint32_t last = s->recent[0];

		if ((sel = recent_use(s, m->ta, SEL_LITERAL)) == SEL_LITERAL)
			put_uleb(p, zigzag(m->ta, last));
	}
	if (f || has_exc(m->kind))
		put_uleb(p, m->exc);
	*head = (uint8_t)((f ? HEAD_F : 0) | sel << 3 | (m->kind & 7));
	s->at = m->at;
	s->key = key;
}

static void unpack(struct pstate *s, const uint8_t **p, struct cfw_pmsg *m, uint64_t *key, int core)
{
	uint8_t head = *(*p)++;
	unsigned sel = head >> 3 & 15, f = head & HEAD_F;

	*m = (struct cfw_pmsg){.core = (uint8_t)core, .kind = head & 7};
	m->n = get_uleb(p);
	m->at = unzigzag(get_uleb(p), s->at);
	*key = unzigzag(get_uleb(p), s->key + m->n);
	if (f)
		m->kind = (uint8_t)get_uleb(p);
	if (f || has_ta(m->kind)) {
		m->ta = sel == SEL_LITERAL ? (uint32_t)unzigzag(get_uleb(p), s->recent[0])
					   : s->recent[sel];
		recent_use(s, m->ta, sel);
	}
	if (f || has_exc(m->kind))
		m->exc = (uint16_t)get_uleb(p);
	s->at = m->at;
	s->key = *key;
}

void rpl_pmsgs_init(struct rpl_pmsgs *l, int core)
{
	*l = (struct rpl_pmsgs){.core = core};
}

void rpl_pmsgs_release(struct rpl_pmsgs *l)
{
	for (size_t i = 0; i < l->nchunks; i++)
		free(l->chunk[i].p);
	free(l->chunk);
	free(l->open);
	free(l->open_keys);
	rpl_pmsgs_init(l, l->core);
}

/* The open chunk, full, packed into one of its own. */
static void pack_open(struct rpl_pmsgs *l)
{
	uint8_t *buf = xmalloc((size_t)RPL_PCHUNK * PACKED_MAX), *p = buf;
	struct pstate s = {0};
	uint32_t gaps = 0;

	for (size_t i = 0; i < RPL_PCHUNK; i++) {
		pack(&s, &p, &l->open[i], l->open_keys[i]);
		gaps += l->open[i].kind == CFW_P_GAP;
	}
	if (l->nchunks == l->achunks) {
		l->achunks = l->achunks ? 2 * l->achunks : 64;
		l->chunk = xrealloc(l->chunk, l->achunks * sizeof(*l->chunk));
	}
	l->chunk[l->nchunks++] =
	    (struct rpl_pchunk){xrealloc(buf, (size_t)(p - buf)), (uint32_t)(p - buf), gaps};
	l->packed_bytes += (uint64_t)(p - buf);
	l->nopen = 0;
}

void rpl_pmsgs_push(struct rpl_pmsgs *l, const struct cfw_pmsg *m, uint64_t key)
{
	if (!l->open) {
		l->open = xmalloc(RPL_PCHUNK * sizeof(*l->open));
		l->open_keys = xmalloc(RPL_PCHUNK * sizeof(*l->open_keys));
	}
	l->open[l->nopen] = *m;
	l->open[l->nopen].core = (uint8_t)l->core;
	l->open_keys[l->nopen++] = key;
	if (l->nopen == RPL_PCHUNK)
		pack_open(l);
}

uint64_t rpl_pmsgs_count(const struct rpl_pmsgs *l)
{
	return (uint64_t)l->nchunks * RPL_PCHUNK + l->nopen;
}

uint64_t rpl_pmsgs_bytes(const struct rpl_pmsgs *l)
{
	return l->packed_bytes + l->achunks * sizeof(*l->chunk) +
	       (l->open ? RPL_PCHUNK * (sizeof(*l->open) + sizeof(*l->open_keys)) : 0);
}

void rpl_pcur_init(struct rpl_pcur *c, const struct rpl_pmsgs *l, uint64_t k)
{
	c->l = l;
	c->k = k;
	c->cached = SIZE_MAX;
}

const struct cfw_pmsg *rpl_pcur_peek(struct rpl_pcur *c, uint64_t *key)
{
	const struct rpl_pmsgs *l = c->l;
	size_t ch = (size_t)(c->k / RPL_PCHUNK), i = (size_t)(c->k % RPL_PCHUNK);

	if (c->k >= rpl_pmsgs_count(l))
		return NULL;
	if (ch == l->nchunks) { /* the open chunk, read where it is */
		if (key)
			*key = l->open_keys[i];
		return &l->open[i];
	}
	if (c->cached != ch) {
		const uint8_t *p = l->chunk[ch].p;
		struct pstate s = {0};

		for (size_t j = 0; j < RPL_PCHUNK; j++)
			unpack(&s, &p, &c->m[j], &c->keys[j], l->core);
		c->cached = ch;
	}
	if (key)
		*key = c->keys[i];
	return &c->m[i];
}

void rpl_pcur_skip(struct rpl_pcur *c)
{
	c->k++;
}

uint64_t rpl_pmsgs_find_gap(const struct rpl_pmsgs *l, uint64_t nth)
{
	size_t ch = 0;
	struct rpl_pcur *c;
	const struct cfw_pmsg *m;
	uint64_t k = UINT64_MAX;

	for (; ch < l->nchunks && nth >= l->chunk[ch].gaps; ch++)
		nth -= l->chunk[ch].gaps;
	c = xmalloc(sizeof(*c));
	rpl_pcur_init(c, l, (uint64_t)ch * RPL_PCHUNK);
	for (; (m = rpl_pcur_peek(c, NULL)); rpl_pcur_skip(c))
		if (m->kind == CFW_P_GAP && !nth--) {
			k = c->k;
			break;
		}
	free(c);
	return k;
}
