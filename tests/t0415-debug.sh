#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor debug (serve + gdb-multiarch in one command) and the view following monitor goto/reset'

test_require "$RAPTOR" "$BUILD/truthq" gdb-multiarch timeout

ELF=$GUEST/racy-m3-O0.elf
export TRUTHQ="$BUILD/truthq"

. "$SRC/tests/gdbserve.sh"

# core0_pc REC POSITION: core 0's pc at POSITION in the truth, as GDB prints it
core0_pc() {
	"$TRUTHQ" "$1" at "$2" | awk '$2 == 0 { print $18 }' | { read v && printf "0x%x\n" "0x$v"; }
}

test_expect_success 'setup: a 4-core racy recording with its truth' '
	"$RAPTOR" record "$ELF" --cores 4 --truth -o racy -q >/dev/null &&
	end=$("$TRUTHQ" racy end) &&
	test "$end" -gt 1000
'

test_expect_success 'debug --help; listed by raptor --help' '
	"$RAPTOR" debug --help >help &&
	grep -- "-- GDB-ARGS" help && grep -- "--at WHERE" help && grep -- "--gdb PROG" help &&
	"$RAPTOR" --help | grep "^  debug "
'

test_expect_success 'bad usage: no recording, two recordings' '
	test_expect_code 2 "$RAPTOR" debug 2>err &&
	grep "exactly one recording" err &&
	test_expect_code 2 "$RAPTOR" debug racy racy 2>err &&
	grep "after .--." err
'

test_expect_success 'no gdb-multiarch: the apt-get command to install it' '
	mkdir empty &&
	PATH=$(pwd)/empty test_expect_code 1 "$RAPTOR" debug racy 2>err &&
	cat err &&
	grep "apt-get install -y gdb-multiarch" err
'

test_expect_success 'a recording that cannot be opened: the error, no GDB' '
	test_must_fail "$RAPTOR" debug nowhere -- -batch -ex "info threads" >out 2>err &&
	cat err && grep "nowhere" err && ! grep "Thread" out
'

test_expect_success 'the server fails to start: its log is shown' '
	test_must_fail "$RAPTOR" debug racy --at nowhere -- -batch >out 2>err &&
	cat err &&
	grep "the server did not start" err && grep -- "--at: .nowhere." err
'

test_expect_success 'raptor debug --at P -- -batch ...: threads, registers, reverse-stepi, goto, against the truth' '
	p=$((end / 2)) && q=$((end / 4)) &&
	timeout 300 "$RAPTOR" debug racy --at $p --log serve.log -- -nx -batch \
		-ex "info threads" -ex "printf \"pc1 0x%x\\n\", \$pc" \
		-ex "help raptor where" \
		-ex "reverse-stepi" -ex "monitor time" -ex "printf \"pc2 0x%x\\n\", \$pc" \
		-ex "monitor goto $q" -ex "printf \"pc3 0x%x\\n\", \$pc" >out 2>&1 &&
	cat out &&
	for t in 1 2 3 4; do grep "Thread $t \"core$((t - 1))\"" out || return 1; done &&
	test "$(sed -n "s/^pc1 //p" out)" = "$(core0_pc racy $p)" &&
	grep "raptor where: the position" out &&
	r=$(sed -n "s/^position \([0-9]*\).*/\1/p" out) &&
	test "$r" -lt $p &&
	test "$(sed -n "s/^pc2 //p" out)" = "$(core0_pc racy $r)" &&
	test "$(sed -n "s/^pc3 //p" out)" = "$(core0_pc racy $q)" &&
	grep "listening on 127.0.0.1:" serve.log &&
	grep "raptor serve: stopped" serve.log &&
	! grep "listening" out
'

test_expect_success 'GDB exit status is passed on; the server stops with GDB' '
	test_expect_code 3 timeout 120 "$RAPTOR" debug racy --log serve2.log -- -nx -batch \
		-ex "quit 3" &&
	grep "raptor serve: stopped" serve2.log
'

test_expect_success 'installed (make install DESTDIR=... PREFIX=/usr): raptor.py found under share/raptor' '
	make -s -C "$SRC" BUILD="$BUILD" DESTDIR="$(pwd)/inst" PREFIX=/usr install >/dev/null &&
	test -f inst/usr/share/raptor/raptor.py &&
	timeout 120 inst/usr/bin/raptor debug racy -- -nx -batch -ex "help raptor goto" >out 2>&1 &&
	cat out && grep "^raptor goto POSITION" out &&
	RAPTOR_GDBSCRIPTS=$(pwd)/nowhere timeout 120 inst/usr/bin/raptor debug racy -- -nx \
		-batch -ex "info threads" >out 2>&1 &&
	cat out && grep "raptor.py not found" out && grep "Thread 4" out
'

test_expect_success 'plain GDB needs a flush after monitor goto; with raptor.py the view follows (goto, reset halt)' '
	serve racy racy &&
	gdb_script follow.py racy
'

test_done
