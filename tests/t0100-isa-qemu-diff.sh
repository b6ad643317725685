#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'the ISS matches QEMU instruction by instruction (PC, r0-r15, xPSR; s0-s31, FPSCR on M4F)'

# Every single-core workload build and every single-core ISA corner program
# runs on qemu-system-arm (mps2-an385 for Cortex-M3, mps2-an386 for M4/M4F) and
# on raptor; tests/diff-qemu.sh compares the two traces as they stream.

test_require qemu-system-arm "$BUILD/qemulog" "$BUILD/tracecmp" "$RAPTOR"

test_expect_success 'setup: the list of programs' '
	abs_list "$GUEST/single.list" >elfs &&
	for t in "$BUILD"/isatest/*.elf; do
		case $t in */strex-mc.elf|*/wfi-primask.elf|*/spin-forever.elf) ;; *) echo "$t" ;; esac
	done >>elfs &&
	test $(wc -l <elfs) -ge 70 &&
	test_sample elfs
'

# dsp-* programs are Cortex-M4 ones, fp-* Cortex-M4F (hard float, FP
# registers compared too); the workloads say it in their name.
cpu_of() {
	case ${1##*/} in
	fp-*|*-m4f-*) echo m4f ;;
	dsp-*|*-m4-*) echo m4 ;;
	*) echo m3 ;;
	esac
}

test_expect_success 'run QEMU and raptor on every program (2 at a time)' '
	export SRC &&
	while read elf; do
		echo "$elf $(cpu_of "$elf")"
	done <elfs |
	xargs -P 2 -L 1 sh -c '\''
		out=$(basename "$0").diff
		"$SRC/tests/diff-qemu.sh" "$0" "$1" >"$out" 2>&1
		echo $? >>"$out"
	'\''
'

while read elf; do
	name=$(basename "$elf")
	test_expect_success "$name: identical to QEMU" "
		tail -n 2 $name.diff >tail &&
		sed -n 1p tail | grep -q ' instructions compared, 0 mismatches\$' &&
		sed -n 2p tail | grep -qx 0 ||
		{ cat $name.diff; false; }
	"
done <elfs

test_expect_success 'at least 5 million instructions compared, none differ' '
	cat *.diff | sed -n "s/^\([0-9]*\) instructions compared, \([0-9]*\) mismatches$/\1 \2/p" |
	awk "{ n += \$1; m += \$2; k++ } END { print n, m, k }" >total &&
	read n m k <total &&
	echo "# $n instructions compared over $k programs, $m mismatches" &&
	test "$m" = 0 && test "$n" -ge $(test_scaled 5000000)
'

test_done
