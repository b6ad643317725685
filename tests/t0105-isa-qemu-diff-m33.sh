#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'the ISS matches QEMU instruction by instruction, Cortex-M33 (ARMv8-M mainline) against mps2-an505 (PC, r0-r15, xPSR, s0-s31, FPSCR)'

# The workloads built for the M33 (soft float, guest/sdk/m33.ld: the an505's
# Secure map) at O2 and Os, but fpmath (4.2M instructions at each level)
# and fft at Os: 23 builds, 7.7M instructions, with the hard-float builds
# (FPv5-SP, *-m33f-O2: fft, printf) and the v8m-* corner programs
# (acquire/release and their exclusives, stack limits, the v8-M exception
# return) keep this test under two minutes on a busy machine. All 39
# soft-float builds of m33.list, O0 and fpmath too, were checked by hand
# (31.9M instructions, 0 mismatches).

test_require qemu-system-arm "$BUILD/qemulog" "$BUILD/tracecmp" "$RAPTOR"

. "$SRC/tests/isa-diff-suite.sh"

qemu_diff_suite "m33" 28 5000000 "$GUEST/m33.list" \
	"[!f]*-m33-O2.elf|fft-m33-O2.elf|[!f]*-m33-Os.elf|*-m33f-O2.elf"

test_done
