#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'memory the whole recording determines: a byte first seen by a later load is known from the start, from the index too; nothing else is made up'

test_require "$RAPTOR" gdb-multiarch timeout

I=$BUILD/isatest

. "$SRC/tests/gdbserve.sh"

# later ERR: the number of bytes --random found known from a later load only
later() {
	sed -n 's/^  memory at [0-9]* of them: [0-9]* bytes the recording determines (\([0-9]*\) of them from a later load), all readable and equal to the truth .*/\1/p' "$1"
}

test_expect_success 'setup: mem-first-load (loads before stores, a stack read before a push) recorded' '
	"$RAPTOR" record "$I/mem-first-load.elf" --truth -o mfl -q &&
	"$RAPTOR" replay mfl --verify -q
'

test_expect_success 'every byte the recording determines reads as the truth at random positions, those seen first by a load too' '
	"$RAPTOR" replay mfl --random 20 --no-index 2>err &&
	sed "s/^/# /" err &&
	n=$(later err) &&
	test "$n" -ge 64
'

test_expect_success 'the initial image is in the index: the same bytes known when it is loaded' '
	"$RAPTOR" index mfl 2>idx.err &&
	test -s mfl/index.raptor &&
	"$RAPTOR" replay mfl --random 20 2>err2 &&
	grep "index: loaded" err2 &&
	test "$(later err2)" = "$(later err)"
'

test_expect_success 'multicore recordings: the memory check holds for every demo' '
	for d in lost-update publish; do
		cp -R "$SRC/traces/$d" $d &&
		"$RAPTOR" replay $d --random 40 --no-index 2>err.$d &&
		sed "s/^/# $d: /" err.$d &&
		test -n "$(later err.$d)" || return 1
	done
'

test_expect_success 'GDB at the beginning: bytes first loaded later read as the board started them; the rest is unknown' '
	serve mfl mfl &&
	timeout 120 gdb-multiarch -nx -q --batch -ex "set confirm off" \
		-ex "target remote 127.0.0.1:$port" \
		-ex "monitor goto begin" -ex "maint flush register-cache" \
		-ex "x/8xw 0x20200000" -ex "x/4xw \$sp - 32" \
		-ex "echo @stored-first\\n" -ex "x/xw 0x20200020" -ex "x/xw \$sp - 8" \
		-ex "echo @never\\n" -ex "x/xw 0x20200040" \
		-ex "echo @end\\n" -ex "monitor goto end" -ex "maint flush register-cache" \
		-ex "x/xw 0x20200000" -ex "x/xw 0x20200020" -ex "x/xw 0x20200040" \
		mfl/program.elf >gdb.out 2>&1
	# (GDB exits with the status of the last command: an unreadable word, as wanted)
	sed "s/^/# /" gdb.out &&
	grep "^\[Inferior 1 (Remote target) detached\]" gdb.out &&
	# the 8 words loaded first and the 4 read below the initial SP: 0, as the board starts
	grep "^0x20200000:	0x00000000	0x00000000	0x00000000	0x00000000$" gdb.out &&
	grep "^0x20200010:	0x00000000	0x00000000	0x00000000	0x00000000$" gdb.out &&
	grep "^0x203fffe0:	0x00000000	0x00000000	0x00000000	0x00000000$" gdb.out &&
	sed -n "/^@stored-first/,/^@never/p" gdb.out >first.out &&
	grep "Cannot access memory at address 0x20200020" first.out &&
	grep "Cannot access memory at address 0x203ffff8" first.out &&
	sed -n "/^@never/,/^@end/p" gdb.out | grep "Cannot access memory at address 0x20200040" &&
	sed -n "/^@end/,\$p" gdb.out >end.out &&
	grep "^0x20200000:	0x11223344$" end.out &&
	grep "^0x20200020:	0xcafef00d$" end.out &&
	grep "Cannot access memory at address 0x20200040" end.out
'

test_done
