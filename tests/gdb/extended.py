# target extended-remote, as IDEs connect (issue 16): `run` starts the
# recording again from its beginning, `kill` leaves the connection up with
# no process, `attach 1` takes the replay where it is, `detach` stays
# connected, `disconnect` and a new connection keep the position. The
# oracle for `run` is the truth's first execution of a breakpoint.
import os

from lib import *

PORT = os.environ["PORT"]


def tid():
    """The selected thread's remote id: its core + 1 (GDB's own numbers
    follow the order it hears of threads in, which `run` changes)."""
    return gdb.selected_thread().ptid[1]


def core_regs():
    """Every core's registers, the cores told by the threads' remote ids."""
    keep = gdb.selected_thread()
    res = {}
    for t in gdb.selected_inferior().threads():
        t.switch()
        res[t.ptid[1] - 1] = regs()
    keep.switch()
    return res


def no_process(what):
    check(gdb.selected_inferior().pid == 0, "%s: still a process (%d)" %
          (what, gdb.selected_inferior().pid))
    check("No threads." in run("info threads"), "%s: threads left" % what)


def four_threads(what):
    n = len(gdb.selected_inferior().threads())
    check(n == 4, "%s: %d threads, not 4" % (what, n))


def main():
    for i in range(50):
        run("stepi")
    p = position()
    check(p > 0, "50 stepi stayed at the beginning")

    # run: vKill, vRun (back to position 0), then GDB continues to the breakpoint
    bp = symbol("job_done")
    first = min(int(f.split()[0]) for f in truth("execs", "0x%x" % bp))
    core = [int(f.split()[2]) for f in truth("execs", "0x%x" % bp)
            if int(f.split()[0]) == first][0]
    run("break *0x%x" % bp)
    ev = resume("run")
    check(isinstance(ev, gdb.BreakpointEvent), "run stopped with %s" % ev)
    check(position() == first - 1, "run: at %d, the first job_done is at %d" %
          (position(), first - 1))
    check(tid() == core + 1, "run: thread %d stopped, want %d" % (tid(), core + 1))
    four_threads("run")
    run("delete")
    say("run: from the beginning to the first job_done, position %d, thread %d" %
        (first - 1, core + 1))
    # reverse execution still works after a run
    run("reverse-stepi")
    check(position() < first - 1, "reverse-stepi after run: at %d" % position())
    run("stepi")
    at = position()

    # kill: the connection stays, no process; attach 1: where it was
    run("kill")
    no_process("kill")
    run("attach 1")
    four_threads("attach 1")
    for t in gdb.selected_inferior().threads():
        check(t.num == t.ptid[1], "attach 1: GDB numbers Thread %d as %d" % (t.ptid[1], t.num))
    check(position() == at, "attach 1: at %d, killed at %d" % (position(), at))
    want = truth_regs(at)
    got = core_regs()
    for c in want:
        check(got[c] == want[c], "attach 1, core %d: %s" % (c, diff_regs(got[c], want[c])))
    say("kill, then attach 1: the replay at position %d, registers as recorded" % at)

    # detach: connected still, attach again
    run("detach")
    no_process("detach")
    run("attach 1")
    four_threads("attach after detach")
    check(position() == at, "attach after detach: at %d, not %d" % (position(), at))

    # disconnect, then connect again: the same position
    run("stepi")
    at = position()
    run("disconnect")
    run("target extended-remote 127.0.0.1:%s" % PORT)
    four_threads("reconnected")
    check(position() == at, "reconnected: at %d, left at %d" % (position(), at))
    run("maint flush register-cache")
    want = truth_regs(at)
    got = core_regs()
    for c in want:
        check(got[c] == want[c], "reconnected, core %d: %s" % (c, diff_regs(got[c], want[c])))
    say("detach, attach, disconnect and reconnect: position %d kept" % at)

    # run again, with no breakpoint: to the end of the recording
    ev = resume("run")
    end = int(truth("end")[0])
    check(position() == end, "run without breakpoints: at %d, the end is %d" %
          (position(), end))
    run("kill")
    no_process("kill at the end")
    say("run to the end, kill: ok")


verdict(main)
