# FP registers of an M4F recording: at positions reached forward (stepi,
# continue to breakpoints, next) and backward (reverse-stepi,
# reverse-continue, reverse-next) and by monitor goto, every core's s0..s31
# (GDB's pseudo registers), d0..d15 and fpscr equal the truth bit for bit.
#
# Environment: FP_BREAKS, the breakpoint locations to continue to, space
# separated; FP_STOPS, how many continues (default 8); FP_NEXT=1 to also
# next and reverse-next (source-level code); FP_FLIP=REG (s0..s31, fpscr)
# flips bit 0 of that register's truth value, and the script must then
# fail, naming it: the comparison catches a wrong value.
from lib import *

BREAKS = os.environ.get("FP_BREAKS", "").split()
STOPS = int(os.environ.get("FP_STOPS", "8"))
FLIP = os.environ.get("FP_FLIP", "")
FP = ["s%d" % i for i in range(32)] + ["fpscr"]
compared = [0, 0]  # states, values


def truth_fp(pos):
    """Every core's s0..s31, fpscr at pos, from the truth: {core: [33 values]}."""
    res = {}
    for line in truth("at", pos, "--fp"):
        f = line.split()
        vals = [int(v, 16) for v in f[2 + len(REGS):]]
        check(len(vals) == 33, "truthq at %d --fp: %d FP values for core %s" %
              (pos, len(vals), f[1]))
        if FLIP:
            vals[FP.index(FLIP)] ^= 1
        res[int(f[1])] = vals
    return res


def raw(expr):
    """p/x EXPR: the raw bits GDB shows (a float register's bytes, not its value)."""
    out = run("p/x " + expr)
    m = re.search(r"= 0x([0-9a-f]+)$", out.strip())
    check(m is not None, "p/x %s: %r" % (expr, out))
    return int(m.group(1), 16)


def fp_regs():
    """The selected thread's s0..s31, fpscr and d0..d15 as GDB shows them."""
    s = [raw("$s%d" % i) for i in range(32)]
    m = re.search(r"^fpscr\s+0x([0-9a-f]+)\s", run("info registers fpscr"), re.M)
    check(m is not None, "info registers fpscr: no value")
    check(int(m.group(1), 16) == raw("$fpscr"), "info registers fpscr and p/x $fpscr differ")
    d = [raw("$d%d" % i) for i in range(16)]
    return s + [int(m.group(1), 16)], d


def check_fp(where):
    pos = position()
    want = truth_fp(pos)
    keep = gdb.selected_thread().num
    for t in sorted(gdb.selected_inferior().threads(), key=lambda t: t.num):
        t.switch()
        c = t.num - 1
        got, d = fp_regs()
        for i, name in enumerate(FP):
            check(got[i] == want[c][i], "%s (position %d), core %d: %s = 0x%08x, the truth "
                  "0x%08x" % (where, pos, c, name, got[i], want[c][i]))
        for n in range(16):
            w = want[c][2 * n] | want[c][2 * n + 1] << 32
            check(d[n] == w, "%s (position %d), core %d: d%d = 0x%016x, the truth 0x%016x "
                  "(s%d, s%d)" % (where, pos, c, n, d[n], w, 2 * n + 1, 2 * n))
        compared[0] += 1
        compared[1] += 33 + 16
    thread(keep)
    return pos


def main():
    check_fp("reset")
    for n in (1, 7, 60, 700):
        run("stepi %d" % n)
        check_fp("stepi %d" % n)
    for b in BREAKS:
        run("break " + b)
    stops = []
    for i in range(STOPS):
        ev = resume("continue")
        check(isinstance(ev, gdb.BreakpointEvent), "continue %d: no breakpoint stop (%r)" %
              (i, ev))
        stops.append((check_fp("continue %d" % i), gdb.selected_thread().num))
    nonzero = sum(1 for v in truth_fp(stops[-1][0]).values() for x in v[:32] if x)
    check(nonzero > 0, "every s register is 0 at the last stop: a weak check")
    for i in range(5):
        run("stepi")
        check_fp("stepi after the stops")
    for i in range(5):
        run("reverse-stepi")
        check_fp("reverse-stepi")
    check(position() == stops[-1][0], "5 stepi and 5 reverse-stepi: at %d, not %d" %
          (position(), stops[-1][0]))
    # back over the same breakpoint stops, most recent first
    for i in range(len(stops) - 2, -1, -1):
        ev = resume("reverse-continue")
        check(isinstance(ev, gdb.BreakpointEvent), "reverse-continue: no breakpoint stop (%r)" %
              ev)
        pos = check_fp("reverse-continue")
        check((pos, gdb.selected_thread().num) == stops[i],
              "reverse-continue stopped at %d on thread %d, the forward stop was %d on %d" %
              ((pos, gdb.selected_thread().num) + stops[i]))
    run("delete")
    if os.environ.get("FP_NEXT"):
        run("next")
        check_fp("next")
        run("reverse-next")
        check_fp("reverse-next")
    for i in range(3):
        run("reverse-stepi")
        check_fp("reverse-stepi before the first stop")
    # anywhere: monitor goto (GDB then needs its register cache flushed)
    end = int(truth("end")[0])
    for p in (end, end // 2, 3 * end // 4, end // 3, 17):
        monitor("goto %d" % p)
        run("maint flush register-cache")
        check(check_fp("monitor goto %d" % p) == p, "monitor goto %d: at %d" % (p, position()))
    # info float: GDB's default listing (the float group) for the vfp feature
    out = run("info float")
    for r in ("d0", "d15", "fpscr", "s0", "s31"):
        check(re.search(r"^%s\s" % r, out, re.M), "info float lacks %s:\n%s" % (r, out))
    # the layout GDB took from target.xml: d0..d15 and fpscr after the integer
    # registers in the g packet, s0..s31 its own pseudo registers
    layout = run("maint print remote-registers")
    for name, rnum, off in (("d0", 23, 92), ("d15", 38, 212), ("fpscr", 39, 220),
                            ("control", 22, 88)):
        check(re.search(r"^ %s\s+\d+\s+\d+\s+\d+\s+\d+\s+\S+\s+%d\s+%d$" % (name, rnum, off),
                        layout, re.M), "maint print remote-registers: %s not remote %d at "
              "%d:\n%s" % (name, rnum, off, layout))
    check(re.search(r"^ s0\s+\d+\s+0\s+\d+\s+4\s+float\s*$", layout, re.M),
          "s0 is not a pseudo register:\n" + layout)
    say("%d core states compared (%d FP values, s0..s31, d0..d15 and fpscr), cores: %d, "
        "%d breakpoint stops forward and back" %
        (compared[0], compared[1], len(truth_fp(0)), len(stops)))


verdict(main)
