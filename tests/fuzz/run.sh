#!/bin/sh
# run.sh: run the libFuzzer targets of tests/fuzz/ (built by `make fuzz-build`)
# each for a bounded time on its corpus, and say what they did.
#
# Usage: tests/fuzz/run.sh BUILD FUZZ_BUILD [TARGET...]
#   BUILD       the normal build: its raptor records the base recordings
#               (from BUILD/isatest/*.elf and BUILD/guest/*.elf)
#   FUZZ_BUILD  where `make fuzz-build` put FUZZ_BUILD/fuzz/fuzz_NAME
#   TARGET      cf lv manifest elf rsp (default: all)
# Environment: FUZZ_TIME seconds per target (default 60), FUZZ_JOBS targets
# at a time (default 1), FUZZ_ARGS more libFuzzer options (e.g. -seed=1),
# FUZZ_OUT the directory for everything below (default FUZZ_BUILD/fuzz).
#
# Files, all under FUZZ_OUT:
#   recs/NAME/     the base recordings fuzz_cf and fuzz_lv replace a stream of
#   seeds/NAME/    seeds made from them (streams, manifests)
#   corpus/NAME/   the working corpus: grows from run to run (libFuzzer
#                  writes new inputs there; tests/fuzz/corpus/NAME/ holds the
#                  committed seeds, which it only reads)
#   crashes/NAME-crash-*  an input that crashed it (also -leak-, -timeout-,
#                  -oom-); replay one with FUZZ_BUILD/fuzz/fuzz_NAME FILE
#   log/NAME.log   libFuzzer's output
# One line per target on stdout: "NAME: E executions in S s (R/s), cov C,
# ft F, corpus K inputs, N crashes"; exit status 1 if any crashed.
set -u

usage() {
	sed -n '2,/^set -u/{/^set -u/d;s/^# \{0,1\}//;p}' "$0" >&2
	exit 2
}
[ $# -ge 2 ] || usage
build=$1 fbuild=$2
shift 2
targets=${*:-cf lv manifest elf rsp}
src=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
time=${FUZZ_TIME:-60}
jobs=${FUZZ_JOBS:-1}
bin=$fbuild/fuzz
out=${FUZZ_OUT:-$bin}
raptor=$build/raptor
RAPTOR_FUZZ_RECS=$out/recs
export RAPTOR_FUZZ_RECS

for t in $targets; do
	[ -x "$bin/fuzz_$t" ] || { echo "run.sh: $bin/fuzz_$t is missing: make fuzz-build" >&2; exit 2; }
done
mkdir -p "$out/log" "$out/seeds" "$out/corpus" "$out/crashes" || exit 1

# The base recordings: small, each another encoding and another program
# shape (tiny complete programs from tests/isa, the start of racy and
# systick). Remade when raptor is newer than them.
rec() { # rec NAME ELF RAPTOR-RECORD-OPTIONS...
	rec_n=$1 rec_e=$2
	shift 2
	[ -f "$rec_e" ] || { echo "run.sh: $rec_e is missing (make guest isatests)" >&2; return 1; }
	rm -rf "$out/recs/$rec_n"
	"$raptor" record "$rec_e" -o "$out/recs/$rec_n" -q "$@" >/dev/null 2>&1
	[ -s "$out/recs/$rec_n/manifest.ini" ] || {
		echo "run.sh: cannot record $out/recs/$rec_n" >&2
		return 1
	}
	rm -f "$out/recs/$rec_n/stats.ini" "$out/recs/$rec_n/timeline.csv"
}
if [ ! -f "$out/recs/.done" ] || [ "$raptor" -nt "$out/recs/.done" ]; then
	rm -rf "$out/recs" "$out/seeds" && mkdir -p "$out/recs" &&
	# a stripped copy of racy and systick: hashing 370 KB of DWARF per input is waste
	strip=$(command -v arm-none-eabi-strip || echo cp) &&
	if [ "$strip" = cp ]; then
		cp "$build/guest/racy-m3-O2.elf" "$out/racy.elf" &&
		cp "$build/guest/systick-m3-Os.elf" "$out/systick.elf"
	else
		"$strip" -o "$out/racy.elf" "$build/guest/racy-m3-O2.elf" &&
		"$strip" -o "$out/systick.elf" "$build/guest/systick-m3-Os.elf"
	fi &&
	rec 0-strex-tre-cfiat "$build/isatest/strex-mc.elf" --cores 2 &&
	rec 1-excpsp-trb-mc2rt "$build/isatest/exc-psp.elf" --cores 2 --cf-enc trb \
		--lv-enc mc2rt &&
	rec 2-tbb-nxb-nxlv-functional "$build/isatest/tbb.elf" --cores 1 --cf-enc nxb \
		--lv-enc nxlv --functional &&
	rec 3-racy-tre-cfiat "$out/racy.elf" --cores 2 --max-insns 4000 &&
	rec 4-systick-trb-mc2rt-shared "$out/systick.elf" --cores 2 --max-insns 6000 \
		--cf-enc trb --lv-enc mc2rt --share-cache --share-predictors &&
	rec 5-racy-tre-cfonly "$out/racy.elf" --cores 3 --max-insns 3000 --lv-enc none &&
	rec 6-racy-nxb-cfonly-functional "$out/racy.elf" --cores 2 --max-insns 2000 \
		--cf-enc nxb --lv-enc none --functional &&
	rec 7-dsp-tre-cfiat-m4 "$build/isatest/dsp-test.elf" --cpu m4 --cores 1 --max-insns 3000 \
		--chunks cnt=1/1,ta=2/2,cc=1/3,icnt=1/1,fah=1/1,lvcc=2/2 &&
	touch "$out/recs/.done" || exit 1
fi

# Seeds from the base recordings: for fuzz_cf and fuzz_lv, byte 0 (the base
# and the padding, see fuzz_stream.c) and the stream; their manifests.
seeds() { # seeds STREAM (cf|lv)
	i=0
	for r in "$out"/recs/*/; do
		r=${r%/}
		bits=$(sed -n "/^\[$1\]/,/^\[/ s/^bits = //p" "$r/manifest.ini")
		if [ -n "$bits" ]; then
			pad=$(((8 - bits % 8) % 8))
			printf "\\$(printf %03o $((i | pad << 5)))" >"$out/seeds/$1/${r##*/}"
			cat "$r/$1.bin" >>"$out/seeds/$1/${r##*/}"
			i=$((i + 1)) # the targets number the bases with this stream only
		fi
	done
}
if [ ! -d "$out/seeds/cf" ]; then
	mkdir -p "$out/seeds/cf" "$out/seeds/lv" "$out/seeds/manifest" &&
	seeds cf && seeds lv &&
	for r in "$out"/recs/*/; do
		r=${r%/}
		cp "$r/manifest.ini" "$out/seeds/manifest/${r##*/}.ini" || exit 1
	done
fi

# run_one NAME: fuzz it; its summary line (and the crash, if any) on stdout.
run_one() {
	n=$1
	log=$out/log/$n.log
	mkdir -p "$out/corpus/$n"
	dirs="$out/corpus/$n"
	[ -d "$src/tests/fuzz/corpus/$n" ] && dirs="$dirs $src/tests/fuzz/corpus/$n"
	[ -d "$out/seeds/$n" ] && dirs="$dirs $out/seeds/$n"
	start=$(date +%s)
	# shellcheck disable=SC2086 # word lists on purpose
	"$bin/fuzz_$n" -max_total_time="$time" -timeout=20 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix="$out/crashes/$n-" \
		${FUZZ_ARGS:-} $dirs >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	last=$(grep -E '^#[0-9]+.*(cov|ft):' "$log" | tail -1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	crashes=0
	[ $rc = 0 ] || crashes=1
	echo "$n: ${execs:-?} executions in $secs s ($(( ${execs:-0} / (secs ? secs : 1) ))/s)," \
		"cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?} inputs, $crashes crashes"
	if [ $rc != 0 ]; then
		echo "$n: libFuzzer exit $rc; the end of $log:"
		grep -E 'ERROR|SUMMARY|^    #[0-9]|Test unit written|fuzz:' "$log" | head -40 | sed 's/^/  /'
		return 1
	fi
	return 0
}

fail=0
if [ "$jobs" -le 1 ]; then
	for t in $targets; do
		run_one "$t" || fail=1
	done
else
	# FUZZ_JOBS at a time, each in the background; results in order
	set -- $targets
	while [ $# -gt 0 ]; do
		pids= names=
		k=0
		while [ $# -gt 0 ] && [ $k -lt "$jobs" ]; do
			run_one "$1" >"$out/log/$1.summary" 2>&1 &
			pids="$pids $!" names="$names $1"
			k=$((k + 1))
			shift
		done
		for p in $pids; do
			wait "$p" || fail=1
		done
		for nm in $names; do
			cat "$out/log/$nm.summary"
		done
	done
fi
exit $fail
