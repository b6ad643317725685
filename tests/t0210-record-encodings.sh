#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor record runs only the recorded encodings; raptor stat computes the others by replay'

test_require "$RAPTOR"

# record_both NAME ARGS...: record ARGS the fast way (fast.NAME) and with
# --all-encodings (all.NAME); a partial recording (exit 125) is fine.
record_both() {
	rb_n_=$1
	shift
	{ "$RAPTOR" record "$@" -o fast.$rb_n_ -q >fast.$rb_n_.out 2>&1 || test $? = 125; } &&
	{ "$RAPTOR" record "$@" --all-encodings -o all.$rb_n_ -q >all.$rb_n_.out 2>&1 ||
		test $? = 125; } &&
	test "$(ini fast.$rb_n_/stats.ini run encodings)" = recorded &&
	test -z "$(ini all.$rb_n_/stats.ini run encodings)"
}

# same_stat NAME: raptor stat gives every table of fast.NAME as of all.NAME
# (the recording column aside), and the same JSON but for other_encodings.
same_stat() {
	ss_n_=$1
	for f in cf.bin lv.bin manifest.ini; do
		if test -f all.$ss_n_/$f; then
			cmp all.$ss_n_/$f fast.$ss_n_/$f || return 1
		fi
	done &&
	w=$(ini all.$ss_n_/stats.ini timeline window) &&
	for t in encodings cores cdf windows; do
		o=--csv=$t
		test $t = windows && o="--csv=windows --over-time $((w * 4))"
		# shellcheck disable=SC2086
		"$RAPTOR" stat all.$ss_n_ $o | sed "s/^all\.$ss_n_,/REC,/" >expect.$t &&
		# shellcheck disable=SC2086
		"$RAPTOR" stat fast.$ss_n_ $o | sed "s/^fast\.$ss_n_,/REC,/" >actual.$t &&
		test_cmp expect.$t actual.$t || return 1
	done &&
	test $(wc -l <expect.encodings) = 19 &&
	"$RAPTOR" stat all.$ss_n_ --json >all.json &&
	"$RAPTOR" stat fast.$ss_n_ --json >fast.json &&
	python3 -c '
import json, sys
a, f = json.load(open("all.json")), json.load(open("fast.json"))
assert a.pop("other_encodings") == "recorded", "all"
assert f.pop("other_encodings") == "replayed", "fast"
a.pop("recording"), f.pop("recording")
assert len(a["encodings"]) == 18
if a != f:
    sys.exit("the JSON reports differ")
' &&
	"$RAPTOR" stat fast.$ss_n_ >fast.txt &&
	grep "other encodings: computed by replaying the recording" fast.txt &&
	echo "# $ss_n_: $(ini all.$ss_n_/stats.ini run instructions) instructions," \
		"$(ini all.$ss_n_/stats.ini run cores) cores, every encoding the same"
}

test_expect_success 'single core, full state: stat of a fast recording = one with --all-encodings' '
	record_both crc "$GUEST/crc32-m3-O2.elf" --cores 1 &&
	same_stat crc &&
	test $(stat -c %s fast.crc/stats.ini) -lt $(stat -c %s all.crc/stats.ini)
'

test_expect_success 'multicore, full state: 2 and 4 cores, timed and functional' '
	record_both red "$GUEST/reduction-m3-O2.elf" --cores 2 &&
	same_stat red &&
	record_both racy "$GUEST/racy-m3-O2.elf" --cores 4 --seed 3 --cf-enc nxb \
		--lv-enc mc2rt --functional &&
	same_stat racy
'

test_expect_success 'exceptions, adaptive encodings, other chunks, shared predictors and cache' '
	record_both irq "$GUEST/irq-m4-O2.elf" --cpu m4 --cores 1 --cf-enc tra --lv-enc cfiata &&
	test $(ini all.irq/stats.ini core0 exceptions) -gt 10 &&
	same_stat irq &&
	record_both lu "$GUEST/lu-m3-O2.elf" --cores 4 --cf small --lv-enc nxlv \
		--chunks cnt=4/3,ta=5/5,cc=6/3,icnt=3/3,fah=2/2,lvcc=5/3 &&
	same_stat lu &&
	record_both sh "$GUEST/ring-m3-O2.elf" --cores 3 --cf medium --share-predictors \
		--share-cache --lv size=4K,assoc=2,line=16,granule=1 --cf-enc trb &&
	same_stat sh
'

test_expect_success 'a partial recording (an instruction limit) too' '
	record_both part "$GUEST/soak-m3-O2.elf" --cores 2 --max-insns 200000 &&
	test "$(ini fast.part/manifest.ini recording state)" = partial &&
	same_stat part
'

test_expect_success 'raptor tune reads a fast recording as one with --all-encodings' '
	"$RAPTOR" tune all.red all.crc --max 6 --csv >expect &&
	"$RAPTOR" tune fast.red fast.crc --max 6 --csv >actual &&
	test_cmp expect actual
'

test_expect_success 'a fast stats.ini that disagrees with the replay is refused' '
	cp -r fast.red bad &&
	sed -i "/^\[cf.ttre\]/,/^\[/ s/^bits_cc = .*/bits_cc = 1/" bad/stats.ini &&
	test_expect_code 1 "$RAPTOR" stat bad 2>err &&
	grep "bad/stats.ini: \[cf.ttre\] bits_cc = 1, but replaying the recording gives" err &&
	cp -r fast.red bad2 &&
	sed -i "/^\[core1\]/,/^\[/ s/^loads = .*/loads = 7/" bad2/stats.ini &&
	test_expect_code 1 "$RAPTOR" stat bad2 2>err &&
	grep "bad2/stats.ini: \[core1\] loads = 7, but replaying the recording gives" err &&
	cp -r fast.red bad3 &&
	sed -i "s/^encodings = recorded/encodings = some/" bad3/stats.ini &&
	test_expect_code 1 "$RAPTOR" stat bad3 2>err &&
	grep "encodings = .some.: not .recorded." err
'

test_expect_success 'a damaged stream is a desync of the replay, named' '
	cp -r fast.red dmg &&
	printf "\377\377\377\377" | dd of=dmg/lv.bin bs=1 seek=100 conv=notrunc 2>/dev/null &&
	test_expect_code 1 "$RAPTOR" stat dmg 2>err &&
	grep "dmg/lv.bin" err
'

test_expect_success '--lv-enc none: the recorded cf encoding only; stat says what is not known' '
	record_both lvn "$GUEST/reduction-m3-O2.elf" --cores 2 --lv-enc none &&
	"$RAPTOR" stat fast.lvn >out &&
	grep "recorded streams: cf ttre (.* bits), no lv" out &&
	grep "other encodings: not known: recorded without --all-encodings and without a$" out &&
	grep "^    no load value: no load-value encoding can be computed" out &&
	grep "data cache      not known: no load-value stream" out &&
	grep "^  cf ttre .*recorded" out &&
	test $(grep -c "^  [cl][fv] " out) = 3 &&
	"$RAPTOR" stat fast.lvn --csv >csv &&
	test $(wc -l <csv) = 2 &&
	"$RAPTOR" stat fast.lvn --json >json &&
	python3 -c "
import json
j = json.load(open(\"json\"))
assert j[\"other_encodings\"] == \"unknown\" and not j[\"load_values_known\"]
assert [e[\"name\"] for e in j[\"encodings\"]] == [\"ttre\"]
assert j[\"encodings\"][0][\"ratio\"] is None
" &&
	"$RAPTOR" stat all.lvn >out &&
	grep "other encodings: run side by side while recording" out &&
	"$RAPTOR" stat all.lvn --csv >csv && test $(wc -l <csv) = 19 &&
	grep "^all.lvn,cf,ttre," csv | cut -d, -f2-17 >expect &&
	"$RAPTOR" stat fast.lvn --csv | grep "^fast.lvn,cf,ttre," | cut -d, -f2-17 >actual &&
	test_cmp expect actual
'

test_expect_success '--cf-enc none: the recorded lv encoding only (the replay needs the cf stream)' '
	"$RAPTOR" record "$GUEST/reduction-m3-O2.elf" --cores 2 --cf-enc none -o cfn -q >/dev/null &&
	"$RAPTOR" stat cfn >out &&
	grep "other encodings: not known: recorded without --all-encodings" out &&
	grep "^    control-flow stream, which the replay needs" out &&
	grep "^  lv tcfiat .*recorded" out &&
	grep "^data cache" out
'

test_done
