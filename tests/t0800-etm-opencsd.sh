#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'ETMv4 (raw and in CoreSight formatter frames) and ETMv3.5 trace of recorded runs decoded by OpenCSD, and MTB trace decoded by raptor, back to the ground truth, instruction by instruction'

ETMCHECK=$BUILD/etmcheck
test_require "$RAPTOR" "$ETMCHECK"

# The workloads: plain loops (reduction), SysTick interrupts on every core
# (systick), shared-memory races at -Os (racy), the M7 (lu) and the M33
# (systick-m33: ARMv8-M, where the exception return is no P0 element), at
# 1, 2, 4 and 8 cores; and, single-core programs, the exception model
# driven hard (irq: nesting, tail-chaining, faults, SVC, PendSV).
WORK="reduction-m3-O2 systick-m3-O2 racy-m4-Os lu-m7-O2 systick-m33-O2"
SINGLE="irq-m3-O2 irq-m33-O2"

# check_one ELF CORES: record with the truth, etmcheck it with a 1 KiB
# sync period (so periodic syncs happen mid-stream); prints
# "ok ELF CORES INSNS ETM4-BYTES ETM4-BPI ETM3-BYTES ETM3-BPI MTB-BYTES MTB-BPI
# FRAME-BYTES" or the failure. The cores' ETMv4 streams also go, interleaved,
# into one capture of CoreSight formatter frames, decoded by one OpenCSD
# tree: each core's instructions compared there must be the same.
cat >check_one <<'EOF'
#!/bin/sh
elf=$1 n=$2
d=$(mktemp -d rec.XXXXXX)
if ! "$RAPTOR" record "$GUEST/$elf.elf" --cores $n --truth -o $d/r -q >/dev/null 2>$d/err; then
	echo "FAIL record $elf $n: $(tail -1 $d/err)"
	exit 0
fi
if ! "$ETMCHECK" $d/r --sync 1024 >$d/out 2>$d/err; then
	echo "FAIL etmcheck $elf $n: $(head -3 $d/err | tr "\n" " ")"
	exit 0
fi
if ! grep -q "; 0 mismatches\$" $d/out ||
	[ $(grep -c "^core [0-9]* etm4: .* 0 mismatches," $d/out) != $n ] ||
	[ $(grep -c "^core [0-9]* etm3: .* 0 mismatches," $d/out) != $n ] ||
	[ $(grep -c "^core [0-9]* mtb: .* 0 mismatches," $d/out) != $n ]; then
	echo "FAIL etmcheck $elf $n: not every core compared: $(tr "\n" " " <$d/out)"
	exit 0
fi
# every core's instructions were compared but for the few no trace can
# show: after the last P0 element (ETMv4); before the first packet's
# destination and after the last packet's source (MTB); none for ETMv3
awk '/^core [0-9]* etm4:/ { if ($4 + $9 != substr($7, 2)) bad = 1 }
	/^core [0-9]* etm3:/ { if ($4 != substr($7, 2)) bad = 1 }
	/^core [0-9]* mtb:/ { if ($4 + $9 + $15 != substr($7, 2)) bad = 1 }
	/^core [0-9]* etm4:/ { e4 = e4 " " $4 }
	/^frames: / { sub(/.*per core:/, ""); fr = $0 }
	END { if (fr != e4) bad = 1; exit bad }' $d/out || {
	echo "FAIL etmcheck $elf $n: compared + untraced != retired, or the frames differ: $(tr "\n" " " <$d/out)"
	exit 0
}
sed -n "s/^etmcheck: .* \([0-9]*\) instructions; ETMv4 ([^)]*) \([0-9]*\) bytes, \([0-9.]*\) bits\/instruction; ETMv3 \([0-9]*\) bytes, \([0-9.]*\) bits\/instruction; MTB \([0-9]*\) bytes, \([0-9.]*\) bits\/instruction; ETMv4 frames \([0-9]*\) bytes.*/ok $elf $n \1 \2 \3 \4 \5 \6 \7 \8/p" $d/out
rm -rf $d
EOF
chmod +x check_one
export ETMCHECK

test_expect_success 'every workload at 1, 2, 4 and 8 cores: OpenCSD (ETMv4, ETMv3) and the MTB decoder rebuild every traced instruction' '
	for e in $WORK $SINGLE; do test -f "$GUEST/$e.elf" || exit 1; done &&
	{
		for e in $WORK; do for n in 1 2 4 8; do echo "$e $n"; done; done
		for e in $SINGLE; do echo "$e 1"; done
	} >jobs &&
	xargs -P 2 -L 1 ./check_one <jobs >results &&
	test $(wc -l <results) = $(wc -l <jobs) &&
	! grep FAIL results &&
	awk "{ i += \$4 } END { print i \" instructions compared over \" NR \" runs, 0 mismatches\"; exit i < 1000000 }" results
'
# the bandwidth, as TAP comments: workload, cores, instructions, then bits
# per instruction (and bytes) of ETMv4, ETMv3 and the MTB
[ -f results ] && grep ^ok results | sort -k2,2 -k3,3n |
	awk '{ printf "# %-16s %d cores %7d insns, bits/insn: ETMv4 %.4f (%d B; framed %d B), ETMv3 %.4f (%d B), MTB %.3f (%d B)\n", $2, $3, $4, $6, $5, $11, $8, $7, $10, $9 }'

test_expect_success 'the raw streams: one per core and format, their sizes the bytes reported' '
	"$RAPTOR" record "$GUEST/systick-m3-O2.elf" --cores 4 --truth -o rec -q >/dev/null &&
	mkdir raw &&
	"$ETMCHECK" rec --raw raw >out &&
	test $(ls raw/etm4-core*.bin | wc -l) = 4 &&
	test $(ls raw/etm3-core*.bin | wc -l) = 4 &&
	test $(ls raw/mtb-core*.bin | wc -l) = 4 &&
	total=$(cat raw/etm4-core*.bin | wc -c) &&
	total3=$(cat raw/etm3-core*.bin | wc -c) &&
	mtotal=$(cat raw/mtb-core*.bin | wc -c) &&
	ftotal=$(wc -c <raw/etm4-frames.bin) &&
	test $((ftotal % 16)) = 0 &&
	grep "ETMv4 frames $ftotal bytes; 0 mismatches" out &&
	grep "4 cores, .* ETMv4 (ARMv7-M) $total bytes, .* ETMv3 $total3 bytes, .* MTB $mtotal bytes, .* 0 mismatches" out &&
	head -c 6 raw/etm3-core1.bin | od -An -tx1 | tr -d " \n" >sync3 &&
	test "$(cat sync3)" = 000000000080 &&
	head -c 12 raw/etm4-core2.bin | od -An -tx1 | tr -d " \n" >sync &&
	echo 000000000000000000000080 >expect &&
	test "$(cat sync)" = "$(cat expect)"
'

test_expect_success 'a trace decoded against the wrong program fails, naming core and instruction' '
	"$RAPTOR" record "$GUEST/reduction-m3-O2.elf" --cores 2 --truth -o wrong -q >/dev/null &&
	cp "$GUEST/reduction-m3-O0.elf" wrong/program.elf &&
	test_must_fail "$ETMCHECK" wrong >out 2>err &&
	grep -E "core [0-9]+: (.*: mismatch at instruction [0-9]+|instruction [0-9]+)" err
'

test_expect_success 'bad usage: exit 2' '
	test_expect_code 2 "$ETMCHECK" &&
	test_expect_code 2 "$ETMCHECK" rec --sync &&
	test_expect_code 2 "$ETMCHECK" rec --bogus
'

test_done
