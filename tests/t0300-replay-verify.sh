#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor replay rebuilds every instruction from the streams, checked against the ground truth'

test_require "$RAPTOR"

# (the core model: each ELF's build attributes say it, docs/BOARD.md "Core model")

# verify_one ELF CORES ARGS...: record with the truth, replay --verify;
# prints "ok N" (instructions verified) or the failure.
cat >verify_one <<'EOF'
#!/bin/sh
elf=$1 n=$2
shift 2
d=$(mktemp -d rec.XXXXXX)
if ! "$RAPTOR" record "$elf" --cores $n "$@" --truth -o $d/r -q >/dev/null 2>$d/err
then
	echo "FAIL record $elf $n $*: $(tail -1 $d/err)"
	exit 0
fi
if ! "$RAPTOR" replay $d/r --verify 2>$d/err; then
	echo "FAIL replay $elf $n $*: $(grep error $d/err | head -1)"
	exit 0
fi
echo "ok $(sed -n 's/^  \([0-9]*\) instructions verified.*/\1/p' $d/err) $elf $n $*"
rm -rf $d
EOF
chmod +x verify_one

# verify_jobs JOBS WHAT: verify_one over every line of JOBS, two at a time,
# into JOBS.results; fails on a FAIL or a missing result, else prints the
# instructions verified over how many WHAT.
verify_jobs() {
	xargs -P 2 -L 1 ./verify_one <"$1" >"$1.results" &&
	test $(wc -l <"$1.results") = $(wc -l <"$1") &&
	! grep FAIL "$1.results" &&
	awk -v what="$2" "{ n += \$2 } END { print \"# \" n \" instructions verified over \" NR \" \" what }" \
		"$1.results"
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
	verify_jobs jobs "runs, 0 differences"
'

test_expect_success 'the Cortex-M0+ builds (m0plus.list, ARMv6-M) at 1 core' '
	abs_list "$GUEST/m0plus.list" | while read e; do echo "$e 1"; done >m0jobs &&
	test $(wc -l <m0jobs) -ge 25 &&
	test_sample m0jobs &&
	verify_jobs m0jobs "M0+ runs, 0 differences"
'

test_expect_success 'every configuration: predictors, sharing, encodings, timing, caches, chunks' '
	for e in reduction-m3-O2 racy-m4-O2 systick-m3-O2 lu-m3-Os; do
		for cfg in "--cf small" "--cf medium" "--cf S0" "--cf B4 --share-predictors" \
			"--share-cache" "--cf-enc nxb" "--cf-enc trb --functional" \
			"--lv-enc nxlv" "--lv-enc mc2rt" "--lv-enc mc2rt --share-cache" \
			"--functional --lv-enc mc2rt --cf-enc nxb" "--lv granule=1" \
			"--lv granule=8,line=64" "--lv size=1K,assoc=1,line=16" \
			"--seed 7 --jitter 0" \
			"--chunks cnt=1/1,ta=2/2,cc=1/1,icnt=1/1,fah=3/1,lvcc=8/8"; do
			for n in 2 8; do echo "$GUEST/$e.elf $n $cfg"; done
		done
	done >cfgjobs &&
	test_sample cfgjobs &&
	verify_jobs cfgjobs configurations
'

test_expect_success 'the adaptive encodings tra and cfiata replay and verify, single- and multicore' '
	{
		for e in reduction-m3-O2 racy-m4-O2 systick-m3-O2 lu-m3-Os ring-m3-O0 radix-m4-Os; do
			for n in 1 2 4 8; do
				echo "$GUEST/$e.elf $n --cf-enc tra --lv-enc cfiata"
			done
			echo "$GUEST/$e.elf 4 --cf-enc tra --lv-enc cfiata --functional"
			echo "$GUEST/$e.elf 2 --cf-enc tra --lv-enc cfiata --cf small --share-cache"
		done
		for e in crc32-m3-O2 qsort-m3-O0 printf-m4-Os bitcount-m3-Os; do
			echo "$GUEST/$e.elf 1 --cf-enc tra --lv-enc cfiata"
			echo "$GUEST/$e.elf 1 --cf-enc tra --lv-enc cfiata --cf S0 --functional"
		done
		echo "$GUEST/racy-m3-O2.elf 2 --cf-enc tra --lv-enc cfiata --chunks cnt=64/64,ta=1/1,cc=16/9,icnt=1/1,fah=8/8,lvcc=1/1"
		echo "$GUEST/racy-m3-O2.elf 4 --cf-enc tra --lv-enc none"
	} >adjobs &&
	verify_jobs adjobs "tra/cfiata runs"
'

test_expect_success 'tra and cfiata: checkpoints restored mid-stream decode the same (seeks, reverse)' '
	for w in lu-m3-O0 ring-m3-Os; do
		"$RAPTOR" record "$GUEST/$w.elf" --cores 4 --cf-enc tra --lv-enc cfiata --truth \
			-o ad.$w -q >/dev/null &&
		grep -q "^encoding = tra" ad.$w/manifest.ini &&
		grep -q "^encoding = cfiata" ad.$w/manifest.ini &&
		"$RAPTOR" replay ad.$w --random 200 --interval 1500 --seed 3 2>err &&
		grep "200 random positions" err &&
		"$RAPTOR" replay ad.$w --check-points 30 --interval 2000 2>err &&
		grep "checks in both directions equal the ground truth" err &&
		sed "s/^/# /" err || return 1
	done
'

test_expect_success 'setup: one recording to damage' '
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 4 --truth -o good -q >/dev/null &&
	"$RAPTOR" replay good --verify -q
'

test_expect_success '--to stops at a position' '
	"$RAPTOR" replay good --to 1000 2>err &&
	grep "1000 instructions replayed in" err
'

test_expect_success 'random access: seeks forward and backward equal the truth' '
	"$RAPTOR" replay good --random 300 --interval 2000 2>err &&
	grep "300 random positions among [0-9]* equal the ground truth" err &&
	for w in lu-m3-O0 systick-m4-O2 ring-m3-Os; do
		"$RAPTOR" record "$GUEST/$w.elf" --cores 8 --truth -o ra.$w -q \
			>/dev/null &&
		"$RAPTOR" replay ra.$w --random 200 --interval 3000 --seed 5 2>err &&
		grep "200 random positions" err &&
		sed "s/^/# /" err || return 1
	done &&
	"$RAPTOR" record "$GUEST/reduction-m3-O2.elf" --cores 4 --lv-enc mc2rt --cf-enc nxb \
		--share-predictors --truth -o ra.mc -q >/dev/null &&
	"$RAPTOR" replay ra.mc --random 200 --interval 1000 2>err &&
	grep "200 random positions" err
'

test_expect_success 'breakpoints, watchpoints and stepi both ways stop where the truth says' '
	for d in good ra.lu-m3-O0 ra.systick-m4-O2 ra.ring-m3-Os ra.mc; do
		"$RAPTOR" replay $d --check-points 30 --interval 3000 2>err &&
		grep "checks in both directions equal the ground truth" err &&
		sed "s/^/# /" err || return 1
	done
'

test_expect_success 'a truncated stream is refused before the replay starts' '
	cp -r good trunc &&
	head -c 100 good/lv.bin >trunc/lv.bin &&
	test_expect_code 1 "$RAPTOR" replay trunc 2>err &&
	grep "trunc/lv.bin: 100 bytes, but the manifest says .*: the file is truncated" err
'

test_expect_success 'another program is refused by its SHA-256' '
	cp -r good wrongelf &&
	cp "$GUEST/racy-m3-O0.elf" wrongelf/program.elf &&
	test_expect_code 1 "$RAPTOR" replay wrongelf 2>err &&
	grep "not the program that was recorded" err
'

test_expect_success 'swapped streams are an error, not a replay' '
	cp -r good swapped &&
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 4 --seed 9 -o other -q >/dev/null &&
	cp other/cf.bin swapped/cf.bin &&
	sed -i "/^\[cf\]/,/^\[/ s/^bits = .*/bits = $(sed -n "/^\[cf\]/,/^\[/ s/^bits = //p" other/manifest.ini)/" swapped/manifest.ini &&
	test_expect_code 1 "$RAPTOR" replay swapped 2>err &&
	grep "error: .*swapped/cf.bin: core [0-9], instruction [0-9]*.*bit [0-9]*" err
'

test_expect_success '--verify needs a ground truth' '
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 2 -o notruth -q >/dev/null &&
	test_expect_code 1 "$RAPTOR" replay notruth --verify 2>err &&
	grep "has no ground truth" err
'

test_expect_success 'bit flips in either stream: a clear error or a verified replay, never a crash or a silent difference' '
	for s in cf lv; do
		bits=$(sed -n "/^\[$s\]/,/^\[/ s/^bits = //p" good/manifest.ini)
		for k in 0 1 2 3 5 7 11 13 17 19 23 29 31 37 41 43 47 53 59 61; do
			b=$((k * bits / 64)) &&
			rm -rf m && cp -r good m && flipbit m/$s.bin $b &&
			{ timeout 60 "$RAPTOR" replay m --verify -q 2>err; rc=$?; } &&
			case $rc in
			0) echo "$s bit $b: identical replay" ;;
			1) grep -q "error: .*m/$s.bin: core [0-9], instruction [0-9]* (position [0-9]*), bit [0-9]*:" err ||
				grep -q "error: .*m/$s.bin: .* at bit [0-9]*" err ||
				{ echo "$s bit $b: unclear error"; cat err; return 1; }
				echo "$s bit $b: $(grep error err | head -1)" ;;
			*) echo "$s bit $b: exit $rc"; cat err; return 1 ;;
			esac
		done
	done >mutants &&
	test $(grep -c "identical replay" mutants) -lt 10 &&
	sed "s/^/# /" mutants
'

test_done
