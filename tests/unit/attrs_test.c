/*
 * attrs_test: .ARM.attributes sections as arm-none-eabi-gcc 12.2 writes
 * them (objcopy --dump-section of `gcc -mthumb -mcpu=... -c` objects) give
 * the model and description raptor uses; each way a section can be
 * malformed is refused with its byte offset; models cover their subsets.
 */
#include <string.h>

#include "isa/attrs.h"
#include "isa/model.h"
#include "tests/unit/capture.h"
#include "tests/unit/tap.h"

/* -mcpu=cortex-m0plus */
static const uint8_t m0plus[] = {
    0x41, 0x2b, 0x00, 0x00, 0x00, 0x61, 0x65, 0x61, 0x62, 0x69, 0x00, 0x01, 0x21, 0x00, 0x00,
    0x00, 0x05, 0x36, 0x53, 0x2d, 0x4d, 0x00, 0x06, 0x0c, 0x07, 0x4d, 0x09, 0x01, 0x12, 0x04,
    0x14, 0x01, 0x15, 0x01, 0x17, 0x03, 0x18, 0x01, 0x19, 0x01, 0x1a, 0x01, 0x1e, 0x06,
};
/* -mcpu=cortex-m3 */
static const uint8_t m3[] = {
    0x41, 0x2c, 0x00, 0x00, 0x00, 0x61, 0x65, 0x61, 0x62, 0x69, 0x00, 0x01, 0x22, 0x00, 0x00,
    0x00, 0x05, 0x37, 0x2d, 0x4d, 0x00, 0x06, 0x0a, 0x07, 0x4d, 0x09, 0x02, 0x12, 0x04, 0x14,
    0x01, 0x15, 0x01, 0x17, 0x03, 0x18, 0x01, 0x19, 0x01, 0x1a, 0x01, 0x1e, 0x06, 0x22, 0x01,
};
/* -mcpu=cortex-m4 (soft float) */
static const uint8_t m4[] = {
    0x41, 0x2d, 0x00, 0x00, 0x00, 0x61, 0x65, 0x61, 0x62, 0x69, 0x00, 0x01, 0x23, 0x00, 0x00, 0x00,
    0x05, 0x37, 0x45, 0x2d, 0x4d, 0x00, 0x06, 0x0d, 0x07, 0x4d, 0x09, 0x02, 0x12, 0x04, 0x14, 0x01,
    0x15, 0x01, 0x17, 0x03, 0x18, 0x01, 0x19, 0x01, 0x1a, 0x01, 0x1e, 0x06, 0x22, 0x01,
};
/* -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 */
static const uint8_t m4f[] = {
    0x41, 0x33, 0x00, 0x00, 0x00, 0x61, 0x65, 0x61, 0x62, 0x69, 0x00, 0x01, 0x29,
    0x00, 0x00, 0x00, 0x05, 0x37, 0x45, 0x2d, 0x4d, 0x00, 0x06, 0x0d, 0x07, 0x4d,
    0x09, 0x02, 0x0a, 0x06, 0x12, 0x04, 0x14, 0x01, 0x15, 0x01, 0x17, 0x03, 0x18,
    0x01, 0x19, 0x01, 0x1a, 0x01, 0x1b, 0x01, 0x1c, 0x01, 0x1e, 0x06, 0x22, 0x01,
};
/* -mcpu=cortex-m7 -mfloat-abi=hard -mfpu=fpv5-d16 */
static const uint8_t m7[] = {
    0x41, 0x31, 0x00, 0x00, 0x00, 0x61, 0x65, 0x61, 0x62, 0x69, 0x00, 0x01, 0x27,
    0x00, 0x00, 0x00, 0x05, 0x37, 0x45, 0x2d, 0x4d, 0x00, 0x06, 0x0d, 0x07, 0x4d,
    0x09, 0x02, 0x0a, 0x08, 0x12, 0x04, 0x14, 0x01, 0x15, 0x01, 0x17, 0x03, 0x18,
    0x01, 0x19, 0x01, 0x1a, 0x01, 0x1c, 0x01, 0x1e, 0x06, 0x22, 0x01,
};
/* -mcpu=cortex-m33 -mfloat-abi=hard -mfpu=fpv5-sp-d16 */
static const uint8_t m33[] = {
    0x41, 0x39, 0x00, 0x00, 0x00, 0x61, 0x65, 0x61, 0x62, 0x69, 0x00, 0x01, 0x2f, 0x00, 0x00,
    0x00, 0x05, 0x38, 0x2d, 0x4d, 0x2e, 0x4d, 0x41, 0x49, 0x4e, 0x00, 0x06, 0x11, 0x07, 0x4d,
    0x09, 0x03, 0x0a, 0x08, 0x12, 0x04, 0x14, 0x01, 0x15, 0x01, 0x17, 0x03, 0x18, 0x01, 0x19,
    0x01, 0x1a, 0x01, 0x1b, 0x01, 0x1c, 0x01, 0x1e, 0x06, 0x22, 0x01, 0x2e, 0x01,
};
/* gas, `.cpu cortex-m7` and no FPU: only the CPU name says M7 */
static const uint8_t gas_m7[] = {
    0x41, 0x20, 0x00, 0x00, 0x00, 0x61, 0x65, 0x61, 0x62, 0x69, 0x00,
    0x01, 0x16, 0x00, 0x00, 0x00, 0x05, 0x43, 0x6f, 0x72, 0x74, 0x65,
    0x78, 0x2d, 0x4d, 0x37, 0x00, 0x06, 0x0d, 0x07, 0x4d, 0x09, 0x02,
};
/*
 * armcc's Cortex-A53 attributes (as fromelf's manual prints them: C2.09
 * conformance, v8-A), then Tag_compatibility 2 "ARM" and
 * Tag_also_compatible_with (6, 13)
 */
static const uint8_t a53[] = {
    0x41, 0x53, 0x00, 0x00, 0x00, 0x61, 0x65, 0x61, 0x62, 0x69, 0x00, 0x01, 0x49, 0x00,
    0x00, 0x00, 0x43, 0x32, 0x2e, 0x30, 0x39, 0x00, 0x05, 0x63, 0x6f, 0x72, 0x74, 0x65,
    0x78, 0x2d, 0x61, 0x35, 0x33, 0x00, 0x06, 0x0e, 0x07, 0x41, 0x08, 0x01, 0x09, 0x02,
    0x0a, 0x07, 0x0c, 0x03, 0x0e, 0x00, 0x11, 0x01, 0x12, 0x04, 0x14, 0x01, 0x15, 0x01,
    0x17, 0x03, 0x18, 0x01, 0x19, 0x01, 0x1a, 0x02, 0x22, 0x00, 0x24, 0x01, 0x26, 0x01,
    0x2a, 0x01, 0x44, 0x03, 0x20, 0x02, 0x41, 0x52, 0x4d, 0x00, 0x41, 0x06, 0x0d, 0x00,
};
/*
 * Another vendor's subsection first, then aeabi with a Tag_Section
 * sub-subsection (which must not count) before Tag_File: v7E-M.
 */
static const uint8_t mixed[] = {
    0x41, 0x0a, 0x00, 0x00, 0x00, 'g',	'n',  'u',  0x00, 0x04, 0x01, /* "gnu" */
    0x1b, 0x00, 0x00, 0x00, 'a',  'e',	'a',  'b',  'i',  0x00,	      /* "aeabi" */
    0x02, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06,		      /* Tag_Section */
    0x01, 0x09, 0x00, 0x00, 0x00, 0x06, 0x0d, 0x07, 0x4d,	      /* Tag_File */
};

struct want {
	const char *name;
	const uint8_t *buf;
	size_t len;
	enum isa_attrs_fit fit;
	enum isa_model model;
	const char *desc;
};

#define W(b) #b, b, sizeof(b)

static const struct want wants[] = {
    {W(m0plus), ISA_ATTRS_MODEL, ISA_CORTEX_M0PLUS, "Cortex-M0+ (v6S-M)"},
    {W(m3), ISA_ATTRS_MODEL, ISA_CORTEX_M3, "Cortex-M3 (v7-M)"},
    {W(m4), ISA_ATTRS_MODEL, ISA_CORTEX_M4, "Cortex-M4 (v7E-M)"},
    {W(m4f), ISA_ATTRS_MODEL, ISA_CORTEX_M4F, "Cortex-M4F (v7E-M, FPv4-SP)"},
    {W(m7), ISA_ATTRS_MODEL, ISA_CORTEX_M7, "Cortex-M7 (v7E-M, FPv5-D16)"},
    {W(m33), ISA_ATTRS_MODEL, ISA_CORTEX_M33, "Cortex-M33 (v8-M mainline, DSP, FPv5-SP)"},
    {W(gas_m7), ISA_ATTRS_MODEL, ISA_CORTEX_M7, "Cortex-M7 (v7E-M)"},
    {W(a53), ISA_ATTRS_NOT_M, ISA_CORTEX_M3, "ARMv8-A (\"cortex-a53\")"},
    {W(mixed), ISA_ATTRS_MODEL, ISA_CORTEX_M4, "Cortex-M4 (v7E-M)"},
};

static void check_real(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(wants); i++) {
		const struct want *w = &wants[i];
		struct isa_attrs a;
		enum isa_model m = ISA_CORTEX_M3;
		char desc[128];
		int rc = isa_attrs_parse(w->buf, w->len, &a);

		tap_ok(rc == 0 && a.present, "%s: parsed", w->name);
		tap_is_int(isa_attrs_model(&a, &m), w->fit, w->name);
		tap_ok(m == w->model, "%s: model %s", w->name, isa_model_info(m)->name);
		isa_attrs_describe(&a, desc, sizeof(desc));
		if (!tap_ok(!strcmp(desc, w->desc), "%s: described as %s", w->name, w->desc))
			tap_diag("got '%s'", desc);
	}
}

static void check_fields(void)
{
	struct isa_attrs a;

	tap_ok(!isa_attrs_parse(m33, sizeof(m33), &a) && !strcmp(a.cpu_name, "8-M.MAIN") &&
		   a.cpu_arch == ISA_ATTR_ARCH_V8MMAIN && a.profile == 'M' && a.fp_arch == 8 &&
		   a.hardfp == 1 && a.dsp == 1,
	       "m33: every field read");
	tap_ok(!isa_attrs_parse(a53, sizeof(a53), &a) && !strcmp(a.cpu_name, "cortex-a53") &&
		   a.profile == 'A',
	       "a53: NTBS tags (67, 32, 65) skipped right");
	tap_ok(!isa_attrs_parse(m3, 0, &a) && !a.present, "an empty section: no attributes");
	tap_is_int(isa_attrs_model(&a, &(enum isa_model){0}), ISA_ATTRS_NONE,
		   "no attributes: no opinion");
}

/* parse buf (a copy of m4 changed by the caller): the error must say why */
static void refused(const uint8_t *buf, size_t len, const char *why, const char *name)
{
	struct isa_attrs a;
	const char *msg;
	int rc;

	capture_start();
	rc = isa_attrs_parse(buf, len, &a);
	msg = capture_end();
	if (!tap_ok(rc == -1 && strstr(msg, why), "%s: refused, '%s'", name, why))
		tap_diag("rc %d, message '%s'", rc, msg);
}

static void check_malformed(void)
{
	uint8_t b[sizeof(m4)];

	memcpy(b, m4, sizeof(b));
	b[0] = 'B';
	refused(b, sizeof(b), "byte 0: format version 0x42, not 'A'", "version");
	memcpy(b, m4, sizeof(b));
	b[1] = 0x2e;
	refused(b, sizeof(b), "byte 1: subsection of 46 bytes, 45 left in the section",
		"subsection too long");
	refused(m4, 3, "byte 1: a subsection length runs past the end", "cut in a length");
	memcpy(b, m4, sizeof(b));
	b[12] = 0x24;
	refused(b, sizeof(b), "byte 11: sub-subsection of 36 bytes, 35 left", "sub-subsection");
	memcpy(b, m4, sizeof(b));
	memset(b + 17, 'x', sizeof(b) - 17); /* Tag_CPU_name's NUL gone, to the end */
	refused(b, sizeof(b), "byte 17: a string attribute has no terminating NUL", "NTBS");
	memcpy(b, m4, sizeof(b));
	b[sizeof(b) - 1] = 0x81; /* the last value's ULEB128 continues past the end */
	refused(b, sizeof(b), "byte 45: an attribute value runs past the end", "ULEB128 cut");
	memcpy(b, m4, sizeof(b));
	memset(b + 23, 0xff, 6); /* Tag_CPU_arch's value: 6 continuation bytes */
	refused(b, sizeof(b), "does not fit 32 bits", "ULEB128 overflow");
}

static void check_covers(void)
{
	tap_ok(isa_model_covers(ISA_CORTEX_M4, ISA_CORTEX_M3), "m4 covers m3");
	tap_ok(isa_model_covers(ISA_CORTEX_M3, ISA_CORTEX_M0PLUS), "m3 covers m0plus");
	tap_ok(isa_model_covers(ISA_CORTEX_M7, ISA_CORTEX_M4F), "m7 covers m4f");
	tap_ok(isa_model_covers(ISA_CORTEX_M33, ISA_CORTEX_M4F), "m33 covers m4f");
	tap_ok(
	    !isa_model_covers(ISA_CORTEX_M3, ISA_CORTEX_M4) &&
		!strcmp(isa_model_lacks(ISA_CORTEX_M3, ISA_CORTEX_M4), "it has no DSP extension"),
	    "m3 does not cover m4: no DSP");
	tap_ok(!strcmp(isa_model_lacks(ISA_CORTEX_M4, ISA_CORTEX_M4F), "it has no FPU"),
	       "m4 does not cover m4f: no FPU");
	tap_ok(!strcmp(isa_model_lacks(ISA_CORTEX_M4F, ISA_CORTEX_M7),
		       "its FPU is single-precision only"),
	       "m4f does not cover m7: single precision");
	tap_ok(!strcmp(isa_model_lacks(ISA_CORTEX_M7, ISA_CORTEX_M33),
		       "it has no ARMv8-M instructions"),
	       "m7 does not cover m33: v8-M");
	tap_ok(!strcmp(isa_model_lacks(ISA_CORTEX_M0PLUS, ISA_CORTEX_M3),
		       "it has only the ARMv6-M instructions"),
	       "m0plus does not cover m3: v6-M");
}

int main(void)
{
	check_real();
	check_fields();
	check_malformed();
	check_covers();
	return tap_done();
}
