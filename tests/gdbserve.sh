# shellcheck shell=sh
# gdbserve.sh: serving a recording to the real gdb-multiarch, for the
# gdbserver tests (t0400, t0410, t0430); sourced after lib.sh. The GDB scripts
# are tests/gdb/*.py (their helpers: tests/gdb/lib.py); the GDB/MI session is
# tests/mi/session.py (tests/mi/milib.py).

# serve NAME REC [OPTIONS]: start `raptor serve` on a free port in the
# background; its port goes to $port.
serve() {
	serve_name=$1 serve_rec=$2
	shift 2
	rm -f port.$serve_name
	test_bg_start $serve_name "$RAPTOR" serve "$serve_rec" --port 0 \
		--port-file port.$serve_name "$@" &&
	for i in $(seq 100); do
		[ -s port.$serve_name ] && break
		sleep 0.1
	done &&
	port=$(cat port.$serve_name) &&
	test -n "$port"
}

# gdb_script SCRIPT REC: run tests/gdb/SCRIPT with gdb-multiarch against the
# server on $port (`target $GDB_TARGET`, remote unless set); its verdict is
# the exit status. The remote protocol log and GDB's output are shown when
# it fails.
gdb_script() {
	REC=$2 PYTHONPATH="$SRC/tests/gdb" timeout 300 gdb-multiarch -nx -q --batch \
		-ex "set remotelogfile $1.rlog" \
		-ex "set pagination off" -ex "set confirm off" \
		-ex "target ${GDB_TARGET:-remote} 127.0.0.1:$port" \
		-x "$SRC/tests/gdb/$1" "$2/program.elf" >$1.out 2>&1
	rc=$?
	sed -n "s/^# /# $1: /p" $1.out
	# EXPECT A|B...: lines GDB printed itself, consecutively (stop reports)
	sed -n "s/^EXPECT //p" $1.out >$1.expect
	missing=
	[ -s $1.expect ] && missing=$(awk -F"|" "NR == FNR { want[NR] = \$0; n = NR; next }
		{ line[++m] = \$0 }
		END {
			for (i = 1; i <= n; i++) {
				k = split(want[i], w, \"|\"); found = 0
				for (j = 1; j + k - 1 <= m && !found; j++) {
					ok = 1
					for (t = 1; t <= k; t++) if (line[j + t - 1] != w[t]) ok = 0
					found = ok
				}
				if (!found) print want[i]
			}
		}" $1.expect $1.out)
	if [ -n "$missing" ]; then
		echo "$1: GDB did not print: $missing"
		rc=1
	fi
	if [ $rc != 0 ] || ! grep -q "^PASS" $1.out; then
		echo "$1: exit $rc"
		cat $1.out
		echo "--- the last packets:"
		tail -c 3000 $1.rlog
		return 1
	fi
}

# mi_session NAME [OPTIONS]: run tests/mi/session.py, an IDE's GDB/MI
# session with gdb-multiarch --interpreter=mi3, against the server on $port
# serving $MI_REC (OPTIONS: --target remote|extended-remote, --mi-async);
# its verdict is the exit status. Its MI transcript (NAME.mi) and remote
# protocol log (NAME.rlog) are shown when it fails.
mi_session() {
	mi_name=$1
	shift
	timeout 600 python3 -B "$SRC/tests/mi/session.py" --port "$port" --rec "$MI_REC" \
		--truthq "$TRUTHQ" --name $mi_name "$@" >$mi_name.out 2>&1
	rc=$?
	sed -n "s/^# /# $mi_name: /p" $mi_name.out
	if [ $rc != 0 ] || ! grep -q "^PASS" $mi_name.out; then
		echo "$mi_name: exit $rc"
		cat $mi_name.out
		echo "--- the MI transcript's end:"
		tail -n 40 $mi_name.mi
		echo "--- the last packets:"
		tail -c 3000 $mi_name.rlog
		return 1
	fi
}
