#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'the libFuzzer targets (tests/fuzz/): built with clang, each run briefly from its seeds'

# `make fuzz` runs them for FUZZ_TIME (60 s) each and keeps its corpus; here
# each runs T0700_FUZZ_TIME seconds (default 8) with a fixed libFuzzer seed,
# from the committed seeds and the ones made from fresh base recordings, all
# in the scratch directory. A crash, a leak, a timeout (20 s for one input)
# or a failed oracle is a failure; the crashing input is then in
# fuzz/crashes/ of the kept scratch directory. docs/HARDENING.md has the
# long campaign's numbers.

test_require "$RAPTOR" clang make "$GUEST/racy-m3-O2.elf" "$BUILD/isatest/tbb.elf"

FUZZ_BUILD=${FUZZ_BUILD:-$BUILD-fuzz}
case $FUZZ_BUILD in
/*) ;;
*) FUZZ_BUILD=$SRC/$FUZZ_BUILD ;;
esac
time=${T0700_FUZZ_TIME:-8}
exec 3>&1 # the numbers: TAP comments on the script's output, whatever the test's log

test_expect_success 'make fuzz-build: every target links (clang, ASan, UBSan, libFuzzer)' '
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$SRC" --no-print-directory \
		FUZZ_BUILD="$FUZZ_BUILD" fuzz-build >build.log 2>&1 ||
		{ tail -30 build.log; false; } &&
	for t in cf lv manifest elf rsp; do
		test -x "$FUZZ_BUILD/fuzz/fuzz_$t" || return 1
	done
'

# fuzz NAME: run.sh on one target; its summary as a TAP comment.
fuzz() {
	FUZZ_TIME=$time FUZZ_OUT=$TRASH/fuzz FUZZ_ARGS=-seed=700 \
		"$SRC/tests/fuzz/run.sh" "$BUILD" "$FUZZ_BUILD" "$1" >"sum.$1" 2>&1
	rc=$?
	sed "s/^/# /" "sum.$1" >&3
	[ $rc = 0 ] || { tail -60 "$TRASH/fuzz/log/$1.log"; return 1; }
	grep -q "^$1: [0-9][0-9]* executions" "sum.$1"
}

for t in cf lv manifest elf rsp; do
	case $t in
	cf) what="cf.bin through the replay (TR_e, TR_b, NX_b; full and control-flow only)" ;;
	lv) what="lv.bin through the replay (CFiat, mc2RT, NX-LV)" ;;
	manifest) what="manifest.ini: read, and written back when accepted" ;;
	elf) what="program.elf: the checks and the load agree" ;;
	rsp) what="RSP framing and dispatch against a fake target" ;;
	esac
	test_expect_success "fuzz_$t, $time s: $what" "fuzz $t"
done

test_done
