# A recording of a core without an FPU (M3): target.xml has no FP feature, so
# GDB knows no s, d or fpscr register, as with any ARM target without VFP.
from lib import *


def main():
    for r in ("s0", "s31", "d0", "d15", "fpscr"):
        out = run("p $%s" % r).strip()
        check(out.endswith("= void"), "p $%s on an M3: %r (a register?)" % (r, out))
        try:
            run("info registers %s" % r)
            raise Fail("info registers %s accepted on an M3" % r)
        except gdb.error as e:
            check("Invalid register" in str(e), "info registers %s: %s" % (r, e))
    out = run("info all-registers")
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    check(names == REGS, "info all-registers on an M3: %s" % names)
    layout = run("maint print remote-registers")
    check(not re.search(r"^ (d0|fpscr|s0) ", layout, re.M), "FP registers in the layout:\n" +
          layout)
    out = run("info float")
    say("info float on an M3: %s" % out.strip().replace("\n", " | "))
    say("no s, d or fpscr register; info all-registers lists the 23 integer ones")


verdict(main)
