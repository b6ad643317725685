#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'the ISS matches QEMU instruction by instruction, Cortex-M7 with FPv5-D16 double precision (mps2-an500: PC, r0-r15, xPSR, s0-s31 = d0-d15, FPSCR)'

test_require qemu-system-arm "$BUILD/qemulog" "$BUILD/tracecmp" "$RAPTOR"

. "$SRC/tests/isa-diff-suite.sh"

qemu_diff_suite "m7" 27 5000000

test_done
