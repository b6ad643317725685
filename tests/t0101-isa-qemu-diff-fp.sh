#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'the ISS matches QEMU instruction by instruction, hard float (Cortex-M4F: PC, r0-r15, xPSR, s0-s31, FPSCR)'

test_require qemu-system-arm "$BUILD/qemulog" "$BUILD/tracecmp" "$RAPTOR"

. "$SRC/tests/isa-diff-suite.sh"

qemu_diff_suite "m4f" 25 5000000

test_done
