#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor record killed by SIGKILL at random moments: the recording replays (and verifies) up to its last snapshot'

# The recorder makes the directory a complete partial recording at
# multiples of 2^20 instructions, at least 0.1 s apart (record/recorder.c
# snapshot(): end messages, stream lengths, the truth flushed, the manifest
# renamed into place last), and once at the start. So whenever SIGKILL comes, what is on disk must be
#   - no manifest.ini (killed before the first one was written): replay
#     says so clearly;
#   - or a partial recording: `raptor replay --verify` replays its prefix,
#     a whole number of snapshots, with 0 differences from the ground truth.
#     A kill in the last millisecond of a snapshot (its streams written, the
#     manifest not yet renamed) leaves manifest.ini.next beside a manifest
#     the streams have outgrown: replay refuses clearly, and renaming it
#     makes the recording whole.
#     Before the first snapshot past the start the truth may not be on disk
#     yet (it is flushed only from then on, so that short recordings stay
#     byte-identical): the replay of the empty prefix must then succeed and
#     --verify fail naming truth.gz.
# The workload: soak (10^8 instructions) on 4 cores, with --truth (about
# 1.5 MIPS), killed after seeded random delays up to 3 s.

test_require "$RAPTOR" timeout awk "$GUEST/soak-m3-O2.elf"

exec 3>&1 # the numbers: TAP comments on the script's output

# killrec NAME DELAY OPTIONS...: record soak into NAME, SIGKILL it after DELAY s.
killrec() {
	kr_name=$1 kr_delay=$2
	shift 2
	rm -rf "$kr_name"
	"$RAPTOR" record "$GUEST/soak-m3-O2.elf" --cores 4 --max-insns 50000000 -o "$kr_name" \
		-q "$@" >"$kr_name.out" 2>&1 &
	kr_pid=$!
	sleep "$kr_delay"
	kill -KILL $kr_pid 2>/dev/null
	wait $kr_pid
	kr_rc=$?
	[ $kr_rc = 137 ] || { echo "record exited $kr_rc before the kill"; return 1; }
}

# check NAME [--no-verify]: what a killed recording must be (see the top);
# one line 'NAME: ...' for the TAP comments.
check() {
	if [ ! -e "$1/manifest.ini" ]; then
		test_must_fail "$RAPTOR" replay "$1" 2>"$1.err" &&
		grep "^raptor: error: $1/manifest.ini: cannot read: No such file or directory" \
			"$1.err" &&
		echo "$1: killed before the manifest was written: a clear error" >>summary &&
		return 0
	fi
	grep -q "^state = partial" "$1/manifest.ini" || return 1
	note=
	if ! "$RAPTOR" replay "$1" 2>"$1.err"; then
		# killed in the last millisecond of a snapshot, after its streams
		# were written, before the rename: manifest.ini.next describes them
		cat "$1.err"
		grep -q "bytes, but the manifest says the stream has" "$1.err" &&
		test -e "$1/manifest.ini.next" &&
		mv "$1/manifest.ini.next" "$1/manifest.ini" &&
		"$RAPTOR" replay "$1" 2>"$1.err" || return 1
		note=" (killed mid-snapshot: manifest.ini.next renamed by hand)"
	fi
	n=$(sed -n "s/^raptor replay: $1: \([0-9]*\) instructions replayed.*/\1/p" "$1.err")
	test -n "$n" && test $((n % 1048576)) = 0 || { cat "$1.err"; return 1; }
	if [ "${2:-}" = --no-verify ]; then
		echo "$1: $n instructions replayed ($((n / 1048576)) snapshots)$note" >>summary
	elif timeout 300 "$RAPTOR" replay "$1" --verify 2>"$1.verr"; then
		grep "  $n instructions verified against the ground truth, 0 differences" \
			"$1.verr" || return 1
		echo "$1: $n instructions replayed ($((n / 1048576)) snapshots), all verified$note" \
			>>summary
	else
		# the truth is flushed from the first snapshot past the start on
		cat "$1.verr"
		test "$n" = 0 && grep "^raptor: error: $1/truth.gz: " "$1.verr" &&
		echo "$1: killed before the first snapshot: 0 instructions replayed," \
			"--verify: $(grep "^raptor: error:" "$1.verr" | head -1)" >>summary
	fi
}

test_expect_success 'TR_e + CFiat (the default), killed 6 times at random moments' '
	awk "BEGIN { srand(730); for (i = 0; i < 4; i++) printf \"%.2f\n\", 0.8 + rand() * 2.2 }" \
		>delays &&
	echo 0.15 >>delays &&
	echo 0.002 >>delays &&
	: >summary &&
	i=0 &&
	while read d; do
		i=$((i + 1))
		killrec k$i "$d" --truth && check k$i &&
		echo "#	$(tail -1 summary) (killed after $d s)" >&3 || return 1
	done <delays
'

test_expect_success 'NX_b + mc2RT, functional: killed after 1.5 s' '
	killrec nx 1.5 --truth --cf-enc nxb --lv-enc mc2rt --functional &&
	check nx &&
	echo "#	$(tail -1 summary)" >&3
'

test_expect_success 'control flow only (lv none): killed after 1.5 s, replays' '
	killrec cfonly 1.5 --truth --lv-enc none &&
	check cfonly --no-verify &&
	echo "#	$(tail -1 summary)" >&3
'

# replay/replay.c verify_cf_end(): at the end of a control-flow-only replay
# the truth must have no step left, also for a partial recording; a killed
# recorder's truth goes on past its last snapshot ("the replay ends, the
# truth goes on"). The fix: demand that only of a complete recording.
test_expect_success 'control flow only: --verify accepts the killed recording too' '
	"$RAPTOR" replay cfonly --verify
'

test_expect_success 'a killed recording can be recorded over with --force' '
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 2 -o k1 --force -q >/dev/null &&
	"$RAPTOR" replay k1 -q
'

test_done
