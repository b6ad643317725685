#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'the ISS matches QEMU instruction by instruction, Cortex-M0+ (ARMv6-M) against the microbit Cortex-M0 (PC, r0-r15, xPSR): the v6m-* corner programs and the workloads of m0plus.list'

test_require qemu-system-arm "$BUILD/qemulog" "$BUILD/tracecmp" "$RAPTOR"

. "$SRC/tests/isa-diff-suite.sh"

# 3 corner programs and 25 workload builds (m0plus.ld's microbit map),
# 28.6M instructions in all, fpmath-m0plus-O2 (soft float) a third of them.
qemu_diff_suite "m0plus" 28 25000000 "$GUEST/m0plus.list"

test_done
