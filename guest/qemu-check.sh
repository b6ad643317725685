#!/bin/sh
# qemu-check.sh: run guest ELFs on stock QEMU (the oracle) and check exit 0.
# Usage: guest/qemu-check.sh [--count] LIST|ELF...
#   LIST is a file with one ELF path per line (single.list, multi-sc.list).
#   --count also counts retired instructions: QEMU single-steps with
#   -d exec,nochain and every "Trace" line is one instruction (slow).
# Cortex-M4 builds (*-m4-*) run on mps2-an386, the others on mps2-an385.
# Prints one line per ELF (PASS/FAIL, exit status, instruction count) and
# exits non-zero if any ELF failed.
count=0
if [ "$1" = --count ]; then
	count=1
	shift
fi
QEMU=${QEMU:-qemu-system-arm}
TIMEOUT=${TIMEOUT:-60}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# Expand arguments: list files to their lines, ELFs as they are.
elfs=
for a in "$@"; do
	case $a in
	*.elf) elfs="$elfs $a" ;;
	*) elfs="$elfs $(cat "$a")" ;;
	esac
done

pass=0 failed=0 total=0
for elf in $elfs; do
	case $elf in
	*-m4-*|*-m4f-*) machine=mps2-an386 ;;
	*) machine=mps2-an385 ;;
	esac
	insns=-
	if [ $count = 1 ]; then
		# Count through a FIFO: a 1M-instruction log is ~80 MB.
		rm -f "$tmp/log"
		mkfifo "$tmp/log"
		grep -c '^Trace' <"$tmp/log" >"$tmp/n" &
		counter=$!
		timeout "$TIMEOUT" "$QEMU" -M $machine -nographic -semihosting \
			-singlestep -d exec,nochain -D "$tmp/log" \
			-kernel "$elf" >"$tmp/out" 2>&1 </dev/null
		rc=$?
		wait $counter
		insns=$(cat "$tmp/n")
		total=$((total + insns))
	else
		timeout "$TIMEOUT" "$QEMU" -M $machine -nographic -semihosting \
			-kernel "$elf" >"$tmp/out" 2>&1 </dev/null
		rc=$?
	fi
	if [ $rc = 0 ]; then
		pass=$((pass + 1))
		verdict=PASS
	else
		failed=$((failed + 1))
		verdict=FAIL
	fi
	printf '%s %-40s rc=%-3s insns=%s\n' $verdict "$elf" $rc "$insns"
	[ $rc = 0 ] || sed 's/^/    /' "$tmp/out"
done
printf 'qemu-check: %d passed, %d failed' $pass $failed
[ $count = 1 ] && printf ', %d instructions' $total
printf '\n'
[ $failed = 0 ]
