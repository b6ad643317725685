#!/bin/sh
# demo.sh: run the race demos' GDB scripts in batch (what `make demo` does).
#
#   gdbscripts/demo.sh [-q] [--out DIR] RAPTOR [NAME...]
#
# For each demo of traces/demos.list (or each NAME): start `RAPTOR serve
# traces/NAME` on a free port, run `gdb-multiarch --batch -x
# gdbscripts/demo-NAME.gdb` against it (from the top of the tree), stop the
# server, and print the reproduction: the race found, the interleaving and
# the culprit accesses. The GDB output goes to DIR/NAME.out (default: a
# temporary directory), the server's to DIR/NAME.serve.log, GDB's remote
# protocol log to DIR/NAME.rlog. -q prints only the verdict lines.
# Exit status: 0 when every script found its culprits, else 1.
set -u
top=$(cd "$(dirname "$0")/.." && pwd) || exit 1
quiet="" out=""
while [ $# -gt 0 ]; do
	case $1 in
	-q) quiet=1; shift ;;
	--out) out=$2; shift 2 ;;
	*) break ;;
	esac
done
if [ $# -lt 1 ]; then
	echo "usage: gdbscripts/demo.sh [-q] [--out DIR] RAPTOR [NAME...]" >&2
	exit 2
fi
raptor=$1
shift
if ! command -v gdb-multiarch >/dev/null 2>&1; then
	echo "demo: gdb-multiarch is needed: apt-get install gdb-multiarch" >&2
	exit 1
fi
case $raptor in /*) ;; *) raptor=$(pwd)/$raptor ;; esac
if [ -z "$out" ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/raptor-demo.XXXXXX") || exit 1
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
names="$*"
[ -n "$names" ] || names=$(sed -n 's/^\([a-z][-a-z0-9]*\) .*/\1/p' "$top/traces/demos.list")
cd "$top" || exit 1

fails=0
for name in $names; do
	if [ ! -f "gdbscripts/demo-$name.gdb" ] || [ ! -d "traces/$name" ]; then
		echo "demo $name: no gdbscripts/demo-$name.gdb or traces/$name"
		fails=$((fails + 1))
		continue
	fi
	rm -f "$out/$name.port"
	"$raptor" serve "traces/$name" --port 0 --port-file "$out/$name.port" \
		>"$out/$name.serve.log" 2>&1 </dev/null &
	pid=$!
	for _ in $(seq 100); do
		[ -s "$out/$name.port" ] && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	port=$(cat "$out/$name.port" 2>/dev/null)
	if [ -z "$port" ]; then
		echo "demo $name: raptor serve did not start:"
		cat "$out/$name.serve.log"
		kill $pid 2>/dev/null
		wait $pid 2>/dev/null
		fails=$((fails + 1))
		continue
	fi
	RAPTOR_PORT=$port timeout 300 gdb-multiarch -nx -q --batch \
		-ex "set remotelogfile $out/$name.rlog" \
		-x "gdbscripts/demo-$name.gdb" >"$out/$name.out" 2>&1 </dev/null
	rc=$?
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	if [ -n "$quiet" ]; then
		grep -E '^(culprit|PASS|FAIL) ' "$out/$name.out"
	else
		echo "======== demo $name: traces/$name, gdbscripts/demo-$name.gdb"
		# GDB's chatter before the first step is left out.
		sed -n '/^=== 1\./,$p' "$out/$name.out" | grep -v '^\[Inferior 1 (Remote target) detached\]$'
		echo
	fi
	if [ $rc != 0 ] || ! grep -q "^PASS $name:" "$out/$name.out"; then
		echo "demo $name: FAILED (gdb exit $rc); the full output:"
		cat "$out/$name.out"
		echo "--- the last packets:"
		tail -c 2000 "$out/$name.rlog" 2>/dev/null
		fails=$((fails + 1))
	fi
done
if [ $fails = 0 ]; then
	echo "demo: every reproduction found its culprit accesses"
else
	echo "demo: $fails reproduction(s) failed"
fi
[ $fails = 0 ]
