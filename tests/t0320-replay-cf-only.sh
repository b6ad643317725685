#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor replay of a control-flow-only recording: every core'"'"'s PCs from the cf stream alone, checked against the ground truth'

test_require "$RAPTOR" "${ARM_PREFIX:-arm-none-eabi-}gcc"

# verify_one ELF CORES ARGS...: record the cf stream only (--lv-enc none)
# with the truth, replay --verify; prints "ok N E S ELF CORES ARGS" (PCs,
# exception entries and time stamps verified) or the failure. The walk runs
# twice, in straight-line runs and (RAPTOR_CFW_SIMPLE, the white-box
# switch of replay/cfwalk.c) one instruction at a time: both must verify
# every step, with the same counts and the same cycle estimates.
cat >verify_one <<'EOF'
#!/bin/sh
elf=$1 n=$2
shift 2
d=$(mktemp -d rec.XXXXXX)
if ! "$RAPTOR" record "$elf" --cores $n --lv-enc none "$@" --truth -o $d/r -q \
	>/dev/null 2>$d/err
then
	echo "FAIL record $elf $n $*: $(tail -1 $d/err)"
	exit 0
fi
if ! "$RAPTOR" replay $d/r --verify 2>$d/err; then
	echo "FAIL replay $elf $n $*: $(grep error $d/err | head -1)"
	exit 0
fi
if ! RAPTOR_CFW_SIMPLE=1 "$RAPTOR" replay $d/r --verify 2>$d/err1; then
	echo "FAIL simple replay $elf $n $*: $(grep error $d/err1 | head -1)"
	exit 0
fi
sed "s/ in [0-9.]* s (.*MIPS)//" $d/err >$d/out
sed "s/ in [0-9.]* s (.*MIPS)//" $d/err1 >$d/out1
if ! cmp -s $d/out $d/out1; then
	echo "FAIL the runs and the simple walk differ: $elf $n $*: $(diff $d/out $d/out1 | head -3)"
	exit 0
fi
if ! grep -q "from the control flow alone" $d/err ||
	! grep -q "registers and memory not traced, 0 differences" $d/err
then
	echo "FAIL replay $elf $n $*: not a control-flow-only verification: $(cat $d/err)"
	exit 0
fi
echo "ok $(sed -n "s/^  \([0-9]*\) instructions' PCs and \([0-9]*\) exception entries verified.*/\1 \2/p" $d/err) $(sed -n "s/^  \([0-9]*\) steps' cycles equal.*/\1/p" $d/err) $elf $n $*"
rm -rf $d
EOF
chmod +x verify_one

# total FILE: "# N instructions' PCs, E exception entries and S time stamps verified over R runs"
total() {
	awk '{ n += $2; e += $3; s += $4 } END { printf "# %d instructions'"'"' PCs, %d exception entries and %d time stamps verified over %d runs, 0 differences\n", n, e, s, NR }' "$1"
}

test_expect_success 'setup: the workloads' '
	abs_list "$GUEST/multi.list" >multi &&
	abs_list "$GUEST/single.list" >single &&
	test $(wc -l <multi) -ge 36 && test $(wc -l <single) -ge 70
'

test_expect_success 'the whole suite: multicore at 1, 2, 4, 8 cores, single-core at 1' '
	{
		while read e; do for n in 1 2 4 8; do echo "$e $n"; done; done <multi
		while read e; do echo "$e 1"; done <single
	} >jobs &&
	test_sample jobs &&
	xargs -P 2 -L 1 ./verify_one <jobs >results &&
	test $(wc -l <results) = $(wc -l <jobs) &&
	! grep FAIL results &&
	total results
'

test_expect_success 'every configuration: predictors, encodings, functional and timed, chunks, timing' '
	for w in "reduction-m3-O2 8" "racy-m4-O2 2" "systick-m3-O2 4" "irq-m3-Os 1"; do
		set -- $w
		for cfg in "--cf small" "--cf medium" "--cf S0" "--cf B4" "--cf-enc nxb" \
			"--cf-enc trb" "--functional" "--cf-enc nxb --functional" \
			"--cf-enc trb --functional --cf S0" "--cf B4 --functional" \
			"--seed 7 --jitter 0" "--chunks cnt=1/1,ta=2/2,cc=1/1,icnt=1/1"; do
			echo "$GUEST/$1.elf $2 $cfg"
		done
		echo "$GUEST/$1.elf 1 --share-predictors"
		echo "$GUEST/$1.elf 1 --share-predictors --cf-enc trb --functional"
		echo "$GUEST/$1.elf $2 --share-predictors --cf-enc nxb"
	done >cfgjobs &&
	test_sample cfgjobs &&
	xargs -P 2 -L 1 ./verify_one <cfgjobs >cfgresults &&
	test $(wc -l <cfgresults) = $(wc -l <cfgjobs) &&
	! grep FAIL cfgresults &&
	total cfgresults
'

# it-irq.S: SysTick every RELOAD cycles over code full of IT blocks, so that
# exceptions land inside them and return into them, tail-chain, and nest
# with conditional calls and returns (B, BL, POP {PC}, BX LR in IT blocks).
cat >it-irq.S <<'EOF'
@ SysTick every few cycles over code full of IT blocks: interrupts land
@ inside them, and the exception returns resume them (ITSTATE stacked);
@ a B, a BL and conditional returns (popne {pc}, bxeq lr) end IT blocks.
#include "common.inc"
	.equ	SYST_CSR, 0xe000e010
	.equ	SYST_RVR, 0xe000e014
	.equ	SYST_CVR, 0xe000e018
	.text
	.thumb_func
reset:
	ldr	r0, =0xd0000000		@ the core index: a stack each
	ldr	r0, [r0]
	ldr	r1, =0x20400000
	sub	r1, r1, r0, lsl #12
	mov	sp, r1
	ldr	r0, =SYST_RVR
	movs	r1, #RELOAD
	str	r1, [r0]
	ldr	r0, =SYST_CVR
	movs	r1, #0
	str	r1, [r0]
	ldr	r0, =SYST_CSR
	movs	r1, #7
	str	r1, [r0]
	movs	r4, #0
	movs	r7, #0
	ldr	r5, =2000
loop:
	and	r6, r4, #3
	cmp	r6, #1
	itte	eq
	addeq	r7, r7, #1
	addeq	r7, r7, #2
	subne	r7, r7, #1
	cmp	r6, #2
	itt	ne
	movne	r8, r4
	bne	1f
	add	r7, r7, #3
1:	cmp	r6, #3
	it	eq
	bleq	func
	tst	r4, #4
	ite	ne
	movne	r0, #1
	moveq	r0, #0
	bl	func2
	cmp	r6, #0
	it	eq
	bleq	func3
	adds	r4, #1
	cmp	r4, r5
	bne	loop
	ldr	r0, =SYST_CSR
	movs	r1, #0
	str	r1, [r0]
	ldr	r0, =ticks
	ldr	r0, [r0]
	cmp	r0, #100
	bhi	2f
	FAIL	1
2:	EXIT_OK

	.thumb_func
func:
	add	r9, r9, #1
	bx	lr

	.thumb_func
func2:
	push	{r4, lr}
	cmp	r0, #0
	itt	ne
	addne	r9, r9, #1
	popne	{r4, pc}
	add	r9, r9, #2
	pop	{r4, pc}

	.thumb_func
func3:
	tst	r4, #8
	itt	eq
	addeq	r9, r9, #3
	bxeq	lr
	add	r9, r9, #4
	bx	lr

	.thumb_func
systick_handler:
	ldr	r0, =ticks
	ldr	r1, [r0]
	adds	r1, #1
	str	r1, [r0]
	bx	lr

	.data
	.align	2
ticks:	.word	0
EOF

# isa_elf NAME CPU SRC [CFLAGS...]: build a bare test program as isa.mk does.
isa_elf() {
	n=$1 c=$2 f=$3
	shift 3
	"${ARM_PREFIX:-arm-none-eabi-}gcc" -mcpu=cortex-$c -mthumb -nostdlib "$@" \
		-I"$SRC/tests/isa" -T "$SRC/tests/isa/isa.ld" "$f" "$SRC/tests/isa/defaults.S" \
		-o $n-$c-isa.elf
}

test_expect_success 'ISA corner programs and SysTick inside IT blocks: faults, PSP, nesting, TBB, tail-chaining, ITSTATE across exceptions' '
	for t in it-flags tbb exc-psp unaligned div0 wfi-primask strex-mc; do
		isa_elf $t m3 "$SRC/tests/isa/$t.S" || return 1
	done &&
	isa_elf dsp-test m4 "$SRC/tests/isa/dsp-test.S" &&
	for r in 13 17 29; do isa_elf it-irq$r m3 it-irq.S -DRELOAD=$r || return 1; done &&
	{
		for t in it-flags tbb unaligned div0 wfi-primask; do
			echo "$PWD/$t-m3-isa.elf 1"
			echo "$PWD/$t-m3-isa.elf 2"
		done
		echo "$PWD/exc-psp-m3-isa.elf 1"
		echo "$PWD/exc-psp-m3-isa.elf 1 --functional --cf-enc trb"
		echo "$PWD/strex-mc-m3-isa.elf 2"
		echo "$PWD/dsp-test-m4-isa.elf 1"
		echo "$PWD/it-irq13-m3-isa.elf 1"
		echo "$PWD/it-irq13-m3-isa.elf 4"
		echo "$PWD/it-irq17-m3-isa.elf 2 --functional --cf-enc trb --cf S0"
		echo "$PWD/it-irq29-m3-isa.elf 4 --cf small"
		echo "$PWD/it-irq29-m3-isa.elf 1 --share-predictors --functional"
	} >isajobs &&
	xargs -P 2 -L 1 ./verify_one <isajobs >isaresults &&
	test $(wc -l <isaresults) = $(wc -l <isajobs) &&
	! grep FAIL isaresults &&
	total isaresults
'

test_expect_success 'NX_b does not say whether a B inside an IT block was taken: a clear error' '
	"$RAPTOR" record it-irq17-m3-isa.elf --cores 1 --lv-enc none --cf-enc nxb -o nxit -q \
		>/dev/null &&
	test_expect_code 1 "$RAPTOR" replay nxit 2>err &&
	grep "nxit/cf.bin: core 0, instruction [0-9]* (.*), bit [0-9]*: the B at 0x[0-9a-f]* is inside an IT block: NX_b does not trace whether it was taken" err
'

test_expect_success 'shared TR predictors on several cores are refused, with the reason' '
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 2 --lv-enc none --share-predictors \
		-o shared -q >/dev/null &&
	test_expect_code 1 "$RAPTOR" replay shared 2>err &&
	grep "share one predictor set: from the control-flow stream alone" err
'

test_expect_success 'setup: control-flow-only recordings to probe and to damage' '
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 4 --lv-enc none --truth -o good -q \
		>/dev/null &&
	"$RAPTOR" replay good --verify -q &&
	"$RAPTOR" record "$GUEST/systick-m4-O2.elf" --cpu m4 --cores 8 --lv-enc none --truth \
		-o tick -q >/dev/null &&
	"$RAPTOR" record "$GUEST/lu-m3-O0.elf" --cores 8 --lv-enc none --functional --truth \
		-o func -q >/dev/null &&
	"$RAPTOR" record "$GUEST/ring-m3-Os.elf" --cores 4 --lv-enc none --cf-enc nxb --truth \
		-o nx -q >/dev/null
'

# walk_line ERR: "messages packed bytes raw blocks inflations" of the
# control-flow walk's line in raptor replay --random's summary
walk_line() {
	sed -n "s/^  control-flow walk: \([0-9]*\) messages decoded, \([0-9]*\) of them packed in \([0-9]*\) bytes (\([0-9]*\) before deflating; \([0-9]*\) blocks deflated, \([0-9]*\) inflated going back)$/\1 \2 \3 \4 \5 \6/p" "$1"
}

# Packed, the messages take 8.8 bytes each here; deflated in blocks of 16
# chunks of 256 (the newest block raw: 10 of the 106 chunks), 4.4.
test_expect_success 'the decoded messages are packed and deflated once replayed: bytes per message, seeks over them' '
	"$RAPTOR" record "$GUEST/fpmath-m3-O0.elf" --cores 1 --lv-enc none --truth -o many -q \
		>/dev/null &&
	"$RAPTOR" replay many --random 100 --interval 5000 2>err &&
	grep "100 random positions among [0-9]* equal the ground truth" err &&
	walk_line err >walk &&
	read n p b raw blocks infl <walk &&
	echo "# $n messages, $p packed in $b bytes ($raw before deflating;" \
		"$blocks blocks, $infl inflations)" &&
	test "$n" -ge 20000 && test "$p" -ge $((n - 1024)) &&
	test "$b" -le $((p * 5)) && test "$raw" -gt $((b * 3 / 2)) &&
	test "$blocks" -ge 6 && test "$infl" -ge "$blocks"
'

# A seek back restores the checkpoint before its target and walks from
# there: over the messages packed and deflated, which it inflates block by
# block (two kept inflated). With --memory 1M the checkpoints are sparse
# (dropped, laid down again), so a seek walks across several blocks;
# RAPTOR_CFW_BLOCK=1 (a white-box switch of replay/cfwalk.c) makes every
# chunk of 256 messages a block of its own, so that the blocks turn over
# in the cache (more inflations than blocks) even on these recordings.
test_expect_success 'deflated blocks read back: seeks and reverse steps across many blocks equal the truth' '
	"$RAPTOR" record "$GUEST/nbody-m3-O0.elf" --cores 4 --lv-enc none --truth -o nbody -q \
		>/dev/null &&
	for w in "many 16 6" "many 1 100" "nbody 1 10"; do
		set -- $w
		RAPTOR_CFW_BLOCK=$2 "$RAPTOR" replay $1 --random 60 --interval 2000 --memory 1M \
			--seed 5 2>err &&
		grep "60 random positions among [0-9]* equal the ground truth" err &&
		walk_line err >walk &&
		read n p bytes raw blocks infl <walk &&
		echo "# $1, blocks of $2 chunks: $p messages packed in $blocks blocks," \
			"$infl inflations" &&
		test "$blocks" -ge $3 && test "$infl" -gt "$blocks" &&
		RAPTOR_CFW_BLOCK=$2 "$RAPTOR" replay $1 --check-points 10 --interval 2000 \
			--memory 1M 2>err &&
		grep "checks in both directions equal the ground truth.s PCs" err || return 1
	done
'

test_expect_success '--to stops at a position' '
	"$RAPTOR" replay good --to 1000 2>err &&
	grep "1000 instructions replayed from the control flow alone in" err
'

test_expect_success 'random access: seeks forward and backward give every core the truth'"'"'s PC' '
	for d in good tick func nx; do
		for simple in "" 1; do
			RAPTOR_CFW_SIMPLE=$simple "$RAPTOR" replay $d --random 200 --interval 2000 \
				--seed 3 2>err &&
			grep "200 random positions among [0-9]* equal the ground truth (every core" err &&
			sed "s/^/# $simple /" err || return 1
		done
	done
'

test_expect_success 'breakpoints and stepi both ways stop where the truth says; watchpoints refused' '
	for d in good tick func nx; do
		for simple in "" 1; do
			RAPTOR_CFW_SIMPLE=$simple "$RAPTOR" replay $d --check-points 30 \
				--interval 3000 2>err &&
			grep "checks in both directions equal the ground truth.s PCs" err &&
			sed "s/^/# $simple /" err || return 1
		done
	done
'

# The runs stop where rpl_run, rpl_seek and the checkpoints need them to:
# --to at every position of a stretch, across checkpoints, gives the same
# PCs, counts and cycles as the walk one instruction at a time.
test_expect_success 'runs of the walk stop exactly: --to and checkpoints agree with the simple walk' '
	for d in good tick func nx; do
		for to in 1 2 3 5 8 13 21 34 55 89 144 233 377 610 987 1597 2584; do
			"$RAPTOR" replay $d --to $to --interval 7 2>a &&
			RAPTOR_CFW_SIMPLE=1 "$RAPTOR" replay $d --to $to --interval 7 2>b &&
			sed "s/ in [0-9.]* s (.*MIPS)//" a >a1 &&
			sed "s/ in [0-9.]* s (.*MIPS)//" b >b1 &&
			test_cmp a1 b1 || return 1
		done
	done
'

test_expect_success 'the help says what a control-flow-only --verify compares' '
	"$RAPTOR" replay --help >help &&
	grep "Control flow only: each core.s instructions" help &&
	grep "registers and memory are not traced" help
'

test_expect_success 'a recording without a cf stream is refused' '
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 2 --cf-enc none -o nocf -q >/dev/null &&
	test_expect_code 1 "$RAPTOR" replay nocf 2>err &&
	grep "has no control-flow stream" err
'

test_expect_success 'a truncated stream is refused before the replay starts' '
	cp -r good trunc &&
	head -c 100 good/cf.bin >trunc/cf.bin &&
	test_expect_code 1 "$RAPTOR" replay trunc 2>err &&
	grep "trunc/cf.bin: 100 bytes, but the manifest says .*: the file is truncated" err
'

# graft REC FROM: put FROM's cf stream into REC, with its length.
graft() {
	cp $2/cf.bin $1/cf.bin &&
	sed -i "/^\[cf\]/,/^\[/ s/^bits = .*/bits = $(sed -n "/^\[cf\]/,/^\[/ s/^bits = //p" $2/manifest.ini)/" $1/manifest.ini
}

test_expect_success 'another program'"'"'s stream is an error, not a replay' '
	cp -r good foreign &&
	"$RAPTOR" record "$GUEST/reduction-m3-O2.elf" --cores 4 --lv-enc none -o other -q \
		>/dev/null &&
	graft foreign other &&
	test_expect_code 1 "$RAPTOR" replay foreign 2>err &&
	grep "error: .*foreign/cf.bin: core [0-9], instruction [0-9]* (.*), bit [0-9]*:" err
'

# The walk's loop detection (Brent's, from BRENT_DELAY = 1024 instructions
# after the last counted branch): a core that loops with no counted branch
# can never reach a message counting one, which a damaged stream or another
# program can ask for. spin.S in its two builds: the same code but for the
# loop's branch, BNE (counted; the stream has messages for its
# mispredictions) and B (never counted; recorded with a limit, no
# message). The stream of the first (functional: no time stamp to find it
# out first) with the code of the second is found to loop within 1024 + 2
# * 3 instructions of the start, not walked on to MAX_RUN.
test_expect_success 'a core that loops with no counted branch: found within the detection delay, a clear error' '
	cat >spin.S <<-\EOF &&
	#include "common.inc"
		.text
		.thumb_func
	reset:
		ldr	r5, =1000
		movs	r4, #0
	1:	adds	r4, #1
		cmp	r4, r5
	#ifdef SPIN
		b	1b
	#else
		bne	1b
	#endif
		EXIT_OK
	EOF
	isa_elf counted m3 spin.S &&
	isa_elf spin m3 spin.S -DSPIN &&
	"$RAPTOR" record counted-m3-isa.elf --cores 1 --lv-enc none --functional -o counted -q \
		>/dev/null &&
	test_expect_code 125 "$RAPTOR" record spin-m3-isa.elf --cores 1 --lv-enc none --functional \
		--max-insns 100000 -o looping -q >/dev/null 2>&1 &&
	"$RAPTOR" replay looping -q &&
	graft looping counted &&
	test_expect_code 1 "$RAPTOR" replay looping 2>loop.err &&
	cat loop.err &&
	grep "looping/cf.bin: core 0, instruction [0-9]* (.*), bit [0-9]*: the core loops through 0x[0-9a-f]* with no counted branch, so it can never reach the message for bCnt [1-9][0-9]* (it is at 0)" loop.err &&
	n=$(sed -n "s/.*core 0, instruction \([0-9]*\) .*/\1/p" loop.err) &&
	test "$n" -ge 1024 && test "$n" -le $((1024 + 2 * 3 + 2))
'

# Without values or the timing model, the stream of another run of the same
# program (another jitter seed) is a valid run: only the truth tells.
test_expect_success 'another run'"'"'s stream replays that run; --verify tells it from the truth' '
	cp -r good swapped &&
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 4 --seed 9 --lv-enc none -o run9 -q \
		>/dev/null &&
	graft swapped run9 &&
	"$RAPTOR" replay swapped -q &&
	test_expect_code 1 "$RAPTOR" replay swapped --verify 2>err &&
	grep "error: verify: core [0-9], instruction [0-9]* (position [0-9]*, [0-9]* verified): " err
'

# A flipped bit is a desync as soon as the stream stops fitting the code,
# which is most of the time. Some changes still fit: a time stamp moved up
# (the replay only knows a lower bound of the time), or, in a functional
# stream, a count moved to another branch of a path that reaches the same
# ends. Those replay another run without an error; --verify finds them.
test_expect_success 'bit flips in cf.bin: a clear error or a verified replay, never a crash, a hang or silence' '
	for d in good func nx; do
		bits=$(sed -n "/^\[cf\]/,/^\[/ s/^bits = //p" $d/manifest.ini)
		for k in 0 1 2 3 5 7 11 13 17 19 23 29 31 37 41 43 47 53 59 61 63; do
			b=$((k * bits / 64)) &&
			rm -rf m && cp -r $d m && flipbit m/cf.bin $b &&
			{ timeout 60 "$RAPTOR" replay m --verify -q 2>err; rc=$?; } &&
			case $rc in
			0) echo "$d bit $b: identical replay" ;;
			1) if grep -q "error: .*m/cf.bin: core [0-9], instruction [0-9]* (.*), bit [0-9]*:" err ||
				grep -q "error: .*m/cf.bin: bit [0-9]*: " err
			then
				echo "$d bit $b: stream error: $(grep error err | tail -1)"
			elif grep -q "error: verify: core [0-9], instruction [0-9]* (position [0-9]*, [0-9]* verified): " err
			then
				{ timeout 60 "$RAPTOR" replay m -q 2>/dev/null; rc=$?; } &&
				test $rc -le 1 &&
				echo "$d bit $b: found by --verify$(test $rc = 0 && echo " only"): $(grep error err | tail -1)"
			else
				echo "$d bit $b: unclear error"; cat err; return 1
			fi ;;
			*) echo "$d bit $b: exit $rc"; cat err; return 1 ;;
			esac || return 1
		done
	done >mutants &&
	test $(grep -c "identical replay" mutants) -lt 15 &&
	test $(grep -c "stream error" mutants) -gt 30 &&
	echo "# $(grep -c "stream error" mutants) stream errors, $(grep -c "found by --verify" mutants) differences found by --verify ($(grep -c "verify only" mutants) by --verify only), $(grep -c "identical replay" mutants) identical replays" &&
	sed "s/^/# /" mutants
'

test_expect_success 'one core: a desync is found where the replay walks, the replay stopped at it; several cores: read ahead' '
	"$RAPTOR" record "$GUEST/fpmath-m3-O0.elf" --cores 1 --lv-enc none -o one -q >/dev/null &&
	bits=$(sed -n "/^\[cf\]/,/^\[/ s/^bits = //p" one/manifest.ini) &&
	n=0 &&
	for k in $(seq 1 2 63); do
		b=$((k * bits / 64)) &&
		rm -rf m && cp -r one m && flipbit m/cf.bin $b &&
		{ timeout 60 "$RAPTOR" replay m 2>err; rc=$?; } &&
		test $rc -le 1 &&
		at=$(sed -n "s/.*m\/cf.bin: core 0, instruction \([0-9]*\) (the replay walking there too, at position \([0-9]*\)), bit.*/\1 \2/p" err) &&
		if test -n "$at"; then
			set -- $at &&
			test "$1" = "$2" &&
			grep -q "^raptor replay: m: $1 instructions replayed before the error" err &&
			n=$((n + 1))
		else
			! grep -q "read ahead of the replay" err
		fi || { cat err; return 1; }
	done &&
	echo "# $n desyncs found by the walk, each where the replay stopped" &&
	test $n -ge 3 &&
	grep -q "core [0-9], instruction [0-9]* (read ahead of the replay at position [0-9]*)" mutants
'

test_done
