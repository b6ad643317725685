#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor import: captures from a probe (raw ETM streams, CoreSight frames as an ETB stores them or a TPIU sends them, MTB buffers) become recordings that replay to the truth; bad configurations and captures are refused clearly; a mutation campaign over framed captures and MTB buffers'
test_require "$RAPTOR" od dd awk timeout

ELF=$GUEST/systick-m3-O2.elf

test_expect_success 'setup: the board records what a probe would capture (framed ETMv4 and ETMv3, raw ETMv4)' '
	"$RAPTOR" record "$ELF" --cores 2 --truth --cf-enc etm4 --port-framed \
		--trace-ids 0x21,0x22 --port-sync 512 -q -o f4 >/dev/null &&
	"$RAPTOR" record "$ELF" --cores 2 --truth --cf-enc etm3 --port-framed \
		--trace-ids 0x21,0x22 --port-sync 512 -q -o f3 >/dev/null &&
	"$RAPTOR" record "$ELF" --cores 2 --truth --cf-enc etm4 --port-sync 512 -q -o r4 >/dev/null &&
	"$RAPTOR" record "$ELF" --cores 2 --truth --cf-enc mtb -q -o rm >/dev/null &&
	"$RAPTOR" record "$ELF" --cores 2 --truth --cf-enc etm4 --port-tpiu \
		--trace-ids 0x21,0x22 --port-sync 256 -q -o t4 >/dev/null &&
	printf "[trace]\nformat = etm4\ncores = 2\nframed = 1\ntpiu = 1\ntrace_ids = 0x21,0x22\n" >t4.ini &&
	printf "[trace]\nformat = mtb\ncores = 2\nframed = 0\ntrace_ids = 0x10,0x11\ncore_bytes = %s\n" \
		"$(sed -n "s/^core_bytes = //p" rm/manifest.ini)" >rm.ini &&
	printf "[trace]\nformat = etm4\ncores = 2\nframed = 1\ntrace_ids = 0x21,0x22\nsync_period = 512\n" >c4.ini &&
	printf "[trace]\nformat = etm3\ncores = 2\nframed = 1\ntrace_ids = 0x21,0x22\n" >c3.ini &&
	printf "[trace]\nformat = etm4\ncores = 2\nframed = 0\ntrace_ids = 0x10,0x11\ncore_bytes = %s\n" \
		"$(sed -n "s/^core_bytes = //p" r4/manifest.ini)" >r4.ini
'

# with_truth IMPORTED ORIGINAL: the imported recording with the original's truth
cat >with_truth <<'EOF2'
#!/bin/sh
cp "$2/truth.gz" "$1/" && printf "[truth]\nfile = truth.gz\n" >>"$1/manifest.ini"
EOF2
chmod +x with_truth

test_expect_success 'import framed ETMv4, framed ETMv3, raw ETMv4, MTB buffers: replay --verify, 0 differences' '
	"$RAPTOR" import f4/cf.bin --elf "$ELF" --config c4.ini -o i4 2>out &&
	grep -q "core 1 (trace ID 0x22): [0-9]* instructions, 16 exceptions, 0 gaps" out &&
	"$RAPTOR" import f3/cf.bin --elf "$ELF" --config c3.ini -o i3 2>/dev/null &&
	"$RAPTOR" import r4/cf.bin --elf "$ELF" --config r4.ini -o ir 2>/dev/null &&
	"$RAPTOR" import rm/cf.bin --elf "$ELF" --config rm.ini -o im 2>/dev/null &&
	cmp f4/cf.bin i4/cf.bin &&
	./with_truth i4 f4 && ./with_truth i3 f3 && ./with_truth ir r4 && ./with_truth im rm &&
	for i in i4 i3 ir im; do
		"$RAPTOR" replay $i --verify 2>out &&
		grep -q "exception entries verified against the ground truth, registers and memory not traced, 0 differences" out || exit 1
	done
'

test_expect_success 'raptor stat of an imported capture: what the trace shows per core, text and JSON' '
	"$RAPTOR" stat i4 >out &&
	grep -q "^recording i4: a trace port.s (ETMv4 in CoreSight formatter frames), $(stat -c %s f4/cf.bin) bytes" out &&
	"$RAPTOR" replay i4 2>rep &&
	for c in 0 1; do
		n=$(sed -n "s/^  core $c: \([0-9]*\) instructions.*/\1/p" rep) &&
		grep -q "^  core $c  *0x2$((c + 1))  *[0-9]*  *$n  *[0-9.]*  *16  *0$" out || exit 1
	done &&
	"$RAPTOR" stat i4 --json >j &&
	python3 -c "import json,sys; d=json.load(open(\"j\")); assert d[\"port\"] == \"etm4\" and d[\"framed\"] and sum(c[\"instructions\"] for c in d[\"cores\"]) == d[\"instructions\"] and sum(c[\"bytes\"] for c in d[\"cores\"]) <= d[\"bytes\"]" &&
	test_expect_code 2 "$RAPTOR" stat i4 --csv 2>err &&
	grep -q "only its summary" err &&
	"$RAPTOR" stat im >out &&
	grep -q "^  core 1  *-  *[0-9]*  *[0-9]*" out
'

test_expect_success 'a core the configuration has and the capture does not: replayed as not traced, said so' '
	printf "[trace]\nformat = etm4\ncores = 3\nframed = 1\ntrace_ids = 0x21,0x22,0x23\n" >c3c.ini &&
	"$RAPTOR" import f4/cf.bin --elf "$ELF" --config c3c.ini -o i3c 2>out &&
	grep -q "core 2 (trace ID 0x23): 0 instructions, 0 exceptions, 0 gaps (not in the capture at all)" out &&
	"$RAPTOR" replay i3c 2>out &&
	grep -q "core 2: not in the trace at all" out &&
	grep -q "^  core 1: [1-9][0-9]* instructions" out
'

# the probe's dump of the ETM registers goes to OpenCSD as it is: the
# modelled values decode the same; TRCIDR8.MAXSPEC = 4 (the unit may hold
# 4 P0 elements uncommitted) leaves the last ones of each core undecided
# at the end of the capture: fewer instructions, the same path
test_expect_success 'a register dump: OpenCSD is set up with it' '
	{ cat c4.ini; printf "trcidr0 = 0x1\ntrcidr1 = 0x4100f420\ntrcidr2 = 0x4\ntrcidr8 = 0\ntrcconfigr = 0\n"; } >d.ini &&
	"$RAPTOR" import f4/cf.bin --elf "$ELF" --config d.ini -o id -q &&
	grep -q "^etm_regs = idr0=0x00000001,idr1=0x4100f420,idr2=0x00000004,idr8=0x00000000,configr=0x00000000$" id/manifest.ini &&
	grep -q "^etm_regs = model$" i4/manifest.ini &&
	"$RAPTOR" replay id 2>a && "$RAPTOR" replay i4 2>b &&
	test "$(grep "instructions replayed" a | cut -d" " -f4)" = "$(grep "instructions replayed" b | cut -d" " -f4)" &&
	{ cat c4.ini; printf "trcidr8 = 4\n"; } >d8.ini &&
	"$RAPTOR" import f4/cf.bin --elf "$ELF" --config d8.ini -o id8 -q &&
	grep -q "^etm_regs = idr0=0x00000001,idr1=0x4100f420,idr2=0x00000004,idr8=0x00000004,configr=0x00000000$" id8/manifest.ini &&
	./with_truth id8 f4 &&
	"$RAPTOR" replay id8 --verify 2>c && grep -q ", 0 differences" c &&
	test "$(grep "instructions replayed" c | cut -d" " -f4)" -lt "$(grep "instructions replayed" b | cut -d" " -f4)" &&
	{ cat c4.ini; printf "etmcr = 0\n"; } >d3.ini &&
	test_expect_code 1 "$RAPTOR" import f4/cf.bin --elf "$ELF" --config d3.ini -o x 2>err &&
	grep -q "d3.ini: \[trace\] etmcr = .0.: an ETMv3 register, and the format is etm4" err
'

test_expect_success 'bad configurations: named file, key and value' '
	printf "[trace]\nformat = etm5\ncores = 2\nframed = 1\ntrace_ids = 0x21,0x22\n" >b.ini &&
	test_expect_code 1 "$RAPTOR" import f4/cf.bin --elf "$ELF" --config b.ini -o x 2>err &&
	grep -q "b.ini: \[trace\] format = .etm5.: not etm4, etm3 or mtb" err &&
	printf "[trace]\nformat = etm4\ncores = 2\nframed = 1\ntrace_ids = 0x21\n" >b.ini &&
	test_expect_code 1 "$RAPTOR" import f4/cf.bin --elf "$ELF" --config b.ini -o x 2>err &&
	grep -q "1 IDs for 2 cores" err &&
	printf "[trace]\nformat = etm4\ncores = 2\nframed = 1\ntrace_ids = 0x21,0x22\ncolour = red\n" >b.ini &&
	test_expect_code 1 "$RAPTOR" import f4/cf.bin --elf "$ELF" --config b.ini -o x 2>err &&
	grep -q "colour = .red.: unknown key" err &&
	printf "[trace]\nformat = etm4\ncores = 2\nframed = 0\ntrace_ids = 0x10,0x11\n" >b.ini &&
	test_expect_code 1 "$RAPTOR" import r4/cf.bin --elf "$ELF" --config b.ini -o x 2>err &&
	grep -q "core_bytes is missing" err &&
	test_expect_code 2 "$RAPTOR" import f4/cf.bin --config c4.ini -o x 2>err &&
	! test -e x
'

test_expect_success 'bad captures: a wrong trace ID, the wrong ELF, a truncated frame, garbage: the byte offset and the core' '
	sed "s/0x21,0x22/0x21,0x23/" c4.ini >b.ini &&
	test_expect_code 1 "$RAPTOR" import f4/cf.bin --elf "$ELF" --config b.ini -o x 2>err &&
	grep -q "byte [0-9]*: the frames carry [0-9]* bytes of trace ID 0x22, which no core has" err &&
	! test -e x &&
	test_expect_code 1 "$RAPTOR" import f4/cf.bin --elf "$GUEST/racy-m3-O0.elf" --config c4.ini -o x 2>err &&
	grep -q "trace ID 0x21: .* at byte [0-9]*" err && grep -q "no recording made" err &&
	! test -e x &&
	head -c 1000 f4/cf.bin >t.bin &&
	test_expect_code 1 "$RAPTOR" import t.bin --elf "$ELF" --config c4.ini -o x 2>err &&
	grep -q "no whole number of 16-byte formatter frames: truncated at byte 992" err &&
	head -c 4096 /dev/urandom >g.bin &&
	test_expect_code 1 "$RAPTOR" import g.bin --elf "$ELF" --config c4.ini -o x 2>err &&
	grep -q "byte [0-9]" err && ! test -e x
'

test_expect_success 'a capture that starts after reset: a gap first, aligned with the truth, then the exact path' '
	"$RAPTOR" record "$ELF" --cores 1 --truth --cf-enc etm4 --port-sync 256 -q -o one >/dev/null &&
	# the first sync packet after byte 600: A-sync is 11 zero bytes and 0x80
	off=$(od -An -v -tu1 -w1 one/cf.bin | awk "NR > 600 && z >= 11 && \$1 == 128 { print NR - 12; exit } { z = \$1 == 0 ? z + 1 : 0 }") &&
	test -n "$off" &&
	tail -c +$((off + 1)) one/cf.bin >late.bin &&
	printf "[trace]\nformat = etm4\ncores = 1\nframed = 0\ntrace_ids = 0x10\n" >one.ini &&
	"$RAPTOR" import late.bin --elf "$ELF" --config one.ini -o il 2>out &&
	grep -q "core 0 (trace ID 0x10): [0-9]* instructions, [0-9]* exceptions, 1 gaps" out &&
	"$RAPTOR" replay il 2>out &&
	grep -q "core 0: 1 gaps in its trace: the instructions in them are unknown" out &&
	./with_truth il one &&
	"$RAPTOR" replay il --verify 2>out &&
	grep -q "trace port: 1 gaps the trace marks ([1-9][0-9]* of the truth.s steps in them, not compared)" out &&
	grep -q "registers and memory not traced, 0 differences" out
'

# a probe on a TPIU port starts capturing anywhere: inside a frame, in the
# middle of the run; it may stop inside a frame too
test_expect_success 'a TPIU capture from any byte on: the frames found at the first FSYNC, each core from its first sync, gaps aligned with the truth' '
	{ head -c 7 /dev/urandom; cat t4/cf.bin; head -c 5 /dev/urandom; } >tw.bin &&
	"$RAPTOR" import tw.bin --elf "$ELF" --config t4.ini -o itw 2>out &&
	grep -q "core 1 (trace ID 0x22): [0-9]* instructions, 16 exceptions, 0 gaps" out &&
	./with_truth itw t4 &&
	"$RAPTOR" replay itw --verify 2>out && grep -q ", 0 differences" out &&
	tail -c +1002 t4/cf.bin >tl.bin &&
	"$RAPTOR" import tl.bin --elf "$ELF" --config t4.ini -o itl 2>out &&
	grep -q "core 0 (trace ID 0x21): [1-9][0-9]* instructions, [0-9]* exceptions, 1 gaps" out &&
	grep -q "core 1 (trace ID 0x22): [1-9][0-9]* instructions, [0-9]* exceptions, 1 gaps" out &&
	./with_truth itl t4 &&
	"$RAPTOR" replay itl --verify 2>out &&
	grep -q "trace port: 2 gaps the trace marks" out && grep -q ", 0 differences" out &&
	"$RAPTOR" stat itl >out &&
	grep -q "ETMv4 in CoreSight formatter frames from a TPIU" out &&
	test_expect_code 1 "$RAPTOR" replay itl --random 10 2>err &&
	grep -q "the 2 gaps of this trace shift them" err &&
	head -c 3000 /dev/zero >z.bin &&
	test_expect_code 1 "$RAPTOR" import z.bin --elf "$ELF" --config t4.ini -o x 2>err &&
	grep -q "no frame synchronisation (FSYNC" err && ! test -e x
'

# a capture's bytes lost mid-stream (a FIFO drained too late), and an
# ETMv4 Overflow packet (05) where bytes were lost: OpenCSD loses sync or
# restarts, resynchronises at the next A-sync; the replay marks a gap and
# the path before and after it is the truth'"'"'s
test_expect_success 'bytes lost mid-stream, an overflow packet: a gap where the trace resynchronises, the truth on both sides' '
	{ head -c 600 one/cf.bin; tail -c +701 one/cf.bin; } >holed.bin &&
	"$RAPTOR" import holed.bin --elf "$ELF" --config one.ini -o ih 2>out &&
	grep -q "1 gaps" out &&
	./with_truth ih one &&
	"$RAPTOR" replay ih --verify 2>out &&
	grep -q "trace port: 1 gaps the trace marks" out && grep -q ", 0 differences" out &&
	syncs=$(od -An -v -tu1 -w1 one/cf.bin | awk "{ if (z >= 11 && \$1 == 128) print NR - 12; z = \$1 == 0 ? z + 1 : 0 }" | tr "\n" " ") &&
	set -- $syncs && test $# -ge 4 &&
	{ head -c $2 one/cf.bin; printf "\005"; tail -c +$(($4 + 1)) one/cf.bin; } >ovf.bin &&
	"$RAPTOR" import ovf.bin --elf "$ELF" --config one.ini -o io 2>out &&
	grep -q "1 gaps" out &&
	./with_truth io one &&
	"$RAPTOR" replay io --verify 2>out &&
	grep -q "trace port: 1 gaps the trace marks" out && grep -q ", 0 differences" out
'

# mutant BASE CONF OP OFFSET: damage BASE/cf.bin, import, replay --verify.
# Prints one of: error (refused with a byte offset), identical (0
# differences, gaps allowed), silent (a changed atom or address that still
# fits the program: only the truth sees it, as for any trace without check
# bits), BAD (a crash, a hang, an unclear message).
cat >mutant <<'EOF2'
#!/bin/sh
base=$1 conf=$2 op=$3 off=$4 m=m.$1.$3.$4
size=$(stat -c %s $base/cf.bin)
cp $base/cf.bin $m.bin
case $op in
flip) b=$(od -An -tu1 -j $off -N1 $m.bin) &&
	printf "$(printf '\\%03o' $(( (b ^ (1 << (off % 8))) & 255 )))" |
	dd of=$m.bin bs=1 seek=$off conv=notrunc 2>/dev/null ;;
garbage) head -c 16 /dev/urandom | dd of=$m.bin bs=1 seek=$((off / 16 * 16)) conv=notrunc 2>/dev/null ;;
zeroes) head -c 16 /dev/zero | dd of=$m.bin bs=1 seek=$((off / 16 * 16)) conv=notrunc 2>/dev/null ;;
dropframe) { head -c $((off / 16 * 16)) $base/cf.bin; tail -c +$((off / 16 * 16 + 17)) $base/cf.bin; } >$m.bin ;;
truncate) head -c $((off / 16 * 16)) $base/cf.bin >$m.bin ;;
esac
timeout 60 "$RAPTOR" import $m.bin --elf "$ELF" --config $conf -o $m -q 2>$m.err
s=$?
if [ $s = 1 ]; then
	if grep -q "^raptor: error: .*byte [0-9]" $m.err && ! grep -qi "bug" $m.err; then
		echo "error"; rm -rf $m $m.bin $m.err; exit 0
	fi
	echo "BAD $m: unclear: $(head -3 $m.err | tr "\n" " ")"; exit 0
fi
[ $s = 0 ] || { echo "BAD $m: import exit $s"; exit 0; }
./with_truth $m $base
timeout 60 "$RAPTOR" replay $m --verify >/dev/null 2>$m.err
s=$?
if [ $s = 0 ] && grep -q "0 differences" $m.err; then
	echo "identical"
elif [ $s = 1 ] && grep -q "^raptor: error: verify: core" $m.err; then
	echo "silent"
else
	echo "BAD $m: replay exit $s: $(head -3 $m.err | tr "\n" " ")"; exit 0
fi
rm -rf $m $m.bin $m.err
EOF2
chmod +x mutant
export ELF

test_expect_success 'mutation campaign over framed ETMv4 and ETMv3 captures, a TPIU'"'"'s and MTB buffers: every mutant refused clearly or replayed, never a crash or hang' '
	: >results &&
	for base in f4:c4.ini f3:c3.ini t4:t4.ini rm:rm.ini; do
		b=${base%:*} c=${base#*:} &&
		size=$(stat -c %s $b/cf.bin) &&
		for op in flip garbage zeroes dropframe truncate; do
			for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
				off=$(( (k * 7919 + ${#op} * 104729) % size )) &&
				echo "$b $op $(./mutant $b $c $op $off)" >>results || exit 1
			done
		done
	done &&
	awk "{ n[\$3]++ } END { for (k in n) printf \"%s %d\\n\", k, n[k] }" results | sort &&
	echo "$(wc -l <results) mutants" &&
	! grep BAD results &&
	test $(wc -l <results) = 240 &&
	grep -q " error$" results
'

test_done
