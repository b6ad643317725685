#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'ETMv4 cycle counting (raptor record --port-cycles, [port] cycle_counting): the board'"'"'s trace units write Cycle Count packets with the timing model'"'"'s cycles; OpenCSD'"'"'s counts equal the truth'"'"'s cycles between the same points (etmcheck --cycles), the replay still walks every core'"'"'s exact path, and an imported capture with cycle counts replays'
test_require "$RAPTOR"
test_require "$BUILD/etmcheck"
ETMCHECK=$BUILD/etmcheck && export ETMCHECK

# verify REC: replay --verify, 0 differences; prints "INSTRUCTIONS EXCEPTIONS"
ln -s "$SRC/tests/path-verify.sh" verify

# counts REC THRESHOLD SYNC: etmcheck --cycles on REC's truth, 0 mismatches and 0
# wrong counts, in its own streams and in REC's cf.bin (the recorded trace,
# raw or framed, decoded as the replay decodes it: a count on every core); every core's counts add up to no more than its cycles in
# stats.ini (a core that stops early still counts cycles there) and at
# least half of them; prints the counts
cat >counts <<'EOF2'
#!/bin/sh
rec=$1 thr=$2 sync=$3
"$ETMCHECK" "$rec" --cycles $thr --sync $sync >"$rec.cc" 2>&1 || { cat "$rec.cc"; exit 1; }
grep -q "; 0 mismatches$" "$rec.cc" || { cat "$rec.cc"; exit 1; }
grep "^recorded: $rec/cf.bin's ETMv4 trace .*; cycle counts equal to the truth's per core: [1-9][0-9]*\( [1-9][0-9]*\)*; 0 mismatches$" "$rec.cc" >/dev/null || { cat "$rec.cc"; exit 1; }
total=0
n=$(sed -n "s/^cores = //p" "$rec/stats.ini")
c=0
while test $c -lt $n; do
	line=$(grep "^core $c etm4 cycles: " "$rec.cc") || { cat "$rec.cc"; exit 1; }
	set -- $(echo "$line" | sed "s/^core $c etm4 cycles: \([0-9]*\) counts (\([0-9]*\) packets) equal the truth's cycles, \([0-9]*\) saturated, \([0-9]*\) wrong; \([0-9]*\) cycles counted$/\1 \2 \3 \4 \5/")
	test $# = 5 && test $1 -gt 0 && test $1 = $2 && test $4 = 0 || { echo "bad: $line"; exit 1; }
	cyc=$(sed -n "/^\[core$c\]/,/^\[/s/^cycles = //p" "$rec/stats.ini")
	test $5 -le $cyc && test $((2 * $5)) -ge $cyc || { echo "core $c: $5 cycles counted of $cyc"; exit 1; }
	total=$((total + $1))
	c=$((c + 1))
done
echo $total
EOF2
chmod +x counts

test_expect_success 'record --port-cycles: [port] says so, the bytes are those etmcheck --cycles writes, replay --verify 0 differences' '
	"$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cores 2 --truth --cf-enc etm4 \
		--port-cycles --port-sync 1024 -q -o r1 >/dev/null &&
	grep -q "^cycle_counting = 1$" r1/manifest.ini &&
	grep -q "^cc_threshold = 1$" r1/manifest.ini &&
	mkdir raw && "$ETMCHECK" r1 --sync 1024 --cycles 1 --raw raw -q >/dev/null &&
	cat raw/etm4-core0.bin raw/etm4-core1.bin >both.bin &&
	cmp both.bin r1/cf.bin &&
	n=$(./counts r1 1 1024) && test $n -gt 20000 &&
	./verify r1 >n && read insns exc <n && test $insns -gt 100000
'

test_expect_success 'without --port-cycles: no cycle_counting key, the stream is the plain one' '
	"$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cores 2 --truth --cf-enc etm4 \
		--port-sync 1024 -q -o r0 >/dev/null &&
	! grep -q "cycle_counting\|cc_threshold" r0/manifest.ini &&
	mkdir raw0 && "$ETMCHECK" r0 --sync 1024 --raw raw0 -q >/dev/null &&
	cat raw0/etm4-core0.bin raw0/etm4-core1.bin | cmp - r0/cf.bin &&
	! cmp -s r0/cf.bin r1/cf.bin
'

# the suite at 1, 2 and 4 cores, thresholds 1 (the least) and 64, raw,
# framed and through a TPIU; bits per instruction beside the same port with
# cycle counting off
test_expect_success 'the suite: every count equals the truth'"'"'s cycles, every path the truth'"'"'s' '
	total=0 insns_all=0 &&
	for w in "systick-m3-O2 4" "racy-m4-Os 2" "lu-m7-O2 2" "systick-m33-O2 2" \
		 "irq-m3-O2 1" "irq-m33-O2 1" "reduction-m3-O2 4"; do
		set -- $w &&
		for e in "--port-cycles" "--port-cycles=64" "--port-cycles=64 --port-framed" \
			 "--port-cycles --port-tpiu"; do
			# the same port with cycle counting off, for the bits per instruction
			rm -rf off && "$RAPTOR" record "$GUEST/$1.elf" --cores $2 --cf-enc etm4 \
				$(echo "$e" | sed "s/--port-cycles[=0-9]*//") \
				--port-sync 1024 -q -o off >/dev/null &&
			off=$(stat -c %s off/cf.bin) &&
			rm -rf s &&
			"$RAPTOR" record "$GUEST/$1.elf" --cores $2 --truth --cf-enc etm4 $e \
				--port-sync 1024 -q -o s >/dev/null &&
			thr=$(sed -n "s/^cc_threshold = //p" s/manifest.ini) &&
			n=$(./counts s $thr 1024) &&
			./verify s >v || { echo "FAIL $1 x$2 [$e]"; exit 1; }
			read insns exc <v &&
			on=$(stat -c %s s/cf.bin) &&
			echo "$1 x$2 [$e]: $insns instructions, 0 differences; $n cycle counts, 0 wrong;" \
			     "$(echo "scale=3; 8 * $on / $insns" | bc) bits/instruction ($(echo "scale=3; 8 * $off / $insns" | bc) off)" &&
			total=$((total + n)) && insns_all=$((insns_all + insns)) || exit 1
		done
	done &&
	echo "$insns_all instructions compared, 0 differences; $total cycle counts, 0 wrong" &&
	test $total -gt 100000
'

test_expect_success 'an imported capture with cycle counts (cycle_counting = 1) replays to the truth; without the key it does not decode' '
	cat >imp.ini <<-EOF &&
	[trace]
	format = etm4
	cores = 2
	framed = 0
	trace_ids = 0x10,0x11
	sync_period = 1024
	core_bytes = $(sed -n "s/^core_bytes = //p" r1/manifest.ini)
	cycle_counting = 1
	cc_threshold = 1
	EOF
	"$RAPTOR" import r1/cf.bin --elf r1/program.elf --config imp.ini -o imp >/dev/null 2>&1 &&
	grep -q "^cycle_counting = 1$" imp/manifest.ini &&
	cp r1/truth.gz imp/ && printf "[truth]\nfile = truth.gz\n" >>imp/manifest.ini &&
	./verify imp >n && read insns exc <n && test $insns -gt 100000 &&
	grep -v "cycle_counting\|cc_threshold" imp.ini >imp0.ini &&
	test_must_fail "$RAPTOR" import r1/cf.bin --elf r1/program.elf --config imp0.ini -o imp0 2>err &&
	test ! -e imp0 &&
	sed "s/^format = etm4/format = mtb/" imp.ini >imp3.ini &&
	test_must_fail "$RAPTOR" import r1/cf.bin --elf r1/program.elf --config imp3.ini -o imp3 2>err &&
	grep -q "cycle_counting = .1.: ETMv4 cycle counting or ETMv3.5 cycle-accurate mode, and the format is mtb" err
'

test_expect_success 'a Cycle Count packet one cycle off: the path still replays, etmcheck names the count' '
	cp -r r1 m &&
	python3 -c "
import sys
d = bytearray(open(\"m/cf.bin\", \"rb\").read())
for i in range(200, len(d)):
    # a Cycle Count F3 right after an atom F1, its count below the top
    if 0x10 <= d[i] <= 0x12 and d[i - 1] in (0xf6, 0xf7):
        d[i] += 1
        break
else:
    sys.exit(1)
open(\"m/cf.bin\", \"wb\").write(d)
" &&
	! cmp -s m/cf.bin r1/cf.bin &&
	./verify m >/dev/null &&
	test_expect_code 1 "$ETMCHECK" m --sync 1024 --cycles 1 -q 2>err &&
	grep -q "core 0: the recording.s ETMv4 (OpenCSD): 1 wrong cycle counts, the first after element [0-9]*: the truth has [0-9]* cycles, the decode gives [0-9]*" err
'

test_expect_success 'usage errors and a damaged [port]' '
	test_expect_code 2 "$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cf-enc mtb --port-cycles -o x 2>err &&
	grep -q "cycle counting is the ETMs.*an MTB has none" err &&
	test_expect_code 2 "$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cf-enc etm4 --port-cycles=4096 -o x 2>err &&
	grep -q "not a threshold from 1 to 4095" err &&
	test_expect_code 2 "$RAPTOR" record "$GUEST/systick-m3-O2.elf" --port-cycles -o x 2>err &&
	grep -q "need --cf-enc etm4, etm3 or mtb" err &&
	test_expect_code 2 "$ETMCHECK" r1 --cycles 0 2>err &&
	cp -r r1 bad &&
	sed -i "s/^cc_threshold = 1/cc_threshold = 5000/" bad/manifest.ini &&
	test_must_fail "$RAPTOR" replay bad 2>err &&
	grep -q "with a threshold from 1 to 4095" err &&
	sed -i "/^cycle_counting = 1/d" bad/manifest.ini &&
	test_must_fail "$RAPTOR" replay bad 2>err &&
	grep -q "cc_threshold = .5000.: only with cycle_counting = 1" err
'

test_done
