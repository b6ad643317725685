/*
 * predictors_test: gshare, RAS, iBTB/PIR and the bp step, against values
 * worked out by hand from the TRaptor / mcfTRaptor formulas; the TAGE
 * variant (dir=tage): its configurations, budgets, behaviour on hand-made
 * branch sequences and checkpoints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "predictors/bp.h"
#include "tests/unit/tap.h"

/* ---- gshare ---------------------------------------------------------------- */

static void test_counter_walk(void)
{
	/* the 2-bit counter alone: 1 -> 2 -> 3 -> 3 taken, 3 -> 2 -> 1 -> 0 -> 0 not taken */
	static const struct {
		unsigned from;
		int taken;
		unsigned to;
	} walk[] = {
	    {1, 1, 2}, {2, 1, 3}, {3, 1, 3}, {3, 0, 2}, {2, 0, 1}, {1, 0, 0}, {0, 0, 0}, {0, 1, 1},
	};

	for (size_t i = 0; i < ARRAY_SIZE(walk); i++)
		tap_is_int(gshare_counter_next(walk[i].from, walk[i].taken), walk[i].to,
			   walk[i].taken ? "counter step taken" : "counter step not taken");

	/*
	 * The same walk through the structure on one counter: choose each PC so
	 * that (PC >> 4) ^ BHR lands on index I again although the BHR moves.
	 */
	struct gshare *g = gshare_new(256, 4);
	const uint32_t I = 0x5c;
	static const int outcome[] = {1, 1, 1, 0, 0, 0, 0};
	static const unsigned before[] = {1, 2, 3, 3, 2, 1, 0};
	static const int predicted[] = {0, 1, 1, 1, 1, 0, 0}; /* taken iff counter >= 2 */
	int ok_idx = 1, ok_ctr = 1, ok_pred = 1;

	for (size_t i = 0; i < ARRAY_SIZE(outcome); i++) {
		uint32_t pc = 0x08000000 | ((gshare_bhr(g) ^ I) & 0xff) << 4;

		ok_idx &= gshare_index(g, pc) == I;
		ok_ctr &= gshare_counter(g, I) == before[i];
		ok_pred &= gshare_predict(g, pc) == predicted[i];
		gshare_update(g, pc, outcome[i]);
	}
	tap_ok(ok_idx, "gshare walk stays on index 0x%x", I);
	tap_ok(ok_ctr, "gshare counter walks 1,2,3,3,2,1,0");
	tap_ok(ok_pred, "gshare prediction flips at counter 2");
	tap_is_int(gshare_counter(g, I), 0, "gshare counter saturates at 0");
	tap_is_int(gshare_counter(g, I ^ 1), 1, "other counters start at 1 (weakly not-taken)");
	gshare_free(g);
}

static void test_gshare_index(void)
{
	static const struct {
		unsigned p, shift;
		uint32_t bhr, pc, want;
	} v[] = {
	    /* (BHR & (p-1)) ^ ((PC >> shift) & (p-1)), by hand */
	    {256, 4, 0x000, 0x08000100, 0x010},	 /* PC>>4 = 0x800010 -> 0x10 */
	    {256, 4, 0x0a5, 0x08000100, 0x0b5},	 /* 0xa5 ^ 0x10 */
	    {1024, 4, 0x3ff, 0x000012f4, 0x2d0}, /* 0x3ff ^ 0x12f */
	    {4096, 1, 0x123, 0x0800abce, 0x4c4}, /* PC>>1 = 0x40055e7 -> 0x5e7; ^ 0x123 */
	    {2048, 2, 0x5a5, 0x08001234, 0x128}, /* PC>>2 = 0x200048d -> 0x48d; ^ 0x5a5 */
	    {512, 4, 0xfff, 0x00000000, 0x1ff},	 /* BHR masked to 9 bits */
	    {0, 4, 0x123, 0x08001234, 0x000},	 /* no predictor */
	};

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		char name[96];

		snprintf(name, sizeof(name), "gshare index p=%u shift=%u bhr=0x%x pc=0x%08x",
			 v[i].p, v[i].shift, v[i].bhr, v[i].pc);
		tap_is_hex(gshare_index_of(v[i].p, v[i].shift, v[i].bhr, v[i].pc), v[i].want, name);
	}

	/* BHR: newest outcome in bit 0, log2(p) bits kept */
	struct gshare *g = gshare_new(256, 4);
	static const int seq[] = {1, 0, 1, 1};

	for (size_t i = 0; i < ARRAY_SIZE(seq); i++)
		gshare_update(g, 0x100, seq[i]);
	tap_is_hex(gshare_bhr(g), 0xb, "BHR after T,N,T,T is 0b1011");
	for (int i = 0; i < 9; i++)
		gshare_update(g, 0x100, 1);
	tap_is_hex(gshare_bhr(g), 0xff, "BHR keeps log2(256) = 8 outcomes");
	gshare_reset(g);
	tap_is_hex(gshare_bhr(g), 0, "reset clears the BHR");
	gshare_free(g);

	g = gshare_new(0, 4);
	gshare_update(g, 0x100, 1);
	tap_ok(g && !gshare_predict(g, 0x100), "p = 0 always predicts not-taken");
	gshare_free(g);

	error_quiet(1);
	tap_ok(!gshare_new(384, 4), "gshare rejects 384 entries");
	tap_ok(!gshare_new(512, 17), "gshare rejects shift 17");
	error_quiet(-1);
}

/* ---- RAS ------------------------------------------------------------------- */

static void test_ras(void)
{
	struct ras *r = ras_new(4);
	uint32_t a = 0xdead;
	int ok = 1;

	tap_ok(!ras_pop(r, &a) && a == 0xdead, "pop of an empty RAS: no prediction");
	ras_push(r, 0x100);
	ras_push(r, 0x200);
	ras_push(r, 0x300);
	tap_is_int(ras_depth(r), 3, "three calls: depth 3");
	tap_ok(ras_peek(r, &a) && a == 0x300 && ras_depth(r) == 3, "peek gives the top, no pop");
	ok &= ras_pop(r, &a) && a == 0x300;
	ok &= ras_pop(r, &a) && a == 0x200;
	ras_push(r, 0x400);
	ok &= ras_pop(r, &a) && a == 0x400;
	ok &= ras_pop(r, &a) && a == 0x100;
	tap_ok(ok, "call/return sequence pops in LIFO order");
	tap_ok(!ras_pop(r, &a) && ras_depth(r) == 0, "underflow: empty again, no prediction");

	/* overflow: 6 pushes into 4 entries overwrite the two oldest */
	for (uint32_t i = 1; i <= 6; i++)
		ras_push(r, i * 0x10);
	tap_is_int(ras_depth(r), 4, "overflow: depth stays 4");
	ok = 1;
	for (uint32_t i = 6; i >= 3; i--)
		ok &= ras_pop(r, &a) && a == i * 0x10;
	tap_ok(ok, "overflow: the 4 newest come back 0x60,0x50,0x40,0x30");
	tap_ok(!ras_pop(r, &a), "overflow: the 2 oldest were overwritten (empty)");

	ras_push(r, 0x10);
	ras_reset(r);
	tap_is_int(ras_depth(r), 0, "reset empties the RAS");
	ras_free(r);

	r = ras_new(0);
	ras_push(r, 0x100);
	tap_ok(!ras_peek(r, &a) && !ras_pop(r, &a), "r = 0: never a prediction");
	ras_free(r);
}

/* ---- iBTB and PIR -------------------------------------------------------- */

static void test_pir_formulas(void)
{
	/* PIR = ((PIR << 2) ^ PC[16:4]) | outcome, 13 bits */
	tap_is_hex(ibtb_pir_next(0, 0x08000124, 1), 0x13, "PIR: 0, pc 0x08000124, T -> 0x12|1");
	/* 0x1abc << 2 = 0x6af0; PC[16:4] = 0x1fff; 0x6af0 ^ 0x1fff = 0x750f; 13 bits: 0x150f */
	tap_is_hex(ibtb_pir_next(0x1abc, 0x0001fff0, 0), 0x150f,
		   "PIR: 0x1abc, pc 0x0001fff0, NT -> 0x150f");
	tap_is_hex(ibtb_pir_next(0x1fff, 0xffffffff, 1), 0x0003, "PIR stays 13 bits");
	/* tag = PIR[7:0] ^ PC[17:10] */
	tap_is_hex(ibtb_tag_of(0x150f, 0x0003fc00), 0xf0, "tag: 0x0f ^ 0xff");
	tap_is_hex(ibtb_tag_of(0x1abc, 0x0801f7f0), 0xc1, "tag: 0xbc ^ 0x7d");
	/* index = PIR[12:8] ^ PC[8:4], low log2(sets) bits */
	tap_is_hex(ibtb_index_of(0x150f, 0x0003fc00, 32), 0x15, "index 32 sets: 0x15 ^ 0x00");
	tap_is_hex(ibtb_index_of(0x150f, 0x000001f0, 32), 0x0a, "index 32 sets: 0x15 ^ 0x1f");
	tap_is_hex(ibtb_index_of(0x150f, 0x000001f0, 16), 0x0a, "index 16 sets: low 4 bits");
	tap_is_hex(ibtb_index_of(0x150f, 0x000001f0, 8), 0x02, "index 8 sets: low 3 bits");
	tap_is_hex(ibtb_index_of(0x1abc, 0x0801f7f0, 32), 0x05, "index 32 sets: 0x1a ^ 0x1f");
}

static void test_ibtb(void)
{
	/* 16 entries = 8 sets. PIR 0: A, B, C all index 0 with tags 1, 2, 3 */
	struct ibtb *b = ibtb_new(16);
	const uint32_t A = 0x400, B = 0x800, C = 0xc00, D = 0x410;
	uint32_t t = 0;

	tap_is_int(ibtb_sets(b), 8, "16 entries: 8 sets");
	tap_ok(!ibtb_lookup(b, A, &t), "cold iBTB misses");
	ibtb_update(b, A, 0x1000);
	tap_ok(ibtb_lookup(b, A, &t) && t == 0x1000, "A hits after training");
	tap_is_int(ibtb_lru_way(b, 0), 1, "A in way 0, way 1 is LRU");
	ibtb_update(b, B, 0x2000);
	tap_ok(ibtb_lookup(b, B, &t) && t == 0x2000, "B hits (way 1)");
	tap_ok(ibtb_lookup(b, A, &t) && t == 0x1000, "A still hits");
	tap_is_int(ibtb_lru_way(b, 0), 0, "after B, A (way 0) is LRU");
	ibtb_update(b, A, 0x1004);
	tap_ok(ibtb_lookup(b, A, &t) && t == 0x1004, "hit rewrites A's target");
	tap_is_int(ibtb_lru_way(b, 0), 1, "A touched: B (way 1) is LRU");
	ibtb_update(b, C, 0x3000);
	tap_ok(!ibtb_lookup(b, B, &t), "C evicts the LRU B");
	tap_ok(ibtb_lookup(b, A, &t) && t == 0x1004, "A survives");
	tap_ok(ibtb_lookup(b, C, &t) && t == 0x3000, "C hits");
	tap_ok(!ibtb_lookup(b, D, &t), "another set (index 1, tag 1) misses");
	/* PIR 0 -> 0x11: A's tag becomes 0x11 ^ 1 = 0x10, same set 0: miss */
	ibtb_pir_update(b, 0x100, 1);
	tap_is_hex(ibtb_pir(b), 0x11, "PIR after one taken branch at 0x100");
	tap_ok(!ibtb_lookup(b, A, &t), "another path: A misses");
	ibtb_reset(b);
	tap_ok(ibtb_pir(b) == 0 && !ibtb_lookup(b, C, &t), "reset: PIR 0, entries invalid");
	ibtb_free(b);

	b = ibtb_new(0);
	ibtb_update(b, A, 0x1000);
	tap_ok(!ibtb_lookup(b, A, &t), "q = 0: always a miss");
	ibtb_free(b);

	error_quiet(1);
	tap_ok(!ibtb_new(24) && !ibtb_new(128), "iBTB rejects 24 and 128 entries");
	error_quiet(-1);
}

/* ---- configurations -------------------------------------------------------- */

static void test_configs(void)
{
	static const struct {
		const char *s;
		unsigned p, r, q, shift;
	} v[] = {
	    {"small", 512, 8, 0, 4},
	    {"medium", 1024, 16, 16, 4},
	    {"large", 4096, 32, 64, 4},
	    {"S0", 256, 0, 0, 4},
	    {"S1", 256, 8, 0, 4},
	    {"S2", 256, 8, 16, 4},
	    {"S3", 256, 8, 32, 4},
	    {"S4", 256, 8, 64, 4},
	    {"M0", 512, 0, 0, 4},
	    {"M1", 512, 8, 0, 4},
	    {"M4", 512, 8, 64, 4},
	    {"B0", 1024, 0, 0, 4},
	    {"B2", 1024, 8, 16, 4},
	    {"B4", 1024, 8, 64, 4},
	    {"LARGE", 4096, 32, 64, 4},
	    {"b3", 1024, 8, 32, 4},
	    {"gshare=1024,ras=16,ibtb=32,shift=4", 1024, 16, 32, 4},
	    {"gshare=2048", 2048, 0, 0, 4},
	    {"large,shift=1", 4096, 32, 64, 1},
	    {" medium , ibtb = 64 ", 1024, 16, 64, 4},
	    {"ras=0x10,gshare=0", 0, 16, 0, 4},
	};
	static const char *const bad[] = {
	    "",
	    "huge",
	    "gshare=1000",
	    "gshare=8192000",
	    "ras=300",
	    "ibtb=128",
	    "ibtb=24",
	    "shift=20",
	    "gshare=abc",
	    "gshare=",
	    "gshare=-1",
	    "gshare=1024,gshare=512",
	    "ras=8,small",
	    "small,large",
	    "foo=1",
	    "gshare=1024,,ras=8",
	    "gshare=1024,",
	};

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		struct bp_config c = {9, 9, 9, 9, 9};
		int rc = bp_config_parse(v[i].s, &c);

		tap_ok(!rc && c.gshare == v[i].p && c.ras == v[i].r && c.ibtb == v[i].q &&
			   c.shift == v[i].shift && c.dir == BP_DIR_GSHARE,
		       "config \"%s\" = gshare %u, ras %u, ibtb %u, shift %u", v[i].s, v[i].p,
		       v[i].r, v[i].q, v[i].shift);
	}
	error_quiet(1);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct bp_config c = {9, 9, 9, 9, 9};
		int rc = bp_config_parse(bad[i], &c);

		tap_ok(rc == -1 && c.gshare == 9 && c.shift == 9,
		       "config \"%s\" is rejected, output untouched", bad[i]);
	}
	error_quiet(-1);

	struct bp_config m1 = {512, 8, 0, 4, BP_DIR_GSHARE}, c,
			 odd = {2048, 3, 2, 1, BP_DIR_GSHARE};
	char buf[96];

	tap_ok(bp_config_name(&m1) && !strcmp(bp_config_name(&m1), "small"),
	       "M1 is named small (first match)");
	tap_ok(!bp_config_name(&odd), "a custom configuration has no name");
	bp_config_format(&odd, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "gshare=2048,ras=3,ibtb=2,shift=1"), "format: %s", buf);
	tap_ok(!bp_config_parse(buf, &c) && !memcmp(&c, &odd, sizeof(c)), "format parses back");
}

/* ---- the bp step -------------------------------------------------------------- */

static struct bp *new_bp(const char *s)
{
	struct bp_config c;

	if (bp_config_parse(s, &c))
		return NULL;
	return bp_new(&c);
}

static void test_classify(void)
{
	static const struct {
		struct bp_prediction p;
		int taken;
		uint32_t target;
		enum bp_miss want;
		const char *name;
	} v[] = {
	    /* counts taken target known cond indirect */
	    {{1, 1, 0, 0, 1, 0}, 1, 0, BP_MISS_NONE, "cond direct T/T"},
	    {{1, 1, 0, 0, 1, 0}, 0, 0, BP_MISS_OUTCOME, "cond direct T/NT"},
	    {{1, 0, 0, 0, 1, 0}, 1, 0, BP_MISS_OUTCOME, "cond direct NT/T"},
	    {{0, 1, 0, 0, 0, 0}, 1, 0x40, BP_MISS_NONE, "B does not count"},
	    {{1, 1, 0x104, 1, 0, 1}, 1, 0x104, BP_MISS_NONE, "return to the RAS top"},
	    {{1, 1, 0x104, 1, 0, 1}, 1, 0x108, BP_MISS_TARGET, "return elsewhere"},
	    {{1, 1, 0, 0, 0, 1}, 1, 0x108, BP_MISS_TARGET, "return, RAS empty"},
	    {{1, 1, 0x104, 1, 0, 1}, 0, 0x104, BP_MISS_NONE, "unconditional: taken ignored"},
	    {{1, 0, 0x500, 1, 1, 1}, 0, 0, BP_MISS_NONE, "cond indirect NT/NT"},
	    {{1, 0, 0x500, 1, 1, 1}, 1, 0x500, BP_MISS_TARGET, "cond indirect NT/T"},
	    {{1, 1, 0x500, 1, 1, 1}, 1, 0x500, BP_MISS_NONE, "cond indirect T/T same target"},
	    {{1, 1, 0x500, 1, 1, 1}, 1, 0x504, BP_MISS_TARGET, "cond indirect T/T other target"},
	    {{1, 1, 0x500, 1, 1, 1}, 0, 0, BP_MISS_TARGET, "cond indirect T/NT"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		tap_is_int(bp_classify_miss(&v[i].p, v[i].taken, v[i].target), v[i].want,
			   v[i].name);
}

static void test_predict_kinds(void)
{
	struct bp *bp = new_bp("medium");
	struct bp_prediction p;
	struct bp_branch bl = {0x100, 0x104, ISA_CF_CALL, 0};
	struct bp_branch b = {0x104, 0x106, ISA_CF_DIRECT, 0};
	struct bp_branch ret = {0x300, 0x302, ISA_CF_RETURN, 0};
	struct bp_branch bcc = {0x200, 0x202, ISA_CF_COND_DIRECT, 0}; /* flag unset: cf decides */
	struct bp_branch blit = {0x210, 0x214, ISA_CF_CALL, 1};	      /* BL in an IT block */
	struct bp_branch none = {0x220, 0x222, ISA_CF_NONE, 0};

	bp_predict(bp, &bl, &p);
	tap_ok(!p.counts && p.taken, "BL: not counted, taken");
	bp_predict(bp, &b, &p);
	tap_ok(!p.counts, "B: not counted");
	bp_predict(bp, &bcc, &p);
	tap_ok(p.counts && p.conditional && !p.indirect && !p.taken,
	       "B<cc>: counted, conditional, predicted not-taken when cold");
	bp_predict(bp, &blit, &p);
	tap_ok(p.counts && p.conditional, "BL in an IT block counts as conditional direct");
	bp_predict(bp, &none, &p);
	tap_ok(!p.counts, "not a branch: not counted");

	bp_predict(bp, &ret, &p);
	tap_ok(p.counts && p.indirect && !p.target_known, "return, empty RAS: no target");
	bp_update(bp, &bl, 1, 0x300);
	bp_predict(bp, &ret, &p);
	tap_ok(p.target_known && p.target == 0x104, "after BL, the return predicts 0x104");
	tap_is_int(bp_classify_miss(&p, 1, 0x104), BP_MISS_NONE, "return to 0x104: hit");
	bp_update(bp, &ret, 1, 0x104);
	tap_is_int(ras_depth(bp_ras(bp)), 0, "the return popped");
	bp_update(bp, &blit, 0, 0x214);
	tap_is_int(ras_depth(bp_ras(bp)), 0, "a BL whose condition failed does not push");
	bp_update(bp, &none, 1, 0);
	bp_update(bp, &b, 1, 0x40);
	bp_update(bp, &bl, 1, 0x300);
	tap_is_hex(gshare_bhr(bp_gshare(bp)), 0, "B, BL, non-branches leave the BHR alone");
	bp_update(bp, &bcc, 1, 0x1f0);
	tap_is_hex(gshare_bhr(bp_gshare(bp)), 1, "a taken B<cc> shifts a 1 into the BHR");
	bp_free(bp);
}

/* A loop branch taken 9 times then not taken, run `passes` times from reset. */
static int loop_misses(const char *cfg, int passes)
{
	struct bp *bp = new_bp(cfg);
	struct bp_branch br = {0x08000200, 0x08000202, ISA_CF_COND_DIRECT, 1};
	int misses = 0;

	for (int pass = 0; pass < passes; pass++)
		for (int i = 0; i < 10; i++) {
			int taken = i < 9;
			enum bp_miss m =
			    bp_step(bp, &br, taken, taken ? 0x080001f0 : 0x08000202, NULL);

			misses += m == BP_MISS_OUTCOME;
		}
	bp_free(bp);
	return misses;
}

static void test_loop(void)
{
	/*
	 * gshare 512 (9-bit BHR). Pass 1: the BHR before iteration i is 2^i-1,
	 * ten different counters, all 1: the 9 taken ones miss, the exit hits.
	 * Pass 2 starts with BHR 0x1fe: iterations 0..7 see 0x1fe, 0x1fd, ...,
	 * 0x17f (new counters: 8 misses); iteration 8 sees 0xff and the exit
	 * 0x1ff again (trained in pass 1: hits). Pass 3 repeats pass 2 on
	 * trained counters: no miss. Total 9 + 8 + 0.
	 */
	tap_is_int(loop_misses("small", 1), 9, "loop x1, gshare 512: 9 outcome misses");
	tap_is_int(loop_misses("small", 2), 17, "loop x2, gshare 512: 9 + 8 misses");
	tap_is_int(loop_misses("small", 3), 17, "loop x3, gshare 512: learnt, still 17");
	tap_is_int(loop_misses("small", 10), 17, "loop x10, gshare 512: still 17");
	tap_is_int(loop_misses("gshare=0", 3), 27, "loop x3, no gshare: every taken one misses");
}

static void test_indirect_loop(void)
{
	/*
	 * Loop: IND_JUMP at 0x400 -> 0x500, B<cc> at 0x520 taken -> 0x400. iBTB
	 * 16 entries (8 sets). The PIR before the jump, from the formula:
	 * 0x0000, 0x0157, 0x1427, 0x0327, 0x1327, 0x1327, ... (set, tag) =
	 * (0,0x01), (1,0x56), (4,0x26), (3,0x26), (3,0x26), ...: four cold misses,
	 * then the same entry every time.
	 */
	struct bp *bp = new_bp("gshare=256,ras=8,ibtb=16");
	struct bp_branch jmp = {0x400, 0x402, ISA_CF_IND_JUMP, 0};
	struct bp_branch bcc = {0x520, 0x522, ISA_CF_COND_DIRECT, 1};
	static const uint32_t pir[] = {0x0000, 0x0157, 0x1427, 0x0327, 0x1327, 0x1327};
	int tmiss = 0, ok = 1;

	for (int i = 0; i < 10; i++) {
		if (i < (int)ARRAY_SIZE(pir))
			ok &= ibtb_pir(bp_ibtb(bp)) == pir[i];
		tmiss += bp_step(bp, &jmp, 1, 0x500, NULL) == BP_MISS_TARGET;
		(void)bp_step(bp, &bcc, 1, 0x400, NULL);
	}
	tap_ok(ok, "PIR before the jump follows the hand-computed sequence");
	tap_is_int(tmiss, 4, "indirect loop x10: 4 target misses");
	bp_free(bp);

	bp = new_bp("small"); /* no iBTB: every indirect jump misses */
	tmiss = 0;
	for (int i = 0; i < 10; i++) {
		tmiss += bp_step(bp, &jmp, 1, 0x500, NULL) == BP_MISS_TARGET;
		(void)bp_step(bp, &bcc, 1, 0x400, NULL);
	}
	tap_is_int(tmiss, 10, "no iBTB: 10 target misses");
	bp_free(bp);
}

/*
 * bp_step takes a fused path for conditional direct branches (gshare_step):
 * on a random mix of branch kinds it must give the misses, predictions and
 * final state of bp_predict + bp_classify_miss + bp_update.
 */
static void test_fused_step(void)
{
	static const enum isa_cf kinds[] = {ISA_CF_COND_DIRECT, ISA_CF_COND_DIRECT, ISA_CF_DIRECT,
					    ISA_CF_CALL, ISA_CF_RETURN, ISA_CF_IND_JUMP,
					    ISA_CF_IND_CALL};
	struct bp *a = new_bp("gshare=64,ras=4,ibtb=8"), *b = new_bp("gshare=64,ras=4,ibtb=8");
	unsigned long long x = 88172645463325252ull;
	int same = 1, misses = 0;
	size_t n = bp_state_size(a);
	uint8_t *sa = malloc(n), *sb = malloc(n);

	for (int i = 0; i < 20000; i++) {
		struct bp_prediction pa, pb;
		struct bp_branch br;
		enum bp_miss ma, mb;
		uint32_t pc, target;
		int taken;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		pc = 0x1000 + (uint32_t)(x % 64) * 2;
		br = (struct bp_branch){pc, pc + 2, kinds[(x >> 8) % ARRAY_SIZE(kinds)], 0};
		br.conditional = br.cf == ISA_CF_COND_DIRECT || (x >> 16) % 8 == 0;
		taken = (int)((x >> 20) % 3) % 2 ? (int)((x >> 24) & 7) : 0; /* not only 0/1 */
		target = 0x2000 + (uint32_t)((x >> 28) % 4) * 4;
		ma = bp_step(a, &br, taken, target, &pa);
		bp_predict(b, &br, &pb);
		mb = bp_classify_miss(&pb, taken, target);
		bp_update(b, &br, taken, target);
		same &= ma == mb && !memcmp(&pa, &pb, sizeof(pa));
		misses += ma != BP_MISS_NONE;
	}
	bp_save(a, sa);
	bp_save(b, sb);
	tap_ok(same, "bp_step (fused for B<cc>) = predict + classify + update, 20000 branches");
	tap_ok(!memcmp(sa, sb, n), "and leaves the same predictor state");
	tap_ok(misses > 1000 && misses < 19000, "the mix both hits and misses (%d misses)", misses);
	free(sa);
	free(sb);
	bp_free(a);
	bp_free(b);
}

/*
 * bp_follow is the replay's predict-and-follow in one call: on a random mix
 * of branch kinds, with and without TAGE, it must leave the state that
 * bp_predict + bp_update with the prediction leave, and give the same
 * direction, target and count; with stop it must do nothing exactly where
 * the branch counts; a taken indirect branch with no target is refused
 * with nothing changed.
 */
static void test_follow(void)
{
	static const enum isa_cf kinds[] = {ISA_CF_COND_DIRECT, ISA_CF_COND_DIRECT, ISA_CF_DIRECT,
					    ISA_CF_CALL, ISA_CF_RETURN, ISA_CF_IND_JUMP,
					    ISA_CF_IND_CALL};
	static const char *const cfgs[] = {"gshare=64,ras=4,ibtb=8", "small+", "gshare=0,ras=0,ibtb=0"};
	int refused = 0, stopped = 0, followed = 0;

	for (size_t c = 0; c < ARRAY_SIZE(cfgs); c++) {
		struct bp *a = new_bp(cfgs[c]), *b = new_bp(cfgs[c]);
		unsigned long long x = 88172645463325252ull + c;
		size_t n = bp_state_size(a);
		uint8_t *sa = malloc(n), *sb = malloc(n);
		int same = 1, untouched = 1;

		for (int i = 0; i < 20000; i++) {
			struct bp_prediction p;
			struct bp_branch br;
			uint32_t pc, target = 0, want;
			int taken = 0, counts = 0, stop, s;

			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			pc = 0x1000 + (uint32_t)(x % 64) * 2;
			br = (struct bp_branch){pc, pc + 2, kinds[(x >> 8) % ARRAY_SIZE(kinds)], 0};
			br.conditional = br.cf == ISA_CF_COND_DIRECT || (x >> 16) % 8 == 0;
			stop = (x >> 20) % 4 == 0;
			bp_predict(b, &br, &p);
			bp_save(a, sa);
			s = bp_follow(a, &br, stop, &counts, &taken, &target);
			if (s) {
				bp_save(a, sb);
				untouched &= !memcmp(sa, sb, n);
				if (s > 0) {
					same &= stop && p.counts;
					stopped++;
				} else {
					same &= p.taken && p.indirect && !p.target_known && !(stop && p.counts);
					refused++;
				}
				/* train both the same way so that they go on together */
				want = 0x2000 + (uint32_t)((x >> 28) % 4) * 4;
				bp_update(a, &br, !p.taken, want);
				bp_update(b, &br, !p.taken, want);
				continue;
			}
			same &= !(stop && p.counts) && counts == p.counts && taken == p.taken &&
				target == (p.taken && p.indirect ? p.target : 0);
			bp_update(b, &br, p.taken, p.taken && p.indirect ? p.target : br.fallthrough);
			followed++;
		}
		bp_save(a, sa);
		bp_save(b, sb);
		tap_ok(same && !memcmp(sa, sb, n), "bp_follow = predict + update with the prediction "
		       "(%s), 20000 branches", cfgs[c]);
		tap_ok(untouched, "and changes nothing when it stops or refuses (%s)", cfgs[c]);
		free(sa);
		free(sb);
		bp_free(a);
		bp_free(b);
	}
	tap_ok(refused > 100 && stopped > 100 && followed > 10000,
	       "the mix stops, refuses and follows (%d, %d, %d)", stopped, refused, followed);
}

static void test_calls(void)
{
	/* f() called from a loop 5 times: BL 0x100 -> 0x300, BX LR at 0x310 -> 0x104 */
	static const char *const cfgs[] = {"S1", "S0"};
	static const int want[] = {0, 5};

	for (size_t k = 0; k < ARRAY_SIZE(cfgs); k++) {
		struct bp *bp = new_bp(cfgs[k]);
		struct bp_branch bl = {0x100, 0x104, ISA_CF_CALL, 0};
		struct bp_branch ret = {0x310, 0x312, ISA_CF_RETURN, 0};
		int tmiss = 0, counted = 0;

		for (int i = 0; i < 5; i++) {
			struct bp_prediction p;

			counted += bp_step(bp, &bl, 1, 0x300, &p) != BP_MISS_NONE || p.counts;
			tmiss += bp_step(bp, &ret, 1, 0x104, NULL) == BP_MISS_TARGET;
		}
		tap_is_int(counted, 0, "BL never counts nor misses");
		tap_ok(tmiss == want[k], "%s: 5 call/return pairs give %d target misses (want %d)",
		       cfgs[k], tmiss, want[k]);
		bp_free(bp);
	}
}

/* Drive a bp with a fixed pseudo-random branch mix; record the predictions. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)rng_state;
}

static void drive(struct bp *bp, int n, uint64_t seed, struct bp_prediction *out)
{
	static const enum isa_cf kinds[] = {ISA_CF_COND_DIRECT, ISA_CF_DIRECT,	 ISA_CF_CALL,
					    ISA_CF_RETURN,	ISA_CF_IND_CALL, ISA_CF_IND_JUMP};

	rng_state = seed;
	for (int i = 0; i < n; i++) {
		uint32_t r = rnd();
		struct bp_branch br;
		int taken;

		br.pc = 0x08000000 | (r & 0xffe);
		br.fallthrough = br.pc + 2;
		br.cf = kinds[(r >> 12) % ARRAY_SIZE(kinds)];
		br.conditional = br.cf == ISA_CF_COND_DIRECT || ((r >> 16) & 7) == 0;
		taken = (r >> 20) & 3 ? 1 : 0;
		bp_predict(bp, &br, &out[i]);
		bp_update(bp, &br, taken, 0x08000000 | ((r >> 8) & 0x3e));
	}
}

static void test_save_restore(void)
{
	struct bp *bp = new_bp("large"), *other = new_bp("medium");
	static struct bp_prediction warm[2000], p1[500], p2[500];
	size_t n = bp_state_size(bp);
	uint8_t *s0 = malloc(n), *s1 = malloc(n), *s2 = malloc(n);

	/* 4096 + 32*4 + 64*6 + 32 + 4 + 8 + 4 + 24 header */
	tap_is_int(n, 24 + 4 + 4096 + 8 + 32 * 4 + 4 + 32 + 64 * 6, "large state size in bytes");
	drive(bp, 2000, 1, warm);
	bp_save(bp, s0);
	drive(bp, 500, 2, p1);
	bp_save(bp, s1);
	tap_ok(!bp_restore(bp, s0, n), "restore the checkpoint");
	drive(bp, 500, 2, p2);
	bp_save(bp, s2);
	tap_ok(!memcmp(p1, p2, sizeof(p1)), "same predictions after restore");
	tap_ok(!memcmp(s1, s2, n), "same state bytes after restore");

	bp_reset(bp);
	drive(bp, 1, 3, p1);
	bp_reset(bp);
	bp_save(bp, s2);
	{
		struct bp *fresh = new_bp("large");

		bp_save(fresh, s1);
		tap_ok(!memcmp(s1, s2, n), "reset state equals a new predictor's");
		bp_free(fresh);
	}

	error_quiet(1);
	tap_is_int(bp_restore(other, s0, n), -1, "restore into another size: refused");
	tap_is_int(bp_restore(bp, s0, n - 1), -1, "restore of a short state: refused");
	s0[24 + 4] = 7; /* first gshare counter */
	tap_is_int(bp_restore(bp, s0, n), -1, "restore of a counter value 7: refused");
	s0[24 + 4] = 1;
	s0[0] ^= 1;
	tap_is_int(bp_restore(bp, s0, n), -1, "restore with a bad magic: refused");
	error_quiet(-1);
	free(s0);
	free(s1);
	free(s2);
	bp_free(bp);
	bp_free(other);
}

/* ---- the TAGE outcome predictor (dir=tage) ---------------------------------- */

static void test_tage_configs(void)
{
	static const char *const names[] = {"small", "medium", "large", "S0", "S1", "S2",
					    "S3",    "S4",	"M0",	 "M1", "M2", "M3",
					    "M4",    "B0",	"B1",	 "B2", "B3", "B4"};
	static const struct {
		const char *s;
		unsigned p, r, q, shift, dir;
	} v[] = {
	    {"small+", 512, 8, 0, 4, BP_DIR_TAGE},
	    {"medium+", 1024, 16, 16, 4, BP_DIR_TAGE},
	    {"LARGE+", 4096, 32, 64, 4, BP_DIR_TAGE},
	    {"medium,dir=tage", 1024, 16, 16, 4, BP_DIR_TAGE},
	    {"large+,dir=gshare", 4096, 32, 64, 4, BP_DIR_GSHARE},
	    {"B4, dir = TAGE", 1024, 8, 64, 4, BP_DIR_TAGE},
	    {"gshare=256,dir=tage,shift=1", 256, 0, 0, 1, BP_DIR_TAGE},
	    {"gshare=1048576,dir=tage", 1048576, 0, 0, 4, BP_DIR_TAGE},
	};
	static const char *const bad[] = {
	    "dir=tage",		    /* gshare 0: no budget */
	    "gshare=128,dir=tage",  /* below 256 */
	    "large,dir=bimodal",    /* unknown predictor */
	    "large,dir=",	    /* empty */
	    "large,dir=1",	    /* a name, not a number */
	    "large+,dir=tage,dir=gshare",
	    "dir=tage,large+",
	};
	struct bp_config c, d;
	char buf[96];
	int ok = 1;

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		c = (struct bp_config){9, 9, 9, 9, 9};
		tap_ok(!bp_config_parse(v[i].s, &c) && c.gshare == v[i].p && c.ras == v[i].r &&
			   c.ibtb == v[i].q && c.shift == v[i].shift && c.dir == v[i].dir,
		       "config \"%s\" = gshare %u, ras %u, ibtb %u, shift %u, dir %u", v[i].s,
		       v[i].p, v[i].r, v[i].q, v[i].shift, v[i].dir);
	}
	error_quiet(1);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		c = (struct bp_config){9, 9, 9, 9, 9};
		tap_ok(bp_config_parse(bad[i], &c) == -1 && c.gshare == 9 && c.dir == 9,
		       "config \"%s\" is rejected, output untouched", bad[i]);
	}
	c = (struct bp_config){4096, 32, 64, 4, 2};
	tap_ok(bp_config_check(&c) == -1 && !bp_new(&c), "dir 2 does not exist");
	error_quiet(-1);

	/* the papers' configurations keep their canonical strings (old manifests) */
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (bp_config_parse(names[i], &c))
			ok = 0;
		bp_config_format(&c, buf, sizeof(buf));
		ok &= !strstr(buf, "dir") && !strncmp(buf, "gshare=", 7);
	}
	tap_ok(ok, "no configuration with dir=gshare prints a dir key");
	if (bp_config_parse("large", &c))
		c.gshare = 0;
	bp_config_format(&c, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "gshare=4096,ras=32,ibtb=64,shift=4"), "large formats as before: %s",
	       buf);
	if (bp_config_parse("large+", &c))
		c.gshare = 0;
	bp_config_format(&c, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "gshare=4096,ras=32,ibtb=64,shift=4,dir=tage"), "large+ formats as %s",
	       buf);
	tap_ok(!bp_config_parse(buf, &d) && !memcmp(&c, &d, sizeof(c)), "and parses back");
	tap_ok(bp_config_name(&d) && !strcmp(bp_config_name(&d), "large+"), "named large+");
	d.shift = 1;
	bp_config_format(&d, buf, sizeof(buf));
	tap_ok(!bp_config_parse(buf, &c) && !memcmp(&c, &d, sizeof(c)) && !bp_config_name(&c),
	       "custom %s round trip, no name", buf);
}

static unsigned long bits_of(const char *s)
{
	struct bp_config c;

	return bp_config_parse(s, &c) ? 0 : bp_config_bits(&c);
}

static void test_budgets(void)
{
	static const char *const base[] = {"small", "medium", "large", "S0", "S2", "M4", "B4"};
	int ok = 1;

	/* 2p + log2(p) + 32 r + (40 q + 13 if q) */
	tap_is_int(bits_of("small"), 1024 + 9 + 256, "small: 1289 bits");
	tap_is_int(bits_of("medium"), 2048 + 10 + 512 + 640 + 13, "medium: 3223 bits");
	tap_is_int(bits_of("large"), 8192 + 12 + 1024 + 2560 + 13, "large: 11801 bits");
	/* p/4 base counters x 2 + 3 x p/32 x (3 + 10 + 1) + 60 GHR + 4 alt */
	tap_is_int(bits_of("large+"), 2048 + 3 * 128 * 14 + 64 + 1024 + 2560 + 13,
		   "large+: 11085 bits");
	tap_is_int(bits_of("small+"), 256 + 3 * 16 * 14 + 64 + 256, "small+: 1248 bits");
	tap_is_int(bits_of("S0,dir=tage"), 128 + 3 * 8 * 13 + 64, "S0 with TAGE (9-bit tags): 504");
	for (size_t i = 0; i < ARRAY_SIZE(base); i++) {
		char s[32];

		snprintf(s, sizeof(s), "%s,dir=tage", base[i]);
		ok &= bits_of(s) && bits_of(s) <= bits_of(base[i]);
	}
	tap_ok(ok, "every named configuration: TAGE in no more bits than gshare");
	ok = 1;
	for (unsigned p = 256, lp = 8; p <= GSHARE_MAX_ENTRIES; p *= 2, lp++) {
		struct tage_geom g;

		ok &= !tage_geometry(p, &g) && tage_geom_bits(&g) <= 2ul * p + lp;
	}
	tap_ok(ok, "tage_geometry(p) fits in 2p + log2(p) bits for p = 256 .. 2^20");
}

/* One conditional branch at pc, through bp_step: 1 if its outcome was mispredicted. */
static int cond_miss(struct bp *bp, uint32_t pc, int taken)
{
	struct bp_branch br = {pc, pc + 2, ISA_CF_COND_DIRECT, 1};

	return bp_step(bp, &br, taken, taken ? pc - 0x40 : pc + 2, NULL) == BP_MISS_OUTCOME;
}

/*
 * A branch A with a pseudo-random outcome, 30 always-taken branches, then
 * B, which repeats A's outcome: B's misses in iterations from..to-1 of 1000.
 */
static int correlated_misses(struct bp *bp, int from, int to)
{
	int misses = 0;

	rng_state = 42;
	for (int it = 0; it < to; it++) {
		int a = rnd() >> 31;

		(void)cond_miss(bp, 0x08001000, a);
		for (uint32_t k = 0; k < 30; k++)
			(void)cond_miss(bp, 0x08002000 + 8 * k, 1);
		if (it >= from)
			misses += cond_miss(bp, 0x08003000, a);
		else
			(void)cond_miss(bp, 0x08003000, a);
	}
	return misses;
}

static void test_tage_sequences(void)
{
	struct bp *bp = new_bp("large+"), *gs;
	struct bp_prediction p;
	struct bp_branch bcc = {0x08000400, 0x08000402, ISA_CF_COND_DIRECT, 1};
	int misses = 0, late = 0;

	tap_ok(bp && bp_tage(bp) && gshare_entries(bp_gshare(bp)) == 0,
	       "large+: a TAGE, no gshare counters");
	bp_predict(bp, &bcc, &p);
	tap_ok(p.counts && !p.taken, "cold: predicted not-taken (base counter 1)");
	tap_is_int(tage_provider(bp_tage(bp), bcc.pc), 0, "cold: the base predicts");
	for (int i = 0; i < 100; i++)
		misses += cond_miss(bp, bcc.pc, 1);
	tap_is_int(misses, 1, "an always-taken branch: one miss, then the base knows");
	tap_is_int(tage_ghr(bp_tage(bp)), (1ull << 60) - 1, "GHR keeps 60 outcomes");
	bp_reset(bp);
	tap_ok(tage_ghr(bp_tage(bp)) == 0 && !tage_provider(bp_tage(bp), bcc.pc),
	       "reset: GHR 0, base predicts");

	/* the loop of test_loop: 9 taken, 1 not taken */
	misses = 0;
	for (int pass = 0; pass < 10; pass++)
		for (int i = 0; i < 10; i++) {
			int m = cond_miss(bp, 0x08000200, i < 9);

			misses += m;
			late += pass >= 5 && m;
		}
	tap_ok(misses > 0 && misses <= loop_misses("large", 10),
	       "loop x10: %d misses, no more than gshare 4096's %d", misses,
	       loop_misses("large", 10));
	tap_is_int(late, 0, "loop: passes 6..10 are predicted without a miss (exit learnt)");
	bp_free(bp);

	/* correlation 31 branches back: beyond gshare's 12-bit BHR, inside T3's 60 */
	bp = new_bp("large+");
	gs = new_bp("large");
	misses = correlated_misses(bp, 500, 1000);
	late = correlated_misses(gs, 500, 1000);
	tap_is_int(misses, 0, "A..30..B, B = A: TAGE learns it (0 misses in the last 500)");
	tap_ok(late > 150, "gshare 4096 cannot (%d misses in the last 500)", late);
	(void)cond_miss(bp, 0x08001000, 1);
	for (uint32_t k = 0; k < 30; k++)
		(void)cond_miss(bp, 0x08002000 + 8 * k, 1);
	tap_is_int(tage_provider(bp_tage(bp), 0x08003000), 3,
		   "B's provider: T3, the only table whose 60 outcomes reach A");
	bp_free(gs);
	bp_free(bp);
}

static void test_tage_save_restore(void)
{
	static const char *const cfgs[] = {"large+", "small+", "S2,dir=tage"};

	for (size_t k = 0; k < ARRAY_SIZE(cfgs); k++) {
		struct bp *bp = new_bp(cfgs[k]), *plain;
		static struct bp_prediction warm[3000], p1[800], p2[800];
		size_t n = bp_state_size(bp);
		uint8_t *s0 = malloc(n), *s1 = malloc(n), *s2 = malloc(n);

		drive(bp, 3000, 7, warm);
		bp_save(bp, s0);
		drive(bp, 800, 8, p1);
		bp_save(bp, s1);
		tap_ok(!bp_restore(bp, s0, n), "%s: restore mid-sequence", cfgs[k]);
		drive(bp, 800, 8, p2);
		bp_save(bp, s2);
		tap_ok(!memcmp(p1, p2, sizeof(p1)) && !memcmp(s1, s2, n),
		       "%s: identical predictions and state after the restore", cfgs[k]);
		error_quiet(1);
		s0[n - 1] = 2; /* the last entry's u bit */
		tap_ok(bp_restore(bp, s0, n) == -1, "%s: a u bit of 2 is refused", cfgs[k]);
		plain = new_bp("large");
		tap_ok(bp_restore(plain, s1, n) == -1, "%s: refused by a gshare predictor", cfgs[k]);
		error_quiet(-1);
		bp_free(plain);
		free(s0);
		free(s1);
		free(s2);
		bp_free(bp);
	}
	{
		struct bp *t = new_bp("large+"), *z = new_bp("gshare=0,ras=32,ibtb=64");

		/* GHR 8 + alt 4 + 1024 base counters + 3 x 128 entries x 4 bytes */
		tap_is_int(bp_state_size(t) - bp_state_size(z), 8 + 4 + 1024 + 3 * 128 * 4,
			   "large+ state: the TAGE adds 2572 bytes");
		bp_free(t);
		bp_free(z);
	}
}

int main(void)
{
	test_counter_walk();
	test_gshare_index();
	test_ras();
	test_pir_formulas();
	test_ibtb();
	test_configs();
	test_classify();
	test_predict_kinds();
	test_loop();
	test_indirect_loop();
	test_fused_step();
	test_follow();
	test_calls();
	test_save_restore();
	test_tage_configs();
	test_budgets();
	test_tage_sequences();
	test_tage_save_restore();
	return tap_done();
}
