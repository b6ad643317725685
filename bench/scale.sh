#!/bin/bash
# scale.sh: long recordings, as users make them (issue 14): record, index,
# serve and reverse through soak runs of 10^8 to 10^10 instructions.
# Writes the body of bench/SCALE.md on stdout; `make bench-scale` (or
# `BUILD=build bench/scale.sh > bench/SCALE.md`) regenerates it.
#
# The workload is soak (guest/work/soak.c) built at m3-O2 with ROUNDS set
# for the size wanted (115 rounds are about 1.05 * 10^8 instructions, all
# cores together), by bench/bench.mk into $BUILD/bench/soak/. For every run
# CORES:ROUNDS in $RUNS:
#   record   raptor record (CPU and wall time, MIPS, peak RSS)
#   index    raptor index when the build has it (the checkpoints written
#            beside the recording; its CPU time, peak RSS, the file's size),
#            else rplbench's index (replay to the end leaving checkpoints)
#   rplbench the replay API at the default memory budget: index CPU time and
#            peak RSS, SEEKS random seeks each followed by a reverse stepi of
#            core 0 (median, p99, max), reverse-continue from the end to a
#            breakpoint at the reset handler and to a write watchpoint on the
#            first word the run stored (bench/rplbench.c)
#   serve    raptor serve, then gdb-multiarch: wall time from starting the
#            server to GDB's first prompt (target remote done), and to the
#            end of the recording (monitor goto end); peak RSS of the server;
#            with the persisted index and without (--no-index), when the
#            build has an index
# Then, single-core, the sc/ build (one core, runs on stock QEMU) at the
# first run's size: QEMU (-semihosting, no logging; best of 3 minus the
# start-up of a program that exits at once), raptor replay with full state
# and of a control-flow-only recording (--lv-enc none), no checkpoint but
# the first (--interval 10^18), CPU time; the ratios to QEMU.
# Speed is reported, never asserted. The recordings stay in
# $BUILD/bench/scale/ (delete them after: 10^9 instructions are ~100 MB).
#
# Environment: RUNS ("1:115 4:115 8:115 8:1150"; 11500 rounds are 10^10),
# SEEKS (100), QEMU_ROUNDS (the first run's rounds).
set -eu
build=${1:-${BUILD:-build}}
runs=${RUNS:-1:115 4:115 8:115 8:1150}
seeks=${SEEKS:-100}
raptor=$build/raptor
rplbench=$build/bench/rplbench
out=$build/bench/scale
huge=1000000000000000000
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'kill $(cat "$tmp"/serve.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh" # timed, key
mips() { awk -v n="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.1f", n / t / 1e6; else print "-" }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

elf_for() { # ROUNDS [sc]: the soak ELF with that many rounds (built on demand)
	local e=$build/bench/soak/soak-r$1${2:+-sc}-m3-O2.elf
	make --no-print-directory -f Makefile -f bench/bench.mk BUILD="$build" "$e" >&2
	echo "$e"
}

have_index=0
"$raptor" index --help >/dev/null 2>&1 && have_index=1

# serve_time REC [ARGS]: start raptor serve, attach gdb-multiarch; sets
# t_prompt, t_end (s, wall) and srss (server's peak RSS, KiB)
serve_time() {
	local rec=$1 t0 t1 t2
	shift
	rm -f "$tmp/port" "$tmp/serve.pid"
	t0=$(now)
	"$raptor" serve "$rec" --port 0 --port-file "$tmp/port" "$@" >"$tmp/serve.log" 2>&1 &
	echo $! >"$tmp/serve.pid"
	for _ in $(seq 600); do [ -s "$tmp/port" ] && break; sleep 0.1; done
	gdb-multiarch -q -nx -batch "$rec/program.elf" \
		-ex "target remote 127.0.0.1:$(cat "$tmp/port")" \
		-ex 'shell date +%s.%N > '"$tmp/t1" \
		-ex 'monitor goto end' \
		-ex 'shell date +%s.%N > '"$tmp/t2" >"$tmp/gdb.out" 2>&1 || true
	# the server's peak RSS, from the kernel, before it goes
	srss=$(sed -n 's/^VmHWM:\s*\([0-9]*\) kB/\1/p' "/proc/$(cat "$tmp/serve.pid")/status" 2>/dev/null)
	kill -INT "$(cat "$tmp/serve.pid")" 2>/dev/null || true
	wait "$(cat "$tmp/serve.pid")" 2>/dev/null || true
	rm -f "$tmp/serve.pid"
	t1=$(cat "$tmp/t1" 2>/dev/null || echo "$t0") t2=$(cat "$tmp/t2" 2>/dev/null || echo "$t0")
	t_prompt=$(elapsed "$t0" "$t1") t_end=$(elapsed "$t0" "$t2")
	srss=${srss:-0}
	grep -q "position" "$tmp/gdb.out" || t_end="failed"
}

rows=() srows=()
# the targets' figures: the largest 8-core run ("-": none among $RUNS)
tn=- trec=- tidx=- trss=- tmed=- tmax=- tbest=0
for run in $runs; do
	cores=${run%%:*} rounds=${run#*:}
	elf=$(elf_for "$rounds")
	rec=$out/soak-r$rounds-${cores}c
	rm -rf "$rec"
	timed "$raptor" record "$elf" --cores "$cores" -o "$rec" -q
	[ "$rc" = 0 ] || { echo "scale: record $run failed: $(tail -1 "$tmp/out")" >&2; exit 1; }
	rcpu=$cpu_s
	n=$(awk -F' = ' '/^instructions/ { print $2; exit }' "$rec/stats.ini")
	icpu=- irss=- isize=-
	if [ $have_index = 1 ]; then
		timed "$raptor" index "$rec"
		[ "$rc" = 0 ] || { echo "scale: index $run failed: $(tail -1 "$tmp/out")" >&2; exit 1; }
		icpu=$cpu_s irss=$(mib "$rss")
		isize=$(du -k "$rec"/index* 2>/dev/null | awk '{ s += $1 } END { printf "%.1f", s / 1024 }')
	fi
	timed "$rplbench" "$rec" 65536 "$seeks" 1
	[ "$rc" = 0 ] || { echo "scale: rplbench $run failed: $(tail -1 "$tmp/out")" >&2; exit 1; }
	cp "$tmp/out" "$tmp/b"
	brss=$(mib "$rss")
	if [ $have_index = 1 ]; then
		serve_time "$rec"
		p_idx=$t_prompt e_idx=$t_end s_idx=$(mib "$srss")
		serve_time "$rec" --no-index
	else
		serve_time "$rec"
		p_idx=- e_idx=- s_idx=-
	fi
	p_no=$t_prompt e_no=$t_end s_no=$(mib "$srss")
	rows+=("| $cores | $n | $rcpu | $(mips "$n" "$rcpu") | $icpu | $irss | $isize | $(key "$tmp/b" index_s) | $brss | $(key "$tmp/b" checkpoints) ($(key "$tmp/b" ck_dropped) dropped) | $(key "$tmp/b" rstep_median_ms) | $(key "$tmp/b" rstep_p99_ms) | $(key "$tmp/b" rstep_max_ms) | $(key "$tmp/b" rcont_break_ms) | $(key "$tmp/b" rcont_watch_ms) |")
	srows+=("| $cores | $n | $p_no | $e_no | $s_no | $p_idx | $e_idx | $s_idx |")
	# the largest 8-core run, for the targets below
	if [ "$cores" = 8 ] && [ "$n" -ge "$tbest" ]; then
		tbest=$n tn=$n trec=$(mips "$n" "$rcpu") tidx=$icpu
		trss=$(awk -v a="$brss" -v b="$s_idx" -v c="$s_no" 'BEGIN {
			m = a; if (b != "-" && b > m) m = b; if (c > m) m = c; print m }')
		tmed=$(key "$tmp/b" rstep_median_ms) tmax=$(key "$tmp/b" rstep_max_ms)
	fi
done

echo "# Long recordings"
echo
echo "Generated by \`bench/scale.sh\` (\`make bench-scale\`) at commit"
echo "$(git -C "$(dirname "$0")/.." rev-parse --short HEAD 2>/dev/null || echo unknown) on $(date -u +%Y-%m-%d), $(nproc) CPUs,"
echo "$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1); load average"
echo "$(cut -d' ' -f1-3 /proc/loadavg) at the end. Runs: \`$runs\` (cores:soak rounds)."
echo
echo "### Record, index, reverse"
echo
echo "Times in s of CPU (user + system) unless marked wall; RSS in MiB. The"
echo "rplbench columns: the replay API at the default budget (512 MiB):"
echo "indexing, then $seeks random positions each followed by a reverse stepi"
echo "of core 0, then reverse-continue from the end to a breakpoint at the"
echo "first instruction and to a watchpoint on the first word stored."
echo
echo "| cores | instructions | record s | record MIPS | raptor index s | index RSS | index file MiB | rplbench index s | rplbench peak RSS | checkpoints at the end | reverse-stepi median ms | p99 ms | max ms | reverse-continue to a far breakpoint ms | to a far watchpoint ms |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
echo
echo "### Serve: wall time to GDB's first prompt and to the end"
echo
echo "\`raptor serve REC\` started, then \`gdb-multiarch -batch -ex 'target remote'"
echo "-ex 'monitor goto end'\`: wall seconds from the server's start to the"
echo "prompt (target remote done) and to the end of the recording reached;"
echo "the server's peak RSS. Without an index the server replays the whole"
echo "recording on the way to the end (laying checkpoints down);"
echo "with the persisted index (\`raptor index\` above) it loads them."
echo
echo "| cores | instructions | prompt s (no index) | end s (no index) | server RSS MiB (no index) | prompt s (index) | end s (index) | server RSS MiB (index) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${srows[@]}"

# single-core beside QEMU, same ELF
first=${runs%% *}
qr=${QEMU_ROUNDS:-${first#*:}}
sc=$(elf_for "$qr" sc)
r1=$out/soak-r$qr-sc-1c
rn=$out/soak-r$qr-sc-1c-cf
rm -rf "$r1" "$rn"
timed "$raptor" record "$sc" --cores 1 -o "$r1" -q
recsc=$cpu_s
"$raptor" record "$sc" --cores 1 --lv-enc none -o "$rn" -q >/dev/null
n1=$(awk -F' = ' '/^instructions/ { print $2; exit }' "$r1/stats.ini")
qemu=(timeout 600 qemu-system-arm -M mps2-an385 -nographic -semihosting -kernel)
# least CPU time of 3 runs of QEMU on ELF into the named variable
qemu_best() {
	local b=
	for _ in 1 2 3; do
		timed "${qemu[@]}" "$1"
		[ "$rc" = 0 ] || { echo "scale: QEMU failed on $1: $(tail -1 "$tmp/out")" >&2; exit 1; }
		if [ -z "$b" ] || awk -v a="$cpu_s" -v b="$b" 'BEGIN { exit !(a < b) }'; then b=$cpu_s; fi
	done
	printf -v "$2" '%s' "$b"
}
qemu_best "$sc" best
qemu_best "$(elf_for 1 sc)" bq
qcpu=$(awk -v a="$best" -v b="$bq" 'BEGIN { printf "%.3f", a - b }')
timed "$raptor" replay "$r1" --interval $huge
fcpu=$cpu_s
timed "$raptor" replay "$rn" --interval $huge
ccpu=$cpu_s
timed "$raptor" run "$sc" --cores 1
runcpu=$cpu_s
q=$(mips "$n1" "$qcpu") qw=$(mips "$n1" "$best") f=$(mips "$n1" "$fcpu") c=$(mips "$n1" "$ccpu")
# ratio A B: A / B to 3 places ("-" when B is not a positive number)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0) printf "%.3f", a / b; else print "-" }'; }
echo
echo "### Single-core replay beside QEMU, same ELF"
echo
echo "soak's sc/ build at $qr rounds ($n1 instructions), one core; CPU s, best"
echo "of 3 for QEMU. QEMU's start-up ($bq s: a program that exits at once) is"
echo "a large part of its time here, so its speed and the ratios are given both"
echo "ways: with the start-up subtracted, and for the whole run as timed."
echo "\`raptor replay\` straight through lays down no checkpoint (it never goes"
echo "back); the index times above are the replay with its checkpoints."
echo
echo "| tool | CPU s | MIPS | / QEMU, start-up subtracted | / QEMU, whole run |"
echo "|---|---:|---:|---:|---:|"
echo "| QEMU TCG (-semihosting), start-up subtracted | $qcpu | $q | 1 | |"
echo "| QEMU TCG (-semihosting), whole run | $best | $qw | | 1 |"
for row in "raptor run (the ISS alone):$runcpu" "raptor replay, full state:$fcpu" \
	"raptor replay, control flow only:$ccpu"; do
	m=$(mips "$n1" "${row##*:}")
	echo "| ${row%:*} | ${row##*:} | $m | $(ratio "$m" "$q") | $(ratio "$m" "$qw") |"
done

# met VALUE OP LIMIT: "met" or "not met"
met() { awk -v v="$1" -v l="$3" -v op="$2" 'BEGIN {
	if (v == "-" || v == "") { print "not measured"; exit }
	ok = op == "<=" ? v + 0 <= l + 0 : v + 0 >= l + 0; print ok ? "met" : "not met" }'; }
fr=$(ratio "$f" "$q") cr=$(ratio "$c" "$q") frw=$(ratio "$f" "$qw") crw=$(ratio "$c" "$qw")
echo
echo "### The targets of issue 14"
echo
echo "At 8 cores, the largest run above ($tn instructions); peak RSS is the"
echo "most of rplbench's and the server's (with and without the index)."
echo
echo "| target | measured | |"
echo "|---|---:|---|"
echo "| peak RSS <= 512 MiB | $trss MiB | $(met "$trss" "<=" 512) |"
echo "| the whole index <= 20 s | $tidx s | $(met "$tidx" "<=" 20) |"
echo "| reverse-stepi median <= 10 ms | $tmed ms | $(met "$tmed" "<=" 10) |"
echo "| reverse-stepi max <= 50 ms | $tmax ms | $(met "$tmax" "<=" 50) |"
echo "| replay >= 0.10x QEMU, full state | ${fr}x (${frw}x of the whole run) | $(met "$fr" ">=" 0.10) |"
echo "| replay >= 0.20x QEMU, control flow only | ${cr}x (${crw}x of the whole run) | $(met "$cr" ">=" 0.20) |"
echo "| record >= 50 MIPS (single-core: the first run if 1 core) | $(mips "$n1" "$recsc") MIPS | $(met "$(mips "$n1" "$recsc")" ">=" 50) |"
