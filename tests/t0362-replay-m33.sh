#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'Cortex-M33 (ARMv8-M mainline) recordings on the an505 map: record --truth and replay --verify, multicore, acquire/release across cores, stack limits, random seeks'

test_require "$RAPTOR" "$BUILD/isatest/v8m-mc.elf" "$BUILD/isatest/v8m-stklim.elf"

I=$BUILD/isatest

# rv NAME ELF CORES [ARGS...]: record with the truth, replay --verify
rv() {
	n=$1 e=$2 c=$3 && shift 3 &&
	"$RAPTOR" record "$e" --cores $c --truth -o $n -q "$@" >/dev/null &&
	test "$(ini $n/manifest.ini program model)" = m33 &&
	"$RAPTOR" replay $n --verify 2>err.$n &&
	grep "the program exited with status 0" err.$n &&
	grep " 0 differences" err.$n
}

test_expect_success 'setup: the M33 multicore workloads' '
	abs_list "$GUEST/multi-m33.list" >multi &&
	test $(wc -l <multi) -ge 7
'

test_expect_success 'every M33 multicore workload at 1, 2 and 4 cores: 0 differences' '
	while read e; do
		for c in 1 2 4; do
			rv w$c.$(basename $e .elf) $e $c || return 1
		done
	done <multi
'

test_expect_success 'v8m-mc: LDAEX/STLEX contention and STL/LDA hand-over at 2 cores, 4 seeds' '
	for s in 1 2 3 4; do
		rv mc.$s $I/v8m-mc.elf 2 --seed $s || return 1
	done
'

test_expect_success 'v8m-acqrel, v8m-stklim (STKOF faults, overflowing exception entries), v8m-exc: 0 differences' '
	rv acqrel $I/v8m-acqrel.elf 1 &&
	rv stklim $I/v8m-stklim.elf 1 &&
	rv exc $I/v8m-exc.elf 1
'

test_expect_success 'hard float (FPv5-SP): fft-m33f verifies, FP registers too' '
	rv hf "$GUEST/fft-m33f-O2.elf" 1 &&
	grep "FP registers too" err.hf
'

test_expect_success 'random seeks and stops both ways on M33 recordings equal the truth' '
	"$RAPTOR" replay w4.lu-m33-O2 --random 200 --interval 2000 2>err &&
	grep "200 random positions among [0-9]* equal the ground truth" err &&
	"$RAPTOR" replay mc.1 --random 100 --interval 500 2>err &&
	grep "100 random positions" err &&
	"$RAPTOR" replay w2.racy-m33-O2 --check-points 20 --interval 2000 2>err &&
	grep "checks in both directions equal the ground truth" err
'

test_done
