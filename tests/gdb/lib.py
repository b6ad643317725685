# lib.py: helpers for the GDB scripts of the gdbserver tests (tests/gdb/*.py).
# Each script is run as `gdb-multiarch --batch -x tests/gdb/lib.py -x SCRIPT`
# against `raptor serve`; it decides the verdict itself: main() raising
# means `quit 1`, returning means `quit 0`. The oracle is the recording's
# ground truth read by build/truthq ($TRUTHQ), never the replay.
import os
import re
import subprocess

import gdb

REC = os.environ.get("REC", "")
TRUTHQ = os.environ.get("TRUTHQ", "truthq")
REGS = ["r%d" % i for i in range(13)] + ["sp", "lr", "pc", "xpsr", "msp", "psp",
                                         "primask", "basepri", "faultmask", "control"]


class Fail(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Fail(what)


def say(text):
    print("# " + text)


def truth(*args):
    """Lines of `truthq REC ARGS...`."""
    out = subprocess.run([TRUTHQ, REC] + [str(a) for a in args], capture_output=True,
                         text=True)
    check(out.returncode == 0, "truthq %s: %s" % (" ".join(map(str, args)), out.stderr))
    return out.stdout.splitlines()


def truth_regs(position):
    """Every core's registers at position, from the truth: {core: [23 values]}."""
    regs = {}
    for line in truth("at", position):
        f = line.split()
        regs[int(f[1])] = [int(v, 16) for v in f[2:]]
    return regs


def truth_accesses(kind, addr, length=4):
    """[(position, core, pc, value)] of every store or load of [addr, addr+len)."""
    res = []
    for line in truth(kind, addr, length):
        f = line.split()
        res.append((int(f[0]), int(f[2]), int(f[4], 16), int(f[10], 16)))
    return res


def run(cmd):
    return gdb.execute(cmd, to_string=True)


# GDB prints stop reports (breakpoint hits, watchpoints' old and new values)
# outside to_string's capture: the stop event is recorded here, and
# expect_lines() leaves lines the driver looks for in GDB's output.
last_stop = [None]


def on_stop(ev):
    last_stop[0] = ev


gdb.events.stop.connect(on_stop)


def resume(cmd):
    """Run a resuming command; the stop event it ended with."""
    last_stop[0] = None
    run(cmd)
    return last_stop[0]


def watch_hit(ev):
    return isinstance(ev, gdb.BreakpointEvent) and any(
        b.type in (gdb.BP_HARDWARE_WATCHPOINT, gdb.BP_READ_WATCHPOINT,
                   gdb.BP_ACCESS_WATCHPOINT, gdb.BP_WATCHPOINT) for b in ev.breakpoints)


def expect_lines(*lines):
    """The driver checks that GDB's output holds these lines, consecutively."""
    print("EXPECT " + "|".join(lines))


def monitor(cmd):
    return run("monitor " + cmd)


def position():
    m = re.search(r"^position (\d+)", monitor("time"), re.M)
    check(m is not None, "monitor time says no position")
    return int(m.group(1))


def thread(num):
    run("thread %d" % num)


def core():
    """The selected thread's core (GDB thread N is core N-1)."""
    return gdb.selected_thread().num - 1


def regs():
    """The selected thread's 23 registers as GDB shows them."""
    return [int(gdb.parse_and_eval("$" + r)) & 0xffffffff for r in REGS]


def all_regs():
    keep = gdb.selected_thread().num
    res = {}
    for t in sorted(gdb.selected_inferior().threads(), key=lambda t: t.num):
        t.switch()
        res[t.num - 1] = regs()
    thread(keep)
    return res


def pc():
    return int(gdb.parse_and_eval("$pc")) & 0xffffffff


def symbol(name):
    return int(gdb.parse_and_eval("&" + name).cast(gdb.lookup_type("unsigned int")))


def u32(addr):
    return int.from_bytes(bytes(gdb.selected_inferior().read_memory(addr, 4)), "little")


def diff_regs(a, b):
    return ", ".join("%s %08x != %08x" % (REGS[i], x, y)
                     for i, (x, y) in enumerate(zip(a, b)) if x != y)


def reset():
    """Back to the beginning (the server keeps its position across sessions)."""
    monitor("reset halt")
    run("maint flush register-cache")
    thread(1)


def verdict(main):
    try:
        reset()
        main()
    except Fail as e:
        print("FAIL: %s" % e)
        gdb.execute("quit 1")
    except gdb.error as e:
        print("FAIL: gdb: %s" % e)
        gdb.execute("quit 1")
    print("PASS")
    gdb.execute("quit 0")
