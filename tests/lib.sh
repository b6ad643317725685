# shellcheck shell=sh
# lib.sh: a small git-style shell test library, emitting TAP.
#
# A test script tests/tNNNN-area-what.sh reads:
#
#   #!/bin/sh
#   . "$(dirname "$0")/lib.sh"
#   test_description 'what this script covers'
#   test_expect_success 'title' '
#   	cmd1 &&
#   	cmd2
#   '
#   test_done
#
# (git's form, test_description='...' set before sourcing, works too.)
# Each script runs in its own scratch directory $BUILD/trash/<script-name>,
# emptied at start, removed when every test passed and kept otherwise.
# Tests run in the script's shell (variables carry over), their output goes
# to a log printed as TAP diagnostics ('# ...') when they fail.
#
# Variables: SRC (repo root), BUILD (absolute; default $SRC/build), RAPTOR
# ($BUILD/raptor), GUEST ($BUILD/guest), TEST_NAME, TRASH (scratch directory).
# Nothing is ever skipped: a missing tool is a failure (see test_require).
# Environment: V=1 (or -v) also prints the output of passing tests.

# Must be set before anything else runs: where we are.
test_script_=${0##*/}
TEST_NAME=${test_script_%.sh}
case $0 in
*/*) test_dir_=${0%/*} ;;
*) test_dir_=. ;;
esac
SRC=$(cd "$test_dir_/.." && pwd) || exit 1
BUILD=${BUILD:-$SRC/build}
case $BUILD in
/*) ;;
*) BUILD=$(pwd)/$BUILD ;;
esac
RAPTOR=$BUILD/raptor
GUEST=$BUILD/guest
TRASH=$BUILD/trash/$TEST_NAME
export SRC BUILD RAPTOR GUEST TEST_NAME TRASH

for arg_; do
	case $arg_ in
	-v | --verbose) V=1 ;;
	esac
done

test_count_=0
test_cleanup_=:
test_fail_=0
test_fixed_=0
test_broken_=0
test_bg_names_=
test_log_=$BUILD/trash/$TEST_NAME.log

. "$SRC/tests/damage.sh"

# abs_list FILE: print the paths listed in FILE (one a line), relative ones
# made absolute from the repository root (the build writes them relative).
abs_list() {
	while read abs_list_p_; do
		case $abs_list_p_ in
		/*) echo "$abs_list_p_" ;;
		*) echo "$SRC/$abs_list_p_" ;;
		esac
	done <"$1"
}

# ini FILE SECTION KEY: a value of an INI file (raptor's own flat syntax:
# manifest.ini, stats.ini).
ini() {
	awk -v s="[$2]" -v k="$3" '
		/^\[/ { in_s = ($0 == s); next }
		in_s && $1 == k && $2 == "=" { print $3; exit }
	' "$1"
}

# test_sample FILE: with RAPTOR_TEST_SAMPLE=N (N > 1), keep only every Nth
# line of the job list FILE (the 1st, the N+1th, ...). `make asan` sets it, so
# that the long campaigns (t0100, t0120, t0300, t0310, t0320) run a fixed
# fraction of their cases under the sanitizers and the whole suite fits in CI;
# `make check` runs every case. test_scaled N: N divided by the same factor
# (for the lower bounds those tests check).
test_sample() {
	case ${RAPTOR_TEST_SAMPLE:-1} in
	'' | *[!0-9]* | 0 | 1) return 0 ;;
	esac
	awk -v n="$RAPTOR_TEST_SAMPLE" '(NR - 1) % n == 0' "$1" >"$1.sampled" &&
	mv "$1.sampled" "$1" &&
	echo "# sampled: 1 in $RAPTOR_TEST_SAMPLE of $1 (RAPTOR_TEST_SAMPLE)"
}

test_scaled() {
	case ${RAPTOR_TEST_SAMPLE:-1} in
	'' | *[!0-9]* | 0 | 1) echo "$1" ;;
	*) echo $(($1 / RAPTOR_TEST_SAMPLE)) ;;
	esac
}

# test_description TEXT: say what the script is about (a TAP comment).
test_description() {
	echo "# $TEST_NAME: $1"
}
if [ -n "${test_description:-}" ]; then
	test_description "$test_description"
fi

# bail_out_ MSG: stop the whole script; run-all.sh counts it as a failure.
bail_out_() {
	echo "Bail out! $TEST_NAME: $*"
	exit 1
}

rm -rf "$TRASH" || bail_out_ "cannot remove $TRASH"
mkdir -p "$TRASH" || bail_out_ "cannot create $TRASH"
cd "$TRASH" || bail_out_ "cannot enter $TRASH"

# Print FILE as TAP diagnostics, indented.
test_diag_file_() {
	sed 's/^/#	/' "$1"
}

# test_run_ COMMANDS: eval them in this shell, output into the log.
test_run_() {
	test_cleanup_=:
	test_cleanup_failed_=
	{
		eval "$1"
	} >"$test_log_" 2>&1 </dev/null
	test_eval_rc_=$?
	# test_when_finished commands run whatever the result.
	{
		eval "$test_cleanup_"
	} >>"$test_log_" 2>&1 </dev/null
	if [ -n "$test_cleanup_failed_" ]; then
		echo "(test_when_finished commands failed)" >>"$test_log_"
		[ $test_eval_rc_ != 0 ] || test_eval_rc_=1
	fi
	cd "$TRASH" || bail_out_ "cannot return to $TRASH"
	return $test_eval_rc_
}

test_check_args_() {
	if [ $# != 3 ]; then
		bail_out_ "bug in the test script: $1 takes 2 arguments (title, commands), got $(($# - 1))"
	fi
}

# test_expect_success 'title' 'commands': the commands must succeed.
test_expect_success() {
	test_check_args_ test_expect_success "$@"
	test_count_=$((test_count_ + 1))
	if test_run_ "$2"; then
		echo "ok $test_count_ - $1"
		[ -n "${V:-}" ] && test_diag_file_ "$test_log_"
	else
		test_fail_=$((test_fail_ + 1))
		echo "not ok $test_count_ - $1"
		echo "#	commands:"
		printf '%s\n' "$2" | sed 's/^/#	| /'
		echo "#	output (exit status $test_eval_rc_):"
		test_diag_file_ "$test_log_"
	fi
	return 0
}

# test_expect_failure 'title' 'commands': a known breakage. Failing is a TAP
# TODO, not a failure; succeeding says the breakage vanished.
test_expect_failure() {
	test_check_args_ test_expect_failure "$@"
	test_count_=$((test_count_ + 1))
	if test_run_ "$2"; then
		test_fixed_=$((test_fixed_ + 1))
		echo "ok $test_count_ - $1 # TODO known breakage vanished"
	else
		test_broken_=$((test_broken_ + 1))
		echo "not ok $test_count_ - $1 # TODO known breakage"
		[ -n "${V:-}" ] && test_diag_file_ "$test_log_"
	fi
	return 0
}

# test_when_finished 'commands': run after the current test, pass or fail.
test_when_finished() {
	test_cleanup_="{ $*
} || test_cleanup_failed_=1; $test_cleanup_"
}

# test_must_fail CMD...: CMD must fail in an orderly way: exit 1..125, not
# succeed, not die by a signal, not be missing (126, 127).
test_must_fail() {
	"$@"
	test_mf_rc_=$?
	if [ $test_mf_rc_ = 0 ]; then
		echo "test_must_fail: command succeeded: $*" >&2
		return 1
	elif [ $test_mf_rc_ -gt 128 ]; then
		echo "test_must_fail: died by signal $((test_mf_rc_ - 128)): $*" >&2
		return 1
	elif [ $test_mf_rc_ = 126 ] || [ $test_mf_rc_ = 127 ]; then
		echo "test_must_fail: cannot run ($test_mf_rc_): $*" >&2
		return 1
	fi
	return 0
}

# test_expect_code N CMD...: CMD must exit with status N exactly.
test_expect_code() {
	test_ec_want_=$1
	shift
	"$@"
	test_ec_rc_=$?
	if [ $test_ec_rc_ != "$test_ec_want_" ]; then
		echo "test_expect_code: exit $test_ec_rc_, not $test_ec_want_: $*" >&2
		return 1
	fi
	return 0
}

# test_cmp EXPECTED ACTUAL: equal files, else a unified diff.
test_cmp() {
	diff -u "$@"
}

# test_require CMD-OR-PATH...: each must be an executable file or a command
# in PATH; otherwise the script bails out (a failure, never a skip).
test_require() {
	for test_req_; do
		case $test_req_ in
		*/*) [ -x "$test_req_" ] ;;
		*) command -v "$test_req_" >/dev/null 2>&1 ;;
		esac || bail_out_ "required tool missing: $test_req_"
	done
}

# test_bg_start NAME CMD...: start CMD in the background, output in
# bg-NAME.log in the trash directory, PID in $test_bg_pid_NAME.
test_bg_start() {
	test_bg_name_=$1
	shift
	"$@" >"$TRASH/bg-$test_bg_name_.log" 2>&1 </dev/null &
	eval "test_bg_pid_$test_bg_name_=\$!"
	test_bg_names_="$test_bg_names_ $test_bg_name_"
}

# test_bg_pid NAME: print the PID of background command NAME.
test_bg_pid() {
	eval "echo \"\${test_bg_pid_$1:-}\""
}

# test_bg_kill NAME: kill background command NAME by its PID and reap it.
# Returns 0 whether or not it was still running.
test_bg_kill() {
	test_bg_p_=$(test_bg_pid "$1")
	[ -n "$test_bg_p_" ] || return 0
	kill "$test_bg_p_" 2>/dev/null
	wait "$test_bg_p_" 2>/dev/null
	eval "test_bg_pid_$1="
	return 0
}

test_bg_kill_all_() {
	for test_bg_n_ in $test_bg_names_; do
		test_bg_kill "$test_bg_n_"
	done
	test_bg_names_=
}
trap 'test_bg_kill_all_' EXIT
trap 'test_bg_kill_all_; exit 130' INT
trap 'test_bg_kill_all_; exit 143' TERM

# test_done: print the plan, clean up, exit 0 if nothing failed.
test_done() {
	test_bg_kill_all_
	echo "1..$test_count_"
	cd "$BUILD/trash" || exit 1
	rm -f "$test_log_"
	if [ $test_fail_ = 0 ]; then
		rm -rf "$TRASH"
		echo "# passed all $test_count_ test(s)"
		[ $test_broken_ = 0 ] || echo "# still have $test_broken_ known breakage(s)"
		[ $test_fixed_ = 0 ] || echo "# $test_fixed_ known breakage(s) vanished; mark them test_expect_success"
		exit 0
	fi
	echo "# failed $test_fail_ among $test_count_ test(s); scratch directory kept: $TRASH"
	exit 1
}
