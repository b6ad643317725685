#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'TPIU halfword syncs (raptor record --port-tpiu=hsync): the TPIU fills the port'"'"'s idle spells with HSYNCs (ff 7f), so frames start at any halfword; the capture is the one without them but for the HSYNCs, and replays, verifies, checks and imports to the same path'
test_require "$RAPTOR"
test_require "$BUILD/etmcheck"

# strip CAPTURE: the capture with its HSYNCs taken out (FSYNCs and frames kept)
cat >strip <<'EOF2'
import sys
d = open(sys.argv[1], "rb").read()
out, i, h = bytearray(), 0, 0
while i < len(d):
    if d[i:i + 4] == b"\xff\xff\xff\x7f":
        out += d[i:i + 4]; i += 4
    elif d[i:i + 2] == b"\xff\x7f":
        i += 2; h += 1
    else:
        out += d[i:i + 16]; i += 16
sys.stdout.buffer.write(out)
sys.stderr.write("%d\n" % h)
EOF2

test_expect_success 'the suite with HSYNCs: the same frames as without, the same path, every count still the truth'"'"'s' '
	total=0 hs=0 &&
	for w in "systick-m3-O2 1" "systick-m3-O2 4" "racy-m4-Os 2" "lu-m7-O2 2" "irq-m33-O2 1"; do
		set -- $w &&
		for e in "etm4" "etm3" "etm3 --port-cycles" "etm4 --port-cycles=8"; do
			rm -rf h p &&
			"$RAPTOR" record "$GUEST/$1.elf" --cores $2 --truth --cf-enc $e --port-tpiu=hsync \
				--port-sync 1024 -q -o h >/dev/null &&
			"$RAPTOR" record "$GUEST/$1.elf" --cores $2 --truth --cf-enc $e --port-tpiu \
				--port-sync 1024 -q -o p >/dev/null &&
			python3 strip h/cf.bin >stripped 2>n &&
			cmp stripped p/cf.bin && read n <n && test $n -gt 10 &&
			test $(($(stat -c %s h/cf.bin) % 4)) = 0 &&
			"$RAPTOR" replay h --verify >h.out 2>&1 && "$RAPTOR" replay p --verify >p.out 2>&1 &&
			grep ", 0 differences" h.out >hv && grep ", 0 differences" p.out >pv &&
			test_cmp pv hv &&
			"$BUILD/etmcheck" h --sync 1024 $(echo "$e" | grep -q cycles && echo --cycles 1) >h.cc 2>&1 &&
			grep "^recorded: h/cf.bin.s ETMv[34] trace (TPIU frames).*; 0 mismatches$" h.cc >/dev/null &&
			insns=$(sed -n "s/^  \([0-9]*\) instructions.*/\1/p" hv) || { echo "FAIL $w [$e]"; cat h.out h.cc; return 1; }
			echo "$1 x$2 [$e]: $n HSYNCs, $insns instructions, the path of the capture without them" &&
			total=$((total + insns)) && hs=$((hs + n))
		done
	done &&
	echo "$total instructions replayed through $hs HSYNCs, 0 differences"
'

test_expect_success 'an imported TPIU capture with HSYNCs, cut at odd halfwords at both ends, replays to the truth' '
	rm -rf h && "$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cores 2 --truth --cf-enc etm4 \
		--port-tpiu=hsync --port-sync 1024 -q -o h >/dev/null &&
	size=$(stat -c %s h/cf.bin) &&
	tail -c +7 h/cf.bin | head -c $((size - 6 - 10)) >cut.bin &&
	cat >imp.ini <<-EOF &&
	[trace]
	format = etm4
	cores = 2
	framed = 1
	tpiu = 1
	trace_ids = 0x10,0x11
	sync_period = 1024
	EOF
	"$RAPTOR" import cut.bin --elf h/program.elf --config imp.ini -o imp 2>err &&
	cp h/truth.gz imp/ && printf "[truth]\nfile = truth.gz\n" >>imp/manifest.ini &&
	"$RAPTOR" replay imp --verify >out 2>&1 && grep -q ", 0 differences" out &&
	"$RAPTOR" import h/cf.bin --elf h/program.elf --config imp.ini -o whole 2>err &&
	cp h/truth.gz whole/ && printf "[truth]\nfile = truth.gz\n" >>whole/manifest.ini &&
	"$RAPTOR" replay whole --verify >out 2>&1 && grep -q ", 0 differences" out &&
	grep -q "trace port: 0 gaps the trace marks" out
'

test_expect_success 'usage: --port-tpiu=hsync in --help; another value refused' '
	"$RAPTOR" record --help >help &&
	grep -q -- "--port-tpiu\[=hsync\]" help &&
	test_expect_code 2 "$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cf-enc etm4 --port-tpiu=fsync -o x 2>err &&
	grep -q "port-tpiu=fsync: only hsync" err
'

test_done
