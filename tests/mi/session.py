#!/usr/bin/env python3
# session.py: the GDB/MI session an IDE (VS Code's cortex-debug, Eclipse
# CDT) has with `raptor serve`, run against the real gdb-multiarch and
# checked against the recording's ground truth (issue 16, "IDEs").
#
# usage: session.py --port N --rec REC --truthq TRUTHQ
#                   [--target remote|extended-remote] [--mi-async]
#
# It connects, lists threads, frames and registers, then breaks, watches,
# steps and continues with every -exec-* command in both directions, each
# stop compared with the truth: the reason, the thread, the frame, the
# position (`monitor time`), registers and memory. At both ends of the
# recording a stop must say that history ran out. Prints "# ..." lines as
# it goes and PASS at the end; exits 1 at the first mismatch (FAIL: why).
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from milib import MI, Fail, Truth, check  # noqa: E402

# tests/gdb/lib.py's order: the truth's 23 registers
REGS = ["r%d" % i for i in range(13)] + ["sp", "lr", "pc", "xpsr", "msp", "psp",
                                         "primask", "basepri", "faultmask", "control"]
NO_HISTORY = "No more reverse-execution history."


def say(text):
    print("# " + text, flush=True)


class Session:
    def __init__(self, mi, truth, ncores):
        self.mi, self.truth, self.ncores = mi, truth, ncores
        self.regnum = {}  # register name -> GDB's (MI's) number

    def position(self):
        text = self.mi.console_cmd("monitor time")
        m = re.search(r"^position (\d+)", text, re.M)
        check(m is not None, "monitor time says no position: %r" % text)
        return int(m.group(1))

    def address(self, expr):
        v = self.mi.cmd("-data-evaluate-expression %s" % expr)["value"]
        return int(v.split()[0], 0)

    # ---- stops ------------------------------------------------------------

    def stop(self, cmd, reason, tid, what=None):
        """Run cmd; the stop must have this reason and thread."""
        st = self.mi.resume(cmd)
        what = what or cmd
        check(st.reason == reason, "%s: reason %s, want %s (%s)" %
              (what, st.reason, reason, st.record.line))
        check(st.thread == tid, "%s: thread %d stopped, want %d" % (what, st.thread, tid))
        check(NO_HISTORY not in st.console, "%s: GDB says %r" % (what, NO_HISTORY))
        return st

    def no_history(self, cmd, tid, at):
        """Run cmd at or towards an end: GDB must say history ran out, on
        thread tid, at position at. GDB 14 puts reason="no-history" in the
        *stopped record; GDB 13 has no such MI reason (GDB PR 29260) and
        only prints the CLI text, as a console record before it (the
        reason is let pass there too, for a GDB 13 with the fix)."""
        st = self.mi.resume(cmd)
        check(NO_HISTORY in st.console, "%s: GDB did not say %r (%s)" %
              (cmd, NO_HISTORY, st.record.line))
        if self.mi.version >= (14, 0):
            check(st.reason == "no-history", "%s: reason %s, want no-history" % (cmd, st.reason))
        else:
            check(st.reason in (None, "no-history"), "%s: reason %s, want none or no-history"
                  " (GDB %d.%d)" % (cmd, st.reason, *self.mi.version))
        check(st.thread == tid, "%s: thread %d stopped, want %d" % (cmd, st.thread, tid))
        p = self.position()
        check(p == at, "%s: at position %d, want %d" % (cmd, p, at))
        want = self.truth.regs(at)[tid - 1][15]
        check(st.pc() == want, "%s: frame at %08x, core %d's pc is %08x" %
              (cmd, st.pc(), tid - 1, want))
        return st

    # ---- what an IDE shows at every stop ----------------------------------------

    def check_threads(self, at, current):
        """-thread-info: every core a thread, named, each frame at its pc."""
        rec = self.mi.cmd("-thread-info")
        threads = rec["threads"]
        check(len(threads) == self.ncores, "-thread-info: %d threads, want %d" %
              (len(threads), self.ncores))
        check(rec["current-thread-id"] == str(current), "-thread-info: current thread %s, "
              "want %d" % (rec["current-thread-id"], current))
        regs = self.truth.regs(at)
        for c, t in enumerate(threads):
            check(t["id"] == str(c + 1) and t.get("name") == "core%d" % c and
                  t["target-id"] == "Thread %d" % (c + 1) and t["state"] == "stopped",
                  "-thread-info: thread %d is %s" % (c + 1, t))
            pc = int(t["frame"]["addr"], 16)
            check(pc == regs[c][15], "-thread-info: thread %d at %08x, core %d's pc is %08x"
                  % (c + 1, pc, c, regs[c][15]))

    def check_registers(self, at, threads=None):
        """-data-list-register-values: every thread's registers as recorded."""
        regs = self.truth.regs(at)
        nums = " ".join(str(self.regnum[r]) for r in REGS)
        for tid in threads or range(1, self.ncores + 1):
            rec = self.mi.cmd("-data-list-register-values --thread %d --frame 0 x %s" %
                              (tid, nums))
            got = {int(v["number"]): int(v["value"], 16) for v in rec["register-values"]}
            for i, r in enumerate(REGS):
                check(got.get(self.regnum[r]) == regs[tid - 1][i],
                      "position %d, thread %d: %s (number %d) = %s, truth %08x" %
                      (at, tid, r, self.regnum[r], got.get(self.regnum[r]), regs[tid - 1][i]))

    def check_counter(self, addr, at):
        """-data-read-memory-bytes of the shared counter: the last store's value."""
        before = [s for s in self.truth.stores(addr) if s[0] <= at]
        rec = self.mi.cmd("-data-read-memory-bytes 0x%x 4" % addr)
        blk = rec["memory"][0]
        check(int(blk["begin"], 16) == addr and len(blk["contents"]) == 8,
              "-data-read-memory-bytes: %s" % blk)
        val = int.from_bytes(bytes.fromhex(blk["contents"]), "little")
        want = before[-1][3] if before else None
        check(val == want, "counter at position %d: %d, truth %s" % (at, val, want))
        return val


def connect(s, args):
    mi = s.mi
    if args.mi_async:
        mi.cmd("-gdb-set mi-async on")
    mi.cmd("-list-features")
    mi.cmd("-enable-pretty-printing")
    mi.cmd("-gdb-set remotelogfile %s" % args.remotelog)
    rec = mi.cmd("-target-select %s 127.0.0.1:%d" % (args.target, args.port))
    check(rec.cls == "connected", "-target-select: %s" % rec.line)
    # an IDE starting a session: back to the beginning (the server keeps
    # its position between sessions); GDB does not know it moved
    mi.console_cmd("monitor reset halt")
    mi.console_cmd("maint flush register-cache")
    check(s.position() == 0, "not at the beginning after monitor reset halt")
    mi.cmd("-thread-select 1")
    s.check_threads(0, 1)
    say("%s: %d threads, one per core, at their reset pc" % (args.target, s.ncores))


def registers(s):
    """The names MI lists are target.xml's, and every listed number reads."""
    mi = s.mi
    xml = mi.console_cmd("maint print xml-tdesc")
    served = re.findall(r'<reg name="([^"]+)"', xml)
    check(served == REGS, "target.xml lists %s, want %s" % (served, REGS))
    names = mi.cmd("-data-list-register-names")["register-names"]
    listed = [n for n in names if n]
    check(listed == served, "-data-list-register-names lists %s, target.xml %s" %
          (listed, served))
    s.regnum = {n: i for i, n in enumerate(names) if n}
    # every number with a name can be read, alone and all together; the
    # numbers between (GDB's ARM numbering keeps 16-24 for the FPA
    # registers, xpsr is 25) have none and are refused
    for n, i in s.regnum.items():
        rec = mi.cmd("-data-list-register-values x %d" % i)
        check([v["number"] for v in rec["register-values"]] == [str(i)],
              "-data-list-register-values x %d: %s" % (i, rec.line))
    for i, n in enumerate(names):
        if not n:
            msg = mi.error("-data-list-register-values x %d" % i)
            check("bad register number" in msg, "register %d: %s" % (i, msg))
    rec = mi.cmd("-data-list-register-values x")
    check([int(v["number"]) for v in rec["register-values"]] == sorted(s.regnum.values()),
          "-data-list-register-values x lists %s" % rec["register-values"])
    s.check_registers(0)
    say("registers: %d names, as target.xml has them (%s); numbers %s read as recorded" %
        (len(listed), ", ".join(listed[16:]), " ".join(
            str(s.regnum[r]) for r in ("r0", "pc", "xpsr", "msp", "control"))))


def breakpoints(s):
    """-break-insert: the job_done hits in the recorded order, and back."""
    mi, truth = s.mi, s.truth
    bp = mi.cmd("-break-insert job_done")["bkpt"]
    addr = int(bp["addr"], 16)
    hits = sorted(truth.execs(addr))
    check(len(hits) >= 3, "job_done executes %d times" % len(hits))
    seen = []
    for k in range(3):
        p, c = hits[k]
        st = s.stop("-exec-continue", "breakpoint-hit", c + 1, "continue %d" % (k + 1))
        check(st.record["bkptno"] == bp["number"] and st.frame["func"] == "job_done" and
              st.pc() == addr, "continue %d: %s" % (k + 1, st.record.line))
        check(s.position() == p - 1, "continue %d: at %d, the hit is instruction %d" %
              (k + 1, s.position(), p))
        seen.append(c)
    s.check_threads(hits[2][0] - 1, hits[2][1] + 1)
    s.check_registers(hits[2][0] - 1)
    for k in (1, 0):
        p, c = hits[k]
        st = s.stop("-exec-continue --reverse", "breakpoint-hit", c + 1,
                    "reverse continue to hit %d" % (k + 1))
        check(st.pc() == addr and s.position() == p - 1, "reverse continue to hit %d: at %d "
              "pc %08x, want %d %08x" % (k + 1, s.position(), st.pc(), p - 1, addr))
    mi.cmd("-break-delete")
    say("break job_done: hits at %s by threads %s, and back" %
        ([h[0] for h in hits[:3]], [c + 1 for c in seen]))
    return hits[0]


def stack_and_steps(s, hit):
    """At a job_done stop: frames, then next, finish, step and stepi both ways."""
    mi, truth = s.mi, s.truth
    p0, c = hit
    tid = c + 1
    p0 -= 1
    # -thread-select another thread and back; frames of each
    other = tid % s.ncores + 1
    rec = mi.cmd("-thread-select %d" % other)
    check(rec["new-thread-id"] == str(other) and
          int(rec["frame"]["addr"], 16) == truth.regs(p0)[other - 1][15],
          "-thread-select %d: %s" % (other, rec.line))
    frames = mi.cmd("-stack-list-frames --thread %d" % tid)["stack"]
    check(len(frames) >= 2 and frames[0]["func"] == "job_done" and frames[1]["func"] == "main"
          and frames[0]["level"] == "0" and frames[1]["level"] == "1",
          "-stack-list-frames --thread %d: %s" % (tid, frames))
    check(int(frames[0]["addr"], 16) == truth.regs(p0)[c][15], "frame 0 at %s, pc %08x" %
          (frames[0]["addr"], truth.regs(p0)[c][15]))
    ret = int(frames[1]["addr"], 16)
    depth = int(mi.cmd("-stack-info-depth --thread %d" % tid)["depth"])
    check(depth == len(frames), "-stack-info-depth %d, %d frames listed" % (depth, len(frames)))
    mi.cmd("-thread-select %d" % tid)

    # -exec-next inside job_done: the next line, the same thread
    st = s.stop("-exec-next --thread %d" % tid, "end-stepping-range", tid)
    p1 = s.position()
    check(st.frame["func"] == "job_done" and st.frame["line"] != frames[0]["line"] and
          p1 > p0 and truth.owner(p1) == c and st.pc() == truth.regs(p1)[c][15],
          "-exec-next: at %d, %s" % (p1, st.record.line))
    # -exec-finish: back in main at the return address frame 1 showed (a
    # breakpoint there: other cores may have retired instructions since)
    st = s.stop("-exec-finish --thread %d" % tid, "function-finished", tid)
    p2 = s.position()
    check(st.frame["func"] == "main" and st.pc() == ret and truth.regs(p2)[c][15] == ret and
          truth.order[truth.next_of(c, p2) - 1][1] == ret and
          truth.order[truth.prev_of(c, p2)][1] != ret,
          "-exec-finish: at %d, %s; the return address %08x" % (p2, st.record.line, ret))
    s.check_registers(p2, [tid])
    # -exec-step --reverse: into job_done again, at its last line
    st = s.stop("-exec-step --thread %d --reverse" % tid, "end-stepping-range", tid)
    p3 = s.position()
    check(st.frame["func"] == "job_done" and p0 < p3 < p2 and truth.owner(p3 + 1) == c and
          st.pc() == truth.regs(p3)[c][15], "-exec-step --reverse: at %d, %s" %
          (p3, st.record.line))
    # -exec-finish --reverse: to the call in main
    st = s.stop("-exec-finish --thread %d --reverse" % tid, "end-stepping-range", tid)
    p4 = s.position()
    call = st.pc()
    check(st.frame["func"] == "main" and p4 < p0 and truth.owner(p4 + 1) == c and
          call == truth.regs(p4)[c][15], "-exec-finish --reverse: at %d, %s" %
          (p4, st.record.line))
    nxt = truth.next_of(c, p4)
    check(truth.order[nxt - 1][1] == call and truth.regs(nxt)[c][14] & ~1 == ret,
          "-exec-finish --reverse: the instruction at %08x is not the call returning to %08x"
          % (call, ret))
    # -exec-step: into job_done from the call
    st = s.stop("-exec-step --thread %d" % tid, "end-stepping-range", tid)
    p5 = s.position()
    check(st.frame["func"] == "job_done" and p5 == p0 and st.pc() == truth.regs(p0)[c][15],
          "-exec-step from the call: at %d, %s; want %d" % (p5, st.record.line, p0))
    # -exec-next --reverse: back over the call, in main
    st = s.stop("-exec-next --thread %d --reverse" % tid, "end-stepping-range", tid)
    p6 = s.position()
    check(st.frame["func"] == "main" and p6 <= p4 and truth.owner(p6 + 1) == c and
          st.pc() == truth.regs(p6)[c][15], "-exec-next --reverse: at %d, %s" %
          (p6, st.record.line))
    say("thread %d: next %d, finish %d (return %08x), step --reverse %d, finish --reverse %d"
        " (call %08x), step %d, next --reverse %d" % (tid, p1, p2, ret, p3, p4, call, p5, p6))

    # -exec-step-instruction of another thread, both ways: that core's
    # next and previous instruction in the recorded order
    other = tid % s.ncores + 1
    oc = other - 1
    mi.cmd("-thread-select %d" % other)
    at = p6
    for k in range(3):
        st = s.stop("-exec-step-instruction --thread %d" % other, "end-stepping-range", other)
        want = truth.next_of(oc, at)
        at = s.position()
        check(at == want and st.pc() == truth.regs(at)[oc][15],
              "-exec-step-instruction %d: at %d pc %08x, want %d" % (k, at, st.pc(), want))
    for k in range(3):
        st = s.stop("-exec-step-instruction --thread %d --reverse" % other,
                    "end-stepping-range", other)
        want = truth.prev_of(oc, at)
        at = s.position()
        check(at == want and st.pc() == truth.regs(at)[oc][15],
              "-exec-step-instruction --reverse %d: at %d pc %08x, want %d" %
              (k, at, st.pc(), want))
    s.check_registers(at)
    say("thread %d: 3 step-instruction and 3 back, positions and registers as recorded" % other)


def watchpoints(s):
    """-break-watch counter: the stores that changed it, forward and back."""
    mi, truth = s.mi, s.truth
    addr = s.address("&counter")
    stores = truth.stores(addr)
    at = s.position()
    wpt = mi.cmd("-break-watch counter")["wpt"]
    check(wpt["exp"] == "counter", "-break-watch: %s" % wpt)
    # GDB's watch ignores stores of the value already there
    old = s.check_counter(addr, at)
    changes = []
    for w in stores:
        if w[0] > at and w[3] != old:
            changes.append(w)
            old = w[3]
        if len(changes) == 3:
            break
    check(len(changes) == 3, "fewer than 3 changes of counter after %d" % at)
    prev = s.check_counter(addr, at)
    for p, c, pc, val in changes:
        st = s.stop("-exec-continue", "watchpoint-trigger", c + 1, "continue to the store at %d" % p)
        v = st.record["value"]
        check(st.record["wpt"]["number"] == wpt["number"] and v["old"] == str(prev) and
              v["new"] == str(val), "watch: %s; truth %d -> %d" % (st.record.line, prev, val))
        check(s.position() == p, "watch forward: at %d, the store is instruction %d" %
              (s.position(), p))
        check(s.check_counter(addr, p) == val, "counter after the store")
        prev = val
    for i in (2, 1):
        p, c, pc, val = changes[i]
        before = changes[i - 1][3]
        st = s.stop("-exec-continue --reverse", "watchpoint-trigger", c + 1,
                    "reverse continue to the store at %d" % p)
        v = st.record["value"]
        check(v["old"] == str(val) and v["new"] == str(before) and st.pc() == pc and
              s.position() == p - 1, "watch backward: %s at %d; truth: the store at %d pc %08x"
              " %d -> %d" % (st.record.line, s.position(), p, pc, before, val))
        check(s.check_counter(addr, p - 1) == before, "counter before the store")
    mi.cmd("-break-delete")
    say("watch counter: stores at %s by threads %s, and back" %
        ([ch[0] for ch in changes], [ch[1] + 1 for ch in changes]))


def ends(s):
    """Both ends of the recording: every -exec-* says history ran out, for
    the thread it acted on."""
    mi, truth = s.mi, s.truth
    s.no_history("-exec-continue --thread 3 --reverse", 3, 0)
    s.check_threads(0, 3)
    s.check_registers(0)
    # an address no instruction touched before: unknown, never a zero
    msg = mi.error("-data-read-memory-bytes 0x20100000 4")
    check("Unable to read memory" in msg, "unknown memory: %s" % msg)
    for tid, cmd in ((2, "-exec-step-instruction"), (4, "-exec-next"), (1, "-exec-step"),
                     (3, "-exec-continue")):
        s.no_history("%s --thread %d --reverse" % (cmd, tid), tid, 0)
    msg = mi.error("-exec-finish --thread 1 --reverse")
    check("outermost" in msg, "-exec-finish --reverse at the beginning: %s" % msg)
    say("at the beginning: continue, step-instruction, next, step --reverse: no history")

    s.no_history("-exec-continue --thread 2", 2, truth.end)
    s.check_threads(truth.end, 2)
    s.check_registers(truth.end)
    for tid, cmd in ((1, "-exec-step-instruction"), (3, "-exec-next"), (4, "-exec-step"),
                     (2, "-exec-finish"), (4, "-exec-continue")):
        s.no_history("%s --thread %d" % (cmd, tid), tid, truth.end)
    st = s.stop("-exec-step-instruction --thread 4 --reverse", "end-stepping-range", 4)
    want = truth.prev_of(3, truth.end)
    check(s.position() == want, "stepping back from the end: at %d, want %d" %
          (s.position(), want))
    say("at the end (%d): continue, step-instruction, next, step, finish: no history; "
        "thread 4 steps back to %d" % (truth.end, want))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--rec", required=True)
    ap.add_argument("--truthq", required=True)
    ap.add_argument("--target", default="extended-remote",
                    choices=["remote", "extended-remote"])
    ap.add_argument("--mi-async", action="store_true")
    ap.add_argument("--gdb", default="gdb-multiarch")
    ap.add_argument("--name", default="mi")
    args = ap.parse_args()
    args.remotelog = args.name + ".rlog"
    truth = Truth(args.truthq, args.rec)
    ncores = len(truth.regs(0))
    mi = MI(os.path.join(args.rec, "program.elf"), args.name + ".mi", args.gdb)
    s = Session(mi, truth, ncores)
    try:
        say("GDB %d.%d, --interpreter=mi3, target %s%s" %
            (*mi.version, args.target, ", mi-async on" if args.mi_async else ""))
        connect(s, args)
        registers(s)
        hit = breakpoints(s)
        stack_and_steps(s, hit)
        watchpoints(s)
        ends(s)
    except Fail as e:
        print("FAIL: %s" % e)
        mi.close()
        return 1
    mi.close()
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
