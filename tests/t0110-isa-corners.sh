#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'ISA corner programs: IT and flags, TBB/TBH, PSP and nested exceptions, unaligned rules, division by zero, DSP, the FP extension (single, and double on the Cortex-M7), the cross-core exclusive monitor, ARMv6-M (Cortex-M0+), ARMv8-M mainline (Cortex-M33)'

# Each program checks itself and exits 0; a failed check exits with its
# number. tests/t0100 also compares the single-core ones with QEMU.

test_require "$RAPTOR"
I=$BUILD/isatest

for t in it-flags tbb exc-psp unaligned div0; do
	test_expect_success "$t passes on one Cortex-M3 core" "
		\"\$RAPTOR\" run $I/$t.elf --cores 1 --cpu m3
	"
done

test_expect_success 'dsp-test passes on Cortex-M4' '
	"$RAPTOR" run $I/dsp-test.elf --cores 1 --cpu m4
'

test_expect_success 'dsp-test: DSP instructions are UNDEFINED on Cortex-M3 (HardFault, status 90)' '
	{ "$RAPTOR" run $I/dsp-test.elf --cores 1 --force-cpu m3 >out 2>err; rc=$?; } &&
	test $rc = 90 &&
	grep "dsp-test.elf: built for Cortex-M4 (v7E-M); running it on a Cortex-M3 as --force-cpu says, though it has no DSP extension" err
'

for t in fp-arith fp-exc fp-ctx fp-random; do
	test_expect_success "$t passes on Cortex-M4F" "
		\"\$RAPTOR\" run $I/$t.elf --cores 1 --cpu m4f
	"
done

test_expect_success 'fp-exc: the simple engine (white-box) gives the same trace' '
	"$RAPTOR" run $I/fp-exc.elf --cores 1 --cpu m4f --trace-regs fast &&
	RAPTOR_SIMPLE_ENGINE=1 "$RAPTOR" run $I/fp-exc.elf --cores 1 --cpu m4f --trace-regs simple &&
	test_cmp fast simple &&
	test $(head -n 1 fast | wc -w) = 51
'

test_expect_success 'fp-arith: without an FPU, FP instructions are NOCP faults (HardFault, status 99)' '
	{ "$RAPTOR" run $I/fp-arith.elf --cores 1 --force-cpu m4 >out 2>err; rc=$?; } &&
	test $rc = 99 &&
	"$RAPTOR" run $I/fp-arith.elf --cores 1 --force-cpu m4 --trace-regs t >/dev/null 2>&1;
	test $(head -n 1 t | wc -w) = 18
'

for t in fp64-arith fp64-random fp64-scs fp64-ctx fp64-exc; do
	test_expect_success "$t passes on Cortex-M7 (the ELF's build attributes)" "
		\"\$RAPTOR\" run $I/$t.elf --cores 1 --stats 2>err &&
		grep '^board: 1 core, Cortex-M7 (m7; the ELF.s build attributes)\$' err
	"
done

test_expect_success 'fp64-arith: the simple engine (white-box) gives the same trace, d0-d15 as s0-s31' '
	"$RAPTOR" run $I/fp64-arith.elf --cores 1 --trace-regs fast &&
	RAPTOR_SIMPLE_ENGINE=1 "$RAPTOR" run $I/fp64-arith.elf --cores 1 --trace-regs simple &&
	test_cmp fast simple &&
	test $(head -n 1 fast | wc -w) = 51
'

test_expect_success 'fp64-arith on a Cortex-M4F: double precision is UNDEFINED there (fp-undef), the defaults handler takes the fault' '
	test_expect_code 99 "$RAPTOR" run $I/fp64-arith.elf --cores 1 --force-cpu m4f 2>err &&
	grep "warning: .*fp64-arith.elf: built for Cortex-M7 (v7E-M, FPv5-D16); running it on a Cortex-M4F as --force-cpu says, though its FPU is single-precision only (those instructions fault)" err &&
	! grep "unimplemented" err
'

test_expect_success 'fp-undef and fp64-undef: double precision on the M4F, D16-D31 on the M7 fault (UNDEFINSTR; NOCP first)' '
	"$RAPTOR" run $I/fp-undef.elf --cores 1 &&
	"$RAPTOR" run $I/fp64-undef.elf --cores 1
'

test_expect_success 'wfi-primask: WFI wakes for an interrupt PRIMASK holds back' '
	"$RAPTOR" run $I/wfi-primask.elf --cores 1 &&
	"$RAPTOR" run $I/wfi-primask.elf --cores 2
'

for seed in 1 2 3 4 5 6 7 8; do
	test_expect_success "strex-mc: STREX fails after another core's store (seed $seed)" "
		\"\$RAPTOR\" run $I/strex-mc.elf --cores 2 --seed $seed
	"
done

for t in v6m-fault v6m-scs v6m-random v6m-cbz-it; do
	test_expect_success "$t passes on a Cortex-M0+ (the ELF's build attributes)" "
		\"\$RAPTOR\" run $I/$t.elf --stats 2>err &&
		grep '^board: 1 core, Cortex-M0+ (m0plus; the ELF.s build attributes)\$' err
	"
done

test_expect_success 'v6m-fault and v6m-cbz-it: a Cortex-M3 runs what ARMv6-M lacks (status 10, 2)' '
	test_expect_code 10 "$RAPTOR" run $I/v6m-fault.elf --cpu m3 2>/dev/null &&
	test_expect_code 2 "$RAPTOR" run $I/v6m-cbz-it.elf --cpu m3 2>/dev/null
'

for t in v6m-fault v6m-scs v6m-random; do
	test_expect_success "$t: record --truth, replay --verify: 0 differences" "
		\"\$RAPTOR\" record $I/$t.elf --truth -o rec-$t -q >/dev/null &&
		test \"\$(sed -n 's/^model = //p' rec-$t/manifest.ini)\" = m0plus &&
		\"\$RAPTOR\" replay rec-$t --verify 2>err &&
		grep 'the program exited with status 0' err &&
		grep ' 0 differences' err
	"
done

for t in v8m-acqrel v8m-stklim v8m-exc; do
	test_expect_success "$t passes on a Cortex-M33 (the ELF's build attributes)" "
		\"\$RAPTOR\" run $I/$t.elf --stats 2>err &&
		grep '^board: 1 core, Cortex-M33 (m33; the ELF.s build attributes)\$' err
	"
done

for seed in 1 2 3 4 5 6 7 8; do
	test_expect_success "v8m-mc: LDAEX/STLEX contention, STL to a reserved word (2 cores, seed $seed)" "
		\"\$RAPTOR\" run $I/v8m-mc.elf --cores 2 --seed $seed
	"
done

test_expect_success 'v8m-stklim: the simple engine (white-box) gives the same trace, FP registers too' '
	"$RAPTOR" run $I/v8m-stklim.elf --trace-regs fast &&
	RAPTOR_SIMPLE_ENGINE=1 "$RAPTOR" run $I/v8m-stklim.elf --trace-regs simple &&
	test_cmp fast simple &&
	test $(head -n 1 fast | wc -w) = 51
'

# secext INSN ENCODING TEXT: a Cortex-M33 program that reaches INSN stops
# with the unimplemented-instruction error naming core, pc, encoding, text
secext() {
	printf "\t.syntax unified\n\t.thumb\n\t.section .vectors,\"a\"\n\t.word 0x38400000\n\t.word reset + 1\n\t.text\n\t.thumb_func\nreset:\n\tnop\n\t%s\n" "$1" >se.S &&
	arm-none-eabi-gcc -mcpu=cortex-m33 -mthumb -nostdlib -T "$SRC/tests/isa/v8m.ld" se.S -o se.elf &&
	test_expect_code 125 "$RAPTOR" run se.elf 2>err &&
	echo "raptor: error: isa: core 0: unimplemented instruction at pc 0x1000000a after 1 instructions: encoding $2 ($3: the Security Extension)" >expect &&
	test_cmp expect err
}

test_expect_success 'the Security Extension is not modelled: its instructions stop the run by name' '
	secext "sg" 0xe97fe97f "sg" &&
	secext "bxns lr" 0x4774 "bxns lr" &&
	secext "blxns r3" 0x479c "blxns r3" &&
	secext "tt r0, r1" 0xe841f000 "tt r0, r1" &&
	secext "ttat r2, r3" 0xe843f2c0 "ttat r2, r3" &&
	secext "mrs r0, msp_ns" 0xf3ef8088 "mrs r0, SYSm 0x88" &&
	secext "msr control_ns, r0" 0xf3808894 "msr SYSm 0x94, r0" &&
	secext "vlldm r0" 0xec300a00 "vlldm r0"
'

test_expect_success 'LDAEXD and STLEXD (ARMv8-A only) are UNDEFINED on a Cortex-M33: HardFault' '
	printf "\t.syntax unified\n\t.thumb\n\t.section .vectors,\"a\"\n\t.word 0x38400000\n\t.word reset + 1\n\t.word 0\n\t.word hf + 1\n\t.text\n\t.thumb_func\nreset:\n\tldr r2, =0x38000000\n\t%s\n\tmovs r0, #0x18\n\tldr r1, =0x20026\n\tbkpt 0xab\n\t.thumb_func\nhf:\n\tmovs r0, #0x18\n\tmovs r1, #0\n\tbkpt 0xab\n" ".inst.w 0xe8d201ff" >ld.S &&
	arm-none-eabi-gcc -mcpu=cortex-m33 -mthumb -nostdlib -T "$SRC/tests/isa/v8m.ld" ld.S -o ld.elf &&
	"$RAPTOR" run ld.elf --trace-regs t 2>err;
	test $? = 1 && test $(wc -l <t) = 5 &&
	sed "s/ldr r2, =0x38000000/ldr r2, =0x38000000\n\t.inst.w 0xe8c201f3/; s/\.inst\.w 0xe8d201ff//" ld.S >st.S &&
	arm-none-eabi-gcc -mcpu=cortex-m33 -mthumb -nostdlib -T "$SRC/tests/isa/v8m.ld" st.S -o st.elf &&
	"$RAPTOR" run st.elf 2>err;
	test $? = 1
'

test_expect_success 'v6m-fault: the simple engine (white-box) gives the same trace' '
	"$RAPTOR" run $I/v6m-fault.elf --trace-regs fast &&
	RAPTOR_SIMPLE_ENGINE=1 "$RAPTOR" run $I/v6m-fault.elf --trace-regs simple &&
	test_cmp fast simple
'

for t in tbb exc-psp; do
	test_expect_success "$t: the decode cache off (white-box) changes nothing" "
		\"\$RAPTOR\" run $I/$t.elf --cores 1 --trace-regs with --stats 2>stats-with &&
		RAPTOR_NO_DECODE_CACHE=1 \"\$RAPTOR\" run $I/$t.elf --cores 1 --trace-regs without \
			--stats 2>stats-without &&
		test_cmp with without &&
		sed -n 's/^decoder: \\([0-9]*\\) lookups, \\([0-9]*\\) decodes\$/\\1 \\2/p' stats-with >w &&
		sed -n 's/^decoder: \\([0-9]*\\) lookups, \\([0-9]*\\) decodes\$/\\1 \\2/p' stats-without >wo &&
		read lw dw <w && read lo do <wo &&
		test \$dw -lt \$lw && test \$do = \$lo && test \$lw = \$lo
	"
done

test_done
