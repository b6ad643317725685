# The view follows the replay: with gdbscripts/raptor.py loaded, GDB's
# registers and frames after `monitor goto N` and `monitor reset halt` are
# the truth's at the new position, with no `maint flush register-cache`.
# Without it (plain GDB, first) they are stale, as docs/GDB.md says.
import os

from lib import *
import lib as L  # raptor.py, sourced into __main__, brings a monitor() of its own

SRC = os.environ.get("SRC", ".")


def main():
    end = int(truth("end")[0])
    p0 = end // 3
    # plain GDB: the cache keeps the registers of the position before
    old = regs()
    L.monitor("goto %d" % p0)
    check(regs() == old, "plain GDB saw the goto without a flush (docs/GDB.md says it does not)")
    run("maint flush register-cache")
    check(regs() == truth_regs(p0)[0], "after the flush, core 0 at %d differs" % p0)
    say("plain GDB: stale registers until 'maint flush register-cache'")

    gdb.execute("source %s/gdbscripts/raptor.py" % SRC)
    import random
    rnd = random.Random(415)
    for p in [end, 0] + rnd.sample(range(1, end), 6):
        out = L.monitor("goto %d" % p)
        check(L.position() == p, "goto %d went to %d" % (p, L.position()))
        want = truth_regs(p)
        got = all_regs()
        for c in want:
            check(got[c] == want[c], "core %d at %d, no flush: %s" %
                  (c, p, diff_regs(got[c], want[c])))
        frame = gdb.selected_frame()
        check(frame.pc() & 0xffffffff == want[0][15], "the selected frame's pc at %d is stale" % p)
        if p != 0:
            check("#0" in out, "hookpost-monitor showed no frame after goto %d: %r" % (p, out))
        say("goto %d: every core's registers and the frame follow" % p)
    L.monitor("goto %d" % (end // 2))
    thread(2)
    run("frame")
    L.monitor("reset halt")
    got = all_regs()
    want = truth_regs(0)
    for c in want:
        check(got[c] == want[c], "core %d after reset halt: %s" % (c, diff_regs(got[c], want[c])))
    check(gdb.selected_thread().num == 2, "the selected thread changed")
    say("reset halt: every core's registers follow")
    # a command that does not move (who-wrote comes back) flushes nothing
    before = regs()
    L.monitor("who-wrote 0x%x 4" % symbol("counter"))
    check(regs() == before and L.position() == 0, "who-wrote moved the view")


verdict(main)
