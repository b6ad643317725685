#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'run and record take the core model from the ELF build attributes, check --cpu against them, and default to 1 core'

test_require "$RAPTOR" arm-none-eabi-gcc arm-none-eabi-objcopy

# p.c exits with the low byte of CPUID's part number: 0x23 (35) on a
# Cortex-M3, 0x24 (36) on a Cortex-M4, so the exit status says which model
# ran it. Built for each core as arm-none-eabi-gcc writes the attributes.
test_expect_success 'setup: the program built for every core' '
	cat >p.c <<-EOF &&
	#define CPUID (*(volatile unsigned *)0xe000ed00)
	void reset(void);
	extern char __isa_stack_top[]; /* the top of SRAM: isa.ld, v8m.ld */
	__attribute__((section(".vectors"), used)) static void *const vectors[2] = {
		__isa_stack_top, reset };
	void reset(void)
	{
		volatile unsigned blk[2];
		register unsigned r0 __asm__("r0") = 0x20; /* SYS_EXIT_EXTENDED */
		register volatile unsigned *r1 __asm__("r1") = blk;

		blk[0] = 0x20026;
		blk[1] = (CPUID >> 4) & 0xff;
		__asm__ volatile("bkpt 0xab" : : "r"(r0), "r"(r1) : "memory");
		for (;;)
			;
	}
	EOF
	build() {
		n=$1 && shift &&
		arm-none-eabi-gcc "$@" -mthumb -O1 -nostdlib -T "$SRC/tests/isa/$ld.ld" p.c -o $n.elf
	} &&
	ld=isa &&
	build m0plus -mcpu=cortex-m0plus &&
	build m3 -mcpu=cortex-m3 &&
	build m4 -mcpu=cortex-m4 &&
	build m4f -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 &&
	build m4f-softfp -mcpu=cortex-m4 -mfloat-abi=softfp -mfpu=fpv4-sp-d16 &&
	build m7 -mcpu=cortex-m7 -mfloat-abi=hard -mfpu=fpv5-d16 &&
	build v7a -march=armv7-a &&
	ld=v8m &&
	build m33 -mcpu=cortex-m33 -mfloat-abi=hard -mfpu=fpv5-sp-d16 &&
	build m33-soft -mcpu=cortex-m33+nofp &&
	arm-none-eabi-objcopy --remove-section .ARM.attributes m4.elf none.elf
'

test_expect_success 'an ELF built for a Cortex-M3 runs on a Cortex-M3, 1 core' '
	test_expect_code 35 "$RAPTOR" run m3.elf --stats 2>err &&
	grep "^board: 1 core, Cortex-M3 (m3; the ELF.s build attributes)\$" err &&
	test $(grep -c "^core [0-9]*:" err) = 1 &&
	! grep warning err
'

test_expect_success 'an ELF built for a Cortex-M4 runs on a Cortex-M4' '
	test_expect_code 36 "$RAPTOR" run m4.elf --stats 2>err &&
	grep "^board: 1 core, Cortex-M4 (m4; the ELF.s build attributes)\$" err &&
	! grep warning err
'

test_expect_success 'an ELF built for a Cortex-M4F (hard float or softfp) runs on a Cortex-M4F' '
	test_expect_code 36 "$RAPTOR" run m4f.elf --stats 2>err &&
	grep "^board: 1 core, Cortex-M4F (m4f; the ELF.s build attributes)\$" err &&
	! grep warning err &&
	test_expect_code 36 "$RAPTOR" run m4f-softfp.elf --stats 2>err &&
	grep "^board: 1 core, Cortex-M4F (m4f; the ELF.s build attributes)\$" err
'

test_expect_success 'an ELF built for a Cortex-M7 (FPv5-D16) runs on a Cortex-M7 (CPUID part 0xc27)' '
	test_expect_code 39 "$RAPTOR" run m7.elf --stats 2>err &&
	grep "^board: 1 core, Cortex-M7 (m7; the ELF.s build attributes)\$" err &&
	! grep warning err &&
	test_expect_code 39 "$RAPTOR" run m4f.elf --cpu m7 2>err &&
	! test -s err &&
	test_expect_code 125 "$RAPTOR" run m7.elf --cpu m4f 2>err &&
	grep "error: --cpu m4f: m7.elf was built for Cortex-M7 (v7E-M, FPv5-D16), and a Cortex-M4F cannot run all of it: its FPU is single-precision only (--cpu m7 runs it; --force-cpu m4f runs it on a Cortex-M4F anyway)" err
'

test_expect_success 'an ELF built for a Cortex-M0+ runs on a Cortex-M0+ (CPUID part 0xc60)' '
	test_expect_code 96 "$RAPTOR" run m0plus.elf --stats 2>err &&
	grep "^board: 1 core, Cortex-M0+ (m0plus; the ELF.s build attributes)\$" err &&
	! grep warning err &&
	test_expect_code 125 "$RAPTOR" run m3.elf --cpu m0plus 2>err &&
	grep "error: --cpu m0plus: m3.elf was built for Cortex-M3 (v7-M), and a Cortex-M0+ cannot run all of it: it has only the ARMv6-M instructions" err
'

test_expect_success 'no build attributes: Cortex-M3, no complaint' '
	test_expect_code 35 "$RAPTOR" run none.elf --stats 2>err &&
	grep "^board: 1 core, Cortex-M3 (m3; the default: no build attributes)\$" err &&
	! grep warning err
'

test_expect_success 'not a Cortex-M architecture: a warning, then Cortex-M3' '
	test_expect_code 35 "$RAPTOR" run v7a.elf 2>err &&
	grep "v7a.elf: built for ARMv7-A (\"7-A\"), not for a Cortex-M; running it on a Cortex-M3 (--cpu chooses)" err
'

test_expect_success 'an ELF built for a Cortex-M33 runs on a Cortex-M33 (CPUID part 0xd21), on the an505 map' '
	test_expect_code 33 "$RAPTOR" run m33.elf --stats 2>err &&
	grep "^board: 1 core, Cortex-M33 (m33; the ELF.s build attributes)\$" err &&
	! grep warning err &&
	test_expect_code 125 "$RAPTOR" run m33-soft.elf --cpu m3 2>err &&
	grep "error: --cpu m3: m33-soft.elf was built for Cortex-M33 (v8-M mainline, DSP), and a Cortex-M3 cannot run all of it: it has no ARMv8-M instructions" err &&
	test_expect_code 33 "$RAPTOR" run m33-soft.elf --stats 2>err &&
	grep "^board: 1 core, Cortex-M33 (m33; the ELF.s build attributes)\$" err &&
	test_expect_code 125 "$RAPTOR" run m3.elf --cpu m33 2>err &&
	grep "error: m3.elf: the board of a Cortex-M33 has 4 MiB of ROM at 0x10000000 and 4 MiB of SRAM at 0x38000000" err
'

test_expect_success '--cpu larger than the ELF needs, same architecture: silent' '
	test_expect_code 36 "$RAPTOR" run m3.elf --cpu m4 --stats 2>err &&
	grep "^board: 1 core, Cortex-M4 (m4; --cpu)\$" err &&
	! grep warning err &&
	test_expect_code 36 "$RAPTOR" run none.elf --cpu m4 2>err &&
	! test -s err
'

test_expect_success '--cpu larger than the ELF needs, another architecture: a warning' '
	test_expect_code 35 "$RAPTOR" run m0plus.elf --cpu m3 2>err &&
	echo "raptor: warning: m0plus.elf: built for Cortex-M0+ (v6S-M); running it on a Cortex-M3 as --cpu says" >expect &&
	test_cmp expect err
'

test_expect_success '--cpu that lacks what the ELF was built for is an error naming both' '
	test_expect_code 125 "$RAPTOR" run m4.elf --cpu m3 2>err &&
	echo "raptor: error: --cpu m3: m4.elf was built for Cortex-M4 (v7E-M), and a Cortex-M3 cannot run all of it: it has no DSP extension (--cpu m4 runs it; --force-cpu m3 runs it on a Cortex-M3 anyway)" >expect &&
	test_cmp expect err &&
	test_expect_code 125 "$RAPTOR" run m4f.elf --cpu m4 2>err &&
	grep "error: --cpu m4: m4f.elf was built for Cortex-M4F (v7E-M, FPv4-SP), and a Cortex-M4 cannot run all of it: it has no FPU (--cpu m4f runs it; --force-cpu m4 runs it on a Cortex-M4 anyway)" err &&
	test_expect_code 125 "$RAPTOR" run m7.elf --cpu m4 2>err &&
	grep "error: --cpu m4: m7.elf was built for Cortex-M7 (v7E-M, FPv5-D16)" err &&
	test_expect_code 125 "$RAPTOR" record m4.elf --cpu m3 -o rec.m3 2>err &&
	grep "error: --cpu m3: m4.elf was built for Cortex-M4" err &&
	! test -e rec.m3
'

test_expect_success '--force-cpu runs it anyway, with a warning' '
	test_expect_code 35 "$RAPTOR" run m4.elf --force-cpu m3 --stats 2>err &&
	grep "^raptor: warning: m4.elf: built for Cortex-M4 (v7E-M); running it on a Cortex-M3 as --force-cpu says, though it has no DSP extension (those instructions fault)\$" err &&
	grep "^board: 1 core, Cortex-M3 (m3; --force-cpu)\$" err &&
	test_expect_code 36 "$RAPTOR" run m4f.elf --force-cpu m4 2>err &&
	grep "m4f.elf: built for Cortex-M4F (v7E-M, FPv4-SP); running it on a Cortex-M4 as --force-cpu says, though it has no FPU" err
'

test_expect_success 'a damaged attributes section: a warning, and the default' '
	cp m4.elf bad.elf &&
	off=$(arm-none-eabi-readelf -S bad.elf | sed -n "s/.*\.ARM\.attributes *ARM_ATTRIBUTES *[0-9a-f]* \([0-9a-f]*\).*/\1/p") &&
	test -n "$off" &&
	printf B | dd of=bad.elf bs=1 seek=$((0x$off)) conv=notrunc 2>/dev/null &&
	test_expect_code 35 "$RAPTOR" run bad.elf 2>err &&
	grep "warning: bad.elf: .ARM.attributes byte 0: format version 0x42, not .A. (the core model is not taken from them)" err
'

test_expect_success 'the default is 1 core, as QEMU mps2 boards; --help says so' '
	"$RAPTOR" run "$GUEST/racy-m3-O2.elf" --stats >out 2>err &&
	grep "^board: 1 core, " err &&
	test $(grep -c "^core [0-9]*:" err) = 1 &&
	"$RAPTOR" run --help >help &&
	grep -- "--cores N          number of cores, 1..8 (default 1" help &&
	grep -- "--force-cpu" help &&
	"$RAPTOR" record --help >help &&
	grep -- "--cores N            number of cores, 1..8 (default 1)" help &&
	grep -- "--force-cpu" help
'

test_expect_success 'record without --cpu or --cores: the manifest says m4 and 1 core' '
	test_expect_code 36 "$RAPTOR" record m4.elf --truth -o rec4 2>err &&
	test "$(ini rec4/manifest.ini program model)" = m4 &&
	test "$(ini rec4/manifest.ini board cores)" = 1 &&
	"$RAPTOR" record "$GUEST/crc32-m4-O2.elf" --truth -o crc4 -q >/dev/null &&
	test "$(ini crc4/manifest.ini program model)" = m4 &&
	"$RAPTOR" record "$GUEST/crc32-m3-O2.elf" -o crc3 -q >/dev/null &&
	test "$(ini crc3/manifest.ini program model)" = m3
'

test_expect_success 'replay takes the model from the manifest, with no flag' '
	"$RAPTOR" replay rec4 --verify 2>err &&
	grep "the program exited with status 36" err &&
	grep " 0 differences" err &&
	"$RAPTOR" replay crc4 --verify 2>err &&
	grep " 0 differences" err
'

test_expect_success 'the same recording said to be m3 replays as m3, and CPUID gives it away' '
	cp -r rec4 rec4as3 &&
	sed "s/^model = m4\$/model = m3/" rec4/manifest.ini >rec4as3/manifest.ini &&
	test "$(ini rec4as3/manifest.ini program model)" = m3 &&
	test_must_fail "$RAPTOR" replay rec4as3 2>err &&
	grep "rec4as3/lv.bin: core 0, .*register at 0xe000ed00 reads 0x410fc231 in the replay, the stream says 0x410fc240" err
'

test_done
