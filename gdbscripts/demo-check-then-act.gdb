# demo-check-then-act.gdb: race demo 2 (guest/demos/check-then-act.c), two
# cores both see a slot free and both take it, from traces/check-then-act.
#   raptor serve traces/check-then-act --port 3333 &
#   gdb-multiarch -q --batch -x gdbscripts/demo-check-then-act.gdb
# from the top of the tree; RAPTOR_PORT picks the port (default 3333).
# Exit status 0 only when the culprit accesses were found.
set pagination off
set confirm off
set width 0
file traces/check-then-act.elf
source gdbscripts/raptor.py
source gdbscripts/demo.py
demo-connect

echo \n=== 1. run to the failure: core 0 finds a slot on two cores' lists\n
break report_bug
continue
print double_slot
print slots[double_slot]

echo \n=== 2. the race behind the slot's owner\n
# double_slot is only set at the end: name the slot by its number
eval "raptor race slots[%d].owner", double_slot

echo \n=== 3. the interleaving: both checks, both claims\n
eval "demo-interleaving slots[%d].owner -- $race_load-20 $race_store", double_slot

echo \n=== 4. both cores in claim_slot for the same slot, just before the first claim\n
eval "raptor goto %d", $race_lost - 1
raptor where
thread apply all -s print i

echo \n=== verdict\n
demo-verdict check-then-act
