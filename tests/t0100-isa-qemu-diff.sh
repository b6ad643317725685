#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'the ISS matches QEMU instruction by instruction, Cortex-M3 (PC, r0-r15, xPSR)'

test_require qemu-system-arm "$BUILD/qemulog" "$BUILD/tracecmp" "$RAPTOR"

. "$SRC/tests/isa-diff-suite.sh"

qemu_diff_suite "m3" 40 2000000

test_done
