#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor serve: LLDB (lldb gdb-remote) attaches, reads registers, threads and memory, steps and backtraces, checked against the ground truth and against GDB'

test_require "$RAPTOR" "$BUILD/truthq" lldb gdb-multiarch timeout

TRUTHQ=$BUILD/truthq
REGS="r0 r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 sp lr pc xpsr msp psp primask basepri faultmask control"

. "$SRC/tests/gdbserve.sh"

# lldb_session NAME REC: run the LLDB commands on stdin against the server
# on $port, as docs/GDB.md says to attach (LLDB's memory cache off), in
# batch mode, every command run even after one fails. Output (both
# streams: Debian's lldb also complains of its Python on stderr) in
# NAME.out, the packets in NAME.rlog. The server is reset to the beginning
# first and last, so that every session starts there.
lldb_session() {
	{
		echo "settings set target.process.disable-memory-cache true" &&
		echo "gdb-remote 127.0.0.1:$port" &&
		echo "process plugin packet monitor reset halt" &&
		cat &&
		echo "process plugin packet monitor reset halt"
	} >$1.lldb &&
	timeout 120 lldb -x --batch "$2/program.elf" -o "log enable -f $1.rlog gdb-remote packets" \
		-o "command source -e false -c false $1.lldb" >$1.out 2>&1
}

# lldb_failed NAME: what to look at when a check failed
lldb_failed() {
	echo "--- $1.out:" && cat $1.out && echo "--- the last packets:" && tail -c 3000 $1.rlog
	return 1
}

# lldb_regs NAME: the registers `register read --all` printed after each
# `thread select N`, as "coreN-1 NAME 0xVALUE" lines
lldb_regs() {
	awk '/^\(lldb\) thread select / { core = $4 - 1 }
		/^ +[a-z0-9]+ = 0x[0-9a-f]+/ && core != "" { print "core" core, $1, $3 }' $1.out
}

# truth_regs REC POSITION [CORE]: the truth's registers at POSITION, every
# core or one, in lldb_regs' form
truth_regs() {
	"$TRUTHQ" "$1" at "$2" | awk -v regs="$REGS" -v only="${3:-}" '
		{ n = split(regs, name, " ")
		  if (only != "" && $2 != only) next
		  for (i = 1; i <= n; i++) print "core" $2, name[i], "0x" $(i + 2) }'
}

# position NAME: the positions `monitor time` printed, in order
position() {
	sed -n "s/^position \([0-9]*\) .*/\1/p" $1.out
}

# next_insns REC POSITION CORE N: the positions right after CORE's next N
# instructions after POSITION
next_insns() {
	"$TRUTHQ" "$1" trace |
		awk -v p="$2" -v c="$3" -v n="$4" 'NR > p && $1 == c { print NR; if (++k == n) exit }'
}

# lldb_frames NAME: the frames `bt` printed, "FRAME 0xPC function"
lldb_frames() {
	awk '/^\(lldb\) / { on = ($0 == "(lldb) bt") } on' $1.out |
		sed -n 's/^ *\** *frame #[0-9]*: \(0x[0-9a-f]*\) [^`]*`\([A-Za-z0-9_]*\).*/FRAME \1 \2/p'
}

# lldb_vars NAME: what each `frame variable` printed, "K name = value" for
# the K-th, unreadable values as <unreadable ADDRESS>
lldb_vars() {
	awk '/^\(lldb\) / { k += ($0 == "(lldb) frame variable"); on = ($0 == "(lldb) frame variable"); next }
		on && /^\(/ { sub(/^\([^)]*\) /, ""); print k - 1, $0 }' $1.out |
		sed 's/<read memory from \(0x[0-9a-f]*\) failed.*>/<unreadable \1>/'
}

test_expect_success 'setup: the lost-update demo recording (4 cores, with its truth), served' '
	cp -R "$SRC/traces/lost-update" lost-update &&
	serve lost lost-update --debug
'

test_expect_success 'attach: LLDB sees process 1 (armv7m), four threads at their pcs, thread #1 core0 selected' '
	lldb_session attach lost-update <<-\EOF &&
	process status
	target list
	thread list
	EOF
	{
		grep "^Process 1 stopped" attach.out &&
		grep "pid=1, state=stopped" attach.out &&
		grep "^\* thread #1: tid = 0x0001, .*, name = .core0., stop reason = signal SIGTRAP" attach.out &&
		for c in 0 1 2 3; do
			pc=$(truth_regs lost-update 0 $c | awk "\$2 == \"pc\" { print \$3 }") &&
			grep "^[ *] thread #$((c + 1)): tid = 0x000$((c + 1)), $pc " attach.out ||
			return 1
		done &&
		test $(grep -c "^[ *] thread #[0-9]*: tid = " attach.out) = 4 &&
		grep -A1 "^rsp: <- qProcessInfo\$" bg-lost.log |
			grep "^rsp: -> pid:1;triple:$(printf armv7m-none-eabi | od -An -tx1 | tr -d " \n");"
	} || lldb_failed attach
'

test_expect_success 'register read: every register of every core at reset equals the truth' '
	lldb_session regs0 lost-update <<-\EOF &&
	thread select 1
	register read --all
	thread select 2
	register read --all
	thread select 3
	register read --all
	thread select 4
	register read --all
	EOF
	truth_regs lost-update 0 >want &&
	lldb_regs regs0 >got &&
	test_cmp want got || lldb_failed regs0
'

test_expect_success 'breakpoint set + continue: the truth'"'"'s first hit, core and position; every core'"'"'s registers' '
	lldb_session break lost-update <<-\EOF &&
	breakpoint set -n job_done
	continue
	process plugin packet monitor time
	thread select 1
	register read --all
	thread select 2
	register read --all
	thread select 3
	register read --all
	thread select 4
	register read --all
	EOF
	{
		bp=$(sed -n "s/^Breakpoint 1: where = .*job_done.*, address = \(0x[0-9a-f]*\)\$/\1/p" break.out) &&
		test -n "$bp" &&
		"$TRUTHQ" lost-update execs $bp | head -1 >first &&
		read p _ c _ <first &&
		echo "# breakpoint $bp: first hit at position $p by core $c" &&
		grep "^\* thread #$((c + 1)), name = .core$c., stop reason = breakpoint 1\.1" break.out &&
		test "$(position break)" = $((p - 1)) &&
		truth_regs lost-update $((p - 1)) >want &&
		lldb_regs break >got &&
		test_cmp want got
	} || lldb_failed break
'

# At the first stop on main's loop, three cores sit on the breakpoint's
# address: the one that got there first in the recorded order is the one
# LLDB shows. (Told that the others stopped there too, LLDB would keep
# thread #1 selected and call each of them a hit.)
test_expect_success 'a breakpoint three cores sit on: LLDB shows the core the truth has first' '
	lldb_session loop lost-update <<-\EOF &&
	breakpoint set -f lost-update.c -l 48
	continue
	process plugin packet monitor time
	thread list
	EOF
	{
		bp=$(sed -n "s/^Breakpoint 1: where = .*main.*, address = \(0x[0-9a-f]*\)\$/\1/p" loop.out) &&
		"$TRUTHQ" lost-update execs $bp | head -3 >hits &&
		read p _ c _ <hits &&
		test "$(position loop)" = $((p - 1)) &&
		test $(grep -c "^[ *] thread #[0-9]*: tid = .*, $bp .*" loop.out) = 3 &&
		grep "^\* thread #$((c + 1)): tid = .*, $bp .*, name = .core$c., stop reason = breakpoint 1\.1\$" loop.out &&
		test $(grep -c "stop reason = breakpoint" loop.out) = 2
	} || lldb_failed loop
'

test_expect_success 'thread step-inst: the core'"'"'s next instructions as the truth orders them, then another core'"'"'s; the others run as recorded' '
	read p _ c _ <first &&
	k=$(((c + 1) % 4)) &&
	lldb_session step lost-update <<-EOF &&
	breakpoint set -n job_done
	continue
	thread step-inst
	process plugin packet monitor time
	thread step-inst
	process plugin packet monitor time
	thread step-inst
	process plugin packet monitor time
	thread select $((k + 1))
	thread step-inst
	process plugin packet monitor time
	thread select 1
	register read --all
	thread select 2
	register read --all
	thread select 3
	register read --all
	thread select 4
	register read --all
	EOF
	{
		next_insns lost-update $((p - 1)) $c 3 >want &&
		next_insns lost-update $(tail -1 want) $k 1 >>want &&
		position step >got &&
		test_cmp want got &&
		grep -A1 "^Process 1 stopped\$" step.out | grep "stop reason = instruction step into" >got &&
		for t in $c $c $c $k; do
			echo "* thread #$((t + 1)), name = '"'"'core$t'"'"', stop reason = instruction step into"
		done >want.stops &&
		test_cmp want.stops got &&
		truth_regs lost-update $(tail -1 want) >want.regs &&
		lldb_regs step >got.regs &&
		test_cmp want.regs got.regs
	} || lldb_failed step
'

# The stack words around the stopped core's sp, one `memory read` each: the
# value of the last load or store of the whole word before the position,
# "unknown" for a word no access touched before it and none later, or a
# store first (docs/GDB.md "Memory"). Left out: words that narrower or
# unaligned accesses touched, and those a load touches first after the
# position (the initial image has them once the replay has been that far,
# the background indexing's or the server's own: a matter of timing).
test_expect_success 'memory read: the stack around sp and the shared counter, as the truth has them' '
	read p _ c _ <first &&
	pos=$((p - 1)) &&
	sp=$(truth_regs lost-update $pos $c | awk "\$2 == \"sp\" { print \$3 }") &&
	for i in $(seq 0 23); do
		printf "0x%08x\n" $((sp - 32 + 4 * i))
	done >words &&
	sed "s/^/memory read -s4 -fx -c1 /" words >reads &&
	lldb_session mem lost-update <<-EOF &&
	breakpoint set -n job_done
	continue
	register read sp
	$(cat reads)
	memory read -s4 -fx -c1 &counter
	EOF
	{
		grep "^ *sp = $sp\$" mem.out &&
		while read w; do
			{ "$TRUTHQ" lost-update loads $w 4 | sed "s/\$/ load/" &&
				"$TRUTHQ" lost-update stores $w 4 | sed "s/\$/ store/"; } |
				sort -n | awk -v p=$pos -v w=$w "
					!(\$7 == w && \$9 == 4) { mixed = 1 }
					\$1 <= p { v = \$11 }
					\$1 > p && first == \"\" { first = \$12 }
					END {
						if (mixed || (v == \"\" && first == \"load\")) exit
						print w \": \" (v == \"\" ? \"unknown\" : v)
					}" ||
			return 1
		done <words >want &&
		test $(grep -c unknown want) -gt 0 && test $(grep -vc unknown want) -gt 4 &&
		sed -n "s/^error: memory read failed for \(0x[0-9a-f]*\)\$/\1: unknown/p
			s/^\(0x203[0-9a-f]*\): \(0x[0-9a-f]*\)\$/\1: \2/p" mem.out | grep -F -f want >got &&
		test_cmp want got &&
		"$TRUTHQ" lost-update stores 0x20000434 4 |
			awk -v p=$pos "\$1 <= p { v = \$11 } END { print \"0x20000434: \" v }" >want &&
		grep "^0x20000434: " mem.out >got &&
		test_cmp want got
	} || lldb_failed mem
'

test_expect_success 'bt and frame variable: what GDB shows at the same position' '
	lldb_session frames lost-update <<-\EOF &&
	breakpoint set -n job_done
	continue
	thread step-inst
	thread step-inst
	thread step-inst
	process plugin packet monitor time
	bt
	frame variable
	up
	frame variable
	EOF
	cat >gdb.cmds <<-\EOF &&
	monitor reset halt
	maint flush register-cache
	break job_done
	continue
	stepi
	stepi
	stepi
	monitor time
	set backtrace past-main on
	python
	f = gdb.newest_frame()
	while f is not None and f.type() == gdb.NORMAL_FRAME:
	    print("FRAME 0x%08x %s" % (f.pc(), f.name()))
	    f = f.older()
	end
	echo LOCALS 0\n
	info locals
	up
	echo LOCALS 1\n
	info locals
	monitor reset halt
	EOF
	timeout 120 gdb-multiarch -nx -q --batch -ex "target remote 127.0.0.1:$port" \
		-x gdb.cmds lost-update/program.elf >gdb.out 2>&1 &&
	{
		position gdb >want && position frames >got && test_cmp want got &&
		grep "^FRAME" gdb.out >want &&
		grep "^FRAME 0x[0-9a-f]* main\$" want && test $(wc -l <want) -ge 3 &&
		lldb_frames frames >got &&
		test_cmp want got &&
		awk "/^LOCALS / { k = \$2; next } /^[a-z_][a-z0-9_]* = / { print k, \$0 }" gdb.out |
			sed "s/<error reading variable [^ ]* (Cannot access memory at address \(0x[0-9a-f]*\))>/<unreadable \1>/" |
			sort >want &&
		grep "unreadable" want && test $(wc -l <want) -ge 5 &&
		lldb_vars frames | sort >got &&
		test_cmp want got
	} || { cat gdb.out; lldb_failed frames; }
'

test_expect_success 'watchpoint set + continue: the first stores into counter, the truth'"'"'s cores and positions, old and new values' '
	lldb_session watch lost-update <<-\EOF &&
	watchpoint set expression -w write -s 4 -- &counter
	continue
	process plugin packet monitor time
	continue
	process plugin packet monitor time
	EOF
	{
		"$TRUTHQ" lost-update stores 0x20000434 4 | head -2 >stores &&
		awk "{ print \$1 }" stores >want &&
		position watch >got &&
		test_cmp want got &&
		test $(grep -c "stop reason = watchpoint 1\$" watch.out) = 2 &&
		while read p _ c _ _ _ _ _ _ _ v; do
			grep "^\* thread #$((c + 1)), name = .core$c., stop reason = watchpoint 1\$" watch.out &&
			grep "^new value: $v\$" watch.out || return 1
		done <stores &&
		grep -A1 "^old value: 0x00000000\$" watch.out | grep "^new value: 0x00000001\$"
	} || lldb_failed watch
'

test_expect_success 'the server survived every session' '
	kill -0 $(test_bg_pid lost) &&
	test $(grep -c "gdbserver: GDB connected" bg-lost.log) = 9
'

# A control-flow-only recording knows each core's own instructions exactly,
# not their interleaving (docs/GDB.md): the core that stops, and its count.
test_expect_success 'control flow only: a breakpoint stops the truth'"'"'s core after its exact instruction count, pc exact' '
	"$RAPTOR" record lost-update/program.elf --cores 4 --lv-enc none --truth -o cfonly -q \
		>/dev/null &&
	serve cfonly cfonly &&
	lldb_session cf cfonly <<-\EOF &&
	breakpoint set -n job_done
	continue
	process plugin packet monitor time
	register read pc
	EOF
	{
		bp=$(sed -n "s/^Breakpoint 1: where = .*job_done.*, address = \(0x[0-9a-f]*\)\$/\1/p" cf.out) &&
		"$TRUTHQ" cfonly execs $bp | head -1 >first.cf &&
		read p _ c _ n <first.cf &&
		grep "^\* thread #$((c + 1)), name = .core$c., stop reason = breakpoint 1\.1" cf.out &&
		grep "^  core$c (thread $((c + 1))): $n instructions," cf.out &&
		grep "^ *pc = $bp " cf.out
	} || lldb_failed cf
'

test_done
