#!/bin/bash
# iss-speed.sh: instruction-set simulator speed, raptor beside QEMU.
#
# For every single-core workload build, runs `raptor run` and
# `qemu-system-arm` (no logging, same ELF) REPS times each, interleaved, and
# keeps the smallest CPU time (user + system) of each: wall
# time on a shared machine measures the other users too. Start-up is measured the same way on a
# program that exits at once and subtracted, so the MIPS columns are the
# steady-state simulation speed; the raw times are in the table too.
# Instruction counts come from `raptor run --stats` (QEMU retires the same
# instructions: tests/t0100 checks that).
#
# Usage: bench/iss-speed.sh [BUILD] > table.md     (REPS=5 by default)
set -eu
build=${1:-build}
reps=${REPS:-5}
raptor=$build/raptor

# best_of CMD...: the smallest CPU time (user + system, from wait4's
# rusage: microseconds, where /usr/bin/time rounds to 10 ms) of $reps
# runs, in nanoseconds
best_of() {
	local best= d
	for _ in $(seq "$reps"); do
		d=$(python3 -c '
import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_RDWR)
    for k in (0, 1, 2):
        os.dup2(fd, k)
    os.execvp(sys.argv[1], sys.argv[1:])
ru = os.wait4(pid, 0)[2]
print(int((ru.ru_utime + ru.ru_stime) * 1e9))' "$@")
		if [ -z "$best" ] || [ "$d" -lt "$best" ]; then best=$d; fi
	done
	echo "$best"
}

# QEMU's board for a build, from its name (as tests/qemu-trace.sh picks it)
qemu_machine() {
	case $1 in
	*-m33-* | *-m33f-*) echo mps2-an505 ;;
	*-m7-*) echo mps2-an500 ;;
	*-m4-* | *-m4f-*) echo mps2-an386 ;;
	*-m0plus-*) echo microbit ;;
	*) echo mps2-an385 ;;
	esac
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' '.syntax unified' '.thumb' '.section .vectors,"a"' '.word 0x20400000' \
	'.word reset + 1' '.text' '.thumb_func' 'reset:' 'movs r0, #0x18' 'ldr r1, =0x20026' \
	'bkpt 0xab' >"$tmp/exit.S"
arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -nostdlib -T tests/isa/isa.ld "$tmp/exit.S" -o "$tmp/exit.elf"
# the M33's board boots from 0x10000000 (QEMU's an505 and raptor's m33 map)
arm-none-eabi-gcc -mcpu=cortex-m33+nofp -mthumb -nostdlib -T tests/isa/v8m.ld "$tmp/exit.S" \
	-o "$tmp/exit-an505.elf"
exit_elf() { [ "$1" = mps2-an505 ] && echo "$tmp/exit-an505.elf" || echo "$tmp/exit.elf"; }
# start-up per board, measured once each: raptor's and QEMU's
declare -A r0_of q0_of
startup() {
	local e
	e=$(exit_elf "$1")
	if [ -z "${q0_of[$1]:-}" ]; then
		r0_of[$1]=$(best_of "$raptor" run "$e" --cores 1)
		q0_of[$1]=$(best_of qemu-system-arm -M "$1" -nographic -semihosting -kernel "$e")
	fi
	r0=${r0_of[$1]} q0=${q0_of[$1]}
}

echo "| workload | instructions | raptor ms | QEMU ms | raptor MIPS | QEMU MIPS | raptor / QEMU |"
echo "|---|---:|---:|---:|---:|---:|---:|"
tot_n=0 tot_r=0 tot_q=0
while read -r elf; do
	name=$(basename "$elf" .elf)
	n=$("$raptor" run "$elf" --cores 1 --stats 2>&1 </dev/null >/dev/null |
		sed -n 's/^core 0: \([0-9]*\) instructions.*/\1/p')
	machine=$(qemu_machine "$name")
	startup "$machine"
	r=$(best_of "$raptor" run "$elf" --cores 1)
	q=$(best_of qemu-system-arm -M "$machine" -nographic -semihosting -kernel "$elf")
	rs=$((r > r0 ? r - r0 : 1)) qs=$((q > q0 ? q - q0 : 1))
	tot_n=$((tot_n + n)) tot_r=$((tot_r + rs)) tot_q=$((tot_q + qs))
	# a run whose time is within 2 ms of the start-up is not measurable (n/m)
	awk -v name="$name" -v n="$n" -v r="$r" -v q="$q" -v rs="$rs" -v qs="$qs" 'BEGIN {
		rm = rs < 2e6 ? "n/m" : sprintf("%.1f", n / (rs / 1e3))
		qm = qs < 2e6 ? "n/m" : sprintf("%.1f", n / (qs / 1e3))
		ra = rs < 2e6 || qs < 2e6 ? "-" : sprintf("%.2f", qs / rs)
		printf "| %s | %d | %.1f | %.1f | %s | %s | %s |\n", name, n, r / 1e6, q / 1e6,
			rm, qm, ra }'
done
awk -v n="$tot_n" -v r="$tot_r" -v q="$tot_q" 'BEGIN {
	qm = q < 2e7 ? "n/m" : sprintf("%.1f", n / (q / 1e3))
	ra = q < 2e7 ? "-" : sprintf("%.2f", q / r)
	printf "| **all** | %d | | | **%.1f** | **%s** | **%s** |\n", n, n / (r / 1e3), qm, ra }'
printf '\nStart-up, subtracted above (a program that exits at once, on each board):'
for m in "${!q0_of[@]}"; do
	awk -v m="$m" -v r="${r0_of[$m]}" -v q="${q0_of[$m]}" \
		'BEGIN { printf " %s: raptor %.1f ms, QEMU %.1f ms;", m, r / 1e6, q / 1e6 }'
done | sed 's/;$/./'
echo
