#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor serve: the FP registers of M4F and M7 recordings (s0..s31, d0..d15, fpscr) in GDB and LLDB, forward and reverse, against the ground truth'

test_require "$RAPTOR" "$BUILD/truthq" "$BUILD/isatest/fp-random.elf" \
	"$BUILD/isatest/fp64-random.elf" gdb-multiarch lldb \
	arm-none-eabi-nm arm-none-eabi-objcopy python3 timeout

export TRUTHQ="$BUILD/truthq"

. "$SRC/tests/gdbserve.sh"

# line TEXT: the line of guest/work/fpmath.c that holds TEXT
line() {
	grep -nF "$1" "$SRC/guest/work/fpmath.c" | cut -d: -f1
}

test_expect_success 'setup: fpmath (M4F, hard float) and fp-random (2 cores) recorded with their truth, served' '
	"$RAPTOR" record "$GUEST/fpmath-m4f-O2.elf" --truth -o fpm -q >/dev/null &&
	"$RAPTOR" record "$BUILD/isatest/fp-random.elf" --cores 2 --truth -o fpr -q >/dev/null &&
	grep "^model = m4f" fpm/manifest.ini &&
	grep "^model = m4f" fpr/manifest.ini &&
	serve fpm fpm && fpm_port=$port &&
	serve fpr fpr && fpr_port=$port
'

test_expect_success 'truthq at P --fp: s0..s31 and fpscr after the 23 registers; an M3 truth has none' '
	"$TRUTHQ" fpm at 20000 --fp >fp &&
	test $(wc -l <fp) = 1 &&
	test $(awk "{ print NF }" fp) = $((2 + 23 + 33)) &&
	"$TRUTHQ" fpm at 20000 >int &&
	cut -d" " -f1-25 fp >fp.int &&
	test_cmp int fp.int &&
	"$RAPTOR" record "$GUEST/fpmath-m3-O2.elf" --truth -o m3 -q >/dev/null &&
	test_expect_code 1 "$TRUTHQ" m3 at 10 --fp >out 2>err &&
	grep "truthq: m3/truth.gz: core 0 has no FP registers in the truth" err &&
	"$TRUTHQ" --help >help &&
	grep -- "at POSITION --fp" help
'

test_expect_success 'GDB, 1 core: s, d and fpscr equal the truth after stepi, continue, next, their reverses, monitor goto' '
	port=$fpm_port &&
	FP_BREAKS="fpmath.c:$(line "h = h * 31 + fbits(px[i]) + fbits(vy[i]);") fpmath.c:$(line "a[i][NL] = s / a[i][i];")" \
	FP_STOPS=12 FP_NEXT=1 gdb_script fp.py fpm
'

test_expect_success 'GDB, 2 cores: both cores'"'"' FP registers at breakpoint stops of either, forward and back' '
	port=$fpr_port &&
	FP_BREAKS=loop FP_STOPS=10 gdb_script fp.py fpr
'

test_expect_success 'GDB, M7 (FPv5-D16, double precision), 2 cores: s, d and fpscr equal the truth, forward and back' '
	"$RAPTOR" record "$BUILD/isatest/fp64-random.elf" --cores 2 --truth -o f64 -q >/dev/null &&
	grep "^model = m7\$" f64/manifest.ini &&
	serve f64 f64 &&
	FP_BREAKS=loop FP_STOPS=10 gdb_script fp.py f64
'

test_expect_success 'a wrong value is caught: the truth of s5, s30 or fpscr flipped, the GDB script fails naming it' '
	port=$fpm_port &&
	for r in s5 s30 fpscr; do
		FP_FLIP=$r FP_BREAKS=fpmath.c:$(line "a[i][NL] = s / a[i][i];") FP_STOPS=2 \
			gdb_script fp.py fpm >flip.out 2>&1 && { cat flip.out; return 1; }
		grep "^FAIL: .* core 0: $r = 0x[0-9a-f]*, the truth 0x[0-9a-f]*$" fp.py.out ||
		{ cat flip.out; return 1; }
	done
'

test_expect_success 'control flow only: the FP registers are <unavailable>, at the reset and in FP code' '
	"$RAPTOR" record "$GUEST/fpmath-m4f-O2.elf" --lv-enc none --truth -o cf -q >/dev/null &&
	serve cf cf &&
	FP_BREAKS=fpmath.c:$(line "a[i][NL] = s / a[i][i];") gdb_script fpcf.py cf
'

test_expect_success 'an M3 recording: no FP registers (p $s0 is void, info registers s0 an error), 23 registers' '
	serve m3 m3 &&
	gdb_script fpnone.py m3
'

# lldb_fp NAME REC: run the LLDB commands on stdin against the server on
# $port (as docs/GDB.md says to attach), output in NAME.out, packets in
# NAME.rlog; the server is reset to the beginning first and last.
lldb_fp() {
	{
		echo "settings set target.process.disable-memory-cache true" &&
		echo "gdb-remote 127.0.0.1:$port" &&
		echo "process plugin packet monitor reset halt" &&
		cat &&
		echo "process plugin packet monitor reset halt"
	} >$1.lldb &&
	timeout 120 lldb -x --batch "$2/program.elf" -o "log enable -f $1.rlog gdb-remote packets" \
		-o "command source -e false -c false $1.lldb" >$1.out 2>&1
}

# The FP registers of the cores LLDB showed (`thread select N`, or the one
# that stopped) at each `monitor time` position: what LLDB read ("K coreC
# REG 0xVALUE", K-th stop; LLDB may add a symbol after a value that looks
# like an address) and what the truth says (for the cores in CORES).
lldb_fp_got() {
	awk '/^position [0-9]+ / { k++ }
		/^\(lldb\) thread select / { core = $4 - 1 }
		/^ +(d[0-9]+|fpscr|s[0-9]+) = 0x[0-9a-f]+( |$)/ { print k, "core" core, $1, $3 }' $1.out
}
lldb_fp_want() {
	k=0
	for p in $(sed -n "s/^position \([0-9]*\) .*/\1/p" $1.out); do
		k=$((k + 1))
		"$TRUTHQ" $2 at $p --fp | awk -v k=$k -v cores="${CORES:-0 1}" '{
			if (index(" " cores " ", " " $2 " ") == 0) next
			for (n = 0; n < 16; n++)
				print k, "core" $2, "d" n, "0x" $(2 + 23 + 2 * n + 2) $(2 + 23 + 2 * n + 1)
			print k, "core" $2, "fpscr", "0x" $NF
			for (n = 0; n < 32; n++)
				print k, "core" $2, "s" n, "0x" $(2 + 23 + n + 1) }' || return 1
	done
}

test_expect_success 'LLDB: register read d0..d15, fpscr and s0..s31 of both cores at breakpoint stops equal the truth' '
	port=$fpr_port &&
	loop=$(arm-none-eabi-nm "$BUILD/isatest/fp-random.elf" | sed -n "s/^0*\([0-9a-f]*\) t loop\$/0x\1/p") &&
	test -n "$loop" &&
	{
		echo "breakpoint set -a $loop" &&
		for i in 1 2 3 4 5; do
			echo "continue" &&
			echo "process plugin packet monitor time" &&
			echo "thread select 1" &&
			echo "register read -s 2" &&
			echo "thread select 2" &&
			echo "register read -s 2"
		done
	} | lldb_fp lldb fpr &&
	{
		lldb_fp_got lldb >got &&
		lldb_fp_want lldb fpr >want &&
		test $(wc -l <want) = $((5 * 2 * 49)) &&
		test_cmp want got &&
		grep -c "^ *d[0-9]* = 0x[0-9a-f]*[1-9a-f][0-9a-f]*$" lldb.out >nonzero &&
		test $(cat nonzero) -gt 10 &&
		echo "# LLDB: $(wc -l <got) d, s and fpscr values at 5 stops, $(cat nonzero) d values not 0"
	} || { cat lldb.out; tail -c 3000 lldb.rlog; return 1; }
'

# LLDB 14 spins in gdb-remote on an ELF with the hard-float calling
# convention's build attribute (docs/GDB.md, "LLDB"): fpmath without them.
test_expect_success 'LLDB, a hard-float C program (its ELF without build attributes): FP registers, a float local in s15' '
	port=$fpm_port &&
	mkdir fpm-lldb &&
	arm-none-eabi-objcopy --remove-section .ARM.attributes fpm/program.elf fpm-lldb/program.elf &&
	lldb_fp lldbc fpm-lldb <<-EOF &&
	breakpoint set -f fpmath.c -l $(line "a[i][NL] = s / a[i][i];")
	continue
	continue
	process plugin packet monitor time
	thread select 1
	register read -s 2
	frame variable s
	EOF
	{
		lldb_fp_got lldbc >got &&
		CORES=0 lldb_fp_want lldbc fpm >want &&
		test $(wc -l <want) = 49 &&
		test_cmp want got &&
		s15=$(awk "\$3 == \"s15\" { print \$4 }" got) &&
		value=$(sed -n "s/^(float) s = //p" lldbc.out) &&
		echo "# LLDB: frame variable s = $value, s15 = $s15" &&
		python3 -c "import struct, sys; v = struct.unpack(\"<f\", struct.pack(\"<I\", int(sys.argv[1], 16)))[0]; sys.exit(abs(v - float(sys.argv[2])) > 1e-6 * abs(v))" $s15 "$value"
	} || { cat lldbc.out; tail -c 3000 lldbc.rlog; return 1; }
'

test_expect_success 'the servers survived every session; the background index took over, FP registers equal' '
	for s in fpm fpr cf m3; do kill -0 $(test_bg_pid $s) || return 1; done &&
	for s in fpm fpr; do
		grep "index: wrote [0-9]* checkpoints to $s/index.raptor in the background" bg-$s.log &&
		! grep "cannot take over" bg-$s.log || return 1
	done
'

test_done
