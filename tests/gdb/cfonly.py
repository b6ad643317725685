# A control-flow-only recording: only the PC is known (GDB shows every other
# register as <unavailable>), memory cannot be read, watchpoints are refused;
# breakpoints stop every core at its exact instruction (a core's own count
# is exact, the interleaving of cores is estimated).
from lib import *

N = 30


def core_insns():
    """Every core's own instruction count, from monitor time."""
    return {int(m.group(1)): int(m.group(2)) for m in
            re.finditer(r"core(\d+) \(thread \d+\): (\d+) instructions", monitor("time"))}


def main():
    out = run("info registers r0 sp xpsr pc")
    for r in ("r0", "sp", "xpsr"):
        check(re.search(r"^%s\s+<unavailable>" % r, out, re.M), "%s is not unavailable: %s" %
              (r, out))
    want = truth_regs(0)
    check(pc() == want[0][15] & ~1, "pc %08x at reset, truth %08x" % (pc(), want[0][15]))
    try:
        u32(symbol("counter"))
        raise Fail("memory was readable in a control-flow-only recording")
    except gdb.MemoryError:
        pass
    run("break racy_increment")
    run("continue")
    addr = pc()
    execs = {}
    for line in truth("execs", addr):
        f = line.split()
        execs.setdefault(int(f[2]), []).append(int(f[4]))
    seen = {}
    for i in range(N):
        if i:
            run("continue")
        c = core()
        n = core_insns()[c]
        check(pc() == addr, "stopped at %08x, not the breakpoint %08x" % (pc(), addr))
        seen.setdefault(c, []).append(n)
    for c, ns in seen.items():
        check(ns == execs[c][:len(ns)], "core %d stopped after %s of its instructions, the truth "
              "executes the breakpoint after %s" % (c, ns, execs[c][:len(ns)]))
    say("%d breakpoint stops on cores %s, each at the truth's instruction" %
        (N, sorted(seen)))
    # and back: reverse-continue retraces the same stops. (stepi needs the
    # stack pointer: GDB builds its frame ids from it, and the control-flow
    # trace does not carry it.)
    order = []
    for i in range(N):
        if i:
            run("continue")
        order.append((core(), core_insns()[core()]))
    for i in range(N - 2, N - 12, -1):
        run("reverse-continue")
        got = (core(), core_insns()[core()])
        check(got == order[i], "reverse stop %s, the forward one was %s" % (got, order[i]))
    say("10 reverse-continues retrace the forward stops")
    run("delete")
    run("watch counter")
    try:
        run("continue")
        raise Fail("a watchpoint was accepted")
    except gdb.error as e:
        say("watch refused: %s" % str(e).splitlines()[0])


verdict(main)
