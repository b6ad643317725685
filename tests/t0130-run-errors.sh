#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor run: help, bad arguments and bad programs give clear errors'

test_require "$RAPTOR" arm-none-eabi-gcc

test_expect_success 'raptor --help and raptor run --help' '
	"$RAPTOR" --help >out && grep -q "^  run " out &&
	"$RAPTOR" run --help >out && grep -q -- "--trace-regs FILE" out
'

test_expect_success 'unknown command and bad options' '
	test_must_fail "$RAPTOR" frobnicate 2>err && grep -q "not a raptor command" err &&
	test_must_fail "$RAPTOR" run 2>err && grep -q "usage: raptor run" err &&
	test_must_fail "$RAPTOR" run x.elf --cores 9 2>err && grep -q -- "--cores: .9. is not a number from 1 to 8" err &&
	test_must_fail "$RAPTOR" run x.elf --cpu m9 2>err && grep -q "unknown core .m9. (one of m3, m4, m4f" err
'

test_expect_success 'a missing file and a file that is not an ARM ELF' '
	test_must_fail "$RAPTOR" run nosuch.elf 2>err && grep -q "nosuch.elf: cannot open" err &&
	echo hello >text.elf &&
	test_must_fail "$RAPTOR" run text.elf 2>err && grep -q "text.elf: not an ELF file" err &&
	test_must_fail "$RAPTOR" run "$RAPTOR" 2>err && grep -q "not a 32-bit little-endian ARM ELF" err
'

# asm BODY: a bare program whose reset handler is BODY.
asm() {
	printf "%s\n" ".syntax unified" ".thumb" ".section .vectors,\"a\"" \
		".word 0x20400000" ".word reset + 1" ".text" ".thumb_func" "reset:" "$@" >p.S &&
	arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -nostdlib -T "$SRC/tests/isa/isa.ld" p.S -o p.elf
}

test_expect_success 'an unimplemented instruction names core, pc, count, encoding, mnemonic' '
	asm "nop" "mcr p15, 0, r0, c1, c0, 0" &&
	test_must_fail "$RAPTOR" run p.elf --cores 1 2>err &&
	grep -q "core 0: unimplemented instruction at pc 0x0000000a after 1 instructions: encoding 0xee010f10 (mcr" err
'

test_expect_success 'an unsupported semihosting call is an error' '
	asm "movs r0, #0x16" "bkpt 0xab" &&
	test_must_fail "$RAPTOR" run p.elf --cores 1 2>err &&
	grep -q "semihosting: core 0, pc 0x0000000a: unsupported operation 0x16" err
'

test_expect_success 'every core asleep with nothing to wake it is a deadlock' '
	asm "wfi" "b reset" &&
	test_must_fail "$RAPTOR" run p.elf --cores 2 2>err &&
	grep -q "deadlock: every core is asleep" err
'

test_expect_success 'the instruction limit stops a runaway program' '
	asm "b reset" &&
	test_must_fail "$RAPTOR" run p.elf --cores 3 --max-insns 1000 2>err &&
	grep -q "instruction limit of 1000 reached" err
'

test_expect_success 'a fault in HardFault locks the core up' '
	asm "ldr r0, =0x60000000" "ldr r0, [r0]" &&
	test_must_fail "$RAPTOR" run p.elf --cores 1 2>err &&
	grep -q "lockup" err
'

test_expect_success 'exit status: SYS_EXIT_EXTENDED passes the guest status through' '
	asm "ldr r1, =blk" "movs r0, #0x20" "bkpt 0xab" ".align 2" "blk: .word 0x20026, 42" &&
	{ "$RAPTOR" run p.elf --cores 1; rc=$?; } && test $rc = 42
'

test_expect_success 'UART output reaches stdout once TX is enabled' '
	asm "ldr r0, =0x40004000" "movs r1, #1" "str r1, [r0, #8]" "movs r1, #0x4f" "str r1, [r0]" \
	    "movs r1, #0x4b" "str r1, [r0]" "movs r0, #0x18" "ldr r1, =0x20026" "bkpt 0xab" &&
	"$RAPTOR" run p.elf --cores 1 >out &&
	printf OK >expect && test_cmp expect out
'

test_done
