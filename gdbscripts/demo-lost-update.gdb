# demo-lost-update.gdb: race demo 1 (guest/demos/lost-update.c), the lost
# update on a shared counter, reproduced from traces/lost-update.
#   raptor serve traces/lost-update &             (or make run)
#   gdb-multiarch -q --batch -x gdbscripts/demo-lost-update.gdb
# from the top of the tree; RAPTOR_PORT picks the port (default 3333).
# Exit status 0 only when the culprit accesses were found.
set pagination off
set confirm off
set width 0
file traces/lost-update.elf
source gdbscripts/raptor.py
source gdbscripts/demo.py
demo-connect

echo \n=== 1. run to the failure: core 0 finds the counter short\n
break report_bug
continue
print counter
raptor where

echo \n=== 2. the race behind the counter's value\n
raptor race counter

echo \n=== 3. the interleaving, from the stale read to the store over it\n
demo-interleaving counter -- $race_load $race_store

echo \n=== 4. every core, just before the overwriting store\n
eval "raptor goto %d", $race_store - 1
eval "thread %d", $race_store_core + 1
raptor where

echo \n=== verdict\n
demo-verdict lost-update
