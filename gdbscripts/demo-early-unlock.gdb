# demo-early-unlock.gdb: race demo 4 (guest/demos/early-unlock.c), a lock
# released too early on one path, from traces/early-unlock.
#   raptor serve traces/early-unlock --port 3333 &
#   gdb-multiarch -q --batch -x gdbscripts/demo-early-unlock.gdb
# from the top of the tree; RAPTOR_PORT picks the port (default 3333).
# Exit status 0 only when the culprit accesses were found.
set pagination off
set confirm off
set width 0
file traces/early-unlock.elf
source gdbscripts/raptor.py
source gdbscripts/demo.py
demo-connect

echo \n=== 1. run to the failure: the balance disagrees with the tallies\n
break report_bug
continue

echo \n=== 2. the race behind the balance\n
raptor race balance

echo \n=== 3. which of the two stores was made without the lock\n
demo-unlocks balance lock.locked
eval "raptor goto %d", $early_unlock - 1
eval "thread %d", $early_unlock_core + 1
backtrace

echo \n=== 4. the interleaving: balance and lock\n
demo-interleaving balance lock.locked -- $early_unlock_load $race_store

echo \n=== verdict\n
demo-verdict early-unlock
