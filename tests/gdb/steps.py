# stepi N then reverse-stepi N: identical registers on every core; the states
# on the way equal the truth; reverse-step/next/finish land where they should.
from lib import *


def main():
    run("break racy_increment")
    for i in range(5):
        run("continue")
    run("delete")
    start = all_regs()
    p0 = position()
    me = gdb.selected_thread().num
    for i in range(60):
        run("stepi")
        check(gdb.selected_thread().num == me, "stepi switched to thread %d" %
              gdb.selected_thread().num)
    p1 = position()
    want = truth_regs(p1)
    got = all_regs()
    for c in want:
        check(got[c] == want[c], "after 60 stepi, core %d: %s" % (c, diff_regs(got[c], want[c])))
    for i in range(60):
        run("reverse-stepi")
    check(position() == p0, "back at %d, started at %d" % (position(), p0))
    back = all_regs()
    for c in start:
        check(back[c] == start[c], "core %d after 60 stepi and back: %s" %
              (c, diff_regs(back[c], start[c])))
    say("60 stepi from %d to %d and back: identical" % (p0, p1))
    # source-level: in racy_increment, next, then reverse-next comes back
    line0 = gdb.selected_frame().find_sal().line
    run("next")
    line1 = gdb.selected_frame().find_sal().line
    check(line1 != line0, "next stayed on line %d" % line0)
    run("reverse-next")
    check(gdb.selected_frame().find_sal().line == line0, "reverse-next to line %d, not %d" %
          (gdb.selected_frame().find_sal().line, line0))
    # finish to main, reverse-finish back into the call
    run("finish")
    check(gdb.selected_frame().name() == "main", "finish in %s" % gdb.selected_frame().name())
    run("reverse-step")
    check(gdb.selected_frame().name() == "racy_increment", "reverse-step into %s" %
          gdb.selected_frame().name())
    run("reverse-finish")
    check(gdb.selected_frame().name() == "main", "reverse-finish in %s" %
          gdb.selected_frame().name())
    say("next, reverse-next, finish, reverse-step, reverse-finish: ok")


verdict(main)
