# A control-flow-only M4F recording: the target has FP registers (target.xml
# lists them) but the recording does not determine their values: GDB shows
# s0..s31, d0..d15 and fpscr as <unavailable>, at the reset and at a
# breakpoint in FP code alike; the pc is exact.
from lib import *

FP_NAMES = ["s%d" % i for i in range(32)] + ["d%d" % i for i in range(16)] + ["fpscr"]


def check_unavailable(where):
    for r in FP_NAMES:
        out = run("p $%s" % r).strip()
        check(out.endswith("= <unavailable>"), "%s: p $%s: %r" % (where, r, out))
    out = run("info registers s3 d1 fpscr")
    for r in ("s3", "d1", "fpscr"):
        check(re.search(r"^%s\s+<unavailable>" % r, out, re.M), "%s: info registers %s: %s" %
              (where, r, out))
    out = run("info float")
    check(re.search(r"^d0\s+<unavailable>", out, re.M) and
          re.search(r"^s31\s+<unavailable>", out, re.M), "%s: info float:\n%s" % (where, out))


def main():
    check_unavailable("reset")
    want = truth_regs(0)
    check(pc() == want[0][15] & ~1, "pc %08x at reset, truth %08x" % (pc(), want[0][15]))
    for b in os.environ.get("FP_BREAKS", "").split():
        run("break " + b)
    run("continue")
    p = position()
    check(pc() in {int(line.split()[1], 16) for line in truth("trace")},
          "stopped at %08x, which the program never executes" % pc())
    check_unavailable("breakpoint, position about %d" % p)
    # the truth has values there: the server does not make them up
    fp = [int(v, 16) for v in truth("at", p, "--fp")[0].split()[2 + len(REGS):]]
    check(any(fp[:32]), "the truth's s registers are all 0 near position %d" % p)
    say("s0..s31, d0..d15, fpscr <unavailable> at the reset and at %s (position about %d)" %
        (os.environ.get("FP_BREAKS"), p))


verdict(main)
