# To the end, then reverse-continue on a watchpoint: the last stores into the
# shared counter, each by the core and instruction the truth says.
from lib import *


def main():
    run("continue")
    end = int(truth("end")[0])
    check(position() == end, "at %d, the recording ends at %d" % (position(), end))
    addr = symbol("counter")
    stores = truth_accesses("stores", addr)
    check(len(stores) > 10, "only %d stores into counter" % len(stores))
    final = u32(addr)
    check(final == stores[-1][3], "counter at the end %d, truth %d" % (final, stores[-1][3]))
    run("watch counter")
    tail = [k for k in range(1, len(stores)) if stores[k][3] != stores[k - 1][3]][-5:]
    for k in range(1, 6):
        ev = resume("reverse-continue")
        p, c, spc, val = stores[tail[-k]]
        before = stores[tail[-k] - 1][3]
        check(watch_hit(ev), "no watchpoint stop: %s" % ev)
        check(core() == c, "stopped in core %d, the store was core %d's" % (core(), c))
        check(pc() == spc, "pc %08x, the store is at %08x" % (pc(), spc))
        check(position() == p - 1, "position %d, the store is instruction %d" % (position(), p))
        check(u32(addr) == before, "counter %d before the store, truth %d" % (u32(addr), before))
        expect_lines("Old value = %d" % val, "New value = %d" % before)
        say("store %d: core %d pc %08x position %d: %d -> %d" % (k, c, spc, p, before, val))
    # in the middle, where the cores interleave: every reverse-continue lands
    # on the previous store that changed the value (GDB's `watch` ignores a
    # store of the value already there: lost updates are exactly those),
    # whichever core made it, with its thread selected
    changes = [k for k in range(1, len(stores)) if stores[k][3] != stores[k - 1][3]]
    mid = [j for j in range(len(changes) // 3, len(changes) - 8)
           if len(set(stores[changes[j - t]][1] for t in range(6))) >= 3]
    check(mid, "no place where three cores change counter one after the other")
    j = mid[0]
    monitor("goto %d" % stores[changes[j]][0])
    run("maint flush register-cache")
    run("delete")
    run("watch counter")  # anew: GDB keeps the old value from before the goto
    seen = set()
    for k in range(1, 7):
        ev = resume("reverse-continue")
        i = changes[j - k + 1]
        p, c, spc, val = stores[i]
        before = stores[i - 1][3]
        check(watch_hit(ev), "no watchpoint stop: %s" % ev)
        check(core() == c and pc() == spc and position() == p - 1,
              "stopped in core %d pc %08x position %d; the store: core %d pc %08x "
              "instruction %d" % (core(), pc(), position(), c, spc, p))
        check(u32(addr) == before, "counter %d, truth %d" % (u32(addr), before))
        expect_lines("Old value = %d" % val, "New value = %d" % before)
        seen.add(c)
        say("store at %d by core %d pc %08x: %d -> %d" % (p, c, spc, before, val))
    check(len(seen) >= 3, "the stores came from cores %s only" % sorted(seen))
    # forward again: the next change is the one just undone
    i = changes[j - 5]
    p, c, spc, val = stores[i]
    run("delete")
    run("watch counter")
    ev = resume("continue")
    check(watch_hit(ev), "no watchpoint stop forward: %s" % ev)
    expect_lines("Old value = %d" % stores[i - 1][3], "New value = %d" % val)
    check(core() == c and position() == p, "forward watch at core %d position %d, truth %d %d"
          % (core(), position(), c, p))

verdict(main)
