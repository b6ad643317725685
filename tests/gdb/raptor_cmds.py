# gdbscripts/raptor.py's commands on a recording they were not written for
# (the racy workload, 4 cores), each answer checked against the ground
# truth: race and last-writer at the end and in the middle, accesses in
# global order, goto/where, clear errors, and the user's breakpoints and
# place given back.
import os

from lib import *
import race_oracle

SRC = os.environ.get("SRC", ".")
gdb.execute("source %s/gdbscripts/raptor.py" % SRC)
import __main__ as R  # raptor.py's functions, sourced into GDB's __main__


def bp_state():
    return [(b.number, b.enabled, b.location) for b in gdb.breakpoints()]


def place():
    return (position(), gdb.selected_thread().num, gdb.selected_frame().level())


def same(got, want, what):
    check(got == want, "%s: raptor says %s, the truth %s" % (what, got, want))


def triple(r):
    if r is None:
        return None
    kind, load, lost, store = r
    return (kind, [(a.core, a.pc, a.pos) for a in (load, lost, store) if a is not None])


def raptor_triple(r):
    return (r.kind, [(a.core, a.pc, a.position) for a in r.accesses()])


def check_race(addr, accs, what):
    """raptor race counter here equals the oracle's; nothing else moved."""
    before, bps = place(), bp_state()
    out = run("raptor race counter")
    r = R._last["race"]
    want = triple(race_oracle.race(accs, position()))
    same(raptor_triple(r), want, "race at %d (%s)" % (position(), what))
    check(place() == before, "race moved the user from %s to %s" % (before, place()))
    check(bp_state() == bps, "race changed the breakpoints: %s, were %s" % (bp_state(), bps))
    check("lost update on counter" in out, "race output: %s" % out)
    for a in r.accesses():
        check("at position %d" % a.position in out, "race output lacks %d: %s" % (a.position, out))
    say("race at %d: %s %s" % (position(), r.kind, [a.position for a in r.accesses()]))
    return r


def main():
    addr = symbol("counter")
    accs = race_oracle.accesses(REC, addr, 4)
    stores = [a for a in accs if a.kind == "store"]
    end = int(truth("end")[0])

    # the user's breakpoints: one on, one off; they must come back as they were
    run("break racy_increment")
    run("break main")
    run("disable 2")
    bps = bp_state()

    # goto and where
    run("raptor goto end")
    check(position() == end, "goto end: at %d, the end is %d" % (position(), end))
    run("raptor goto 4321")
    check(position() == 4321, "goto 4321: at %d" % position())
    w = run("raptor where")
    regs = truth_regs(4321)
    for c in regs:
        check("core%d (thread %d)" % (c, c + 1) in w and "pc 0x%08x" % regs[c][15] in w,
              "where at 4321 lacks core %d at pc %08x: %s" % (c, regs[c][15], w))
    check(w.startswith("position 4321"), "where: %s" % w)

    # race at the end, and at a position in the middle
    run("raptor goto end")
    thread(3)
    check_race(addr, accs, "the end")
    run("raptor goto %d" % (end // 2))
    r = check_race(addr, accs, "the middle")
    # from inside racy_increment, in frame 1, with the user's scheduler
    # locked: raptor must run every core anyway, and give all of it back
    run("raptor goto %d" % r.store.position)
    thread(r.store.core + 1)
    run("up")
    run("set scheduler-locking step")
    check(gdb.selected_frame().level() == 1, "up did not select frame 1")
    check_race(addr, accs, "in racy_increment's caller")
    check(gdb.parameter("scheduler-locking") == "step", "scheduler-locking not given back")
    run("set scheduler-locking replay")
    check(r.kind == "lost update", "racy at 4 cores: a %s in the middle" % r.kind)
    # the convenience variables name the same accesses
    same([int(gdb.parse_and_eval("$race_" + k)) for k in ("load", "lost", "store")],
         [r.load.position, r.lost.position, r.store.position], "$race_load/lost/store")

    # a store that loses an update often writes the value already there,
    # which GDB's write watchpoints skip; last-writer must still land on it
    same_value = [b for a, b in zip(stores, stores[1:]) if a.value == b.value]
    check(same_value, "racy has no store of the value already there")
    sv = same_value[len(same_value) // 2]
    run("raptor goto %d" % sv.pos)
    run("raptor last-writer counter")
    check(position() == sv.pos - 1 and core() == sv.core and pc() == sv.pc,
          "last-writer after the same-value store %d (core %d): at %d, core %d" %
          (sv.pos, sv.core, position(), core()))
    say("last-writer finds the store of an unchanged value (%d) at %d" % (sv.value, sv.pos))

    # last-writer from the end: the truth's last stores, one after another
    run("raptor goto end")
    for k in (1, 2, 3):
        out = run("raptor last-writer counter")
        want = stores[-k]
        check(position() == want.pos - 1, "last-writer %d: at %d, the store is %d" %
              (k, position(), want.pos))
        check(core() == want.core and pc() == want.pc, "last-writer %d: core %d pc %08x, "
              "the truth core %d pc %08x" % (k, core(), pc(), want.core, want.pc))
        check(u32(addr) == stores[-k - 1].value, "last-writer %d: counter %d before the store, "
              "the truth %d" % (k, u32(addr), stores[-k - 1].value))
        check("counter: %d -> %d" % (stores[-k - 1].value, want.value) in out,
              "last-writer %d: old/new values: %s" % (k, out))
        check(bp_state() == bps, "last-writer changed the breakpoints: %s" % bp_state())
        say("last-writer %d: core %d at %d, %d -> %d" % (k, want.core, want.pos,
                                                        stores[-k - 1].value, want.value))

    # accesses around a position: every core's, in global order
    mid = end // 3
    run("raptor goto %d" % mid)
    thread(2)
    before = place()
    out = run("raptor accesses counter --window 5")
    got, now = R._last["accesses"]
    want = [a for a in accs if a.pos <= mid][-5:] + [a for a in accs if a.pos > mid][:5]
    same([(a.position, a.core, a.pc, a.kind) for a in got],
         [(a.pos, a.core, a.pc, a.kind) for a in want], "accesses around %d" % mid)
    for a, t in zip(got, want):
        val = a.before if a.kind == "load" else a.after
        check(int.from_bytes(val, "little") == t.value, "access at %d: value %s, the truth %d"
              % (a.position, val, t.value))
    check(place() == before, "accesses moved the user from %s to %s" % (before, place()))
    check(bp_state() == bps, "accesses changed the breakpoints")
    check("now: position %d" % mid in out, "accesses output: %s" % out)
    say("accesses around %d: %d, as the truth" % (mid, len(got)))

    # errors are clear, and leave everything as it was
    for cmd, msg in (("raptor race no_such_thing", "no_such_thing"),
                     ("raptor last-writer 1 + 1", "not an object in memory"),
                     ("raptor accesses counter --window x", "--window wants a number"),
                     ("raptor accesses", "an expression is needed"),
                     ("raptor goto", "usage: raptor goto"),
                     ("raptor where now", "takes no argument")):
        try:
            run(cmd)
            raise Fail("%s succeeded" % cmd)
        except gdb.error as e:
            check(msg in str(e) and str(e).startswith("raptor"), "%s: %s" % (cmd, e))
    check(place() == before, "the errors moved the user")
    check(bp_state() == bps, "the errors changed the breakpoints")
    # nothing before the first store: an error, and the user stays put
    run("raptor goto 10")
    try:
        run("raptor last-writer counter")
        raise Fail("last-writer at position 10 found a store")
    except gdb.error as e:
        check("nothing stored into counter" in str(e), "last-writer at 10: %s" % e)
    check(position() == 10, "last-writer that found nothing moved to %d" % position())
    say("errors: clear, nothing moved")


verdict(main)
