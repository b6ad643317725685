#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor serve without an index: built in the background while GDB is served, then taken over'

test_require "$RAPTOR" "$BUILD/truthq" gdb-multiarch timeout

export TRUTHQ="$BUILD/truthq"

. "$SRC/tests/gdbserve.sh"

# 10^7 instructions of the soak workload on 4 cores. Indexing them takes
# a second or two; the white-box switch RAPTOR_TEST_BGINDEX_HOLD holds the
# indexing thread between slices while the file it names exists, so GDB
# surely works while the index is built (bgindex.py removes the file when
# it is done with that part).
export RAPTOR_TEST_BGINDEX_HOLD="$TRASH/hold"
test_expect_success 'setup: a 4-core soak recording with its truth; the truth about fwd[]' '
	"$RAPTOR" record "$GUEST/soak-m3-O2.elf" --cores 4 --max-insns 10000000 --truth \
		-o soak -q >/dev/null 2>&1
	test $? = 125 && grep "state = partial" soak/manifest.ini &&
	fwd=$(gdb-multiarch -nx -q --batch -ex "printf \"%u\\n\", &fwd" soak/program.elf) &&
	"$TRUTHQ" soak stores $fwd 920 >fwd.stores &&
	"$TRUTHQ" soak end >end &&
	test -s fwd.stores && ! test -e soak/index.raptor
'

test_expect_success 'GDB is served at once while the index is built; then it takes over' '
	: >hold &&
	serve soak soak &&
	BG_HOLD=$TRASH/hold TRUTH_END=$(cat end) FWD_STORES=fwd.stores \
		gdb_script bgindex.py soak &&
	! test -e hold &&
	cat bg-soak.log &&
	grep "no valid index: building it in the background" bg-soak.log &&
	grep "index: wrote [0-9]* checkpoints to soak/index.raptor in the background" bg-soak.log &&
	! grep "cannot take over" bg-soak.log
'

test_expect_success 'the index written in the background is valid and up to date' '
	test -s soak/index.raptor &&
	"$RAPTOR" index soak >index.out 2>&1 &&
	cat index.out &&
	grep "up to date" index.out &&
	"$RAPTOR" replay soak --random 20 2>replay.err &&
	grep "loaded [0-9]* checkpoints from soak/index.raptor" replay.err
'

test_expect_success 'SIGINT while indexing stops the server at once, and writes no index' '
	test_bg_kill soak &&
	cp soak/index.raptor index.before &&
	: >hold &&
	serve again soak --interval 50000 &&
	grep "building it in the background" bg-again.log &&
	kill -INT $(test_bg_pid again) &&
	t0=$(date +%s) &&
	wait $(test_bg_pid again) &&
	test $(($(date +%s) - t0)) -le 5 &&
	grep "raptor serve: stopped" bg-again.log &&
	! grep "index: wrote" bg-again.log &&
	cmp soak/index.raptor index.before
'

test_done
