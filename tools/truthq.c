/*
 * truthq: questions to a recording's ground truth (REC/truth.gz), the
 * oracle the gdbserver tests compare GDB's answers with. It reads the
 * truth alone, never the streams, so it shares no code path with the
 * replay it checks.
 *
 * A position is the number of instructions retired by all cores so far
 * (the replay's and the server's); the instruction at position P is the
 * P-th to retire, and the state "at P" is the one right after it.
 *
 *   truthq REC at P            every core's registers at position P, a line
 *                              per core: "core C r0 r1 ... control" in hex
 *   truthq REC at P --fp       ... and then the core's FP registers on the
 *                              same line: "... control s0 .. s31 fpscr" (a
 *                              core without them in the truth: an error)
 *   truthq REC stores ADDR LEN every store overlapping [ADDR, ADDR+LEN):
 *   truthq REC loads ADDR LEN  every load ...  one line each:
 *                              "P core C pc PC addr A size N value V"
 *   truthq REC execs PC        every retirement of the instruction at PC:
 *                              "P core C insn N", N = the core's own
 *                              instructions retired before it
 *   truthq REC trace           every instruction the board executed, in
 *                              global order: "core pc" (faulted ones too,
 *                              as `raptor run --trace-regs` lists them)
 *   truthq REC end             the last position
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "streams/truth.h"

static const char usage[] =
    "usage: truthq REC at POSITION [--fp] | stores ADDR LEN | loads ADDR LEN | execs PC |\n"
    "              trace | end\n";

static const char help[] =
    "truthq: questions to a recording's ground truth (REC/truth.gz)\n"
    "  at POSITION      every core's registers at POSITION, a line per core:\n"
    "                   \"core C r0 .. r12 sp lr pc xpsr msp psp primask basepri\n"
    "                   faultmask control\", in hex\n"
    "  at POSITION --fp the same lines, each followed by the core's FP registers:\n"
    "                   \"... control s0 .. s31 fpscr\" (raw bits, hex); an error\n"
    "                   when a core has none in the truth (no FPU)\n"
    "  stores ADDR LEN  every store overlapping [ADDR, ADDR+LEN): \"P core C pc PC\n"
    "                   addr A size N value V\"\n"
    "  loads ADDR LEN   every load, the same way\n"
    "  execs PC         every retirement of the instruction at PC: \"P core C insn N\"\n"
    "  trace            every instruction executed, in global order: \"core pc\"\n"
    "  end              the last position\n"
    "A position counts the instructions all cores retired; the state at P is the\n"
    "one right after the P-th.\n";

struct pending {
	int n;
	struct st_truth_rec acc[64];
};

static int is_store(const struct st_truth_rec *a)
{
	return a->kind == ISA_ACC_STORE || a->kind == ISA_ACC_STREX;
}

static int is_load(const struct st_truth_rec *a)
{
	return a->kind == ISA_ACC_LOAD || a->kind == ISA_ACC_LDREX;
}

int main(int argc, char **argv)
{
	struct st_truth_reader *tr;
	struct st_truth_rec rec;
	static struct pending pend[ST_TRUTH_MAX_CORES];
	static uint32_t regs[ST_TRUTH_MAX_CORES][ISA_NREGS];
	static uint32_t fp[ST_TRUTH_MAX_CORES][ISA_NFPREGS];
	static int has_fp[ST_TRUTH_MAX_CORES];
	int want_fp = 0, bad = 0;
	static unsigned long long own[ST_TRUTH_MAX_CORES];
	unsigned long long pos = 0, at = 0, addr = 0, len = 0, pc = 0;
	const char *q;
	char path[4096];
	int k;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		fputs(help, stdout);
		return 0;
	}
	if (argc < 3) {
		fputs(usage, stderr);
		return 2;
	}
	q = argv[2];
	if (!strcmp(q, "at") && (argc == 4 || (argc == 5 && !strcmp(argv[4], "--fp")))) {
		at = strtoull(argv[3], NULL, 0);
		want_fp = argc == 5;
	} else if ((!strcmp(q, "stores") || !strcmp(q, "loads")) && argc == 5) {
		addr = strtoull(argv[3], NULL, 0);
		len = strtoull(argv[4], NULL, 0);
	} else if (!strcmp(q, "execs") && argc == 4)
		pc = strtoull(argv[3], NULL, 0);
	else if ((strcmp(q, "end") && strcmp(q, "trace")) || argc != 3) {
		fputs(usage, stderr);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/truth.gz", argv[1]);
	tr = st_truth_open(path);
	if (!tr)
		return 1;
	while ((k = st_truth_next(tr, &rec)) == 1) {
		int c = rec.core;

		if (rec.type == ST_TRUTH_ACCESS) {
			if (pend[c].n < 64)
				pend[c].acc[pend[c].n++] = rec;
			continue;
		}
		if (rec.type == ST_TRUTH_RESET || rec.type == ST_TRUTH_INSN ||
		    rec.type == ST_TRUTH_EXC) {
			/* the first step past P: the state at P is complete */
			if (!strcmp(q, "at") && pos == at && rec.type != ST_TRUTH_RESET)
				break;
			memcpy(regs[c], rec.regs, sizeof(regs[c]));
			has_fp[c] = rec.has_fp;
			if (rec.has_fp)
				memcpy(fp[c], rec.fp, sizeof(fp[c]));
		}
		if (rec.type == ST_TRUTH_INSN && !strcmp(q, "trace"))
			printf("%d %08x\n", c, rec.pc);
		if (rec.type == ST_TRUTH_INSN && !(rec.flags & ST_TRUTH_FAULTED)) {
			pos++;
			if (!strcmp(q, "execs") && rec.pc == pc)
				printf("%llu core %d insn %llu\n", pos, c, own[c]);
			own[c]++;
			for (int i = 0; i < pend[c].n; i++) {
				struct st_truth_rec *a = &pend[c].acc[i];

				if ((!strcmp(q, "stores") && !is_store(a)) ||
				    (!strcmp(q, "loads") && !is_load(a)))
					continue;
				if (strcmp(q, "stores") && strcmp(q, "loads"))
					continue;
				if (a->addr >= addr + len || addr >= a->addr + a->size)
					continue;
				printf("%llu core %d pc 0x%08x addr 0x%08x size %u value 0x%0*x\n",
				       pos, c, rec.pc, a->addr, a->size, 2 * a->size, a->value);
			}
		}
		if (rec.type != ST_TRUTH_ACCESS)
			pend[c].n = 0;
	}
	if (k < 0)
		return 1;
	if (!strcmp(q, "end"))
		printf("%llu\n", pos);
	if (!strcmp(q, "at")) {
		if (pos < at) {
			fprintf(stderr, "truthq: the recording ends at position %llu\n", pos);
			return 1;
		}
		for (int c = 0; c < st_truth_ncores(tr); c++) {
			printf("core %d", c);
			for (int i = 0; i < ISA_NREGS; i++)
				printf(" %08x", regs[c][i]);
			for (int i = 0; want_fp && has_fp[c] && i < ISA_NFPREGS; i++)
				printf(" %08x", fp[c][i]);
			putchar('\n');
			if (want_fp && !has_fp[c]) {
				fprintf(stderr,
					"truthq: %s: core %d has no FP registers in the truth\n",
					path, c);
				bad = 1;
			}
		}
	}
	st_truth_close_reader(tr);
	return bad;
}
