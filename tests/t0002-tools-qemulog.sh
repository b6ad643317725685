#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'qemulog converts QEMU logs; qemu-trace.sh and diff-qemu.sh drive it'

test_require "$BUILD/qemulog" "$BUILD/tracecmp" qemu-system-arm arm-none-eabi-gcc \
	timeout mkfifo

data=$SRC/tests/data

test_expect_success 'the committed sample converts to the expected trace' '
	"$BUILD/qemulog" "$data/qemu-sample.log" >out &&
	test_cmp "$data/qemu-sample.trace" out
'

test_expect_success 'the sample holds every kind of line handled' '
	grep -q "^Stopped execution of TB chain before " "$data/qemu-sample.log" &&
	grep -q "^Taking exception 5 \[IRQ\]" "$data/qemu-sample.log" &&
	grep -q "^Taking exception 16 \[Semihosting call\]" "$data/qemu-sample.log" &&
	grep -q "^Exception return: " "$data/qemu-sample.log" &&
	grep -q "^s00=" "$data/qemu-sample.log" &&
	grep -q "^FPSCR: " "$data/qemu-sample.log"
'

test_expect_success 'one line per record, less those QEMU abandoned' '
	traces=$(grep -c "^Trace " "$data/qemu-sample.log") &&
	stopped=$(grep -c "^Stopped execution" "$data/qemu-sample.log") &&
	"$BUILD/qemulog" --count "$data/qemu-sample.log" >out &&
	echo $((traces - stopped)) >expect &&
	test_cmp expect out &&
	test $(wc -l <"$data/qemu-sample.trace") = $((traces - stopped))
'

test_expect_success 'every output line has 18 %08x fields' '
	! grep -v -E "^([0-9a-f]{8} ){17}[0-9a-f]{8}\$" "$data/qemu-sample.trace" &&
	! grep -v "^00000000 " "$data/qemu-sample.trace"
'

test_expect_success 'stdin, -o and a FIFO give the same' '
	"$BUILD/qemulog" <"$data/qemu-sample.log" >out1 &&
	"$BUILD/qemulog" -o out2 - <"$data/qemu-sample.log" &&
	mkfifo fifo &&
	{ cat "$data/qemu-sample.log" >fifo & } &&
	"$BUILD/qemulog" fifo >out3 &&
	wait &&
	test_cmp "$data/qemu-sample.trace" out1 &&
	test_cmp "$data/qemu-sample.trace" out2 &&
	test_cmp "$data/qemu-sample.trace" out3
'

test_expect_success 'a plain exec,cpu,nochain log (no int, no fpu lines) converts the same' '
	grep -v -E "^(s[0-9][0-9]=|FPSCR: |Taking |Exception return|\.\.\.|Loaded reset)" \
		"$data/qemu-sample.log" >plain.log &&
	"$BUILD/qemulog" plain.log >out &&
	test_cmp "$data/qemu-sample.trace" out
'

test_expect_success '-icount: a rewound block is withdrawn, its rerun kept' '
	{
		sed -n 1,6p plain.log &&
		echo "cpu_io_recompile: rewound execution of TB to 00000040" &&
		sed "1s|/ff000201\]|/ff008201]|" plain.log
	} >icount.log &&
	"$BUILD/qemulog" icount.log >out &&
	test_cmp "$data/qemu-sample.trace" out &&
	sed "7s/00000040\$/00000042/" icount.log >bad.log &&
	test_must_fail "$BUILD/qemulog" bad.log 2>err &&
	grep "^qemulog: bad.log:7: rewound block does not match the record of line 1" err
'

test_expect_success 'a log without a final newline converts the same' '
	head -c -1 "$data/qemu-sample.log" >nonl.log &&
	"$BUILD/qemulog" nonl.log >out &&
	test_cmp "$data/qemu-sample.trace" out
'

test_expect_success 'an unknown line is an error naming its line number' '
	n=$(grep -n "^Trace " "$data/qemu-sample.log" | sed -n "10s/:.*//p") &&
	sed "${n}i\\
garbage here" "$data/qemu-sample.log" >bad.log &&
	test_must_fail "$BUILD/qemulog" bad.log >out 2>err &&
	echo "qemulog: bad.log:$n: unexpected line: \"garbage here\"" >expect &&
	test_cmp expect err
'

test_expect_success 'an unknown line inside a record is an error too' '
	n=$(grep -n "^Trace " "$data/qemu-sample.log" | sed -n "10s/:.*//p") &&
	sed "$((n + 5))i\\
garbage here" "$data/qemu-sample.log" >bad.log &&
	test_must_fail "$BUILD/qemulog" bad.log >out 2>err &&
	echo "qemulog: bad.log:$((n + 5)): expected XPSR line: \"garbage here\"" >expect &&
	test_cmp expect err
'

test_expect_success 'a damaged register line is an error naming its line number' '
	n=$(grep -n "^R04=" "$data/qemu-sample.log" | sed -n "3s/:.*//p") &&
	sed "${n}s/R05=/R5=/" "$data/qemu-sample.log" >bad.log &&
	test_must_fail "$BUILD/qemulog" bad.log >out 2>err &&
	grep "^qemulog: bad.log:$n: expected R04..R07 register line: " err
'

test_expect_success 'a log cut inside a record is an error' '
	n=$(grep -n "^Trace " "$data/qemu-sample.log" | sed -n "7s/:.*//p") &&
	head -n $((n + 2)) "$data/qemu-sample.log" >cut.log &&
	test_must_fail "$BUILD/qemulog" cut.log >out 2>err &&
	echo "qemulog: cut.log:$((n + 2)): unexpected end of log: the record of line $n is incomplete" >expect &&
	test_cmp expect err
'

test_expect_success 'a log made without -singlestep or -d nochain is refused' '
	sed "s|/ff000201\]|/ff000000]|" "$data/qemu-sample.log" >multi.log &&
	test_must_fail "$BUILD/qemulog" multi.log 2>err &&
	grep "run QEMU with -singlestep" err &&
	sed "3i\\
Linking TBs 0x7f4e50000100 index 0 -> 0x7f4e50000240" "$data/qemu-sample.log" >chain.log &&
	test_must_fail "$BUILD/qemulog" chain.log 2>err &&
	grep "^qemulog: chain.log:3: .*-d nochain" err
'

test_expect_success 'a Stopped line must match the record before it' '
	n=$(grep -n "^Stopped execution" "$data/qemu-sample.log" | sed -n "1s/:.*//p") &&
	sed "${n}s/\[0000005c\]/[00000060]/" "$data/qemu-sample.log" >stop.log &&
	test_must_fail "$BUILD/qemulog" stop.log 2>err &&
	grep "^qemulog: stop.log:$n: abandoned block does not match" err
'

test_expect_success 'R15 must equal the Trace pc' '
	sed "0,/R15=00000040/s//R15=00000044/" "$data/qemu-sample.log" >pc.log &&
	test_must_fail "$BUILD/qemulog" pc.log 2>err &&
	grep "R15 differs from the Trace pc 00000040" err
'

test_expect_success '--help' '
	"$BUILD/qemulog" --help >out &&
	grep "^usage: qemulog" out &&
	test_must_fail "$BUILD/qemulog" --bogus 2>err &&
	grep "unknown option" err
'

# A deterministic guest: a loop, an SVC, a DSP instruction that only the
# Cortex-M4 has (UsageFault -> HardFault on the M3, which exits 9), and a
# semihosting SYS_EXIT_EXTENDED with exit code 3.
test_expect_success 'setup: build a deterministic guest' '
	cat >guest.S <<-\EOF &&
		.syntax unified
		.cpu cortex-m4
		.thumb
		.text
		.word 0x20004000, _start+1, fault+1, fault+1
		.word fault+1, fault+1, fault+1, 0, 0, 0, 0, svc+1
		.thumb_func
		.global _start
	_start:
		movs r5, #200
	1:	adds r3, r3, r5
		eors r4, r4, r3
		subs r5, r5, #1
		bne 1b
		svc #0
		uadd8 r6, r3, r4
		movs r0, #3
		b exit
		.thumb_func
	svc:
		movs r7, #0x77
		bx lr
		.thumb_func
	fault:
		movs r0, #9
	exit:
		adr r1, block
		str r0, [r1, #4]
		movs r0, #0x20
		bkpt 0xab
		.align 2
	block:
		.word 0x20026, 0
	EOF
	arm-none-eabi-gcc -nostdlib -mcpu=cortex-m4 -mthumb -Wl,-Ttext=0 \
		guest.S -o loop-m4-x.elf &&
	cp loop-m4-x.elf loop.elf
'

test_expect_success 'qemu-trace.sh: an386 for *-m4-* names, exit code passed on' '
	"$SRC/tests/qemu-trace.sh" loop-m4-x.elf m4.tr
	test $? = 3 &&
	test $(wc -l <m4.tr) -gt 800 &&
	! grep -v -E "^([0-9a-f]{8} ){17}[0-9a-f]{8}\$" m4.tr
'

test_expect_success 'qemu-trace.sh: m3 (an385) by default and on request' '
	"$SRC/tests/qemu-trace.sh" loop.elf m3.tr
	test $? = 9 &&
	"$SRC/tests/qemu-trace.sh" loop-m4-x.elf m3b.tr m3
	test $? = 9 &&
	test_cmp m3.tr m3b.tr
'

test_expect_success 'qemu-trace.sh: the same run twice gives the same trace' '
	"$SRC/tests/qemu-trace.sh" loop-m4-x.elf again.tr
	test $? = 3 &&
	test_cmp m4.tr again.tr
'

test_expect_success 'qemu-trace.sh: writing to standard output' '
	"$SRC/tests/qemu-trace.sh" loop-m4-x.elf - >stdout.tr
	test $? = 3 &&
	test_cmp m4.tr stdout.tr
'

test_expect_success 'qemu-trace.sh: a timeout gives 124' '
	QEMU_TIMEOUT=0.001 "$SRC/tests/qemu-trace.sh" loop-m4-x.elf t.tr 2>err
	test $? = 124 &&
	grep "timed out" err
'

test_expect_success 'qemu-trace.sh: QEMU failing to start does not hang' '
	QEMU=false "$SRC/tests/qemu-trace.sh" loop-m4-x.elf f.tr
	test $? = 1
'

qemu_cmd='"$SRC/tests/qemu-trace.sh" "$ELF" "$OUT" "$CPU"'
alter_cmd='"$SRC/tests/qemu-trace.sh" "$ELF" - "$CPU" 2>/dev/null |
	sed "100s/^\(\([0-9a-f]* \)\{6\}\)[0-9a-f]*/\100000bad/" >"$OUT"'
exit7_cmd='"$SRC/tests/qemu-trace.sh" "$ELF" "$OUT" "$CPU"; exit 7'
missing_cmd='./no-such-raptor run "$ELF" --trace-regs "$OUT"'

test_expect_success 'diff-qemu.sh: QEMU against itself matches' '
	RAPTOR_TRACE_CMD=$qemu_cmd "$SRC/tests/diff-qemu.sh" loop-m4-x.elf >out &&
	echo "$(wc -l <m4.tr) instructions compared, 0 mismatches" >expect &&
	test_cmp expect out
'

test_expect_success 'diff-qemu.sh: an altered trace gives a clean report' '
	test_must_fail env RAPTOR_TRACE_CMD="$alter_cmd" \
		"$SRC/tests/diff-qemu.sh" loop-m4-x.elf >out &&
	grep "^tracecmp: mismatch at instruction 99 (line 100):\$" out &&
	grep "^  r4: expected [0-9a-f]\{8\} got 00000bad\$" out &&
	grep "^100 instructions compared, 1 mismatches\$" out &&
	grep "^diff-qemu: loop-m4-x.elf: FAILED" out
'

test_expect_success 'diff-qemu.sh: differing exit codes fail' '
	test_must_fail env RAPTOR_TRACE_CMD="$exit7_cmd" \
		"$SRC/tests/diff-qemu.sh" loop-m4-x.elf >out &&
	grep "0 mismatches\$" out &&
	grep "^diff-qemu: loop-m4-x.elf: exit codes differ: qemu 3, raptor 7\$" out
'

test_expect_success 'diff-qemu.sh: a side that cannot start fails, not hangs' '
	test_must_fail env RAPTOR_TRACE_CMD="$missing_cmd" \
		"$SRC/tests/diff-qemu.sh" loop-m4-x.elf >out &&
	grep "^tracecmp: got (.*) ended early at instruction 0;" out &&
	grep "no-such-raptor" out
'

test_done
