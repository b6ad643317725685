# shellcheck shell=sh
# isa-diff-suite.sh: the QEMU differential over a set of programs, for
# t0100 (Cortex-M3), t0102 (Cortex-M4, DSP), t0101 (Cortex-M4F, hard
# float), t0103 (Cortex-M0+, ARMv6-M, on QEMU's microbit) and t0104
# (Cortex-M7, double precision, on mps2-an500); sourced after
# lib.sh. One test per model, so each stays well inside a test's time limit.
#
# qemu_diff_suite PICK MIN_PROGRAMS MIN_INSNS [LIST [NAMES]]: every
# single-core workload build (those of LIST, default single.list, whose
# file names match the case pattern NAMES, default all) and every
# single-core ISA corner program whose model (cpu_of) PICK matches (a case
# pattern: "m3", "m4f", "m3|m4") runs on qemu-system-arm (mps2-an385 for
# Cortex-M3, mps2-an386 for M4/M4F, mps2-an500 for M7, microbit, a
# Cortex-M0, for the M0+, mps2-an505 for the M33) and on raptor;
# tests/diff-qemu.sh compares the two traces as they stream. At least
# MIN_PROGRAMS programs and MIN_INSNS instructions must be compared; when the
# programs are sampled, every sampled program must have been compared (the
# programs' sizes differ too much for a scaled minimum: one M0+ build is 9M
# of the 14M).
# RAPTOR_QEMU_SAMPLE, if set, samples the programs instead of
# RAPTOR_TEST_SAMPLE (make asan samples these harder than the campaigns).

# dsp-* programs are Cortex-M4 ones, fp-* Cortex-M4F (hard float, FP
# registers compared too), fp64-* Cortex-M7 (double precision), v6m-*
# Cortex-M0+, v8m-* Cortex-M33 (FP registers compared too); the workloads
# say it in their name.
cpu_of() {
	case ${1##*/} in
	# first: the M33 builds of the dsp workload are not Cortex-M4 programs
	v8m-*|*-m33-*|*-m33f-*) echo m33 ;;
	fp64-*|*-m7-*) echo m7 ;;
	fp-*|*-m4f-*) echo m4f ;;
	dsp-*|*-m4-*) echo m4 ;;
	v6m-*|*-m0plus-*) echo m0plus ;;
	*) echo m3 ;;
	esac
}

qemu_diff_suite() {
	pick=$1 min_programs=$2 min_insns=$3 list=${4:-$GUEST/single.list} names=${5:-*}
	RAPTOR_TEST_SAMPLE=${RAPTOR_QEMU_SAMPLE:-${RAPTOR_TEST_SAMPLE:-}}

	test_expect_success 'setup: the list of programs' '
		{
			abs_list "$list" | while read elf; do
				eval "case \${elf##*/} in $names) echo \"\$elf\" ;; esac"
			done &&
			for t in "$BUILD"/isatest/*.elf; do
				case $t in
				*/strex-mc.elf|*/v8m-mc.elf|*/wfi-primask.elf|*/spin-forever.elf) ;;
				# QEMU 7.2 runs CBZ/IT on v6-M, the architecture faults
				*/v6m-cbz-it.elf) ;;
				*) echo "$t" ;;
				esac
			done
		} | while read elf; do
			eval "case \$(cpu_of \"\$elf\") in $pick) echo \"\$elf\" ;; esac"
		done >elfs &&
		test $(wc -l <elfs) -ge '"$min_programs"' &&
		test_sample elfs
	'

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

	test_expect_success "at least $min_insns instructions compared, none differ" '
		cat *.diff | sed -n "s/^\([0-9]*\) instructions compared, \([0-9]*\) mismatches$/\1 \2/p" |
		awk "{ n += \$1; m += \$2; k++ } END { print n, m, k }" >total &&
		read n m k <total &&
		echo "# $n instructions compared over $k programs, $m mismatches" &&
		test "$m" = 0 &&
		case ${RAPTOR_TEST_SAMPLE:-1} in
		"" | 0 | 1) test "$n" -ge '"$min_insns"' ;;
		*) test "$k" = $(wc -l <elfs) && test "$n" -gt 0 ;;
		esac
	'
}
