#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'the decoded path of a trace port'"'"'s recording is kept packed (replay/pmsgs.h): the walk gets exactly the messages of the plain path (RAPTOR_PATH_PLAIN checks every one against it) forward, through --verify gaps, and in random access and breakpoint/stepi runs in both directions; raptor replay reports the bytes a message takes, bounded'
test_require "$RAPTOR"

# path_line OUT: "messages bytes packed packed_bytes" of raptor replay's "decoded path" line
cat >path_line <<'EOF2'
#!/bin/sh
sed -n "s/^  decoded path: \([0-9]*\) messages in \([0-9]*\) bytes ([0-9.]* a message); \([0-9]*\) of them packed in \([0-9]*\) bytes.*/\1 \2 \3 \4/p" "$1"
EOF2
chmod +x path_line

test_expect_success 'every port: replay --verify with the plain path checked beside the packed one, 0 differences, the same replay' '
	for e in "etm4 --port-tpiu" "etm4" "etm3 --port-framed" "mtb"; do
		rm -rf s &&
		"$RAPTOR" record "$GUEST/reduction-m3-O2.elf" --cores 4 --truth --cf-enc $e \
			-q -o s >/dev/null &&
		RAPTOR_PATH_PLAIN=1 "$RAPTOR" replay s --verify 2>a &&
		"$RAPTOR" replay s --verify 2>b &&
		grep -q "exception entries verified against the ground truth, registers and memory not traced, 0 differences" a &&
		grep "verified\|^  core" a >va && grep "verified\|^  core" b >vb && test_cmp va vb &&
		./path_line b >p && read n bytes packed pbytes <p &&
		test $packed -gt 1024 || { echo "FAIL [$e]: $(cat a)"; exit 1; }
		echo "[$e]: $n messages, $packed packed in $pbytes bytes, $bytes in all"
	done
'

test_expect_success 'the bytes a message takes: at most 6 packed, the rest a plain chunk and a reader per core' '
	./path_line b >p && read n bytes packed pbytes <p &&
	test $pbytes -le $((6 * packed)) &&
	test $bytes -le $((6 * n + 4 * 3 * 8192 + 1024))
'

test_expect_success 'random access and breakpoint/stepi checks in both directions, the plain path checked' '
	for e in "etm4 --port-framed" "etm3" "mtb"; do
		rm -rf ra &&
		"$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cores 2 --truth --cf-enc $e \
			--port-sync 512 -q -o ra >/dev/null &&
		RAPTOR_PATH_PLAIN=1 "$RAPTOR" replay ra --random 40 --interval 5000 2>out &&
		grep -q "40 random positions among [0-9]* equal the ground truth" out &&
		RAPTOR_PATH_PLAIN=1 "$RAPTOR" replay ra --check-points 10 --interval 5000 2>out &&
		grep -q "30 breakpoint and stepi checks in both directions equal the ground truth.s PCs" out || {
			echo "FAIL [$e]: $(cat out)"; exit 1; }
	done
'

# with_truth IMPORTED ORIGINAL: the imported recording with the original's truth
cat >with_truth <<'EOF2'
#!/bin/sh
cp "$2/truth.gz" "$1/" && printf "[truth]\nfile = truth.gz\n" >>"$1/manifest.ini"
EOF2
chmod +x with_truth

# the gap signature (--verify's alignment at a gap) reads the path from
# the gap on through a reader, across chunks (thousands of messages follow)
test_expect_success 'gaps: captures that start late or lose bytes, verified with the plain path checked' '
	"$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cores 2 --truth --cf-enc etm4 --port-tpiu \
		--trace-ids 0x21,0x22 --port-sync 256 -q -o t4 >/dev/null &&
	printf "[trace]\nformat = etm4\ncores = 2\nframed = 1\ntpiu = 1\ntrace_ids = 0x21,0x22\n" >t4.ini &&
	tail -c +1002 t4/cf.bin >tl.bin &&
	"$RAPTOR" import tl.bin --elf "$GUEST/systick-m3-O2.elf" --config t4.ini -o itl 2>/dev/null &&
	./with_truth itl t4 &&
	RAPTOR_PATH_PLAIN=1 "$RAPTOR" replay itl --verify 2>out &&
	grep -q "trace port: 2 gaps the trace marks" out &&
	grep -q "registers and memory not traced, 0 differences" out &&
	./path_line out >p && read n bytes packed pbytes <p && test $packed -ge 8192 &&
	"$RAPTOR" record "$GUEST/systick-m3-O2.elf" --truth --cf-enc etm4 --port-sync 256 \
		-q -o one >/dev/null &&
	{ head -c 600 one/cf.bin; tail -c +701 one/cf.bin; } >holed.bin &&
	printf "[trace]\nformat = etm4\ncores = 1\nframed = 0\ntrace_ids = 0x10\n" >one.ini &&
	"$RAPTOR" import holed.bin --elf "$GUEST/systick-m3-O2.elf" --config one.ini -o ih 2>/dev/null &&
	./with_truth ih one &&
	RAPTOR_PATH_PLAIN=1 "$RAPTOR" replay ih --verify 2>out &&
	grep -q "trace port: 1 gaps the trace marks" out &&
	grep -q "registers and memory not traced, 0 differences" out
'

test_done
