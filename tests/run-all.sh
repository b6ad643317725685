#!/bin/bash
# run-all.sh: run the unit test binaries $BUILD/unit/* and the shell tests
# tests/t[0-9]*.sh, in that order, and add up their TAP test points.
#
# Usage: tests/run-all.sh [-v] [-j N] [PATTERN...]
#   PATTERN  selects tests by name, a prefix or a glob: t0001, t00, 't*qemu*',
#            unit (all unit tests), unit/NAME; tests/t0001-x.sh also works.
#            Several patterns add up; each must match at least one test.
#            T='t0001 t0002' in the environment does the same.
#   -v       print every test's full TAP output, not only failing ones.
#   -j N     run N test programs at a time (default 1, or JOBS); results are
#            still printed in order, each when it and those before it are done.
#
# The last line is always "N passed, N failed", counting test points (TODO
# points, known breakages, count in neither). A script that bails out, dies,
# exits non-zero with no failing point or misses its plan counts as one more
# failure. Exit status 1 if anything failed (or nothing ran), else 0.
#
# Environment: BUILD (default build, made absolute), TEST_TIMEOUT (seconds
# per test program, default 900), V=1 same as -v, JOBS=N same as -j N.
set -u

src=$(cd "$(dirname "$0")/.." && pwd) || exit 1
BUILD=${BUILD:-build}
case $BUILD in
/*) ;;
*) BUILD=$(pwd)/$BUILD ;;
esac
export BUILD SRC=$src
verbose=${V:-}

jobs=${JOBS:-1}
patterns=()
want_jobs=
for arg in "$@"; do
	if [ -n "$want_jobs" ]; then
		jobs=$arg want_jobs=
		continue
	fi
	case $arg in
	-v | --verbose) verbose=1 ;;
	-j) want_jobs=1 ;;
	-j[0-9]*) jobs=${arg#-j} ;;
	-h | --help) sed -n '2,/^set -u/{/^set -u/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	-*) echo "run-all: unknown option '$arg'" >&2; exit 2 ;;
	*) patterns+=("$arg") ;;
	esac
done
case $jobs in
'' | *[!0-9]* | 0) echo "run-all: -j wants a count of 1 or more, not '$jobs'" >&2; exit 2 ;;
esac
# shellcheck disable=SC2206 # T is a space-separated word list
[ -n "${T:-}" ] && patterns+=(${T})

# All tests, as name<TAB>command path.
names=() paths=()
for f in "$BUILD"/unit/*; do
	[ -f "$f" ] && [ -x "$f" ] || continue
	names+=("unit/${f##*/}") paths+=("$f")
done
for f in "$src"/tests/t[0-9]*.sh; do
	[ -f "$f" ] || continue
	n=${f##*/}
	names+=("${n%.sh}") paths+=("$f")
done

# Normalise a pattern: tests/t0001-x.sh -> t0001-x, build/unit/foo -> unit/foo.
normalise() {
	local p=${1#./}
	case $p in
	*/unit/*) p=unit/${p##*/unit/} ;;
	esac
	p=${p#tests/}
	p=${p%.sh}
	printf '%s' "$p"
}

selected=()
if [ ${#patterns[@]} = 0 ]; then
	selected=("${!names[@]}")
else
	declare -A chosen=()
	for pat in "${patterns[@]}"; do
		p=$(normalise "$pat")
		hit=0
		for i in "${!names[@]}"; do
			# shellcheck disable=SC2053 # the pattern is a glob on purpose
			if [[ ${names[i]} == $p || ${names[i]} == $p* ]]; then
				hit=1
				chosen[$i]=1
			fi
		done
		if [ $hit = 0 ]; then
			echo "run-all: no test matches '$pat'" >&2
			echo "0 passed, 1 failed"
			exit 1
		fi
	done
	for i in "${!names[@]}"; do
		[ -n "${chosen[$i]:-}" ] && selected+=("$i")
	done
fi

total_pass=0 total_fail=0 total_todo=0
failed_names=()
outdir=$(mktemp -d "${TMPDIR:-/tmp}/run-all.XXXXXX") || exit 1
trap 'rm -rf "$outdir"' EXIT

# run_one I: test I, its output to $outdir/I.out, then its exit status and
# seconds to $outdir/I.rc (written last: the test is done when it exists).
run_one() {
	local i=$1 name=${names[$1]} path=${paths[$1]} start=$SECONDS rc
	if [[ $name == unit/* ]]; then
		(cd "$src" && timeout "${TEST_TIMEOUT:-900}" "$path") >"$outdir/$i.out" 2>&1 </dev/null
	elif [ -x "$path" ]; then
		timeout "${TEST_TIMEOUT:-900}" "$path" >"$outdir/$i.out" 2>&1 </dev/null
	else
		timeout "${TEST_TIMEOUT:-900}" sh "$path" >"$outdir/$i.out" 2>&1 </dev/null
	fi
	rc=$?
	echo "$rc $((SECONDS - start))" >"$outdir/$i.rc.tmp" && mv "$outdir/$i.rc.tmp" "$outdir/$i.rc"
}

# report I: count and print the result of finished test I.
report() {
	local i=$1 name=${names[$1]} out=$outdir/$1.out rc secs
	local pass=0 fail=0 todo=0 ran=0 plan='' why=() line
	read -r rc secs <"$outdir/$i.rc"
	while IFS= read -r line; do
		case $line in
		"ok "[0-9]*)
			ran=$((ran + 1))
			if [[ $line == *"# TODO"* ]]; then todo=$((todo + 1)); else pass=$((pass + 1)); fi
			;;
		"not ok "[0-9]*)
			ran=$((ran + 1))
			if [[ $line == *"# TODO"* ]]; then todo=$((todo + 1)); else fail=$((fail + 1)); fi
			;;
		"Bail out!"*)
			fail=$((fail + 1))
			why+=("bailed out")
			;;
		1..[0-9]*)
			plan=${line#1..}
			plan=${plan%%[!0-9]*}
			;;
		esac
	done <"$out"
	if [ -z "$plan" ] && [ ${#why[@]} = 0 ]; then
		fail=$((fail + 1))
		why+=("no plan (1..N) printed")
	elif [ -n "$plan" ] && [ "$plan" != "$ran" ]; then
		fail=$((fail + 1))
		why+=("planned $plan tests, ran $ran")
	fi
	if [ "$rc" = 124 ]; then
		fail=$((fail + 1))
		why+=("timed out after ${TEST_TIMEOUT:-900}s")
	elif [ "$rc" != 0 ] && [ $fail = 0 ]; then
		fail=1
		why+=("exit status $rc with no failing test")
	fi

	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	total_todo=$((total_todo + todo))
	if [ $fail = 0 ]; then
		printf 'PASS %-40s %3d passed%s  (%ds)\n' "$name" "$pass" \
			"$([ $todo = 0 ] || echo ", $todo todo")" "$secs"
		[ -n "$verbose" ] && sed 's/^/    /' "$out"
	else
		failed_names+=("$name")
		printf 'FAIL %-40s %3d passed, %d failed%s  (%ds)\n' "$name" "$pass" "$fail" \
			"$([ ${#why[@]} = 0 ] || printf '; %s' "${why[@]}")" "$secs"
		sed 's/^/    /' "$out"
	fi
	rm -f "$out"
}

# Up to $jobs at a time; the results in order, as soon as a prefix is done.
next=0
report_done() {
	while [ $next -lt ${#selected[@]} ] && [ -e "$outdir/${selected[next]}.rc" ]; do
		report "${selected[next]}"
		next=$((next + 1))
	done
}
for i in "${selected[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
		report_done
	done
	run_one "$i" &
	report_done
done
wait
report_done
for i in "${selected[@]:next}"; do # (run_one itself killed: no status written)
	total_fail=$((total_fail + 1))
	failed_names+=("${names[i]}")
	printf 'FAIL %-40s did not finish (no exit status)\n' "${names[i]}"
done

[ $total_todo = 0 ] || echo "# $total_todo known breakage(s) (TODO), counted in neither"
[ ${#failed_names[@]} = 0 ] || echo "# failed: ${failed_names[*]}"
if [ $((total_pass + total_fail)) = 0 ]; then
	echo "run-all: no test ran" >&2
	echo "0 passed, 0 failed"
	exit 1
fi
echo "$total_pass passed, $total_fail failed"
[ $total_fail = 0 ]
