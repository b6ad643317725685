#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor record --cf-enc etm4 | etm3 | mtb: the board'"'"'s trace units write cf.bin (raw per core or in CoreSight frames, [port] in the manifest); raptor replay --verify decodes ETM recordings with OpenCSD and MTB buffers with raptor'"'"'s reading and walks every core'"'"'s exact path, 0 differences against the truth'
test_require "$RAPTOR"

# verify REC: replay --verify, 0 differences; prints "INSTRUCTIONS EXCEPTIONS"
ln -s "$SRC/tests/path-verify.sh" verify

test_expect_success 'etm4 raw: the manifest has [port], core_bytes add up, the bytes are those etmcheck writes' '
	"$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cores 2 --truth --cf-enc etm4 \
		--port-sync 1024 -q -o r4 >/dev/null &&
	grep -q "^encoding = etm4$" r4/manifest.ini &&
	grep -q "^framed = 0$" r4/manifest.ini &&
	grep -q "^sync_period = 1024$" r4/manifest.ini &&
	grep -q "^trace_ids = 0x10,0x11$" r4/manifest.ini &&
	grep -q "^encoding = none$" r4/manifest.ini &&
	b=$(sed -n "s/^core_bytes = //p" r4/manifest.ini) &&
	test $(( ${b%,*} + ${b#*,} )) = $(stat -c %s r4/cf.bin) &&
	if test -x "$BUILD/etmcheck"; then
		mkdir raw && "$BUILD/etmcheck" r4 --sync 1024 --raw raw -q >/dev/null &&
		cat raw/etm4-core0.bin raw/etm4-core1.bin >both.bin &&
		cmp both.bin r4/cf.bin
	fi
'

test_expect_success 'etm4 raw: replay --verify, 0 differences; the untraced tail is counted' '
	./verify r4 >n &&
	read insns exc <n && test $insns -gt 100000 && test $exc = 32 &&
	grep -q "trace port: 0 gaps the trace marks (0 of the truth.s steps in them, not compared), [1-9][0-9]* instructions after the trace.s last" r4.out
'

# the suite: ETMv4 raw and framed, ETMv3 raw and framed, at 1, 2, 4, 8 cores
# (framed: trace IDs of the engineer'"'"'s choosing)
test_expect_success 'the suite: every ETM recording replays to the truth, 0 differences' '
	total=0 &&
	for w in "reduction-m3-O2 8" "systick-m3-O2 4" "racy-m4-Os 2" "lu-m7-O2 2" \
		 "systick-m33-O2 2" "irq-m3-O2 1" "irq-m33-O2 1"; do
		set -- $w &&
		ids=$(seq -s, 33 $((32 + $2))) &&
		for e in "etm4" "etm4 --port-framed --trace-ids $ids" "etm4 --port-tpiu" \
			 "etm3" "etm3 --port-framed" "etm3 --port-tpiu --trace-ids $ids" "mtb"; do
			rm -rf s &&
			"$RAPTOR" record "$GUEST/$1.elf" --cores $2 --truth --cf-enc $e \
				--port-sync 1024 -q -o s >/dev/null &&
			./verify s >n || { echo "FAIL $1 x$2 [$e]"; exit 1; }
			read insns exc <n &&
			echo "$1 x$2 [$e]: $insns instructions, $exc exceptions, 0 differences" &&
			total=$((total + insns)) || exit 1
		done
	done &&
	echo "$total instructions compared, 0 differences" &&
	test $total -gt 5000000
'

test_expect_success 'random access and breakpoint/stepi checks in both directions (checkpoints, reverse) against the truth' '
	for e in "etm4 --port-framed" "etm3" "mtb"; do
		rm -rf ra &&
		"$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cores 2 --truth --cf-enc $e \
			--port-sync 512 -q -o ra >/dev/null &&
		"$RAPTOR" replay ra --random 40 --interval 5000 2>out &&
		grep -q "40 random positions among [0-9]* equal the ground truth" out &&
		"$RAPTOR" replay ra --check-points 10 --interval 5000 2>out &&
		grep -q "30 breakpoint and stepi checks in both directions equal the ground truth.s PCs" out || {
			echo "FAIL [$e]: $(cat out)"; exit 1; }
	done
'

test_expect_success 'the walk one instruction at a time (RAPTOR_CFW_SIMPLE) replays the same path' '
	"$RAPTOR" record "$GUEST/irq-m3-O2.elf" --truth --cf-enc etm4 --port-framed -q -o si >/dev/null &&
	RAPTOR_CFW_SIMPLE=1 "$RAPTOR" replay si --verify 2>a &&
	"$RAPTOR" replay si --verify 2>b &&
	grep "verified against the ground truth" a >va && grep "verified against the ground truth" b >vb &&
	test_cmp va vb && grep -q ", 0 differences" va &&
	grep "^  core 0: " a >ca && grep "^  core 0: " b >cb && test_cmp ca cb
'

test_expect_success 'framed: the trace IDs are in the manifest; the capture is whole frames' '
	"$RAPTOR" record "$GUEST/racy-m3-O0.elf" --cores 4 --truth --cf-enc etm4 --port-framed \
		--trace-ids 0x21,0x22,0x23,0x24 -q -o rf >/dev/null &&
	grep -q "^trace_ids = 0x21,0x22,0x23,0x24$" rf/manifest.ini &&
	grep -q "^framed = 1$" rf/manifest.ini &&
	test $(( $(stat -c %s rf/cf.bin) % 16 )) = 0 &&
	./verify rf >/dev/null
'

test_expect_success 'tpiu: an FSYNC (ff ff ff 7f) before the first frame and every 16th' '
	"$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cores 2 --cf-enc etm4 --port-tpiu -q -o rt >/dev/null &&
	grep -q "^framed = 1$" rt/manifest.ini && grep -q "^tpiu = 1$" rt/manifest.ini &&
	size=$(stat -c %s rt/cf.bin) &&
	frames=$(( (size - 4 * ((size / 16 + 15) / 16)) / 16 )) &&
	test $((frames * 16 + 4 * ((frames + 15) / 16))) = $size &&
	test "$(od -An -tx1 -N4 rt/cf.bin | tr -d " ")" = ffffff7f &&
	test "$(od -An -tx1 -j $((4 + 16 * 16)) -N4 rt/cf.bin | tr -d " ")" = ffffff7f
'

test_expect_success 'mtb: each core'"'"'s buffer, 8 bytes a packet, as etmcheck writes it' '
	"$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cores 2 --cf-enc mtb --truth -q -o rm >/dev/null &&
	grep -q "^encoding = mtb$" rm/manifest.ini &&
	test $(( $(stat -c %s rm/cf.bin) % 8 )) = 0 &&
	if test -x "$BUILD/etmcheck"; then
		mkdir rawm && "$BUILD/etmcheck" rm --raw rawm -q >/dev/null &&
		cat rawm/mtb-core0.bin rawm/mtb-core1.bin >both.bin &&
		cmp both.bin rm/cf.bin
	fi
'

test_expect_success 'mtb: a damaged buffer is refused with the core and the byte offset' '
	cp -r rm rmb &&
	printf "\377\377\377\377" | dd of=rmb/cf.bin bs=1 seek=64 conv=notrunc 2>/dev/null &&
	test_must_fail "$RAPTOR" replay rmb 2>err &&
	grep -q "rmb/cf.bin: core 0 (its MTB buffer), instruction [0-9]*, byte 64: " err
'

test_expect_success 'a run stopped by --max-insns: a partial recording whose trace replays as far as it goes' '
	test_expect_code 125 "$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cores 2 --truth \
		--cf-enc etm4 --port-framed --max-insns 20000 -q -o rp >/dev/null 2>&1 &&
	grep -q "^state = partial$" rp/manifest.ini &&
	"$RAPTOR" replay rp --verify 2>out &&
	grep -q ", 0 differences" out &&
	n=$(sed -n "s/^  \([0-9]*\) instructions.* verified.*/\1/p" out) &&
	test $n -gt 19900 && test $n -le 20000
'

test_expect_success 'usage errors' '
	test_expect_code 2 "$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cf-enc etm4 --lv-enc cfiat -o x 2>err &&
	grep -q "no --lv-enc" err &&
	test_expect_code 2 "$RAPTOR" record "$GUEST/systick-m3-O2.elf" --port-framed -o x 2>err &&
	grep -q "need --cf-enc etm4, etm3 or mtb" err &&
	test_expect_code 2 "$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cf-enc etm4 --port-sync 1000 -o x 2>err &&
	grep -q "not a power of 2" err &&
	test_expect_code 2 "$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cores 2 --cf-enc etm4 --trace-ids 0x10 -o x 2>err &&
	grep -q "1 IDs for 2 cores" err &&
	test_expect_code 2 "$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cf-enc etm4 --trace-ids 0x70 -o x 2>err &&
	grep -q "not a trace ID" err &&
	test_expect_code 2 "$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cf-enc mtb --port-framed -o x 2>err &&
	grep -q "not through the" err
'

test_expect_success 'a damaged manifest [port] is refused naming the key' '
	cp -r r4 bad &&
	sed -i "s/^core_bytes = .*/core_bytes = 1,2/" bad/manifest.ini &&
	test_must_fail "$RAPTOR" replay bad 2>err &&
	grep -q "core_bytes add up to 3 bytes" err &&
	cp r4/manifest.ini bad/ &&
	sed -i "s/^trace_ids = .*/trace_ids = 0x10,0x10/" bad/manifest.ini &&
	test_must_fail "$RAPTOR" replay bad 2>err &&
	grep -q "cores 0 and 1 both have 0x10" err
'

test_done
