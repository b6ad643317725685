# Served while its index is built in the background (t0420): forward and
# reverse commands while `monitor info` says it is, checked against the truth;
# then the index done and taken over, with nothing changed for GDB. The truth
# about fwd[] was read before the server started ($FWD_STORES: `truthq stores`
# lines), so that the commands run while the index is still being built.
import os
import time

from lib import *


def indexing():
    return "indexing in the background" in monitor("info")


def time_lines():
    """monitor time without its index line."""
    return [l for l in monitor("time").splitlines() if not l.startswith("index")]


def main():
    end = int(os.environ["TRUTH_END"])
    base = symbol("fwd")
    stores = {}  # fwd[] word address -> [(position, core, pc)]
    for line in open(os.environ["FWD_STORES"]):
        f = line.split()
        if int(f[0]) > 10000:  # past the start-up's zeroing
            stores.setdefault(int(f[6], 16), []).append((int(f[0]), int(f[2]), int(f[4], 16)))
    # a round whose sums are stored about a quarter of the way in, or later
    rounds = [a for a in sorted(stores) if (a - base) % 8 == 0 and
              stores[a][0][0] > end // 4 and len(stores[a]) >= 4]
    check(rounds, "no round of fwd[] stored after position %d" % (end // 4))
    addr = rounds[0]
    st = stores[addr]
    say("fwd[%d] at 0x%08x: stores at %s" % ((addr - base) // 8, addr, [s[0] for s in st[:4]]))
    check(indexing(), "not indexing when GDB attached: %s" % monitor("info"))

    # -- while the index is being built: forward, a breakpoint, backward --
    got, during = [], []
    run("watch *(unsigned int *)0x%x" % addr)
    for k in range(3):
        ev = resume("continue")
        check(watch_hit(ev), "no watchpoint stop forward: %s" % ev)
        got.append((position(), core(), pc()))
        during.append(indexing())
    run("delete")
    spc = st[0][2]
    run("break *0x%x" % spc)
    resume("continue")
    brk = (position(), core(), pc())
    during.append(indexing())
    run("delete")
    run("watch *(unsigned int *)0x%x" % addr)
    ev = resume("reverse-continue")
    check(watch_hit(ev), "no watchpoint stop backward: %s" % ev)
    back = (position(), core(), pc())
    for k in range(3):
        run("reverse-stepi")
    p_rs = position()
    regs_rs = all_regs()
    during.append(indexing())
    say("still indexing after each command: %s" % during)
    check(during[0], "the index was done before the first command did")

    # -- what they did, against the truth --
    for k in range(3):  # (GDB stepped the store: pc is past it)
        check(got[k][:2] == st[k][:2] and got[k][2] != st[k][2],
              "forward watch %d: position %d core %d pc %08x, the store: %s" %
              ((k,) + got[k] + (st[k],)))
    execs = [(int(l.split()[0]) - 1, int(l.split()[2])) for l in truth("execs", spc)]
    want = [e for e in execs if e[0] >= st[2][0]][0]
    check(brk == (want[0], want[1], spc), "break at %s, truth %s" % (brk, want))
    check(back == (st[2][0] - 1, st[2][1], st[2][2]),
          "reverse watch at %s, the store: %s" % (back, st[2]))
    check(p_rs < back[0], "reverse-stepi did not go back: %d" % p_rs)
    want_regs = truth_regs(p_rs)
    for c in want_regs:
        check(regs_rs[c] == want_regs[c], "core %d at %d after reverse-stepi: %s" %
              (c, p_rs, diff_regs(regs_rs[c], want_regs[c])))
    say("forward %s, break %s, back %s, reverse-stepi to %d: as the truth" %
        ([g[0] for g in got], brk[0], back[0], p_rs))

    # -- the index done: taken over at the next command, GDB sees no change --
    before_time, before_regs = time_lines(), all_regs()
    os.remove(os.environ["BG_HOLD"])  # lets the indexing thread go on
    deadline = time.time() + 300
    while indexing():
        check(time.time() < deadline, "the index is still not done")
        time.sleep(0.5)
    info = monitor("info")
    check(re.search(r"^index: \S+index\.raptor \(\d+ checkpoints\)$", info, re.M),
          "monitor info after indexing: %s" % info)
    run("maint flush register-cache")
    after_time, after_regs = time_lines(), all_regs()
    check(after_time == before_time, "monitor time changed: %s / %s" % (before_time, after_time))
    for c in before_regs:
        check(after_regs[c] == before_regs[c], "core %d changed: %s" %
              (c, diff_regs(after_regs[c], before_regs[c])))
    say("taken over at position %d, registers and time unchanged" % position())

    # -- and goes on answering as the truth says, both ways --
    ev = resume("reverse-continue")
    check(watch_hit(ev) and (position(), core(), pc()) == (st[1][0] - 1, st[1][1], st[1][2]),
          "reverse watch after the take-over at %d core %d, the store: %s" %
          (position(), core(), st[1]))
    ev = resume("continue")
    check(watch_hit(ev) and (position(), core()) == (st[1][0], st[1][1]),
          "forward watch after the take-over at %d core %d, the store: %s" %
          (position(), core(), st[1]))
    run("delete")
    run("reverse-stepi")
    p = position()
    want_regs, regs_now = truth_regs(p), all_regs()
    for c in want_regs:
        check(regs_now[c] == want_regs[c], "core %d at %d: %s" %
              (c, p, diff_regs(regs_now[c], want_regs[c])))
    say("after it: reverse-continue, continue and reverse-stepi to %d as the truth" % p)


verdict(main)
