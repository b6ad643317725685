#!/bin/sh
# run-demo.sh BUILD: what 'make run' does. Serve race demo 1, the lost
# update on a shared counter (guest/demos/lost-update.c, recorded on 4 cores
# in traces/lost-update), on 127.0.0.1:3333 from the end of the recording,
# where the bug has shown, until Ctrl-C; say how to attach GDB and what to
# try first (README: "Debugging a race in five minutes"), and the one
# command that does both (raptor debug).
set -e
build=${1:-build}
cd "$(dirname "$0")/.."
rec=traces/lost-update
cat <<EOF
raptor: serving $rec on 127.0.0.1:3333, at its end: 4 cores counted 64
raptor: jobs into one counter without a lock, and the program found 63.
In another terminal, in $(pwd):
  gdb-multiarch -q $rec/program.elf -ex 'target remote 127.0.0.1:3333' \\
    -ex 'source gdbscripts/raptor.py'
then try:
  (gdb) raptor race counter
Ctrl-C here stops the server. Serving and GDB in one command, without
this server:
  $build/raptor debug $rec --at end
EOF
exec "$build/raptor" serve "$rec" --port 3333 --at end
