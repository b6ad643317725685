#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'valgrind memcheck: record, replay --verify, and serve with a GDB session, clean'

# The normal (uninstrumented) build under valgrind: any invalid read or
# write, use of uninitialised memory, bad free, or definitely lost block
# at exit fails the test (--error-exitcode). `make asan` covers the same
# ground with the whole suite; this catches what ASan does not see
# (uninitialised reads) and checks the binary that ships.

test_require "$RAPTOR" valgrind gdb-multiarch timeout "$GUEST/racy-m3-O2.elf" \
	"$BUILD/isatest/strex-mc.elf"

exec 3>&1 # the numbers: TAP comments on the script's output

VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"

# Valgrind cannot run a sanitized binary (`make asan`): then a plain build
# of its own, in $BUILD-valgrind, built once.
if grep -q __asan_init "$RAPTOR"; then
	test_expect_success 'an uninstrumented raptor for valgrind ($BUILD is sanitized)' '
		env -u ASAN_OPTIONS -u UBSAN_OPTIONS -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
			make -C "$SRC" --no-print-directory \
			BUILD="$BUILD-valgrind" SANITIZE= OPT=-O2 all >make.log 2>&1 ||
			{ tail -20 make.log; false; }
	'
	RAPTOR=$BUILD-valgrind/raptor
fi

# vg NAME CMD...: CMD under valgrind, its report in NAME.vg; say what it cost.
vg() {
	vg_name=$1
	shift
	vg_start=$(date +%s)
	$VG --log-file="$vg_name.vg" "$@"
	vg_rc=$?
	cat "$vg_name.vg"
	echo "# $vg_name: exit $vg_rc under valgrind, $(grep -c "^==[0-9]*== [A-Z]" "$vg_name.vg")" \
		"report lines, $(($(date +%s) - vg_start)) s" >&3
	return $vg_rc
}

test_expect_success 'raptor record (a 2-core program, every encoding, the truth)' '
	vg record "$RAPTOR" record "$BUILD/isatest/strex-mc.elf" --cores 2 --truth \
		--all-encodings -o strex -q >/dev/null &&
	test ! -s record.vg
'

test_expect_success 'raptor record the fast way, and raptor stat replaying it for the others' '
	vg recfast "$RAPTOR" record "$BUILD/isatest/strex-mc.elf" --cores 2 -o fast -q \
		>/dev/null &&
	test ! -s recfast.vg &&
	vg stat "$RAPTOR" stat fast --json >stat.json &&
	grep "\"other_encodings\": \"replayed\"" stat.json &&
	test ! -s stat.vg
'

test_expect_success 'raptor replay --verify (racy, 2 cores, 51k instructions)' '
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 2 --truth -o racy -q >/dev/null &&
	vg replay "$RAPTOR" replay racy --verify 2>replay.err &&
	grep "instructions verified against the ground truth, 0 differences" replay.err &&
	test ! -s replay.vg
'

test_expect_success 'raptor serve, a GDB session (threads, steps both ways, breaks, a watchpoint)' '
	rm -f port &&
	test_bg_start serve $VG --log-file=serve.vg "$RAPTOR" serve racy --port 0 --port-file port &&
	for i in $(seq 300); do
		[ -s port ] && break
		sleep 0.1
	done &&
	test -s port &&
	cat >session.py <<-\EOF &&
	import gdb
	def run(c):
	    return gdb.execute(c, to_string=True)
	threads = [l for l in run("info threads").splitlines() if "Thread " in l]
	pc0 = int(gdb.parse_and_eval("$pc"))
	run("stepi")
	run("reverse-stepi")
	if int(gdb.parse_and_eval("$pc")) != pc0:
	    raise gdb.GdbError("stepi and back: not at 0x%x" % pc0)
	run("break racy_increment")
	run("continue")
	run("continue")
	run("thread 2")
	run("stepi")
	run("watch counter")
	run("continue")
	run("reverse-continue")
	run("delete")
	run("monitor info")
	run("monitor mdw 0x20000000 4")
	run("x/4xw 0x20000000")
	run("continue")
	print("PASS %d threads, stepi/reverse-stepi, breaks, a watchpoint both ways, monitor"
	      % len(threads))
	EOF
	timeout 600 gdb-multiarch -nx -q --batch -ex "set pagination off" \
		-ex "target remote 127.0.0.1:$(cat port)" -x session.py racy/program.elf \
		>gdb.out 2>&1 &&
	cat gdb.out &&
	grep "^PASS" gdb.out &&
	pid=$(test_bg_pid serve) &&
	kill -TERM $pid &&
	{ wait $pid; rc=$?; test_bg_pid_serve=; } &&
	cat serve.vg &&
	echo "# serve: exit $rc under valgrind after the session and SIGTERM," \
		"$(grep -c "^==[0-9]*== [A-Z]" serve.vg) report lines" >&3 &&
	test $rc = 0 &&
	test ! -s serve.vg
'

test_done
