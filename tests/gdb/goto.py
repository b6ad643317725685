# monitor goto to many positions: registers and the shared counter equal the truth.
from lib import *


def main():
    end = int(truth("end")[0])
    addr = symbol("counter")
    stores = truth_accesses("stores", addr)
    import random
    rnd = random.Random(400)
    for p in sorted(rnd.sample(range(end + 1), 12), key=lambda x: rnd.random()):
        monitor("goto %d" % p)
        run("maint flush register-cache")
        check(position() == p, "goto %d went to %d" % (p, position()))
        want = truth_regs(p)
        got = all_regs()
        for c in want:
            check(got[c] == want[c], "core %d at %d: %s" % (c, p, diff_regs(got[c], want[c])))
        before = [s for s in stores if s[0] <= p]
        if before:
            check(u32(addr) == before[-1][3], "counter at %d is %d, truth %d" %
                  (p, u32(addr), before[-1][3]))
        say("position %d: %d cores' registers, counter equal the truth" % (p, len(want)))
    out = monitor("who-wrote 0x%x 4" % addr)
    last = [s for s in stores if s[0] <= position()]
    if last:
        p, c, spc, val = last[-1]
        check("core%d" % c in out and "pc 0x%08x" % spc in out and "position %d" % p in out,
              "who-wrote says %r, truth core %d pc %08x position %d" % (out, c, spc, p))
    say(out.strip())


verdict(main)
