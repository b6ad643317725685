#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor import of ETMv3.5 captures whose cycle_counting key is wrong: a cycle-accurate capture read as not, or a plain one read as cycle accurate, is refused at the I-sync that shows it, naming the file, the byte and the core, rather than replayed along a misread path; a window with no non-periodic I-sync shows nothing, and what happens to it is counted'
test_require "$RAPTOR"

# conf REC CC: an import configuration for REC's capture; CC 1: cycle_counting = 1
cat >conf <<'EOF2'
#!/bin/sh
rec=$1 cc=$2
n=$(sed -n "s/^cores = //p" $rec/manifest.ini | head -1)
echo "[trace]"
echo "format = etm3"
echo "cores = $n"
echo "framed = $(sed -n "s/^framed = //p" $rec/manifest.ini)"
echo "tpiu = $(sed -n "s/^tpiu = //p" $rec/manifest.ini)"
echo "trace_ids = $(sed -n "s/^trace_ids = //p" $rec/manifest.ini)"
echo "sync_period = $(sed -n "s/^sync_period = //p" $rec/manifest.ini)"
grep -q "^framed = 1" $rec/manifest.ini ||
	echo "core_bytes = $(sed -n "s/^core_bytes = //p" $rec/manifest.ini)"
test $cc = 0 || echo "cycle_counting = 1"
EOF2
chmod +x conf

# verify IMP REC: REC's truth into IMP, replay --verify 0 differences
cat >verify <<'EOF2'
#!/bin/sh
cp $2/truth.gz $1/ && printf "[truth]\nfile = truth.gz\n" >>$1/manifest.ini &&
"$RAPTOR" replay $1 --verify >$1.out 2>&1 && grep -q ", 0 differences" $1.out
EOF2
chmod +x verify

test_expect_success 'the suite, each capture with the right key and the wrong one: the right replays, the wrong is refused at the I-sync that shows the mode' '
	right=0 wrong=0 &&
	for w in "systick-m3-O2 1" "systick-m3-O2 4" "racy-m4-Os 2" "irq-m3-O2 1" "reduction-m3-O2 4"; do
		set -- $w &&
		for e in "" "--port-framed" "--port-tpiu"; do
			for cc in 0 1; do
				r=r.$1.$2.${e#--port-}.$cc && rm -rf $r &&
				"$RAPTOR" record "$GUEST/$1.elf" --cores $2 --truth --cf-enc etm3 $e \
					$(test $cc = 0 || echo --port-cycles) --port-sync 1024 -q -o $r >/dev/null &&
				./conf $r $cc >$r.ok.ini && ./conf $r $((1 - cc)) >$r.bad.ini &&
				"$RAPTOR" import $r/cf.bin --elf $r/program.elf --config $r.ok.ini -o $r.ok -q &&
				./verify $r.ok $r &&
				right=$((right + 1)) &&
				test_must_fail "$RAPTOR" import $r/cf.bin --elf $r/program.elf --config $r.bad.ini -o $r.bad 2>err &&
				test ! -e $r.bad &&
				if test $cc = 1; then
					grep -q "^raptor: error: etm ocsd: trace ID 0x1[0-3]: byte [0-9]*: an I-sync with cycle count, which an ETMv3 writes in cycle-accurate mode alone, and the unit is said not to be (ETMCR bit 12 clear: cycle_counting = 1 missing?)" err
				else
					grep -q "trace ID 0x1[0-3].s I-sync at byte [0-9]* had no cycle count, and no Cycle count packet came after it, which a cycle-accurate ETMv3 gives: was the unit really cycle accurate (cycle_counting = 1)?\|trace ID 0x1[0-3]: the I-sync at byte [0-9]* has no cycle count and no Cycle count packet came before the end of the trace" err
				fi &&
				grep -q "$r/cf.bin\|$r.bad/cf.bin" err &&
				wrong=$((wrong + 1)) || { echo "FAIL $r (cycle_counting $cc)"; cat err; return 1; }
			done
		done
	done &&
	echo "$right captures replayed with the right key; $wrong refused with the wrong one, the mode named" &&
	test $right = 30 && test $wrong = 30
'

test_expect_success 'a register dump says the mode as well: etmcr with bit 12 is cycle accurate' '
	r=r.systick-m3-O2.4.framed.1 &&
	grep -v cycle_counting $r.ok.ini >dump.ini && echo "etmcr = 0x1000" >>dump.ini &&
	"$RAPTOR" import $r/cf.bin --elf $r/program.elf --config dump.ini -o dump -q &&
	./verify dump $r &&
	sed -i "s/^etmcr = 0x1000/etmcr = 0/" dump.ini &&
	test_must_fail "$RAPTOR" import $r/cf.bin --elf $r/program.elf --config dump.ini -o dump0 2>err &&
	grep -q "an I-sync with cycle count, which an ETMv3 writes in cycle-accurate mode alone" err &&
	echo "cycle_counting = 1" >>dump.ini &&
	test_must_fail "$RAPTOR" import $r/cf.bin --elf $r/program.elf --config dump.ini -o dump1 2>err &&
	grep -q "etmcr = .0.: bit 12 (cycle accurate) clear, and cycle_counting = 1 says otherwise" err
'

# A capture that starts after trace was enabled holds periodic I-syncs
# alone, which both modes write alike: nothing says the mode. Cut each
# single-core capture at 40 places past its first sync and import it with
# the wrong key: count how the misreading ends (refused by the decode, or
# replayed: another path, which only the truth tells).
test_expect_success 'windows with no non-periodic I-sync: the wrong key is not detectable there; counted' '
	: >windows &&
	for r in r.systick-m3-O2.1..0 r.systick-m3-O2.1..1 r.irq-m3-O2.1..0 r.irq-m3-O2.1..1; do
		cc=${r##*.} && size=$(stat -c %s $r/cf.bin) &&
		for k in $(seq 1 10); do
			off=$(( 64 + (k * 7919) % (size / 2) )) &&
			tail -c +$((off + 1)) $r/cf.bin >w.bin &&
			./conf $r $((1 - cc)) | sed "s/^core_bytes = .*/core_bytes = $((size - off))/" >w.ini &&
			rm -rf w &&
			if "$RAPTOR" import w.bin --elf $r/program.elf --config w.ini -o w -q 2>err; then
				if ./verify w $r; then echo "$r $off identical" >>windows
				else echo "$r $off silent" >>windows; fi
			elif grep -q "^raptor: error: .*byte [0-9]" err; then
				echo "$r $off refused" >>windows
			else
				echo "$r $off BAD: $(head -2 err | tr "\n" " ")" >>windows
			fi || return 1
		done
	done &&
	awk "{ n[\$3]++ } END { for (k in n) printf \"%s %d\\n\", k, n[k] }" windows | sort &&
	! grep BAD windows && test $(wc -l <windows) = 40
'

test_done
