#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor record writes complete, consistent recordings in every encoding'

test_require "$RAPTOR"

# bytes_of_bits BITS: the stored size of a stream of BITS bits.
bytes_of_bits() {
	echo $((($1 + 7) / 8))
}

test_expect_success 'setup' '
	W=$GUEST/reduction-m3-O2.elf &&
	test -f "$W"
'

test_expect_success 'record --help describes every option' '
	"$RAPTOR" record --help >help &&
	for o in --cores --cpu --force-cpu --seed --jitter --max-insns --cf --lv --share-predictors \
		--share-cache --cf-enc --lv-enc --timed --functional --chunks --output \
		--force --truth --quiet --all-encodings; do
		grep -q -- "$o" help || { echo "missing $o"; return 1; }
	done
'

test_expect_success 'a default recording: files, manifest, exit status, output' '
	"$RAPTOR" run "$W" --cores 2 >run.out &&
	"$RAPTOR" record "$W" --cores 2 -o rec >rec.out 2>rec.err &&
	test_cmp run.out rec.out &&
	for f in manifest.ini program.elf cf.bin lv.bin stats.ini; do
		test -f rec/$f || return 1
	done &&
	! test -f rec/truth.gz &&
	cmp "$W" rec/program.elf &&
	test "$(ini rec/manifest.ini recording state)" = complete &&
	test "$(ini rec/manifest.ini program sha256)" = "$(sha256sum <"$W" | cut -d" " -f1)" &&
	test "$(ini rec/manifest.ini cf encoding)" = tre &&
	test "$(ini rec/manifest.ini cf timed)" = 1 &&
	test "$(ini rec/manifest.ini cf predictors)" = gshare=4096,ras=32,ibtb=64,shift=4 &&
	test "$(ini rec/manifest.ini lv encoding)" = cfiat &&
	test "$(ini rec/manifest.ini lv cache)" = size=32768,assoc=4,line=32,granule=4 &&
	grep "the program exited with status 0" rec.err
'

test_expect_success 'stream sizes: manifest bits = stats bits = file sizes' '
	cfb=$(ini rec/manifest.ini cf bits) &&
	lvb=$(ini rec/manifest.ini lv bits) &&
	test "$cfb" = "$(ini rec/stats.ini cf.ttre bits)" &&
	test "$lvb" = "$(ini rec/stats.ini lv.tcfiat bits)" &&
	test $(stat -c %s rec/cf.bin) = $(bytes_of_bits $cfb) &&
	test $(stat -c %s rec/lv.bin) = $(bytes_of_bits $lvb)
'

test_expect_success 'the fast way: stats.ini has the recorded encodings only' '
	test "$(ini rec/stats.ini run encodings)" = recorded &&
	test "$(ini rec/stats.ini run chunks)" = cnt=3/2,ta=3/4,cc=4/2,icnt=2/2,fah=1/2,lvcc=4/2 &&
	grep "^\[[cl][fv]\." rec/stats.ini >sections &&
	printf "[cf.ttre]\n[lv.tcfiat]\n" >expect &&
	test_cmp expect sections &&
	test "$(head -1 rec/timeline.csv)" = start,core,ttre,tcfiat &&
	test -n "$(ini rec/stats.ini core0 fa_misses)" &&
	test -z "$(ini rec/stats.ini core0 mc2rt_msgs)" &&
	grep "the recorded encodings only: .raptor stat rec. gives the others" rec.err
'

test_expect_success '--all-encodings: the same streams, every encoding in stats.ini' '
	"$RAPTOR" record "$W" --cores 2 --all-encodings -o all >all.out 2>all.err &&
	test_cmp run.out all.out &&
	cmp rec/cf.bin all/cf.bin && cmp rec/lv.bin all/lv.bin &&
	cmp rec/manifest.ini all/manifest.ini &&
	test -z "$(ini all/stats.ini run encodings)" &&
	test $(grep -c "^\[[cl][fv]\." all/stats.ini) = 16 &&
	test -n "$(ini all/stats.ini lv.nxlv gzip1_bits)" &&
	grep "lv tnxlv.gz" all.err && ! grep "recorded encodings only" all.err &&
	for s in cf.ttre lv.tcfiat; do
		sed -n "/^\[$s\]/,/^\$/p" rec/stats.ini >fast.$s &&
		sed -n "/^\[$s\]/,/^\$/p" all/stats.ini >all.$s &&
		test_cmp all.$s fast.$s || return 1
	done
'

test_expect_success '--lv-enc none, the fast way: no load-value counters at all' '
	"$RAPTOR" record "$W" --cores 2 --lv-enc none -o lvnone -q >/dev/null &&
	cmp rec/cf.bin lvnone/cf.bin &&
	test -z "$(ini lvnone/stats.ini core0 loads)" &&
	grep "^\[[cl][fv]\." lvnone/stats.ini >sections &&
	echo "[cf.ttre]" >expect && test_cmp expect sections &&
	test "$(head -1 lvnone/timeline.csv)" = start,core,ttre
'

test_expect_success 'stats: field bits add up to each encoding total' '
	for s in cf.nxb cf.tnxb cf.trb cf.ttrb cf.tre cf.ttre; do
		sum=0 &&
		for k in bits_cc bits_ti bits_cnt bits_tnt bits_ta bits_icnt bits_exc; do
			sum=$((sum + $(ini all/stats.ini $s $k)))
		done &&
		test $sum = $(ini all/stats.ini $s bits) || { echo "$s: $sum"; return 1; }
	done &&
	for s in lv.nxlv lv.tnxlv lv.cfiat lv.tcfiat lv.mc2rt lv.tmc2rt; do
		sum=0 &&
		for k in bits_cc bits_ti bits_cnt bits_value; do
			sum=$((sum + $(ini all/stats.ini $s $k)))
		done &&
		test $sum = $(ini all/stats.ini $s bits) || { echo "$s: $sum"; return 1; }
	done
'

test_expect_success 'stats: messages match the predictor misses and exceptions' '
	miss=0 exc=0 &&
	for c in 0 1; do
		miss=$((miss + $(ini all/stats.ini core$c outcome_misses) +
			$(ini all/stats.ini core$c target_misses))) &&
		exc=$((exc + $(ini all/stats.ini core$c exceptions)))
	done &&
	for s in cf.trb cf.tre cf.ttre; do
		test $(ini all/stats.ini $s branch_msgs) -gt 0 &&
		test $(($(ini all/stats.ini $s branch_msgs) + $(ini all/stats.ini $s target_msgs))) = $miss &&
		test $(ini all/stats.ini $s exc_msgs) = $exc &&
		test $(ini all/stats.ini $s end_msgs) = 2 || { echo "$s"; return 1; }
	done &&
	test $(ini all/stats.ini cf.nxb msgs) -gt $(ini all/stats.ini cf.tre msgs)
'

test_expect_success 'stats: CFiat messages = per-core counts; NX-LV has one per load' '
	loads=$(($(ini all/stats.ini core0 loads) + $(ini all/stats.ini core1 loads))) &&
	cm=$(($(ini all/stats.ini core0 cfiat_msgs) + $(ini all/stats.ini core1 cfiat_msgs))) &&
	test $(ini all/stats.ini lv.nxlv msgs) = $loads &&
	test $(ini all/stats.ini lv.cfiat msgs) = $cm &&
	test $cm -lt $loads
'

test_expect_success 'TR_e is smaller than TR_b, which is smaller than NX_b' '
	test $(ini all/stats.ini cf.ttre bits) -lt $(ini all/stats.ini cf.ttrb bits) &&
	test $(ini all/stats.ini cf.ttrb bits) -lt $(ini all/stats.ini cf.tnxb bits) &&
	test $(ini all/stats.ini cf.tre bits) -lt $(ini all/stats.ini cf.ttre bits)
'

test_expect_success 'the same seed gives byte-identical recordings' '
	"$RAPTOR" record "$W" --cores 2 -o rec2 -q >/dev/null &&
	cmp rec/cf.bin rec2/cf.bin &&
	cmp rec/lv.bin rec2/lv.bin &&
	cmp rec/manifest.ini rec2/manifest.ini &&
	cmp rec/stats.ini rec2/stats.ini
'

test_expect_success 'an existing recording is not overwritten without --force' '
	cp rec/cf.bin cf.before &&
	test_must_fail "$RAPTOR" record "$W" --cores 2 --seed 5 -o rec -q 2>err &&
	grep "already holds a recording; --force replaces it" err &&
	cmp cf.before rec/cf.bin &&
	"$RAPTOR" record "$W" --cores 2 --seed 5 -o rec2 --force -q >/dev/null &&
	! cmp -s rec/cf.bin rec2/cf.bin
'

test_expect_success 'a directory with foreign files is refused, even with --force' '
	mkdir other && echo keep >other/notes.txt &&
	test_must_fail "$RAPTOR" record "$W" -o other --force -q 2>err &&
	grep "holds .notes.txt., which is not part of a recording" err &&
	test "$(cat other/notes.txt)" = keep
'

test_expect_success 'every encoding, functional and timed, sizes as stats predicted' '
	for cf in nxb trb tre; do
		for lv in nxlv cfiat mc2rt; do
			for t in --timed --functional; do
				"$RAPTOR" record "$W" --cores 2 --cf-enc $cf --lv-enc $lv $t \
					-o r.$cf.$lv$t -q >/dev/null || return 1
				p=; test $t = --timed && p=t
				test $(ini r.$cf.$lv$t/manifest.ini cf bits) = \
					$(ini r.$cf.$lv$t/stats.ini cf.$p$cf bits) &&
				test $(ini r.$cf.$lv$t/manifest.ini lv bits) = \
					$(ini r.$cf.$lv$t/stats.ini lv.$p$lv bits) &&
				test $(ini r.$cf.$lv$t/manifest.ini cf encoding) = $cf &&
				test $(ini r.$cf.$lv$t/manifest.ini lv encoding) = $lv || {
					echo "$cf $lv $t"; return 1; }
			done
		done
	done
'

test_expect_success '--cf-enc none and --lv-enc none write no stream' '
	"$RAPTOR" record "$W" --cores 2 --cf-enc none --lv-enc none -o none -q >/dev/null &&
	! test -f none/cf.bin && ! test -f none/lv.bin &&
	test "$(ini none/manifest.ini cf encoding)" = none &&
	test -z "$(ini none/manifest.ini cf bits)"
'

test_expect_success 'configurations reach the manifest: small, shared, granule 1, chunks' '
	"$RAPTOR" record "$W" --cores 4 --cf small --share-predictors --share-cache \
		--lv size=8K,assoc=2,line=16,granule=1 --chunks cnt=4/3,fah=2/2 -o cfg -q >/dev/null &&
	test "$(ini cfg/manifest.ini board cores)" = 4 &&
	test "$(ini cfg/manifest.ini cf predictors)" = gshare=512,ras=8,ibtb=0,shift=4 &&
	test "$(ini cfg/manifest.ini cf shared)" = 1 &&
	test "$(ini cfg/manifest.ini lv shared)" = 1 &&
	test "$(ini cfg/manifest.ini lv cache)" = size=8192,assoc=2,line=16,granule=1 &&
	test "$(ini cfg/manifest.ini cf cnt)" = 4,3 &&
	test "$(ini cfg/manifest.ini lv cnt)" = 2,2 &&
	test "$(ini cfg/manifest.ini core3 pc)" = "$(ini cfg/manifest.ini core0 pc)"
'

test_expect_success 'bigger predictors send fewer cf bits, bigger granules fewer lv misses' '
	"$RAPTOR" record "$W" --cores 2 --cf S0 -o s0 -q >/dev/null &&
	test $(ini rec/stats.ini cf.ttre bits) -lt $(ini s0/stats.ini cf.ttre bits) &&
	"$RAPTOR" record "$W" --cores 2 --lv granule=1 -o g1 -q >/dev/null &&
	test $(ini rec/stats.ini lv.tcfiat msgs) -lt $(ini g1/stats.ini lv.tcfiat msgs)
'

test_expect_success '--truth writes the ground truth' '
	"$RAPTOR" record "$W" --cores 2 --truth -o tr -q >/dev/null &&
	test -s tr/truth.gz &&
	test "$(ini tr/manifest.ini truth file)" = truth.gz &&
	gzip -t tr/truth.gz &&
	test "$(gzip -dc tr/truth.gz | head -c 8)" = RPTRUTH1 &&
	cmp rec/cf.bin tr/cf.bin
'

test_expect_success '--max-insns leaves a partial recording of the prefix' '
	test_must_fail "$RAPTOR" record "$W" --cores 2 --max-insns 5000 -o part -q 2>err &&
	grep "partial recording of the first 5000 instructions" err &&
	test "$(ini part/manifest.ini recording state)" = partial &&
	test $(ini part/stats.ini run instructions) = 5000 &&
	test $(ini part/stats.ini cf.ttre end_msgs) = 2 &&
	test $(stat -c %s part/cf.bin) = $(bytes_of_bits $(ini part/manifest.ini cf bits))
'

test_expect_success 'SIGINT stops the run and still writes the recording' '
	"$RAPTOR" record "$BUILD/isatest/spin-forever.elf" --cores 2 -o sig -q >/dev/null 2>err &
	pid=$! &&
	sleep 1 && kill -INT $pid &&
	{ wait $pid; test $? = 125; } &&
	grep "interrupted after" err &&
	test "$(ini sig/manifest.ini recording state)" = partial &&
	test $(stat -c %s sig/cf.bin) = $(bytes_of_bits $(ini sig/manifest.ini cf bits)) &&
	test $(ini sig/stats.ini run instructions) -gt 100000 &&
	test $(ini sig/stats.ini cf.ttre end_msgs) = 2
'

test_expect_success 'bad usage is refused with a clear message' '
	test_expect_code 2 "$RAPTOR" record "$W" 2>err &&
	grep "\-o REC is required" err &&
	test_expect_code 2 "$RAPTOR" record "$W" -o x --cf huge 2>err &&
	grep "huge" err &&
	test_expect_code 2 "$RAPTOR" record "$W" -o x --lv granule=3 2>err &&
	grep "granule" err &&
	test_expect_code 2 "$RAPTOR" record "$W" -o x --chunks cnt=0/2 2>err &&
	grep "cnt=0/2" err &&
	test_expect_code 2 "$RAPTOR" record "$W" -o x --cf-enc zip 2>err &&
	grep "zip" err &&
	! test -e x
'

test_expect_success 'a missing ELF is an error naming it, and no recording' '
	test_expect_code 125 "$RAPTOR" record nosuch.elf -o y 2>err &&
	grep "nosuch.elf" err &&
	grep "no recording was made" err
'

test_expect_success 'the trace modules do not change the program: record and run retire the same instructions' '
	for w in racy-m3-O2 systick-m4-O2 ring-m3-Os lu-m3-O0; do
		for n in 1 4 8; do
			for seed in 1 7; do
				"$RAPTOR" record "$GUEST/$w.elf" --cores $n --seed $seed \
					--truth -o same.$w.$n.$seed -q >/dev/null &&
				"$BUILD/truthq" same.$w.$n.$seed trace >recorded &&
				"$RAPTOR" run "$GUEST/$w.elf" --cores $n --seed $seed \
					--trace-regs regs >/dev/null &&
				awk "{ print \$1 + 0, \$2 }" regs >ran &&
				test_cmp ran recorded &&
				echo "# $w at $n cores, seed $seed: $(wc -l <ran) instructions, the same" &&
				rm -rf same.$w.$n.$seed regs || return 1
			done
		done
	done
'

test_done
