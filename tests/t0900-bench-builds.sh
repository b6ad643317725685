#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'the benchmarks build their own programs: bench/bench.mk soak ELFs run'

# bench/scale.sh builds soak with a chosen ROUNDS through bench/bench.mk,
# outside the guest suite, so no other test links those ELFs: a change to
# the guest's link flags once left them without their linker script (an
# ELF whose first instruction faults, found only by `make bench-scale`).

test_require "$RAPTOR" arm-none-eabi-gcc make

test_expect_success 'soak, multicore and single-core builds, at 1 round' '
	make -s --no-print-directory -C "$SRC" -f Makefile -f bench/bench.mk BUILD="$TRASH/b" \
		"$TRASH/b/bench/soak/soak-r1-m3-O2.elf" "$TRASH/b/bench/soak/soak-r1-sc-m3-O2.elf" \
		>make.out 2>&1 || { cat make.out; false; }
'

test_expect_success 'the multicore build runs at 2 cores, the single-core one at 1' '
	"$RAPTOR" run "$TRASH/b/bench/soak/soak-r1-m3-O2.elf" --cores 2 >out 2>err &&
	grep -q "^soak ok: 2 cores, 1 rounds" out &&
	"$RAPTOR" run "$TRASH/b/bench/soak/soak-r1-sc-m3-O2.elf" --cores 1 >out 2>err &&
	grep -q "^soak ok: 1 cores, 1 rounds" out
'

test_done
