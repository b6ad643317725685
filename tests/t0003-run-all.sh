#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'tests/run-all.sh: results in order and counted the same one test at a time or several (-j), a failure named, a bad -j refused'

# A copy of run-all.sh beside three made-up test scripts: the slow first
# one finishes last under -j 3, yet its line must come first.
test_expect_success 'setup: three test scripts, one slow, one failing' '
	mkdir -p fake/tests fake/build/unit &&
	cp "$SRC/tests/run-all.sh" fake/tests/ &&
	cat >fake/tests/t1-slow.sh <<-\EOF &&
	#!/bin/sh
	# waits up to 3 s for t3-quick, which runs meanwhile only under -j
	i=0
	while [ ! -e mark ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
	if [ -e mark ]; then echo together >seen; else echo alone >seen; fi
	echo "ok 1 - slow"
	echo 1..1
	EOF
	printf "#!/bin/sh\necho \"ok 1 - a\"\necho \"not ok 2 - b\"\necho 1..2\nexit 1\n" >fake/tests/t2-fails.sh &&
	printf "#!/bin/sh\ntouch mark\necho \"ok 1 - a\"\necho \"ok 2 - b\"\necho 1..2\n" >fake/tests/t3-quick.sh
'

for j in 1 3; do
	test_expect_success "-j $j: in order, 4 passed and 1 failed, exit 1" "
		rm -f mark seen &&
		test_expect_code 1 env BUILD=fake/build fake/tests/run-all.sh -j $j >out.$j &&
		sed -n 's/^\(PASS\|FAIL\) \([a-z0-9-]*\).*/\1 \2/p' out.$j >order.$j &&
		printf 'PASS t1-slow\nFAIL t2-fails\nPASS t3-quick\n' >want &&
		test_cmp want order.$j &&
		grep '^# failed: t2-fails\$' out.$j &&
		tail -n 1 out.$j | grep -x '4 passed, 1 failed' &&
		cp seen seen.$j
	"
done

test_expect_success 'only -j 3 ran them at once: the slow first one saw the third run meanwhile' '
	echo alone >want.1 && echo together >want.3 &&
	test_cmp want.1 seen.1 && test_cmp want.3 seen.3
'

test_expect_success '-j wants a count' '
	test_expect_code 2 env BUILD=fake/build fake/tests/run-all.sh -j x t1 2>err &&
	grep "run-all: -j wants a count of 1 or more, not .x." err
'

test_done
