#!/bin/bash
# replay-speed.sh: replay speed beside the ISS, the recorder and QEMU.
#
# For each workload build (single-core ones at 1 core, multicore ones at
# each of $CORES cores), times side by side, interleaved, REPS times each,
# keeping the least CPU time (user + system) of each:
#   run      raptor run ELF                     the ISS alone
#   record   raptor record ELF -o REC           ISS + trace modules + streams
#   replay   raptor replay REC                  cf + lv streams, full state
#   verify   raptor replay RECT --verify        the same, checked against
#                                               truth.gz (recorded --truth)
#   cf-only  raptor replay RECN                 REC recorded --lv-enc none
#   QEMU     qemu-system-arm -semihosting       single-core builds only
# CPU time, not wall time as in bench/iss-speed.sh: on a shared machine a
# process waiting for a CPU can take three times its wall time, its CPU time
# moves by a few percent (every tool here computes; none waits for I/O).
# Start-up is measured the same way on a program that exits at once (at the
# same core count) and subtracted, so the MIPS columns are steady-state
# speeds; a cell is n/m when the best run was no longer than the start-up
# (QEMU's start-up outweighs its few ms of work here). The totals divide
# all instructions by the sum of the start-up-less times. Instruction counts (all cores) come from
# `raptor run --stats` and serve every column (a replay's count leaves out
# instructions that faulted, e.g. 200 of irq's: a 0.1% difference). Every
# replay must reach the end of its recording and exit 0 (--verify: with 0
# differences), or the row says which did not.
#
# The cf-only column is measured only when this build's `raptor replay`
# accepts a recording without a load-value stream; otherwise every cell is
# n/a and the note under the table quotes the refusal.
#
# Usage: bench/replay-speed.sh [BUILD] > table.md
# Environment: REPS (2), SINGLE_BUILDS ("m3-O0"), MULTI_BUILDS ("m3-O0"),
# CORES ("2 4 8"): which builds of build/guest/{single,multi}.list, e.g.
# SINGLE_BUILDS="m3-O0 m3-O2 m4-Os". The -O0 builds are the longest runs
# (0.4 to 1.2 million instructions), so start-up weighs least.
set -eu
build=${1:-build}
reps=${REPS:-2}
single_builds=${SINGLE_BUILDS:-m3-O0}
multi_builds=${MULTI_BUILDS:-m3-O0}
cores_list=${CORES:-2 4 8}
raptor=$build/raptor

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# timed NAME CMD...: one run of CMD, output in $tmp/out, exit status in rc;
# keeps the least CPU time (user + system, ns) of the successful ones in
# best[NAME]
declare -A best
timed() {
	local name=$1 u s d TIMEFORMAT='%3U %3S'
	shift
	rc=0
	{ time "$@" </dev/null >"$tmp/out" 2>&1 || rc=$?; } 2>"$tmp/time"
	[ "$rc" = 0 ] || return 0
	read -r u s <"$tmp/time"
	d=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.0f", (u + s) * 1e9 }')
	if [ -z "${best[$name]:-}" ] || [ "$d" -lt "${best[$name]}" ]; then best[$name]=$d; fi
}

qemu_machine() { case $1 in *-m4-*|*-m4f-*) echo mps2-an386 ;; *) echo mps2-an385 ;; esac; }

# failed KEY [LABEL]: a column that cannot be trusted for this row: drop it
# and say why
failed() {
	unset "best[$1]"
	skip[$1]=1
	status="${status:+$status, }${2:-$1} failed"
}

# whole: the replay just timed ran to the end of its recording and exited 0
whole() { [ "$rc" = 0 ] && grep -q '^raptor replay: .* (the whole recording)' "$tmp/out"; }

# measure ELF CORES: REPS interleaved runs of each tool into best[], every
# result checked (a column that fails once is dropped for the row). Sets n
# (instructions) and status (the columns that failed, "" when all is well).
declare -A skip
measure() {
	local elf=$1 c=$2 q='' k
	best=() skip=() status=
	n=$("$raptor" run "$elf" --cores "$c" --stats 2>&1 </dev/null >/dev/null |
		awk '/^core [0-9]+: [0-9]+ instructions/ { s += $3 } END { print s + 0 }')
	"$raptor" record "$elf" --cores "$c" -o "$tmp/rect" --force -q --truth \
		</dev/null >/dev/null 2>&1 || skip[verify]=1 status="record --truth failed"
	[ "$cf_supported" = 1 ] || skip[cfonly]=1
	if [ "$cf_supported" = 1 ] && ! "$raptor" record "$elf" --cores "$c" \
		-o "$tmp/recn" --force -q --lv-enc none </dev/null >/dev/null 2>&1; then
		skip[cfonly]=1 status="${status:+$status, }record --lv-enc none failed"
	fi
	if [ "$c" = 1 ]; then q=$(qemu_machine "$(basename "$elf")"); else skip[qemu]=1; fi
	for _ in $(seq "$reps"); do
		if [ -z "${skip[run]:-}" ]; then
			timed run "$raptor" run "$elf" --cores "$c"
			[ "$rc" = 0 ] || failed run
		fi
		if [ -z "${skip[record]:-}" ]; then
			timed record "$raptor" record "$elf" --cores "$c" -o "$tmp/rec" \
				--force -q
			[ "$rc" = 0 ] || { failed record; skip[replay]=1; }
		fi
		if [ -z "${skip[replay]:-}" ]; then
			timed replay "$raptor" replay "$tmp/rec"
			whole || failed replay
		fi
		if [ -z "${skip[verify]:-}" ]; then
			timed verify "$raptor" replay "$tmp/rect" --verify
			whole || failed verify
		fi
		if [ -z "${skip[cfonly]:-}" ]; then
			timed cfonly "$raptor" replay "$tmp/recn"
			whole || failed cfonly "cf-only replay"
		fi
		if [ -z "${skip[qemu]:-}" ]; then
			timed qemu qemu-system-arm -M "$q" -nographic -semihosting -kernel "$elf"
			[ "$rc" = 0 ] || failed qemu
		fi
	done
	for k in "${!skip[@]}"; do unset "best[$k]"; done
}

# Start-up, per core count: a program that exits at once, through each tool.
printf '%s\n' '.syntax unified' '.thumb' '.section .vectors,"a"' '.word 0x20400000' \
	'.word reset + 1' '.text' '.thumb_func' 'reset:' 'movs r0, #0x18' 'ldr r1, =0x20026' \
	'bkpt 0xab' >"$tmp/exit.S"
arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -nostdlib -T tests/isa/isa.ld "$tmp/exit.S" -o "$tmp/exit.elf"

# Does this build replay a recording without a load-value stream?
"$raptor" record "$tmp/exit.elf" --cores 1 -o "$tmp/probe" -q --lv-enc none >/dev/null 2>&1 || true
if cf_why=$("$raptor" replay "$tmp/probe" -q 2>&1 </dev/null); then cf_supported=1; else
	cf_supported=0
	cf_why=$(printf '%s' "$cf_why" | head -1 | sed 's/^raptor: error: //; s|^[^ ]*/probe: ||')
fi

declare -A s0
for c in 1 $cores_list; do
	measure "$tmp/exit.elf" "$c"
	for k in "${!best[@]}"; do s0[$c,$k]=${best[$k]}; done
done

# mips KEY [MISSING]: "12.3"; MISSING (default -) when not measured; n/m
# when the run took no longer than the start-up
mips() {
	local t=${best[$1]:-} z=${s0[$c,$1]:-0}
	if [ -z "$t" ]; then echo "${2:--}"; return; fi
	if [ "$t" -le "$z" ]; then echo n/m; return; fi
	awk -v n="$n" -v t="$((t - z))" 'BEGIN { printf "%.1f", n / (t / 1e3) }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else printf "-" }'; }

declare -A tot_n tot_t
# row NAME: one table line from n, best[], status; adds to the totals of $group
row() {
	local run rec rpl ver cfo qemu
	run=$(mips run) rec=$(mips record) rpl=$(mips replay) ver=$(mips verify)
	cfo=$(mips cfonly) qemu=$(mips qemu)
	[ "$cf_supported" = 1 ] || cfo=n/a
	printf '| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s |%s\n' "$1" "$c" "$n" \
		"$run" "$rec" "$rpl" "$ver" "$cfo" "$qemu" "$(ratio "$rpl" "$run")" \
		"$(ratio "$rpl" "$qemu")" "${status:+ **$status**}"
	for k in run record replay verify cfonly qemu; do
		[ -n "${best[$k]:-}" ] || continue
		local z=${s0[$c,$k]:-0} t=${best[$k]}
		tot_n[$group,$k]=$((${tot_n[$group,$k]:-0} + n))
		tot_t[$group,$k]=$((${tot_t[$group,$k]:-0} + t - z))
	done
}

total() {
	local k v=() run rpl qemu
	for k in run record replay verify cfonly qemu; do
		if [ -n "${tot_t[$group,$k]:-}" ]; then
			v+=("$(awk -v n="${tot_n[$group,$k]}" -v t="${tot_t[$group,$k]}" \
				'BEGIN { if (t > 0) printf "%.1f", n / (t / 1e3); else printf "n/m" }')")
		else
			v+=("$([ "$k" = cfonly ] && echo n/a || echo -)")
		fi
	done
	run=${v[0]} rpl=${v[2]} qemu=${v[5]}
	printf '| **%s** | | %d | **%s** | **%s** | **%s** | **%s** | **%s** | **%s** | **%s** | **%s** |\n' \
		"$1" "${tot_n[$group,run]:-0}" "${v[@]}" "$(ratio "$rpl" "$run")" "$(ratio "$rpl" "$qemu")"
}

echo "| workload | cores | instructions | run | record | replay | replay --verify | cf-only replay | QEMU | replay / run | replay / QEMU |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
group=single
for b in $single_builds; do
	while read -r elf; do
		case $elf in *-"$b".elf) ;; *) continue ;; esac
		c=1
		measure "$elf" 1
		row "$(basename "$elf" .elf)"
	done <"$build/guest/single.list"
done
total "single-core, all"
group=multi
for b in $multi_builds; do
	for c in $cores_list; do
		while read -r elf; do
			case $elf in *-"$b".elf) ;; *) continue ;; esac
			measure "$elf" "$c"
			row "$(basename "$elf" .elf)"
		done <"$build/guest/multi.list"
	done
done
total "multicore, all"
echo
label() {
	case $1 in verify) echo "replay --verify" ;; cfonly) echo "cf-only replay" ;;
	qemu) echo QEMU ;; *) echo "$1" ;; esac
}
ms() { awk -v t="$1" 'BEGIN { printf "%.1f", t / 1e6 }'; }
printf 'Start-up, subtracted above (a program that exits at once; ms at 1'
for c in $cores_list; do printf '/%s' "$c"; done
printf ' cores): '
for k in run record replay verify cfonly qemu; do
	[ -n "${s0[1,$k]:-}" ] || continue
	printf '%s %s' "$(label "$k")" "$(ms "${s0[1,$k]}")"
	for c in $cores_list; do
		if [ -n "${s0[$c,$k]:-}" ]; then printf '/%s' "$(ms "${s0[$c,$k]}")"; fi
	done
	printf '; '
done | sed 's/; $/./'
echo
if [ "$cf_supported" = 0 ]; then
	echo
	echo "cf-only replay: n/a (not supported by this build): \`raptor replay\` of a"
	echo "\`--lv-enc none\` recording says \"$cf_why\"."
fi
