#!/bin/sh
# path-verify.sh REC: `raptor replay REC --verify` of a recording whose
# path is all it traces (a trace port, or a control-flow-only stream) must
# end with 0 differences; prints "INSTRUCTIONS EXCEPTIONS" verified, or
# the replay's output and exits 1. The output is kept in REC.out.
# (Used by the trace-port tests as ./verify.)
"$RAPTOR" replay "$1" --verify >"$1.out" 2>&1 || { cat "$1.out"; exit 1; }
grep -q "exception entries verified against the ground truth, registers and memory not traced, 0 differences" "$1.out" || { cat "$1.out"; exit 1; }
sed -n "s/^  \([0-9]*\) instructions' PCs and \([0-9]*\) exception entries verified.*/\1 \2/p" "$1.out"
