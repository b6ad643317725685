# Execution commands act for the thread the user selected (issue 16), in
# every scheduler-locking mode: after a stop of thread 2, `thread T` then
# reverse-stepi, reverse-step, reverse-next (and stepi, step, next) move
# thread T, GDB stays on it and reports no signal, and the state is the
# recorded one. The oracle is the truth's global instruction order.
from lib import *

START = 7389  # lost-update: core 1 one instruction before job_done, every core busy
MODES = ["off", "replay", "step", "on"]

order = []  # order[P - 1]: the core that retired the instruction at position P


def owner(p):
    """The core of the instruction at position p (1-based)."""
    return order[p - 1]


def prev_of(core, p):
    """The position just before core's latest instruction at or before p."""
    while owner(p) != core:
        p -= 1
    return p - 1


def next_of(core, p):
    """The position right after core's next instruction after p."""
    p += 1
    while owner(p) != core:
        p += 1
    return p


def insns(core):
    m = re.search(r"core%d \(thread \d+\): (\d+) instructions" % core, monitor("time"))
    check(m is not None, "monitor time says nothing of core %d" % core)
    return int(m.group(1))


def start():
    """Thread 2 stops after a stepi: the stop the user then switches away from."""
    monitor("goto %d" % START)
    run("maint flush register-cache")
    thread(2)
    run("stepi")
    check(gdb.selected_thread().num == 2, "stepi of thread 2 stopped thread %d" %
          gdb.selected_thread().num)
    return position()


def one(mode, tid, cmd):
    what = "scheduler-locking %s, thread %d, %s" % (mode, tid, cmd)
    p0 = start()
    run("set scheduler-locking " + mode)
    thread(tid)
    if tid == 3 and mode in ("off", "step"):
        run("info threads")  # GDB reads every thread's registers (Hg1..Hg4) in between
    n0 = insns(tid - 1)
    ev = resume(cmd)
    run("set scheduler-locking replay")
    sel = gdb.selected_thread().num
    check(sel == tid, "%s: GDB switched to thread %d" % (what, sel))
    check(ev is not None and not isinstance(ev, gdb.SignalEvent),
          "%s: stopped with %s" % (what, ev and getattr(ev, "stop_signal", ev)))
    p1 = position()
    n1 = insns(tid - 1)
    c = tid - 1
    if cmd.startswith("reverse"):
        check(p1 < p0 and n1 < n0, "%s: position %d -> %d, core %d's instructions %d -> %d" %
              (what, p0, p1, c, n0, n1))
        check(owner(p1 + 1) == c, "%s: at %d, but the next instruction is core %d's, "
              "not core %d's" % (what, p1, owner(p1 + 1), c))
        if cmd == "reverse-stepi":
            check(p1 == prev_of(c, p0), "%s: at %d, want %d" % (what, p1, prev_of(c, p0)))
    else:
        check(p1 > p0 and n1 > n0, "%s: position %d -> %d, core %d's instructions %d -> %d" %
              (what, p0, p1, c, n0, n1))
        check(owner(p1) == c, "%s: at %d, after core %d's instruction, not core %d's" %
              (what, p1, owner(p1), c))
        if cmd == "stepi":
            check(p1 == next_of(c, p0), "%s: at %d, want %d" % (what, p1, next_of(c, p0)))
    if cmd.endswith("step") or cmd.endswith("next"):
        sal = gdb.find_pc_line(pc())
        check(sal.pc == pc(), "%s: pc 0x%x is not where line %d starts" % (what, pc(), sal.line))
    if mode in ("on", "step"):
        # GDB resumed thread T alone and keeps the others' registers; the
        # replay ran them too (raptor says so): see them afresh
        run("maint flush register-cache")
    want = truth_regs(p1)
    got = all_regs()
    for k in want:
        check(got[k] == want[k], "%s: core %d at %d: %s" % (what, k, p1,
                                                            diff_regs(got[k], want[k])))
    return p1


def locked_continue(mode, tid, reverse):
    """scheduler-locking on: only the selected thread's breakpoint stops it."""
    cmd = "reverse-continue" if reverse else "continue"
    what = "scheduler-locking %s, thread %d, %s" % (mode, tid, cmd)
    p0 = start()
    bp = symbol("job_done")
    hits = [(int(f.split()[0]), int(f.split()[2])) for f in truth("execs", "0x%x" % bp)]
    run("break *0x%x" % bp)
    run("set scheduler-locking " + mode)
    thread(tid)
    ev = resume(cmd)
    run("set scheduler-locking replay")
    run("delete")
    run("maint flush register-cache")
    cores = [tid - 1] if mode == "on" else range(4)
    if reverse:
        want = max(p for p, c in hits if c in cores and p - 1 < p0) - 1
    else:
        want = min(p for p, c in hits if c in cores and p - 1 > p0) - 1
    hit = [c for p, c in hits if p - 1 == want][0]
    check(isinstance(ev, gdb.BreakpointEvent), "%s: stopped with %s" % (what, ev))
    check(gdb.selected_thread().num == hit + 1, "%s: thread %d stopped, want %d" %
          (what, gdb.selected_thread().num, hit + 1))
    check(position() == want, "%s: at %d, want %d" % (what, position(), want))
    check(pc() == bp, "%s: pc 0x%x" % (what, pc()))


def main():
    order.extend(int(line.split()[0]) for line in truth("trace"))
    for mode in MODES:
        for tid in (2, 3, 4):
            for cmd in ("reverse-stepi", "reverse-step", "reverse-next", "stepi", "step",
                        "next"):
                one(mode, tid, cmd)
        say("scheduler-locking %s: threads 2-4 x reverse-stepi, reverse-step, reverse-next, "
            "stepi, step, next: the selected thread" % mode)
    for mode in ("off", "on"):
        for tid in (3, 4):
            locked_continue(mode, tid, 0)
            locked_continue(mode, tid, 1)
    say("continue and reverse-continue: any thread's breakpoint, only the selected one's "
        "with scheduler-locking on")


verdict(main)
