#!/bin/bash
# qemu-trace.sh: run an ELF on QEMU, single-stepping, and write its trace in
# raptor's trace-regs format (one line per instruction, registers before it).
#
# Usage: tests/qemu-trace.sh ELF OUT [CPU]
#   CPU  m3 (mps2-an385), m4 or m4f (mps2-an386, a Cortex-M4 with FPv4-SP;
#        m4f, m7 and m33 also log s0-s31 and FPSCR; s0-s31 = d0-d15 on the
#        m7), m7 (mps2-an500, a Cortex-M7 with FPv5-D16, the same memory
#        map), m0plus (microbit: QEMU has no
#        M0+, its nRF51 is a Cortex-M0, the same ARMv6-M core but for CPUID;
#        256 KiB flash at 0, 16 KiB RAM at 0x20000000); default m7 if the
#        ELF's name matches *-m7-* or fp64-*, m4f if *-m4f-* or fp-*, m4 if
#        *-m4-*, m0plus if *-m0plus-* or v6m-*, m33 (mps2-an505, which boots
#        its Cortex-M33 in Secure state from 0x10000000: guest/sdk/m33.ld's
#        map) if *-m33-*, *-m33f-* or v8m-*, else m3.
#   OUT  a file or a FIFO; '-' for standard output.
# The log goes through a FIFO into $BUILD/qemulog, so it never touches disk.
# The guest's console/semihosting output goes to standard output (standard
# error if OUT is '-').
#
# Exit status: QEMU's, which is the guest's semihosting exit code; 124 if
# QEMU ran longer than QEMU_TIMEOUT; 125 if the log could not be converted
# (OUT is then incomplete) or on bad usage.
#
# Environment: BUILD (default build) holds qemulog; QEMU (default
# qemu-system-arm); QEMU_TIMEOUT (default 600, seconds, as timeout(1) takes it);
# QEMU_ARGS, more QEMU options, split at spaces (e.g. "-icount shift=4", which
# makes SysTick interrupts land at the same instruction on every run).
set -u

usage() {
	echo "usage: $0 ELF OUT [m3|m4|m4f|m7|m0plus|m33]" >&2
	exit 125
}
[ $# -ge 2 ] && [ $# -le 3 ] || usage
elf=$1 out=$2 cpu=${3:-}
if [ -z "$cpu" ]; then
	case ${elf##*/} in
	*-m7-*|fp64-*) cpu='m7' ;;
	*-m4f-*|fp-*) cpu='m4f' ;;
	*-m4-*) cpu='m4' ;;
	*-m0plus-*|v6m-*) cpu='m0plus' ;;
	*-m33-*|*-m33f-*|v8m-*) cpu='m33' ;;
	*) cpu='m3' ;;
	esac
fi
case $cpu in
m3) machine=mps2-an385 ;;
m4) machine=mps2-an386 ;;
m4f) machine=mps2-an386 ;;
m7) machine=mps2-an500 ;;
m0plus) machine=microbit ;;
m33) machine=mps2-an505 ;;
*) echo "qemu-trace: unknown CPU '$cpu' (m3, m4, m4f, m7, m0plus or m33)" >&2; exit 125 ;;
esac
# With an FPU, QEMU's -d fpu dump and qemulog --fpu add s0-s31 and FPSCR.
logitems=exec,cpu,nochain fpu=
if [ "$cpu" = m4f ] || [ "$cpu" = m7 ] || [ "$cpu" = m33 ]; then
	logitems=exec,cpu,fpu,nochain fpu=--fpu
fi
[ -r "$elf" ] || { echo "qemu-trace: cannot read ELF '$elf'" >&2; exit 125; }

build=${BUILD:-build}
qemulog=$build/qemulog
[ -x "$qemulog" ] || { echo "qemu-trace: $qemulog not built (make tools)" >&2; exit 125; }
qemu=${QEMU:-qemu-system-arm}
limit=${QEMU_TIMEOUT:-600}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/qemu-trace.XXXXXX") || exit 125
fifo=$tmp/log
qemu_pid='' conv_pid=''
cleanup() {
	# Kill by PID only what we started; timeout(1) passes the signal on to QEMU.
	[ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null
	[ -n "$conv_pid" ] && kill "$conv_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap 'cleanup; exit 143' TERM
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 129' HUP
trap cleanup EXIT
mkfifo "$fifo" || exit 125

if [ "$out" = - ]; then
	"$qemulog" $fpu "$fifo" &
	guest_out=2
else
	"$qemulog" $fpu -o "$out" "$fifo" &
	guest_out=1
fi
conv_pid=$!

# The QEMU job opens the FIFO itself first (fd 4, kept until QEMU is gone):
# qemulog then sees end-of-file even if QEMU never gets to open its log.
# shellcheck disable=SC2086 # QEMU_ARGS is a word list
timeout "$limit" "$qemu" -M "$machine" -nographic -semihosting -singlestep \
	-d "$logitems" -D "$fifo" ${QEMU_ARGS:-} -kernel "$elf" \
	4>"$fifo" </dev/null >&$guest_out &
qemu_pid=$!

# Whichever ends first: if qemulog fails (bad log, or OUT's reader went
# away), stop QEMU rather than let it run on with nobody reading its log.
wait -n -p done_pid "$qemu_pid" "$conv_pid"
rc=$?
if [ "$done_pid" = "$conv_pid" ]; then
	conv_rc=$rc conv_pid=
	[ "$conv_rc" != 0 ] && kill "$qemu_pid" 2>/dev/null
	wait "$qemu_pid"
	qemu_rc=$?
else
	qemu_rc=$rc
fi
qemu_pid=

if [ -n "$conv_pid" ]; then
	wait "$conv_pid"
	conv_rc=$?
	conv_pid=
fi

if [ "$qemu_rc" = 124 ]; then
	echo "qemu-trace: $elf: QEMU timed out after ${limit}s (QEMU_TIMEOUT)" >&2
	exit 124
fi
if [ "$conv_rc" != 0 ]; then
	echo "qemu-trace: $elf: converting QEMU's log failed (qemulog exit $conv_rc)" >&2
	exit 125
fi
exit "$qemu_rc"
