#!/bin/bash
# replay-index.sh: a long recording (~10^8 instructions): steady-state
# speeds, replay to the end, checkpoint building at several intervals, seeks.
#
# The workload is soak (guest/work/soak.c, in long.list and long-sc.list,
# not in the tests' lists). One pass each, timed by /usr/bin/time: CPU time
# (user + system; the MIPS come from it, as in bench/replay-speed.sh), wall
# time and peak RSS. raptor's start-up (~0.05 s) stays in, about 1% of
# these runs; QEMU's is a large part of its run, so QEMU gets the best of 3
# runs minus the best of 3 start-ups (a program that exits at once):
#   - its sc/ build at 1 core: QEMU (no logging), `raptor run`, `raptor
#     record`, `raptor replay` with no checkpoint but the first (an interval
#     of 10^18: the replay alone) and with the default checkpoints;
#   - at $SOAK_CORES cores: the same but QEMU.
# A replay to the end leaves a checkpoint every N instructions (--interval,
# 65536 by default): that is the indexing a debugger does first.
# The recordings go to $BUILD/bench/ and stay there for inspection.
# The CLI prints neither how many checkpoints it made nor how long a seek
# takes (without a ground truth), so $BUILD/bench/rplbench (bench/rplbench.c,
# through replay/replay.h) indexes the $SOAK_CORES-core recording at every
# interval in $INTERVALS and reports the CPU time, the peak RSS, the checkpoint
# count, the bytes (rpl_checkpoints) and the CPU time of $SEEKS seeks to
# uniformly random positions in random order, each followed by a reverse
# stepi of core 0. Last, a correctness check at a smaller scale: the first
# $TRUTH_INSNS instructions recorded with --truth, and `raptor replay
# --random` compares the states its seeks reach with the ground truth.
#
# Usage: bench/replay-index.sh [BUILD] > section.md
# Environment: SOAK (soak-m3-O2), SOAK_CORES (4), INTERVALS ("16384 65536
# 262144 1048576"), SEEKS (100), TRUTH_INSNS (5000000, 0 to skip).
set -eu
build=${1:-build}
soak=${SOAK:-soak-m3-O2}
cores=${SOAK_CORES:-4}
intervals=${INTERVALS:-16384 65536 262144 1048576}
seeks=${SEEKS:-100}
truth_insns=${TRUTH_INSNS:-5000000}
raptor=$build/raptor
rplbench=$build/bench/rplbench
elf=$build/guest/$soak.elf
elf_sc=$build/guest/sc/$soak.elf
out=$build/bench
rec=$out/$soak-${cores}c
rec1=$out/$soak-1c
cpu=${soak#*-}
cpu=${cpu%%-*}
huge=1000000000000000000 # an interval no recording reaches: one checkpoint, at 0

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh" # timed, key

# one KEY N CMD...: one timed pass of CMD; cell[KEY] gets "CPU | wall | MIPS
# (from the CPU time) | RSS" for N instructions, or "failed" cells. A replay
# must report the whole recording. N = stats: CMD is `raptor run --stats`,
# and counted gets its instructions, all cores, which serve as N.
declare -A cell
one() {
	local k=$1 n=$2 done_n
	shift 2
	timed "$@"
	if [ "$n" = stats ]; then
		n=$(awk '/^core [0-9]+: [0-9]+ instructions/ { s += $3 } END { print s + 0 }' "$tmp/out")
		counted=$n
		[ "$n" -gt 0 ] || rc=1
	fi
	case $1 in
	*raptor)
		if [ "$2" = replay ]; then
			done_n=$(sed -n 's/^raptor replay: .*: \([0-9]*\) instructions replayed (the whole recording).*/\1/p' \
				"$tmp/out")
			[ -n "$done_n" ] || rc=1
		fi ;;
	esac
	if [ "$rc" != 0 ]; then
		cell[$k]="failed (exit $rc) | | |"
		return
	fi
	cell[$k]=$(awk -v n="$n" -v c="$cpu_s" -v w="$wall" -v k="$rss" \
		'BEGIN { printf "%.2f | %.2f | %.1f | %.0f", c, w, n / c / 1e6, k / 1024 }')
}

one run1 stats "$raptor" run "$elf_sc" --cores 1 --cpu "$cpu" --stats
n1=$counted
one run stats "$raptor" run "$elf" --cores "$cores" --cpu "$cpu" --stats
n=$counted
if [ "$n1" = 0 ] || [ "$n" = 0 ]; then echo "replay-index: $soak does not run" >&2; exit 1; fi
qemu_m=mps2-an385
[ "$cpu" = m4 ] && qemu_m=mps2-an386
# QEMU: best of 3, minus the best of 3 start-ups
printf '%s\n' '.syntax unified' '.thumb' '.section .vectors,"a"' '.word 0x20400000' \
	'.word reset + 1' '.text' '.thumb_func' 'reset:' 'movs r0, #0x18' 'ldr r1, =0x20026' \
	'bkpt 0xab' >"$tmp/exit.S"
arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -nostdlib -T tests/isa/isa.ld "$tmp/exit.S" -o "$tmp/exit.elf"
q0='' q='' qw='' qrss=''
for _ in 1 2 3; do
	timed qemu-system-arm -M "$qemu_m" -nographic -semihosting -kernel "$tmp/exit.elf"
	q0=$(awk -v a="$q0" -v b="$cpu_s" 'BEGIN { print (a == "" || b < a) ? b : a }')
	timed qemu-system-arm -M "$qemu_m" -nographic -semihosting -kernel "$elf_sc"
	if [ "$rc" = 0 ] && { [ -z "$q" ] || awk -v a="$q" -v b="$cpu_s" 'BEGIN { exit !(b < a) }'; }; then
		q=$cpu_s qw=$wall qrss=$rss
	fi
done
if [ -n "$q" ]; then
	cell[qemu1]=$(awk -v n="$n1" -v c="$q" -v z="$q0" -v w="$qw" -v k="$qrss" 'BEGIN {
		printf "%.2f - %.2f | %.2f | %.1f | %.0f", c, z, w, n / (c - z) / 1e6, k / 1024 }')
else
	cell[qemu1]="failed | | |"
fi
one record1 "$n1" "$raptor" record "$elf_sc" --cores 1 --cpu "$cpu" -o "$rec1" --force -q
one none1 "$n1" "$raptor" replay "$rec1" --interval "$huge"
one default1 "$n1" "$raptor" replay "$rec1"
one record "$n" "$raptor" record "$elf" --cores "$cores" --cpu "$cpu" -o "$rec" --force -q
[ "$rc" = 0 ] || { cat "$tmp/out" >&2; echo "replay-index: record failed" >&2; exit 1; }
one none "$n" "$raptor" replay "$rec" --interval "$huge"
one default "$n" "$raptor" replay "$rec"

# sizes DIR N: the streams' sizes and bits per instruction
sizes() {
	awk -v c="$(stat -c %s "$1/cf.bin")" -v l="$(stat -c %s "$1/lv.bin")" -v n="$2" 'BEGIN {
		printf "cf.bin %d bytes, lv.bin %d bytes (%.3f + %.3f bits per instruction)",
			c, l, 8 * c / n, 8 * l / n }'
}
echo "$soak: its \`sc/\` build at 1 core runs $n1 instructions, the multicore build"
echo "at $cores cores $n. Recordings (kept in \`\$BUILD/bench/\`): at 1 core"
echo "$(sizes "$rec1" "$n1"); at $cores cores $(sizes "$rec" "$n")."
echo "One core's 32 KiB cache copy cannot hold the 64 KiB ring, so most of its loads miss"
echo "and reach the load-value stream; $cores cores' caches hold their slices."
echo
echo "| one pass, whole program | 1 core: CPU s | wall s | MIPS | peak RSS MiB | $cores cores: CPU s | wall s | MIPS | peak RSS MiB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
row() { printf '| %s | %s | %s |\n' "$1" "${cell[$2]:-- | - | - | -}" "${cell[$3]:-- | - | - | -}"; }
row "QEMU (\`-semihosting\`, no logging)" qemu1 -
row "\`raptor run\`" run1 run
row "\`raptor record\`" record1 record
row "\`raptor replay --interval 10^18\` (no checkpoint but the first)" none1 none
row "\`raptor replay\` (a checkpoint every 65536 instructions, the default)" default1 default
echo
echo "| interval | checkpoints | checkpoint MiB | KiB each | index CPU s | peak RSS MiB | seek median ms | seek p90 ms | seek max ms | reverse stepi median ms | reverse stepi max ms | reverse-continue to the first instruction ms | reverse-continue to a watchpoint ms (lands at) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for i in $intervals; do
	if ! "$rplbench" "$rec" "$i" "$seeks" >"$tmp/b" 2>"$tmp/err"; then
		printf '| %s | rplbench failed: %s |\n' "$i" "$(head -1 "$tmp/err")"
		continue
	fi
	awk -v i="$i" -v nc="$(key "$tmp/b" checkpoints)" -v by="$(key "$tmp/b" checkpoint_bytes)" \
		-v ix="$(key "$tmp/b" index_s)" -v rss="$(key "$tmp/b" rss_kb)" \
		-v sm="$(key "$tmp/b" seek_median_ms)" -v s9="$(key "$tmp/b" seek_p90_ms)" \
		-v sx="$(key "$tmp/b" seek_max_ms)" -v rm="$(key "$tmp/b" rstep_median_ms)" \
		-v rx="$(key "$tmp/b" rstep_max_ms)" -v cb="$(key "$tmp/b" rcont_break_ms)" \
		-v cw="$(key "$tmp/b" rcont_watch_ms)" -v cp="$(key "$tmp/b" rcont_watch_position)" 'BEGIN {
		printf "| %d | %d | %.1f | %.1f | %.2f | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %.1f (%d) |\n",
			i, nc, by / 1048576, by / 1024 / nc, ix, rss / 1024, sm, s9, sx, rm, rx, cb, cw, cp }'
done
if [ "$truth_insns" != 0 ]; then
	echo
	"$raptor" record "$elf" --cores "$cores" --cpu "$cpu" -o "$tmp/truth" -q --truth \
		--max-insns "$truth_insns" </dev/null >/dev/null 2>&1 || true
	if line=$("$raptor" replay "$tmp/truth" --random "$seeks" 2>&1 </dev/null); then
		echo "Check: the first $truth_insns instructions recorded with \`--truth\`;"
		echo "\`raptor replay --random $seeks\` says:"
	else
		echo "Check FAILED: the first $truth_insns instructions recorded with \`--truth\`;"
		echo "\`raptor replay --random $seeks\` says:"
	fi
	echo
	printf '%s\n' "$line" | sed "s|$tmp/truth|REC|g; s/^/    /"
fi
