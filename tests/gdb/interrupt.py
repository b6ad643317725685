# Ctrl-C interrupts a long continue, forward and backward: a child process
# sends GDB a SIGINT while a resume runs, as a terminal's Ctrl-C would, and
# GDB passes it to the server as a 0x03 byte.
import os
import subprocess
import time

from lib import *


def interrupted(cmd):
    killer = subprocess.Popen(["sh", "-c", "sleep 0.3 && kill -INT %d" % os.getpid()])
    t0 = time.time()
    ev = resume(cmd)
    secs = time.time() - t0
    killer.wait()
    check(isinstance(ev, gdb.SignalEvent) and ev.stop_signal == "SIGINT",
          "%s: stopped by %s, not by the interrupt" % (cmd, ev))
    return secs


def main():
    s = interrupted("continue")
    p = position()
    check(0 < p, "the interrupted continue did not move")
    say("continue interrupted after %.2f s at position %d" % (s, p))
    run("stepi")  # the replay works on after an interrupt
    check(position() > p, "stepi after the interrupt did not move")
    monitor("goto end")
    run("maint flush register-cache")
    end = position()
    # a watchpoint nothing writes, in the 64-byte block of the spinlock, which
    # every round writes: the replay's time index cannot rule the block out,
    # so reverse-continue replays everything back to the beginning (bwd[]
    # next to the lock is written only by the backward pass, past this
    # recording's end)
    word = (symbol("lock") | 63) - 3
    check(symbol("bwd") <= word < symbol("bwd") + 4 * 115,
          "the lock's block ends at 0x%x, not in bwd[]" % word)
    run("watch *(int *)0x%x" % word)
    s = interrupted("reverse-continue")
    p = position()
    check(0 < p < end, "reverse-continue interrupted at %d, the end is %d" % (p, end))
    say("reverse-continue interrupted after %.2f s at position %d of %d" % (s, p, end))
    run("delete")
    run("reverse-stepi")
    check(position() < p, "reverse-stepi after the interrupt did not move back")


verdict(main)
