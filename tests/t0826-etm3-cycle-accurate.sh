#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'ETMv3.5 cycle-accurate mode (raptor record --cf-enc etm3 --port-cycles, ETMCR bit 12): every cycle of the timing model a W atom in the P-headers; the count OpenCSD gives after every instruction equals the truth'"'"'s cycles since the one before, the counts add up to each core'"'"'s cycles, and the replay still walks every core'"'"'s exact path, raw, framed and through a TPIU'
test_require "$RAPTOR"
test_require "$BUILD/etmcheck"
ETMCHECK=$BUILD/etmcheck && export ETMCHECK

# verify REC: replay --verify, 0 differences; prints "INSTRUCTIONS EXCEPTIONS"
ln -s "$SRC/tests/path-verify.sh" verify

# counts REC SYNC: etmcheck --cycles on REC's truth: 0 mismatches, its own
# ETMv3.5 streams and REC's cf.bin (decoded as the replay decodes it) with a
# count after every instruction, each the truth's cycles since the
# instruction before; every core's counts add up to exactly the truth's
# cycles from reset to its last instruction (ETMv3 traces every
# instruction, the first from reset); prints the counts
cat >counts <<'EOF2'
#!/bin/sh
rec=$1 sync=$2
"$ETMCHECK" "$rec" --cycles 1 --sync $sync >"$rec.cc" 2>&1 || { cat "$rec.cc"; exit 1; }
grep -q "; 0 mismatches$" "$rec.cc" || { cat "$rec.cc"; exit 1; }
line=$(grep "^recorded: $rec/cf.bin's ETMv3 trace .*; cycle counts equal to the truth's per core: [1-9][0-9]*\( [1-9][0-9]*\)*; 0 mismatches$" "$rec.cc") || { cat "$rec.cc"; exit 1; }
insns=$(echo "$line" | sed "s/.*instructions compared per core: \([0-9 ]*\); cycle counts.*/\1/")
ccs=$(echo "$line" | sed "s/.*cycle counts equal to the truth's per core: \([0-9 ]*\); 0 mismatches$/\1/")
total=0
n=$(sed -n "s/^cores = //p" "$rec/stats.ini")
c=0
while test $c -lt $n; do
	# the recorded stream: as many counts as instructions
	i=$(echo $insns | cut -d" " -f$((c + 1))) k=$(echo $ccs | cut -d" " -f$((c + 1)))
	test "$i" = "$k" || { echo "core $c: $k counts for $i instructions"; exit 1; }
	l=$(grep "^core $c etm3 cycles: " "$rec.cc") || { cat "$rec.cc"; exit 1; }
	set -- $(echo "$l" | sed "s/^core $c etm3 cycles: \([0-9]*\) counts equal the truth's cycles, \([0-9]*\) wrong; \([0-9]*\) cycles counted of the truth's \([0-9]*\) to the last instruction$/\1 \2 \3 \4/")
	test $# = 4 && test "$1" = "$k" && test "$2" = 0 && test "$3" = "$4" && test "$3" -gt 0 ||
		{ echo "core $c: $l"; exit 1; }
	total=$((total + k))
	c=$((c + 1))
done
echo $total
EOF2
chmod +x counts

test_expect_success 'record --cf-enc etm3 --port-cycles: [port] cycle_counting alone, the bytes are those etmcheck --cycles writes, replay --verify 0 differences' '
	"$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cores 2 --truth --cf-enc etm3 \
		--port-cycles --port-sync 1024 -q -o r1 >/dev/null &&
	grep -q "^cycle_counting = 1$" r1/manifest.ini &&
	! grep -q "cc_threshold" r1/manifest.ini &&
	mkdir raw && "$ETMCHECK" r1 --sync 1024 --cycles 1 --raw raw -q >/dev/null &&
	cat raw/etm3-core0.bin raw/etm3-core1.bin >both.bin &&
	cmp both.bin r1/cf.bin &&
	n=$(./counts r1 1024) && test $n -gt 100000 &&
	./verify r1 >n && read insns exc <n && test $insns = $n
'

test_expect_success 'the first I-sync carries a cycle count (70 00: unknown), the later ones do not' '
	od -An -tx1 -N9 r1/cf.bin | tr -s " \n" " " >head &&
	echo " 00 00 00 00 00 80 70 00 20 " >want &&
	echo >>head && test_cmp want head &&
	python3 -c "
d = open(\"r1/cf.bin\", \"rb\").read()
n = int(open(\"r1/manifest.ini\").read().split(\"core_bytes = \")[1].split(\",\")[0])
for core in (d[:n], d[n:]):
    s = [i for i in range(len(core) - 6) if core[i:i + 6] == bytes(5) + b\"\\x80\"]
    assert len(s) > 10 and core[s[0] + 6] == 0x70, s[:3]
    assert all(core[i + 6] == 0x08 and core[i + 7] == 0 for i in s[1:]), \"periodic\"
"
'

test_expect_success 'without --port-cycles: no cycle_counting key, the stream is the plain one' '
	"$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cores 2 --truth --cf-enc etm3 \
		--port-sync 1024 -q -o r0 >/dev/null &&
	! grep -q "cycle_counting\|cc_threshold" r0/manifest.ini &&
	mkdir raw0 && "$ETMCHECK" r0 --sync 1024 --raw raw0 -q >/dev/null &&
	cat raw0/etm3-core0.bin raw0/etm3-core1.bin | cmp - r0/cf.bin &&
	! cmp -s r0/cf.bin r1/cf.bin
'

# the suite at 1, 2 and 4 cores, raw, framed and through a TPIU; bits per
# instruction beside the same port in the same layout without cycle accuracy
test_expect_success 'the suite: every instruction'"'"'s count equals the truth'"'"'s cycles, every path the truth'"'"'s' '
	total=0 insns_all=0 &&
	for w in "systick-m3-O2 4" "racy-m4-Os 2" "lu-m7-O2 2" "systick-m33-O2 2" \
		 "irq-m3-O2 1" "reduction-m3-O2 4" "reduction-m3-O2 1"; do
		set -- $w &&
		for e in "" "--port-framed" "--port-tpiu"; do
			rm -rf off && "$RAPTOR" record "$GUEST/$1.elf" --cores $2 --cf-enc etm3 \
				$e --port-sync 1024 -q -o off >/dev/null &&
			off=$(stat -c %s off/cf.bin) &&
			rm -rf s &&
			"$RAPTOR" record "$GUEST/$1.elf" --cores $2 --truth --cf-enc etm3 \
				--port-cycles $e --port-sync 1024 -q -o s >/dev/null &&
			n=$(./counts s 1024) &&
			./verify s >v || { echo "FAIL $1 x$2 [$e]"; return 1; }
			read insns exc <v &&
			test $n = $insns &&
			on=$(stat -c %s s/cf.bin) &&
			echo "$1 x$2 [${e:-raw}]: $insns instructions, 0 differences; $n cycle counts, 0 wrong;" \
			     "$(echo "scale=3; 8 * $on / $insns" | bc) bits/instruction ($(echo "scale=3; 8 * $off / $insns" | bc) not cycle accurate)" &&
			total=$((total + n)) && insns_all=$((insns_all + insns)) || return 1
		done
	done &&
	echo "$insns_all instructions compared, 0 differences; $total cycle counts, 0 wrong" &&
	test $total -gt 1000000
'

test_expect_success 'an imported cycle-accurate capture (cycle_counting = 1) replays to the truth' '
	cat >imp.ini <<-EOF &&
	[trace]
	format = etm3
	cores = 2
	framed = 0
	trace_ids = 0x10,0x11
	sync_period = 1024
	core_bytes = $(sed -n "s/^core_bytes = //p" r1/manifest.ini)
	cycle_counting = 1
	EOF
	"$RAPTOR" import r1/cf.bin --elf r1/program.elf --config imp.ini -o imp >/dev/null 2>&1 &&
	grep -q "^cycle_counting = 1$" imp/manifest.ini &&
	! grep -q "cc_threshold" imp/manifest.ini &&
	cp r1/truth.gz imp/ && printf "[truth]\nfile = truth.gz\n" >>imp/manifest.ini &&
	./verify imp >n && read insns exc <n && test $insns -gt 100000 &&
	echo "cc_threshold = 2" >>imp.ini &&
	test_must_fail "$RAPTOR" import r1/cf.bin --elf r1/program.elf --config imp.ini -o x 2>err &&
	grep -q "cc_threshold = .2.: an ETMv4.s threshold (ETMv3.5 cycle-accurate mode has none)" err
'

test_expect_success 'a W atom too many: the path still replays, etmcheck names the count' '
	cp -r r1 m &&
	python3 -c "
import sys
d = bytearray(open(\"m/cf.bin\", \"rb\").read())
for i in range(200, len(d)):
    # a format 3 P-header with E, 2 to 7 W atoms: one more
    if d[i] & 0xe3 == 0xe0 and 0 < (d[i] >> 2) & 7 < 7 and d[i - 1] & 0x81 == 0x80:
        d[i] += 4
        break
else:
    sys.exit(1)
open(\"m/cf.bin\", \"wb\").write(d)
" &&
	! cmp -s m/cf.bin r1/cf.bin &&
	./verify m >/dev/null &&
	test_expect_code 1 "$ETMCHECK" m --sync 1024 --cycles 1 -q 2>err &&
	grep -q "core [01]: the recording.s ETMv3 (OpenCSD): 1 wrong cycle counts, the first after element [0-9]*: the truth has [0-9]* cycles, the decode gives [0-9]*" err
'

test_expect_success 'usage errors and a damaged [port]' '
	test_expect_code 2 "$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cf-enc etm3 --port-cycles=4 -o x 2>err &&
	grep -q "ETMv3.5 cycle-accurate mode traces every cycle, there is no threshold" err &&
	"$RAPTOR" record --help >help &&
	grep -q "etm3: cycle-accurate mode (ETMCR bit 12" help &&
	"$RAPTOR" import --help >help &&
	grep -q "traced cycle-accurate (etm3, ETMCR bit 12)" help &&
	cp -r r1 bad &&
	sed -i "s/^cycle_counting = 1$/cycle_counting = 1\ncc_threshold = 1/" bad/manifest.ini &&
	test_must_fail "$RAPTOR" replay bad 2>err &&
	grep -q "cc_threshold = .1.: an ETMv4.s alone" err &&
	sed -i "/^cc_threshold/d; s/^cycle_counting = 1$/cycle_counting = 0/" bad/manifest.ini &&
	test_must_fail "$RAPTOR" replay bad 2>err &&
	grep -q "cycle_counting = 0, cc_threshold = 0: cycle counting is an ETMv4.s" err
'

test_done
