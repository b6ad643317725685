#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor serve: the real gdb-multiarch, forward and reverse, checked against the ground truth'

test_require "$RAPTOR" "$BUILD/truthq" gdb-multiarch timeout

ELF=$GUEST/racy-m3-O0.elf
export TRUTHQ="$BUILD/truthq"

# serve NAME REC [OPTIONS]: start `raptor serve` on a free port in the
# background; its port goes to $port.
serve() {
	serve_name=$1 serve_rec=$2
	shift 2
	rm -f port.$serve_name
	test_bg_start $serve_name "$RAPTOR" serve "$serve_rec" --port 0 \
		--port-file port.$serve_name "$@" &&
	for i in $(seq 100); do
		[ -s port.$serve_name ] && break
		sleep 0.1
	done &&
	port=$(cat port.$serve_name) &&
	test -n "$port"
}

# gdb_script SCRIPT REC: run tests/gdb/SCRIPT with gdb-multiarch against the
# server on $port; its verdict is the exit status. The remote protocol log
# and GDB's output are shown when it fails.
gdb_script() {
	REC=$2 PYTHONPATH="$SRC/tests/gdb" timeout 300 gdb-multiarch -nx -q --batch \
		-ex "set remotelogfile $1.rlog" \
		-ex "set pagination off" -ex "set confirm off" \
		-ex "target remote 127.0.0.1:$port" \
		-x "$SRC/tests/gdb/$1" "$2/program.elf" >$1.out 2>&1
	rc=$?
	sed -n "s/^# /# $1: /p" $1.out
	# EXPECT A|B...: lines GDB printed itself, consecutively (stop reports)
	sed -n "s/^EXPECT //p" $1.out >$1.expect
	missing=
	[ -s $1.expect ] && missing=$(awk -F"|" "NR == FNR { want[NR] = \$0; n = NR; next }
		{ line[++m] = \$0 }
		END {
			for (i = 1; i <= n; i++) {
				k = split(want[i], w, \"|\"); found = 0
				for (j = 1; j + k - 1 <= m && !found; j++) {
					ok = 1
					for (t = 1; t <= k; t++) if (line[j + t - 1] != w[t]) ok = 0
					found = ok
				}
				if (!found) print want[i]
			}
		}" $1.expect $1.out)
	if [ -n "$missing" ]; then
		echo "$1: GDB did not print: $missing"
		rc=1
	fi
	if [ $rc != 0 ] || ! grep -q "^PASS" $1.out; then
		echo "$1: exit $rc"
		cat $1.out
		echo "--- the last packets:"
		tail -c 3000 $1.rlog
		return 1
	fi
}

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
