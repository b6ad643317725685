#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'tracecmp compares trace-regs files'

test_require "$BUILD/tracecmp"

# line PC R3: a trace-regs line with those two fields set.
line() {
	printf '00000000 %s 00000001 00000002 00000003 %s' "$1" "$2"
	printf ' 00000000 00000000 00000000 00000000 00000000 00000000 00000000'
	printf ' 00000000 00000000 20004000 ffffffff 01000000\n'
}

test_expect_success 'setup: a 5-instruction trace' '
	line 00000040 00000000 >a.tr &&
	line 00000042 00000001 >>a.tr &&
	line 00000044 00000002 >>a.tr &&
	line 00000046 00000003 >>a.tr &&
	line 00000048 00000004 >>a.tr &&
	test $(wc -l <a.tr) = 5
'

test_expect_success 'equal traces' '
	cp a.tr b.tr &&
	"$BUILD/tracecmp" a.tr b.tr >out &&
	echo "5 instructions compared, 0 mismatches" >expect &&
	test_cmp expect out
'

test_expect_success 'equal traces through FIFOs' '
	mkfifo fa fb &&
	{ cat a.tr >fa & cat a.tr >fb & } &&
	"$BUILD/tracecmp" fa fb >out &&
	wait &&
	echo "5 instructions compared, 0 mismatches" >expect &&
	test_cmp expect out
'

test_expect_success 'empty traces are equal' '
	: >e1 && : >e2 &&
	"$BUILD/tracecmp" e1 e2 >out &&
	echo "0 instructions compared, 0 mismatches" >expect &&
	test_cmp expect out
'

test_expect_success 'one field differs: exact report' '
	sed "5s/ 00000004 / 00000005 /" a.tr >c.tr &&
	test_must_fail "$BUILD/tracecmp" a.tr c.tr >out &&
	cat >expect <<-\EOF &&
	--- expected: a.tr
	+++ got: c.tr
	tracecmp: mismatch at instruction 4 (line 5):
	    1  00000000 00000042 00000001 00000002 00000003 00000001 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 20004000 ffffffff 01000000
	    2  00000000 00000044 00000001 00000002 00000003 00000002 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 20004000 ffffffff 01000000
	    3  00000000 00000046 00000001 00000002 00000003 00000003 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 20004000 ffffffff 01000000
	  - 4  00000000 00000048 00000001 00000002 00000003 00000004 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 20004000 ffffffff 01000000
	  + 4  00000000 00000048 00000001 00000002 00000003 00000005 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 20004000 ffffffff 01000000
	  r3: expected 00000004 got 00000005
	5 instructions compared, 1 mismatches
	EOF
	test_cmp expect out
'

test_expect_success 'exit status is exactly 1 on a difference' '
	"$BUILD/tracecmp" a.tr c.tr >/dev/null
	test $? = 1
'

test_expect_success 'several fields differ: each is named' '
	sed "2s/^00000000 00000042 00000001/00000001 00000043 00000001/" a.tr >d.tr &&
	test_must_fail "$BUILD/tracecmp" a.tr d.tr >out &&
	grep "^tracecmp: mismatch at instruction 1 (line 2):" out &&
	grep "^  core: expected 00000000 got 00000001\$" out &&
	grep "^  pc: expected 00000042 got 00000043\$" out &&
	test $(grep -c "expected .* got" out) = 2
'

test_expect_success 'got side truncated' '
	head -n 3 a.tr >short.tr &&
	test_must_fail "$BUILD/tracecmp" a.tr short.tr >out &&
	grep "^tracecmp: got (short.tr) ended early at instruction 3; a.tr goes on:\$" out &&
	grep "^  - 3  00000000 00000046 " out &&
	tail -n 1 out >last &&
	echo "3 instructions compared, 0 mismatches, short.tr ended early" >expect &&
	test_cmp expect last
'

test_expect_success 'expected side truncated' '
	test_must_fail "$BUILD/tracecmp" short.tr a.tr >out &&
	grep "^tracecmp: expected (short.tr) ended early at instruction 3; a.tr goes on:\$" out &&
	grep "^  + 3  00000000 00000046 " out
'

test_expect_success '--max-mismatches 0 counts past every difference' '
	sed -e "2s/^00000000 00000042 00000001/00000000 00000042 00000009/" \
	    -e "4s/ffffffff 01000000\$/ffffffff 21000000/" a.tr >m.tr &&
	test_must_fail "$BUILD/tracecmp" --max-mismatches 0 a.tr m.tr >out &&
	grep "^  r0: expected 00000001 got 00000009\$" out &&
	grep "^  xpsr: expected 01000000 got 21000000\$" out &&
	tail -n 1 out >last &&
	echo "5 instructions compared, 2 mismatches" >expect &&
	test_cmp expect last
'

test_expect_success '--max-mismatches N stops at the Nth' '
	sed -e "2s/ 20004000 / 20004004 /" -e "3s/ 20004000 / 20004004 /" \
	    -e "4s/ 20004000 / 20004004 /" a.tr >s.tr &&
	test_must_fail "$BUILD/tracecmp" --max-mismatches=2 a.tr s.tr >out &&
	test $(grep -c "^  sp: expected 20004000 got 20004004\$" out) = 2 &&
	tail -n 1 out >last &&
	echo "3 instructions compared, 2 mismatches" >expect &&
	test_cmp expect last &&
	test_must_fail "$BUILD/tracecmp" --max-mismatches 0 a.tr s.tr >out &&
	tail -n 1 out >last &&
	echo "5 instructions compared, 3 mismatches" >expect &&
	test_cmp expect last
'

test_expect_success 'a malformed line is reported, not crashed on' '
	sed "3s/.*/garbage/" a.tr >g.tr &&
	test_must_fail "$BUILD/tracecmp" a.tr g.tr >out &&
	grep "^  got line has 1 fields, not 18\$" out
'

test_expect_success 'usage errors exit 2' '
	"$BUILD/tracecmp" a.tr >out 2>err
	test $? = 2 &&
	"$BUILD/tracecmp" a.tr missing.tr >out 2>err
	test $? = 2 &&
	grep "cannot open missing.tr" err &&
	"$BUILD/tracecmp" --help >out &&
	grep "^usage: tracecmp" out
'

test_done
