#!/usr/bin/env python3
# race_oracle.py: what `raptor race` / `raptor last-writer` (gdbscripts/raptor.py)
# should find, worked out from a recording's ground truth with truthq, never
# through GDB or the replay. The rules are raptor.py's, restated over the
# truth's access lists:
#
#   walking back from position NOW over every access to [ADDR, ADDR+SIZE),
#   one per instruction, at most WINDOW of them:
#   lost update: a store by core A whose previous access (by A) is a load,
#     with stores by other cores in between: (that load, the latest of those
#     stores, A's store);
#   stale read: a load that is its core's last access (up to NOW), read a
#     value other than the one at NOW, and has another core's store after
#     it: (the load, the first such store).
#   The first one complete going back wins.
#
# Usage (prints "culprit ROLE core C pc 0xPC position P" lines, as
# gdbscripts/demo.py does):
#   race_oracle.py REC race ADDR SIZE NOW [WINDOW]
#   race_oracle.py REC last-store ADDR SIZE NOW
#   race_oracle.py REC early-unlock BALANCE LOCK NOW    the race on BALANCE,
#       then, for each of its two stores, the storing core's store of 0 into
#       LOCK between its previous load of BALANCE and that store
#   race_oracle.py REC flag-store FLAG LOAD             the last store into
#       FLAG before position LOAD (the stale load of a publication race)
# TRUTHQ (environment) is the truthq binary.
import os
import subprocess
import sys

TRUTHQ = os.environ.get("TRUTHQ", "truthq")


def truthq(rec, *args):
    out = subprocess.run([TRUTHQ, rec] + [str(a) for a in args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("race_oracle: truthq %s: %s" % (" ".join(map(str, args)), out.stderr.strip()))
    return out.stdout.splitlines()


class Acc:
    def __init__(self, pos, core, pc, kind, value):
        self.pos, self.core, self.pc, self.kind, self.value = pos, core, pc, kind, value

    def culprit(self, role):
        return "culprit %s core %d pc 0x%08x position %d" % (role, self.core, self.pc, self.pos)


def accesses(rec, addr, size):
    """Every load and store of the range, one per instruction, in order."""
    by_pos = {}
    for kind in ("loads", "stores"):
        for line in truthq(rec, kind, addr, size):
            f = line.split()
            pos = int(f[0])
            a = Acc(pos, int(f[2]), int(f[4], 16), kind[:-1], int(f[10], 16))
            if pos in by_pos and by_pos[pos].kind != a.kind:
                a.kind = "access"
            by_pos[pos] = a
    return [by_pos[p] for p in sorted(by_pos)]


def value_at(accs, now):
    """The value of the range at position now: the last store's (None: none)."""
    v = None
    for a in accs:
        if a.pos > now:
            break
        if a.kind == "store":
            v = a.value
    return v


def race(accs, now, window=400):
    """(kind, load, lost, store) or None."""
    now_value = value_at(accs, now)
    seen, pending, later = [], {}, set()
    for a in reversed([x for x in accs if x.pos <= now]):
        seen.append(a)
        if a.kind == "store":
            pending[a.core] = a
        elif a.kind == "load":
            st = pending.pop(a.core, None)
            if st is not None:
                between = [x for x in seen if x.kind == "store" and x.core != a.core and
                           a.pos < x.pos < st.pos]
                if between:
                    return ("lost update", a, between[0], st)
            if a.core not in later and a.value != now_value:
                after = [x for x in seen if x.kind == "store" and x.core != a.core and
                         x.pos > a.pos]
                if after:
                    return ("stale read", a, None, after[-1])
        else:
            pending.pop(a.core, None)
        later.add(a.core)
        if len(seen) >= window:
            break
    return None


def race_lines(r):
    kind, load, lost, store = r
    if kind == "lost update":
        return [load.culprit("stale-load"), lost.culprit("lost-store"),
                store.culprit("overwrite")]
    return [load.culprit("stale-load"), store.culprit("late-store")]


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: race_oracle.py REC race|last-store|early-unlock|flag-store ...")
    rec, what, args = argv[1], argv[2], [int(x, 0) for x in argv[3:]]
    if what == "race":
        addr, size, now = args[:3]
        r = race(accesses(rec, addr, size), now, *(args[3:4] or [400]))
        if r is None:
            sys.exit("race_oracle: no race")
        print("\n".join(race_lines(r)))
    elif what == "last-store":
        addr, size, now = args
        st = [a for a in accesses(rec, addr, size) if a.kind == "store" and a.pos <= now]
        if not st:
            sys.exit("race_oracle: no store")
        print(st[-1].culprit("last-store"))
    elif what == "early-unlock":
        balance, lock, now = args
        accs = accesses(rec, balance, 4)
        r = race(accs, now)
        if r is None or r[0] != "lost update":
            sys.exit("race_oracle: no lost update on the balance")
        print("\n".join(race_lines(r)))
        locks = [a for a in accesses(rec, lock, 4) if a.kind == "store"]
        for st in (r[2], r[3]):
            load = [a for a in accs if a.core == st.core and a.pos < st.pos]
            if not load or load[-1].kind != "load":
                continue
            unlocks = [a for a in locks if a.core == st.core and a.value == 0 and
                       load[-1].pos < a.pos < st.pos]
            for u in unlocks:
                print(u.culprit("early-unlock"))
    elif what == "flag-store":
        flag, load = args
        st = [a for a in accesses(rec, flag, 4) if a.kind == "store" and a.pos < load]
        if not st:
            sys.exit("race_oracle: no store into the flag")
        print(st[-1].culprit("flag-store"))
    else:
        sys.exit("race_oracle: unknown question %r" % what)


if __name__ == "__main__":
    main(sys.argv)
