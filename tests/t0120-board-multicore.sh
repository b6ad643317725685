#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'multicore workloads at 1, 2, 4 and 8 cores and several seeds; same seed, same run'

test_require "$RAPTOR"

# (the core model: each ELF's build attributes say it, docs/BOARD.md "Core model")

test_expect_success 'setup: the multicore builds' '
	abs_list "$GUEST/multi.list" >elfs &&
	test $(wc -l <elfs) -ge 36 &&
	test_sample elfs
'

while read elf; do
	name=$(basename "$elf" .elf)
	test_expect_success "$name passes at 1, 2, 4, 8 cores, seeds 1-3" "
		for n in 1 2 4 8; do
			for s in 1 2 3; do
				\"\$RAPTOR\" run $elf --cores \$n --seed \$s >out.\$n.\$s ||
				{ echo \"failed at \$n cores, seed \$s\"; cat out.\$n.\$s; return 1; }
			done
		done
	"
done <elfs

test_expect_success 'the same seed gives byte-identical --trace-regs' '
	for w in racy-m3-O2 reduction-m4-Os systick-m3-O0; do
		"$RAPTOR" run "$GUEST/$w.elf" --cores 4 --seed 7 --trace-regs a.$w >/dev/null &&
		"$RAPTOR" run "$GUEST/$w.elf" --cores 4 --seed 7 --trace-regs b.$w >/dev/null &&
		cmp a.$w b.$w || return 1
	done
'

test_expect_success 'different seeds give different interleavings' '
	"$RAPTOR" run "$GUEST/racy-m3-O2.elf" --cores 4 --seed 1 --trace-regs s1 >/dev/null &&
	"$RAPTOR" run "$GUEST/racy-m3-O2.elf" --cores 4 --seed 2 --trace-regs s2 >/dev/null &&
	! cmp -s s1 s2
'

test_expect_success 'trace lines carry every core, in global order' '
	cut -d" " -f1 s1 | sort -u >cores &&
	printf "00000000\n00000001\n00000002\n00000003\n" >expect &&
	test_cmp expect cores
'

test_expect_success 'racy loses updates at 4 cores, and none at 1 core' '
	"$RAPTOR" run "$GUEST/racy-m3-O0.elf" --cores 1 >one &&
	grep "(0 updates lost)" one &&
	"$RAPTOR" run "$GUEST/racy-m3-O0.elf" --cores 4 >four &&
	! grep "(0 updates lost)" four
'

test_expect_success 'systick: timer interrupts on every core' '
	"$RAPTOR" run "$GUEST/systick-m3-O2.elf" --cores 8 --stats >out 2>stats &&
	test $(grep -c "^core [0-7]: [1-9][0-9]* instructions" stats) = 8
'

test_done
