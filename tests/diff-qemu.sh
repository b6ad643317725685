#!/bin/bash
# diff-qemu.sh: run an ELF on QEMU and on raptor at once and compare their
# instruction traces as they stream, through FIFOs, with tracecmp.
#
# Usage: tests/diff-qemu.sh ELF [CPU]
#   CPU  m3, m4, m4f, m7, m0plus or m33, as tests/qemu-trace.sh takes it (default
#        from the name).
#
# Prints tracecmp's report, whose last line is
#   N instructions compared, M mismatches
# and exits 0 only if both traces are equal, non-empty, and both sides
# exited with the same status (the guest's semihosting exit code).
#
# Environment:
#   BUILD             build directory (default build): qemulog, tracecmp, raptor
#   RAPTOR            raptor binary (default $BUILD/raptor)
#   RAPTOR_TRACE_CMD  the command for the side under test, a bash command line
#                     run with ELF, OUT, CPU, RAPTOR and BUILD in its
#                     environment; it must write the trace to the FIFO $OUT and
#                     exit with the guest's exit code. Default:
#                       "$RAPTOR" run "$ELF" --cores 1 --cpu "$CPU" --trace-regs "$OUT"
#                     QEMU against itself, to test this script:
#                       RAPTOR_TRACE_CMD='tests/qemu-trace.sh "$ELF" "$OUT" "$CPU"'
#   RAPTOR_TIMEOUT    seconds the side under test may run (default 600)
#   QEMU_TIMEOUT      seconds QEMU may run (default 600)
#   TRACECMP_ARGS     extra tracecmp options, e.g. "--max-mismatches 20"
set -u

[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 ELF [m3|m4|m4f|m7|m0plus|m33]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
export ELF=$1
export CPU=${2:-}
if [ -z "$CPU" ]; then
	case ${ELF##*/} in
	*-m7-*|fp64-*) CPU='m7' ;;
	*-m4f-*|fp-*) CPU='m4f' ;;
	*-m4-*) CPU='m4' ;;
	*-m0plus-*|v6m-*) CPU='m0plus' ;;
	*-m33-*|*-m33f-*|v8m-*) CPU='m33' ;;
	*) CPU='m3' ;;
	esac
fi
export BUILD=${BUILD:-build}
export RAPTOR=${RAPTOR:-$BUILD/raptor}
cmd=${RAPTOR_TRACE_CMD:-'"$RAPTOR" run "$ELF" --cores 1 --cpu "$CPU" --trace-regs "$OUT"'}
tracecmp=$BUILD/tracecmp
[ -x "$tracecmp" ] || { echo "diff-qemu: $tracecmp not built (make tools)" >&2; exit 2; }
[ -r "$ELF" ] || { echo "diff-qemu: cannot read ELF '$ELF'" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/diff-qemu.XXXXXX") || exit 2
mkfifo "$tmp/qemu" "$tmp/raptor" || exit 2
export OUT=$tmp/raptor

qemu_pid='' raptor_pid='' cmp_pid=''
cleanup() {
	# By PID: qemu-trace.sh's trap stops QEMU and qemulog; timeout(1)
	# passes the signal to the whole process group it made.
	for p in $qemu_pid $raptor_pid $cmp_pid; do
		kill "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap 'cleanup; exit 143' TERM
trap 'cleanup; exit 130' INT
trap cleanup EXIT

# Each side's job opens its FIFO itself first (fd 4, kept until the job
# ends), so tracecmp sees end-of-file even from a side that dies before
# opening it, instead of waiting in open() forever.
"$here/qemu-trace.sh" "$ELF" "$tmp/qemu" "$CPU" 4>"$tmp/qemu" \
	>"$tmp/qemu.out" 2>"$tmp/qemu.err" &
qemu_pid=$!
timeout "${RAPTOR_TIMEOUT:-600}" bash -c "$cmd" 4>"$tmp/raptor" \
	>"$tmp/raptor.out" 2>"$tmp/raptor.err" &
raptor_pid=$!
# shellcheck disable=SC2086 # TRACECMP_ARGS is a word list
"$tracecmp" ${TRACECMP_ARGS:-} "$tmp/qemu" "$tmp/raptor" >"$tmp/cmp.out" 2>&1 &
cmp_pid=$!

qemu_rc='' raptor_rc='' cmp_rc=''
while [ -n "$cmp_pid" ]; do
	done_pid=
	wait -n -p done_pid $qemu_pid $raptor_pid $cmp_pid
	rc=$?
	# a signal can interrupt the wait before any child ended: wait again
	[ -z "$done_pid" ] && [ $rc -gt 128 ] && continue
	case $done_pid in
	"$qemu_pid") qemu_rc=$rc qemu_pid= ;;
	"$raptor_pid") raptor_rc=$rc raptor_pid= ;;
	"$cmp_pid") cmp_rc=$rc cmp_pid= ;;
	*) echo "diff-qemu: wait failed ($rc)" >&2; exit 2 ;;
	esac
done
# After a mismatch nobody reads the traces any more: stop both sides.
if [ "$cmp_rc" != 0 ]; then
	for p in $qemu_pid $raptor_pid; do
		kill "$p" 2>/dev/null
	done
fi
if [ -n "$qemu_pid" ]; then
	wait "$qemu_pid"
	qemu_rc=$?
	qemu_pid=
fi
if [ -n "$raptor_pid" ]; then
	wait "$raptor_pid"
	raptor_rc=$?
	raptor_pid=
fi

cat "$tmp/cmp.out"
fail=0
[ "$cmp_rc" = 0 ] || fail=1
if [ "$cmp_rc" = 0 ] && grep -q '^0 instructions compared' "$tmp/cmp.out"; then
	echo "diff-qemu: $ELF: no instructions traced"
	fail=1
fi
# Exit codes only mean something when both sides ran to the end.
if [ "$cmp_rc" = 0 ] && [ "$qemu_rc" != "$raptor_rc" ]; then
	echo "diff-qemu: $ELF: exit codes differ: qemu $qemu_rc, raptor $raptor_rc"
	fail=1
fi
if [ "$fail" = 1 ]; then
	for side in qemu raptor; do
		if [ -s "$tmp/$side.err" ]; then
			echo "diff-qemu: $side stderr (last 10 lines):"
			tail -n 10 "$tmp/$side.err" | sed 's/^/  /'
		fi
	done
	echo "diff-qemu: $ELF: FAILED (qemu exit $qemu_rc, raptor exit $raptor_rc)"
fi
exit "$fail"
