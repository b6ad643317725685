# Breakpoints hit on every core, in the recorded order, at the truth's positions.
from lib import *

N = 40


def main():
    run("break racy_increment")
    hits = []
    for i in range(N):
        run("continue")
        hits.append((position(), core(), pc()))
    addr = hits[0][2]
    want = [(int(l.split()[0]) - 1, int(l.split()[2])) for l in truth("execs", addr)][:N]
    got = [(p, c) for p, c, a in hits]
    check(all(a == addr for p, c, a in hits), "stops at other addresses: %s" % hits)
    check(got == want, "breakpoint stops %s, truth %s" % (got, want))
    cores = sorted(set(c for p, c in got))
    say("%d stops at 0x%08x on cores %s" % (N, addr, cores))
    check(len(cores) == len(truth_regs(0)), "not every core stopped: %s" % cores)
    # and back: reverse-continue visits the same stops in the opposite order
    back = []
    for i in range(N - 1):
        run("reverse-continue")
        back.append((position(), core()))
    check(back == got[-2::-1], "reverse stops %s, forward %s" % (back, got[-2::-1]))
    # registers at a stop equal the truth's, for every core
    p = position()
    want_regs = truth_regs(p)
    got_regs = all_regs()
    for c in want_regs:
        check(got_regs[c] == want_regs[c], "core %d at %d: %s" %
              (c, p, diff_regs(got_regs[c], want_regs[c])))


verdict(main)
