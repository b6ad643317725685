#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'the ISS matches QEMU instruction by instruction, Cortex-M0+ (ARMv6-M) against the microbit Cortex-M0 (PC, r0-r15, xPSR): the v6m-* corner programs and the workloads of m0plus.list'

test_require qemu-system-arm "$BUILD/qemulog" "$BUILD/tracecmp" "$RAPTOR"

. "$SRC/tests/isa-diff-suite.sh"

# 3 corner programs and the 9 O2 workload builds of m0plus.list
# (m0plus.ld's microbit map): 14M instructions, fpmath-m0plus-O2 (soft
# float) 9M of them. The O0 and Os builds (14.6M more, identical to QEMU
# when this was written) are left to the hand: they would double the time.
qemu_diff_suite "m0plus" 12 13000000 "$GUEST/m0plus.list" "*-O2.elf"

test_done
