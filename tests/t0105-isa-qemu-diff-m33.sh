#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'the ISS matches QEMU instruction by instruction, Cortex-M33 (ARMv8-M mainline) against mps2-an505 (PC, r0-r15, xPSR, s0-s31, FPSCR)'

# The workloads built for the M33 (soft float, guest/sdk/m33.ld: the an505's
# Secure map) at O2 and Os, ~8M instructions, keep this test near two
# minutes; the O0 builds (m33.list has them too, ~10M more) were checked by
# hand, 0 mismatches. The v8m-* corner programs (acquire/release and their
# exclusives, stack limits) come with them.

test_require qemu-system-arm "$BUILD/qemulog" "$BUILD/tracecmp" "$RAPTOR"

. "$SRC/tests/isa-diff-suite.sh"

qemu_diff_suite "m33" 26 5000000 "$GUEST/m33.list" "*-m33-O2.elf|*-m33-Os.elf"

test_done
