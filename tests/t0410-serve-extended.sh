#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor serve: target extended-remote (as IDEs connect): run, kill, attach 1, detach, disconnect'

test_require "$RAPTOR" "$BUILD/truthq" gdb-multiarch timeout

export TRUTHQ="$BUILD/truthq"

. "$SRC/tests/gdbserve.sh"

test_expect_success 'setup: the lost-update demo recording (4 cores, with its truth), served' '
	cp -R "$SRC/traces/lost-update" lost-update &&
	serve lost lost-update --debug
'

test_expect_success 'run from the beginning, kill, attach 1, detach, disconnect and reconnect' '
	PORT=$port GDB_TARGET=extended-remote gdb_script extended.py lost-update
'

test_expect_success 'the packets (the server log): !, vKill kept the connection, vRun, vAttach;1, D' '
	grep -A1 "^rsp: <- !\$" bg-lost.log | grep "^rsp: -> OK\$" &&
	grep -A1 "^rsp: <- vKill;a410\$" bg-lost.log | grep "^rsp: -> OK\$" &&
	grep -A1 "^rsp: <- vRun;\$" bg-lost.log | grep "^rsp: -> T05thread:1;\$" &&
	grep -A1 "^rsp: <- vAttach;1\$" bg-lost.log | grep "^rsp: -> T05thread:1;\$" &&
	grep -A1 "^rsp: <- D\$" bg-lost.log | grep "^rsp: -> OK\$" &&
	test $(grep -c "gdbserver: GDB connected" bg-lost.log) = 2
'

test_expect_success 'target remote after an extended session: attached, kill ends the session' '
	timeout 120 gdb-multiarch -nx -q --batch -ex "set confirm off" \
		-ex "target remote 127.0.0.1:$port" -ex "info threads" -ex "kill" \
		-ex "target remote 127.0.0.1:$port" -ex "info threads" \
		lost-update/program.elf >plain.out 2>&1 &&
	test $(grep -c "Thread 4 \"core3\"" plain.out) = 2 &&
	kill -0 $(test_bg_pid lost)
'

test_done
