#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'the TAGE outcome predictor (--cf small+/medium+/large+, dir=tage): recorded, replayed and verified, and its misses are the messages'

test_require "$RAPTOR" python3

# check_one ELF CORES CF [ARGS...]: record with predictors CF and the truth,
# replay --verify, then compare raptor stat's misprediction counts (all
# cores) with the recorded TR_e stream's branch and target messages; prints
# "ok INSTRS MISSES ELF CORES CF ARGS" or "FAIL ..." with the reason.
cat >check_one <<'EOF'
#!/bin/sh
elf=$1 n=$2 cf=$3
shift 3
d=$(mktemp -d rec.XXXXXX)
if ! "$RAPTOR" record "$elf" --cores $n --cf "$cf" "$@" --truth --all-encodings -o $d/r -q \
	>/dev/null 2>$d/err
then
	echo "FAIL record $elf $n $cf $*: $(tail -1 $d/err)"
	exit 0
fi
case $(sed -n 's/^predictors = //p' $d/r/manifest.ini) in
*,dir=tage) ;;
*) echo "FAIL manifest $elf $n $cf: $(grep predictors $d/r/manifest.ini)"; exit 0 ;;
esac
if ! "$RAPTOR" replay $d/r --verify 2>$d/err; then
	echo "FAIL replay $elf $n $cf $*: $(grep error $d/err | head -1)"
	exit 0
fi
misses=$("$RAPTOR" stat $d/r --csv=cores | awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["core"] == "all" { print $c["outcome_misses"] " " $c["target_misses"] }')
msgs=$("$RAPTOR" stat $d/r --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
e = [e for e in d["encodings"] if e["recorded"] and e["stream"] == "cf"][0]
print(e["branch_msgs"], e["target_msgs"])')
if [ -z "$misses" ] || [ "$misses" != "$msgs" ]; then
	echo "FAIL counts $elf $n $cf $*: misses (outcome target) '$misses', messages '$msgs'"
	exit 0
fi
echo "ok $(sed -n 's/^  \([0-9]*\) instructions verified.*/\1/p' $d/err) $(echo $misses | awk '{ print $1 + $2 }') $elf $n $cf $*"
rm -rf $d
EOF
chmod +x check_one

# run_jobs JOBS: check_one for every line of JOBS, two at a time, into
# JOBS.out; fails unless every job printed "ok"
run_jobs() {
	test_sample "$1" &&
	xargs -P 2 -L 1 ./check_one <"$1" >"$1.out" &&
	test "$(wc -l <"$1.out")" = "$(wc -l <"$1")" &&
	! grep FAIL "$1.out"
}

# misses ELF CORES CF: outcome misses of one recording (no truth)
misses() {
	"$RAPTOR" record "$GUEST/$1.elf" --cores $2 --cf "$3" --all-encodings -o m.$1.$2 --force \
		-q >/dev/null &&
	"$RAPTOR" stat m.$1.$2 --csv=cores | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["core"] == "all" { print $c["outcome_misses"] }'
}

test_expect_success 'setup: the workloads' '
	abs_list "$GUEST/multi.list" >multi &&
	abs_list "$GUEST/single.list" >single &&
	test $(wc -l <multi) -ge 36 && test $(wc -l <single) -ge 70
'

test_expect_success 'multicore suite (m3-O2, m4-Os) at 1, 2, 4, 8 cores and the -O2 single-core workloads, large+' '
	{
		grep -e -m3-O2 -e -m4-Os multi | while read e; do
			for n in 1 2 4 8; do echo "$e $n large+"; done
		done
		grep -e -O2 single | while read e; do echo "$e 1 large+"; done
	} >jobs &&
	run_jobs jobs &&
	awk "{ n += \$2; m += \$3 } END { print \"# \" n \" instructions verified over \" NR \" runs, \" m \" mispredictions = messages\" }" jobs.out
'

test_expect_success 'the other budgets and options: small+, medium+, custom, shared, functional, trb' '
	for e in racy-m4-O2 systick-m3-O2 lu-m3-Os ring-m3-O0; do
		for cfg in "small+" "medium+" "S2,dir=tage" "B4,dir=tage,shift=1" \
			"gshare=2048,ras=4,ibtb=8,dir=tage" "large+ --share-predictors" \
			"medium+ --functional" "small+ --cf-enc trb"; do
			for n in 2 8; do echo "$GUEST/$e.elf $n $cfg"; done
		done
	done >cfgjobs &&
	run_jobs cfgjobs &&
	awk "{ n += \$2 } END { print \"# \" n \" instructions verified over \" NR \" configurations\" }" \
		cfgjobs.out
'

test_expect_success 'TAGE mispredicts less than gshare in the same bits' '
	for w in nbody-m3-O2 systick-m3-O2 reduction-m3-O2; do
		for b in small medium large; do
			g=$(misses $w 4 $b) && t=$(misses $w 4 $b+) &&
			echo "# $w, 4 cores: $b $g outcome misses, $b+ $t" &&
			test "$t" -lt "$g" || return 1
		done
	done
'

test_expect_success 'setup: one large+ recording' '
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 4 --cf large+ --truth -o good -q \
		>/dev/null &&
	grep "^predictors = gshare=4096,ras=32,ibtb=64,shift=4,dir=tage\$" good/manifest.ini
'

test_expect_success 'checkpoints: random access and breakpoints both ways with large+' '
	"$RAPTOR" replay good --random 200 --interval 2000 2>err &&
	grep "200 random positions among [0-9]* equal the ground truth" err &&
	"$RAPTOR" replay good --check-points 20 --interval 3000 2>err &&
	grep "checks in both directions equal the ground truth" err
'

test_expect_success 'the manifest decides: replayed with gshare, the large+ streams diverge' '
	cp -r good asgshare &&
	sed "s/,dir=tage\$//" good/manifest.ini >asgshare/manifest.ini &&
	! cmp -s good/manifest.ini asgshare/manifest.ini &&
	test_expect_code 1 "$RAPTOR" replay asgshare --verify 2>err &&
	grep "the replay mispredicts\|the stream.s message" err
'

test_expect_success 'gshare recordings keep the old predictors string' '
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 2 -o plain -q >/dev/null &&
	grep "^predictors = gshare=4096,ras=32,ibtb=64,shift=4\$" plain/manifest.ini &&
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 2 --cf "small,dir=gshare" -o plain2 -q \
		>/dev/null &&
	grep "^predictors = gshare=512,ras=8,ibtb=0,shift=4\$" plain2/manifest.ini
'

test_expect_success 'bad --cf values are refused, naming the value' '
	test_expect_code 2 "$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cf large,dir=bimodal \
		-o bad1 -q 2>err &&
	grep "dir \"bimodal\" is not gshare or tage" err &&
	test_expect_code 2 "$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cf gshare=128,dir=tage \
		-o bad2 -q 2>err &&
	grep "128-entry gshare budget" err
'

test_done
