# An ETM capture imported with raptor import (control flow only): each
# core's stepi and reverse-stepi (raptor stepi / raptor reverse-stepi from
# gdbscripts/raptor.py: GDB's own stepi needs the stack pointer) follow the
# core's exact instruction sequence in the truth; a breakpoint for one
# thread stops only that core, at the truth's instruction; continue and
# reverse-continue retrace the stops; only the pc is available.
import os

from lib import *

gdb.execute("source " + os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                     "gdbscripts", "raptor.py"))
STEPS = 40


def core_insns():
    return {int(m.group(1)): int(m.group(2)) for m in
            re.finditer(r"core(\d+) \(thread \d+\): (\d+) instructions", monitor("time"))}


def main():
    seq = {}
    for line in truth("trace"):
        c, p = line.split()
        seq.setdefault(int(c), []).append(int(p, 16))
    ncores = len(gdb.selected_inferior().threads())
    out = run("info registers r0 sp lr xpsr pc")
    for r in ("r0", "sp", "lr", "xpsr"):
        check(re.search(r"^%s\s+<unavailable>" % r, out, re.M), "%s is not unavailable: %s" %
              (r, out))
    check(re.search(r"^pc\s+0x", out, re.M), "pc is not shown: %s" % out)
    # every core forward then back, each step at the truth's next instruction
    for c in range(ncores):
        thread(c + 1)
        start = (pc(), core_insns()[c])
        trail = []
        for i in range(STEPS):
            run("raptor stepi")
            n = core_insns()[c]
            check(pc() == seq[c][n], "core %d after %d stepi: pc %08x, the truth's next "
                  "instruction of the core (its %d-th) is at %08x" % (c, i + 1, pc(), n, seq[c][n]))
            trail.append((pc(), n))
        for i in range(STEPS - 1):
            run("raptor reverse-stepi")
            got = (pc(), core_insns()[c])
            check(got == trail[STEPS - 2 - i], "core %d reverse-stepi %d: %s, forward it was %s" %
                  (c, i + 1, got, trail[STEPS - 2 - i]))
        run("raptor reverse-stepi")
        check((pc(), core_insns()[c]) == start, "core %d not back at its start" % c)
        say("core %d: %d stepi on the truth's path, %d reverse-stepi back" % (c, STEPS, STEPS))
    # a breakpoint for the last core only: every stop is that core's, at the truth's count
    last = ncores
    thread(last)
    run("break racy_increment thread %d" % last)
    run("continue")
    addr = pc()
    execs = [int(l.split()[4]) for l in truth("execs", addr) if int(l.split()[2]) == last - 1]
    stops = []
    for i in range(6):
        if i:
            run("continue")
        check(core() == last - 1, "stop %d on core %d, the breakpoint is thread %d's" %
              (i, core(), last))
        check(pc() == addr, "stopped at %08x, not %08x" % (pc(), addr))
        stops.append(core_insns()[last - 1])
    check(stops == execs[:6], "core %d stopped after %s of its instructions, the truth "
          "reaches the breakpoint after %s" % (last - 1, stops, execs[:6]))
    for i in range(4, -1, -1):
        run("reverse-continue")
        check(core() == last - 1 and core_insns()[last - 1] == stops[i],
              "reverse-continue to core %d at %d, forward it was core %d at %d" %
              (core(), core_insns()[core()], last - 1, stops[i]))
    say("thread %d's breakpoint: 6 stops at the truth's instructions, 5 reverse-continues back"
        % last)


verdict(main)
