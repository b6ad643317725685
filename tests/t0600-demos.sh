#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'race demos: their recordings, their GDB scripts and gdbscripts/raptor.py, checked against the ground truth'

test_require "$RAPTOR" "$BUILD/truthq" gdb-multiarch timeout python3

export TRUTHQ="$BUILD/truthq"
ORACLE="python3 $SRC/tests/gdb/race_oracle.py"
DEMOS=$(sed -n 's/^\([a-z][-a-z0-9]*\) .*/\1/p' "$SRC/traces/demos.list")

# addr ELF EXPR: the address of EXPR in ELF, as GDB reads the debug info.
addr() {
	gdb-multiarch -nx -q --batch -ex "print/x &($2)" "$1" 2>&1 |
		sed -n 's/^\$1 = \(0x[0-9a-f]*\).*/\1/p'
}

# stop_at ELF REC FUNC: the position where `break FUNC` + `continue` from
# the beginning stops: just before core 0 first runs FUNC's breakpoint
# address (the truth's execs list).
stop_at() {
	bp=$(gdb-multiarch -nx -q --batch -ex "break $3" "$1" 2>&1 |
		sed -n 's/^Breakpoint 1 at \(0x[0-9a-f]*\).*/\1/p') &&
	test -n "$bp" &&
	"$TRUTHQ" "$2" execs "$bp" | awk '$3 == 0 { print $1 - 1; exit }'
}

# expect NAME: the culprit lines the demo's script must print, worked out
# from traces/NAME's ground truth by tests/gdb/race_oracle.py.
expect() {
	elf=$SRC/traces/$1.elf rec=$SRC/traces/$1
	now=$(stop_at "$elf" "$rec" report_bug) && test -n "$now" || return 1
	case $1 in
	lost-update)
		$ORACLE "$rec" race "$(addr "$elf" counter)" 4 "$now" ;;
	check-then-act)
		slot=$("$TRUTHQ" "$rec" stores "$(addr "$elf" double_slot)" 4 |
			tail -n 1 | sed 's/.* value //') &&
		$ORACLE "$rec" race "$(addr "$elf" "slots[$((slot))].owner")" 4 "$now" ;;
	publish)
		$ORACLE "$rec" race "$(addr "$elf" data)" 4 "$now" >race &&
		load=$(sed -n 's/^culprit stale-load .* position //p' race) &&
		cat race &&
		$ORACLE "$rec" flag-store "$(addr "$elf" ready)" "$load" ;;
	early-unlock)
		$ORACLE "$rec" early-unlock "$(addr "$elf" balance)" \
			"$(addr "$elf" lock.locked)" "$now" ;;
	*) echo "no oracle for demo $1"; return 1 ;;
	esac
}

test_expect_success 'make traces: recorded again from the committed ELFs, byte-identical' '
	"$SRC/traces/regen.sh" --out regen "$RAPTOR" >regen.out 2>&1 ||
		{ cat regen.out; false; } &&
	cat regen.out &&
	for name in $DEMOS; do
		grep -q "^traces/$name: byte-identical" regen.out &&
		diff -r -x index.raptor "$SRC/traces/$name" "regen/$name" || return 1
	done
'

test_expect_success 'the recordings are small, with their truth' '
	for name in $DEMOS; do
		test -f "$SRC/traces/$name/truth.gz" &&
		size=$(cat "$SRC/traces/$name"/* | wc -c) &&
		echo "traces/$name: $size bytes" &&
		test "$size" -lt 1048576 &&
		cmp "$SRC/traces/$name.elf" "$SRC/traces/$name/program.elf" || return 1
	done
'

test_expect_success 'each demo shows its bug at its seed and hides it at another' '
	while read name cores seed hidden; do
		case $name in "" | "#"*) continue ;; esac
		test_expect_code 1 "$RAPTOR" run "$SRC/traces/$name.elf" --cores $cores \
			--seed $seed >out.$name.bug &&
		grep "^FAIL $name: " out.$name.bug &&
		"$RAPTOR" run "$SRC/traces/$name.elf" --cores $cores --seed $hidden \
			>out.$name.ok &&
		grep "^ok $name: " out.$name.ok || return 1
	done <"$SRC/traces/demos.list"
'

for name in $DEMOS; do
	test_expect_success "make demo: $name's culprit accesses are the truth's" '
		"$SRC/gdbscripts/demo.sh" --out demo "$RAPTOR" $name >demo.$name 2>&1 ||
			{ cat demo.$name; false; } &&
		grep "^culprit " demo/$name.out >got.$name &&
		expect $name >want.$name &&
		cat want.$name &&
		test -s want.$name &&
		test_cmp want.$name got.$name
	'
done

test_expect_success 'make demo prints every interleaving' '
	cat demo.* >all &&
	for name in $DEMOS; do
		grep "^======== demo $name:" all &&
		grep "^PASS $name: the culprit accesses are found" all || return 1
	done &&
	test $(grep -c "^the interleaving, positions" all) = $(echo $DEMOS | wc -w)
'

test_expect_success 'a demo script fails where its bug did not show' '
	"$RAPTOR" record "$SRC/traces/lost-update.elf" --cores 4 --seed 1 --truth -q \
		-o hidden >hidden.out &&
	grep "^ok lost-update" hidden.out &&
	rm -f port.hidden &&
	test_bg_start hidden "$RAPTOR" serve hidden --port 0 --port-file port.hidden &&
	for i in $(seq 100); do
		[ -s port.hidden ] && break
		sleep 0.1
	done &&
	(cd "$SRC" && RAPTOR_PORT=$(cat "$TRASH/port.hidden") test_must_fail timeout 300 \
		gdb-multiarch -nx -q --batch -x gdbscripts/demo-lost-update.gdb) >hidden.gdb 2>&1 &&
	cat hidden.gdb &&
	grep "raptor: no conflicting accesses to counter" hidden.gdb &&
	! grep "^PASS" hidden.gdb &&
	test_bg_kill hidden
'

test_expect_success 'setup: the racy workload at 4 cores, recorded with its truth, served' '
	"$RAPTOR" record "$GUEST/racy-m3-O0.elf" --cores 4 --truth -o racy -q >/dev/null &&
	rm -f port.racy &&
	test_bg_start racy "$RAPTOR" serve racy --port 0 --port-file port.racy &&
	for i in $(seq 100); do
		[ -s port.racy ] && break
		sleep 0.1
	done &&
	test -s port.racy
'

test_expect_success 'raptor race, last-writer, accesses, goto, where on racy: the truth' '
	REC=racy SRC="$SRC" PYTHONPATH="$SRC/tests/gdb" timeout 600 gdb-multiarch -nx -q --batch \
		-ex "set remotelogfile raptor_cmds.rlog" \
		-ex "set pagination off" -ex "set confirm off" \
		-ex "target remote 127.0.0.1:$(cat port.racy)" \
		-x "$SRC/tests/gdb/raptor_cmds.py" racy/program.elf >raptor_cmds.out 2>&1
	rc=$?
	cat raptor_cmds.out &&
	if [ $rc != 0 ] || ! grep -q "^PASS" raptor_cmds.out; then
		echo "--- the last packets:" && tail -c 3000 raptor_cmds.rlog && false
	fi
'

test_expect_success 'the servers survived' '
	kill -0 $(test_bg_pid racy)
'

test_done
