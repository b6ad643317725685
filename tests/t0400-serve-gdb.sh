#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor serve: the real gdb-multiarch, forward and reverse, checked against the ground truth'

test_require "$RAPTOR" "$BUILD/truthq" gdb-multiarch timeout

ELF=$GUEST/racy-m3-O0.elf
export TRUTHQ="$BUILD/truthq"

. "$SRC/tests/gdbserve.sh"

test_expect_success 'setup: a 4-core racy recording with its truth, served' '
	"$RAPTOR" record "$ELF" --cores 4 --truth -o racy -q >/dev/null &&
	serve racy racy
'

test_expect_success 'serve --help and the attach line' '
	"$RAPTOR" serve --help >help &&
	grep -- "--port N" help && grep -- "--at WHERE" help &&
	grep "target remote 127.0.0.1:$port" bg-racy.log
'

test_expect_success 'threads are cores; registers and memory at reset; writes refused' '
	gdb_script threads.py racy
'

test_expect_success 'breakpoints stop on every core in the recorded order, and back' '
	gdb_script breaks.py racy
'

test_expect_success 'reverse-continue on a watchpoint lands on the last stores, core by core' '
	gdb_script watch.py racy
'

test_expect_success 'stepi and reverse-stepi; next, finish and their reverses' '
	gdb_script steps.py racy
'

test_expect_success 'monitor goto: registers and memory at random positions; who-wrote' '
	gdb_script goto.py racy
'

test_expect_success 'the server survived every session' '
	kill -0 $(test_bg_pid racy)
'

test_expect_success 'a second GDB is refused while one is attached, which goes on' '
	REC=racy PYTHONPATH="$SRC/tests/gdb" timeout 120 gdb-multiarch -nx -q --batch \
		-ex "target remote 127.0.0.1:$port" \
		-ex "python import time; open(\"attached\", \"w\").close(); time.sleep(3)" \
		-ex "stepi" -ex "info threads" racy/program.elf >first.out 2>&1 &
	first=$! &&
	for i in $(seq 100); do [ -e attached ] && break; sleep 0.1; done &&
	timeout 60 gdb-multiarch -nx -q --batch -ex "target remote 127.0.0.1:$port" \
		racy/program.elf >second.out 2>&1
	wait $first &&
	cat second.out &&
	grep "another GDB is already attached" second.out &&
	grep "Thread 4 \"core3\"" first.out
'

test_expect_success 'thread T then reverse-stepi/-step/-next (and forward): thread T moves, any scheduler-locking' '
	cp -R "$SRC/traces/lost-update" lost-update &&
	serve lost lost-update &&
	gdb_script selected.py lost-update
'

test_expect_success 'control flow only: registers unavailable, breakpoints exact per core' '
	"$RAPTOR" record "$ELF" --cores 4 --lv-enc none --truth -o cfonly -q >/dev/null &&
	serve cfonly cfonly &&
	gdb_script cfonly.py cfonly
'

# One checkpoint only (--interval past the end): a reverse search replays
# the whole recording, long enough to be interrupted. (With checkpoints,
# the per-stretch summaries let it skip to the hit at once.)
test_expect_success 'setup: a long recording (20 million instructions), served' '
	"$RAPTOR" record "$GUEST/soak-m3-O2.elf" --cores 4 --max-insns 20000000 -o soak -q \
		>/dev/null 2>&1
	test $? = 125 && grep "state = partial" soak/manifest.ini &&
	serve soak soak --interval 1000000000
'

test_expect_success 'Ctrl-C interrupts a long continue, forward and backward' '
	gdb_script interrupt.py soak
'

test_done
