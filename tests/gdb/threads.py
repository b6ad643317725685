# Threads are cores; registers and memory at the beginning equal the truth.
from lib import *


def main():
    threads = sorted(gdb.selected_inferior().threads(), key=lambda t: t.num)
    ncores = len(truth_regs(0))
    check(len(threads) == ncores, "%d threads for %d cores" % (len(threads), ncores))
    for t in threads:
        check(t.name == "core%d" % (t.num - 1), "thread %d is named %r" % (t.num, t.name))
    info = run("info threads")
    say(info.replace("\n", "\n# "))
    check(position() == 0, "not at position 0")
    want = truth_regs(0)
    got = all_regs()
    for c in range(ncores):
        check(got[c] == want[c], "core %d at reset: %s" % (c, diff_regs(got[c], want[c])))
    names = run("info registers")
    for r in ("r0", "sp", "pc", "xpsr", "msp", "psp", "primask", "basepri", "faultmask",
              "control"):
        check(re.search(r"^%s\s" % r, names, re.M), "info registers lacks %s" % r)
    # the vector table: the initial stack pointer and reset vector
    check(u32(0) == want[0][13], "word at 0 is %08x, the reset sp %08x" % (u32(0), want[0][13]))
    check(u32(4) | 1 == want[0][15] | 1, "reset vector %08x, pc %08x" % (u32(4), want[0][15]))
    # .bss is known (the loader zeroes it, as QEMU's does); memory that
    # nothing loaded or wrote yet is unknown, not zeros
    check(u32(symbol("counter")) == 0, "counter is not 0 at reset")
    try:
        u32(0x20200000)
        raise Fail("0x20200000 is readable at position 0, before anything wrote it")
    except gdb.MemoryError:
        pass
    # writes are refused: the recording is read-only
    try:
        run("set var $r0 = 5")
        raise Fail("a register write was accepted")
    except gdb.error:
        pass
    check(regs()[0] == want[0][0], "r0 changed after a refused write")


verdict(main)
