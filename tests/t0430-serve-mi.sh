#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor serve: an IDE'\''s GDB/MI session (gdb-multiarch --interpreter=mi3), checked against the ground truth'

test_require "$RAPTOR" "$BUILD/truthq" gdb-multiarch python3 timeout

export TRUTHQ="$BUILD/truthq"
MI_REC=lost-update

. "$SRC/tests/gdbserve.sh"

test_expect_success 'setup: the lost-update demo recording (4 cores, with its truth), served' '
	cp -R "$SRC/traces/lost-update" lost-update &&
	serve lost lost-update --debug
'

# threads, frames, registers against target.xml, break, watch, every -exec-*
# both ways, memory, and both ends of the recording (tests/mi/session.py)
test_expect_success 'extended-remote, mi-async on (as cortex-debug and CDT connect)' '
	mi_session ext --target extended-remote --mi-async
'

test_expect_success 'target remote, synchronous MI' '
	mi_session plain --target remote
'

# Each session reaches the beginning by a continue of thread 3 backward,
# then steps threads 2, 4, 1 and continues 3 there; it reaches the end by a
# continue of thread 2, then steps 1, 3, 4, finishes 2 (a continue) and
# continues 4 there: every stop says replaylog and names the thread resumed.
test_expect_success 'the stop replies at both ends: replaylog:begin / :end, for the thread resumed' '
	for t in 3 2 4 1 3; do echo "T05thread:$t;replaylog:begin;"; done >expect.one &&
	for t in 2 1 3 4 2 4; do echo "T05thread:$t;replaylog:end;"; done >>expect.one &&
	cat expect.one expect.one >expect &&
	sed -n "s/^rsp: -> \(T05thread:[0-9a-f]*;replaylog:.*\)$/\1/p" bg-lost.log >actual &&
	test_cmp expect actual
'

test_expect_success 'the server survived both sessions' '
	kill -0 $(test_bg_pid lost)
'

test_done
