#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'the fast engine and the simple one (RAPTOR_SIMPLE_ENGINE=1) agree instruction by instruction'

# The ISS's fast step, the replay's step loop and the caches' hints are
# fast paths over the general code they started from, which
# RAPTOR_SIMPLE_ENGINE=1 runs instead (a white-box switch, read when a
# decoder, scheduler or replay is created). Here both run the whole suite:
# the ISS's registers before every instruction (run --trace-regs), every
# file a recording writes (streams, ground truth, statistics), and the
# replay of each recording checked against its ground truth by both.

test_require "$RAPTOR" "$BUILD/tracecmp" python3 gzip

test_expect_success 'setup: the workloads and the ISA corner programs' '
	abs_list "$GUEST/multi.list" >multi &&
	abs_list "$GUEST/single.list" >single &&
	ls "$BUILD"/isatest/*.elf | grep -v spin-forever >corners &&
	test $(wc -l <multi) -ge 36 && test $(wc -l <single) -ge 70 &&
	test $(wc -l <corners) -ge 5
'

# same_run ELF CORES: run --trace-regs with both engines and compare the
# traces as they stream (tracecmp through FIFOs: at 170 bytes an
# instruction they are too big to write out); prints "ok LINES ELF CORES"
# or the failure.
cat >same_run <<'EOF'
#!/bin/sh
elf=$1 n=$2
d=$(mktemp -d run.XXXXXX)
mkfifo $d/fast $d/simple
# Each job holds its FIFO open itself (fd 4), so tracecmp sees an end even
# from a run that fails before opening it. --max-insns: a program that
# does not end must not run forever.
"$RAPTOR" run "$elf" --cores $n --max-insns 20000000 --trace-regs $d/fast \
	4>$d/fast >/dev/null 2>$d/err.fast &
pa=$!
RAPTOR_SIMPLE_ENGINE=1 "$RAPTOR" run "$elf" --cores $n --max-insns 20000000 \
	--trace-regs $d/simple 4>$d/simple >/dev/null 2>$d/err.simple &
pb=$!
"$BUILD/tracecmp" $d/fast $d/simple >$d/cmp 2>&1
c=$?
wait $pa
a=$?
wait $pb
b=$?
lines=$(sed -n 's/^\([0-9]*\) instructions compared, 0 mismatches$/\1/p' $d/cmp)
if [ $c != 0 ]; then
	echo "FAIL $elf $n: the traces differ: $(head -c 2000 $d/cmp | tr '\n' ' ')"
elif [ $a != $b ]; then
	echo "FAIL $elf $n: exit $a (fast) but $b (simple)"
elif [ -z "$lines" ] || [ "$lines" = 0 ]; then
	echo "FAIL $elf $n: empty trace"
else
	echo "ok $lines $elf $n"
fi
rm -rf $d
EOF
chmod +x same_run

# same_rec ELF CORES: record with the truth with both engines, compare
# every file, replay --verify each with the other engine; prints "ok N ...".
# Without the truth the fast engine's recorder takes the plain steps as
# counts (board_observer.on_plain): that recording's files must be the same
# too, but for the manifest's truth keys.
cat >same_rec <<'EOF'
#!/bin/sh
elf=$1 n=$2
d=$(mktemp -d rec.XXXXXX)
if ! "$RAPTOR" record "$elf" --cores $n --truth --all-encodings -o $d/fast -q \
	>/dev/null 2>$d/err ||
   ! RAPTOR_SIMPLE_ENGINE=1 "$RAPTOR" record "$elf" --cores $n --truth --all-encodings \
	-o $d/simple -q >/dev/null 2>>$d/err; then
	echo "FAIL record $elf $n: $(tail -1 $d/err)"; exit 0
fi
for f in cf.bin lv.bin truth.gz stats.ini manifest.ini timeline.csv; do
	# (truth.gz: the records; its gzip members end at snapshots, which follow the clock)
	if [ $f = truth.gz ]; then
		gzip -dc $d/fast/$f >$d/truth.fast && gzip -dc $d/simple/$f >$d/truth.simple &&
			cmp -s $d/truth.fast $d/truth.simple
	else
		cmp -s $d/fast/$f $d/simple/$f
	fi || { echo "FAIL record $elf $n: $f differs between the engines"; exit 0; }
done
rm -f $d/truth.fast $d/truth.simple
if ! "$RAPTOR" record "$elf" --cores $n --all-encodings -o $d/counted -q >/dev/null 2>$d/err; then
	echo "FAIL record $elf $n without the truth: $(tail -1 $d/err)"; exit 0
fi
for f in cf.bin lv.bin stats.ini timeline.csv; do
	if ! cmp -s $d/fast/$f $d/counted/$f; then
		echo "FAIL record $elf $n: $f differs with and without the truth"; exit 0
	fi
done
if ! grep -v truth $d/fast/manifest.ini | cmp -s - $d/counted/manifest.ini; then
	echo "FAIL record $elf $n: manifest.ini differs with and without the truth"; exit 0
fi
if ! RAPTOR_SIMPLE_ENGINE=1 "$RAPTOR" replay $d/fast --verify 2>$d/err.simple ||
   ! "$RAPTOR" replay $d/simple --verify 2>$d/err.fast; then
	echo "FAIL replay $elf $n: $(grep error $d/err.* | head -1)"; exit 0
fi
a=$(sed -n 's/^  \([0-9]*\) instructions verified.*/\1/p' $d/err.fast)
b=$(sed -n 's/^  \([0-9]*\) instructions verified.*/\1/p' $d/err.simple)
if [ -z "$a" ] || [ "$a" != "$b" ]; then
	echo "FAIL replay $elf $n: $a instructions verified (fast), $b (simple)"; exit 0
fi
# without a truth (the fast engine's own paths for plain steps and direct
# branches): the same counts, cycles and end; a bit flipped in the cf
# stream: the same error
for e in fast simple; do
	s=; [ $e = simple ] && s=1
	RAPTOR_SIMPLE_ENGINE=$s "$RAPTOR" replay $d/counted 2>&1 | grep -v " replayed " \
		>$d/sum.$e
done
if ! cmp -s $d/sum.fast $d/sum.simple || ! grep -q "core 0: [1-9]" $d/sum.fast; then
	echo "FAIL replay $elf $n without the truth: $(diff $d/sum.fast $d/sum.simple | head -3)"
	exit 0
fi
bits=$(sed -n 's/^bits = //p' $d/counted/manifest.ini | head -1)
python3 - $d/counted/cf.bin $((bits / 2)) <<-\PY
	import sys
	b = bytearray(open(sys.argv[1], "rb").read()); k = int(sys.argv[2])
	b[k // 8] ^= 1 << (k % 8); open(sys.argv[1], "wb").write(b)
	PY
for e in fast simple; do
	s=; [ $e = simple ] && s=1
	RAPTOR_SIMPLE_ENGINE=$s "$RAPTOR" replay $d/counted 2>&1 | grep -v " replayed " \
		>$d/bad.$e
done
if ! cmp -s $d/bad.fast $d/bad.simple; then
	echo "FAIL replay $elf $n, a bit flipped: $(diff $d/bad.fast $d/bad.simple | head -3)"
	exit 0
fi
echo "ok $a $elf $n"
rm -rf $d
EOF
chmod +x same_rec

# jobs SCRIPT JOBS WHAT: SCRIPT over every line of JOBS, two at a time;
# fails on a FAIL or a missing result
jobs() {
	xargs -P 2 -L 1 ./"$1" <"$2" >"$2.results" &&
	test $(wc -l <"$2.results") = $(wc -l <"$2") &&
	! grep FAIL "$2.results" &&
	awk -v what="$3" "{ n += \$2 } END { print \"# \" n \" \" what \" over \" NR \" runs\" }" \
		"$2.results"
}

test_expect_success 'the ISS: the registers before every instruction, single-core suite and corners' '
	{
		while read e; do echo "$e 1"; done <single
		while read e; do echo "$e 1"; done <corners
	} >runjobs &&
	test_sample runjobs &&
	jobs same_run runjobs "instructions compared"
'

test_expect_success 'the ISS on the board: the multicore suite at 4 cores (-Os builds)' '
	grep -- "-Os.elf" multi | while read e; do echo "$e 4"; done >mrunjobs &&
	test_sample mrunjobs &&
	jobs same_run mrunjobs "steps compared"
'

test_expect_success 'recordings byte-identical, and each engine replays the other one exactly (-O2 builds)' '
	{
		grep -- "-O2.elf" multi | while read e; do for n in 2 8; do echo "$e $n"; done; done
		grep -- "-O2.elf" single | while read e; do echo "$e 1"; done
	} >recjobs &&
	test_sample recjobs &&
	jobs same_rec recjobs "instructions verified by both engines"
'

test_expect_success 'the switch is real: only the fast engine takes the fast path' '
	e=$(head -1 single) &&
	"$RAPTOR" run "$e" --cores 1 --stats >/dev/null 2>fast.err &&
	RAPTOR_SIMPLE_ENGINE=1 "$RAPTOR" run "$e" --cores 1 --stats >/dev/null 2>simple.err &&
	sed -n "s/^engine: \([0-9]*\) steps on the fast path\$/\1/p" fast.err >fast.n &&
	grep "^engine: 0 steps on the fast path (RAPTOR_SIMPLE_ENGINE)\$" simple.err &&
	test $(cat fast.n) -gt 100000
'

test_done
