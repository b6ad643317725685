#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'a program that rewrites its own code: replayed forward, and backward from checkpoints'

# The board lets a program store into ROM, where its code is (as QEMU's
# mps2 boards do). The ISS then drops the decoded instruction from its
# decode cache (isa_store -> isa_decoder_invalidate). smc.S runs an
# instruction, patches it in ROM, runs it again, four times, with long
# delays between so that replay checkpoints fall between the patches.
# Forward the replay must equal the truth; --random seeks backward too,
# restoring checkpoints, where the code must be the checkpoint's again.

test_require "$RAPTOR" arm-none-eabi-gcc

exec 3>&1 # the numbers: TAP comments on the script's output

test_expect_success 'setup: smc.S built, recorded with its truth, replayed and verified' '
	cat >smc.S <<-\EOF &&
	@ run an instruction, patch it in ROM, run it again; checkpoints between
	#include "common.inc"
		.text
		.thumb_func
	reset:
		movs	r6, #0
		movs	r7, #0
		ldr	r4, =patch
	.Louter:
		ldr	r3, =70000
	1:	subs	r3, #1
		bne	1b
		bl	patch
		add	r7, r7, r5
		ldrh	r0, [r4]
		adds	r0, #1
		strh	r0, [r4]
		bl	patch
		add	r7, r7, r5
		adds	r6, #1
		cmp	r6, #4
		bne	.Louter
		CHECK	r7, 24, 1
		EXIT_OK
		.align	2
	patch:
		movs	r5, #1
		bx	lr
		.ltorg
	EOF
	arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -nostdlib -I"$SRC/tests/isa" \
		-T "$SRC/tests/isa/isa.ld" smc.S "$SRC/tests/isa/defaults.S" -o smc.elf &&
	"$RAPTOR" record smc.elf --cores 1 --truth -o smc -q >/dev/null &&
	"$RAPTOR" replay smc --verify 2>verify.err &&
	grep "instructions verified against the ground truth, 0 differences" verify.err &&
	echo "# $(grep "instructions verified" verify.err | sed "s/^ *//")" >&3
'

# replay/replay.c restore_checkpoint() restores the memory picture but not
# the ISS's decode cache: after a checkpoint is restored, the instructions
# patched after it still run in their patched form (here: register 7 differs
# from the truth at a position reached backward). The fix: note stores into
# ROM in bus_write (r->code_written) and, on a restore after one, drop the
# decode cache for ROM (isa_decoder_invalidate(r->dec, 0, ROM size)); the
# same in `raptor serve` (reverse-stepi, reverse-continue over such code).
test_expect_success 'random positions, reached forward and backward, equal the truth' '
	"$RAPTOR" replay smc --random 30 2>random.err;
	rc=$?
	cat random.err
	echo "# random access: $(grep -E "random positions|error" random.err | head -1 | cut -c1-200)" >&3
	test $rc = 0
'

test_done
