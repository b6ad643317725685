# demo-publish.gdb: race demo 3 (guest/demos/publish.c), the data written
# after the ready flag, from traces/publish.
#   raptor serve traces/publish --port 3333 &
#   gdb-multiarch -q --batch -x gdbscripts/demo-publish.gdb
# from the top of the tree; RAPTOR_PORT picks the port (default 3333).
# Exit status 0 only when the culprit accesses were found.
set pagination off
set confirm off
set width 0
file traces/publish.elf
source gdbscripts/raptor.py
source gdbscripts/demo.py
demo-connect

echo \n=== 1. run to the failure: core 1 took an old value\n
break report_bug
continue
print got_round
print got_value

echo \n=== 2. the race behind the value core 1 read\n
raptor race data

echo \n=== 3. what core 1 saw in the flag: who raised it, and where\n
eval "raptor goto %d", $race_load - 1
raptor last-writer ready

echo \n=== 4. the interleaving: flag, check, read, write\n
demo-interleaving ready data -- $raptor_position $race_store

echo \n=== verdict\n
demo-verdict publish
