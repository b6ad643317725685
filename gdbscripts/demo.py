# demo.py: the few steps of the race demos (gdbscripts/demo-*.gdb) that are
# not general enough for raptor.py, which it needs sourced first.
#
#   demo-connect                 target remote 127.0.0.1:$RAPTOR_PORT (default
#                                3333) and go to the beginning of the recording
#   demo-interleaving EXPR... -- FROM TO
#                                every core's accesses to each EXPR between two
#                                positions, merged in global order
#   demo-unlocks DATA LOCK       for each store of the last `raptor race` on
#                                DATA: did its core release LOCK (store 0) after
#                                its read of DATA and before the store? Sets
#                                $early_unlock (the release's position),
#                                $early_unlock_core, $early_unlock_load (the
#                                position of that core's read of DATA)
#   demo-verdict NAME            print the culprit accesses found, one line each,
#                                "culprit ROLE core C pc 0xPC position P", and
#                                quit 0; quit 1 when they were not found
#
# The culprit lines are what tests/t0600-demos.sh compares with the ground
# truth (tests/gdb/race_oracle.py).
import os

import gdb

try:  # raptor.py, sourced into GDB's __main__
    from __main__ import _last, goto, history, position
except ImportError:
    raise gdb.GdbError("demo.py: source gdbscripts/raptor.py first")

_demo = {}


def _expr_list(arg):
    """EXPR... -- FROM TO: ([expr], from, to); FROM and TO are GDB expressions
    (convenience variables welcome)."""
    if " -- " not in " %s " % arg:
        raise gdb.GdbError("usage: demo-interleaving EXPR... -- FROM TO")
    exprs, rng = (" %s " % arg).split(" -- ", 1)
    bounds = gdb.string_to_argv(rng)
    if len(bounds) != 2:
        raise gdb.GdbError("usage: demo-interleaving EXPR... -- FROM TO")
    lo, hi = (int(gdb.parse_and_eval(b)) for b in bounds)
    return gdb.string_to_argv(exprs), lo, hi


class DemoConnect(gdb.Command):
    """demo-connect: target remote 127.0.0.1:$RAPTOR_PORT (default 3333), then
raptor goto begin (the server keeps its position between sessions)."""

    def __init__(self):
        super().__init__("demo-connect", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        port = arg.strip() or os.environ.get("RAPTOR_PORT", "3333")
        gdb.execute("target remote 127.0.0.1:%s" % port)
        goto("begin")
        gdb.write("connected to raptor serve on port %s; at the beginning (position %d)\n" %
                  (port, position()))


class DemoInterleaving(gdb.Command):
    """demo-interleaving EXPR... -- FROM TO: every core's loads and stores of
each EXPR at positions FROM..TO, merged in global order. Puts you back."""

    def __init__(self):
        super().__init__("demo-interleaving", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        exprs, lo, hi = _expr_list(arg)
        rows = []
        for e in exprs:
            for a in history(e, lo - 1, hi):
                rows.append((a.position, e, a))
        rows.sort(key=lambda r: r[0])
        width = max(len(e) for e in exprs)
        vwidth = max([len(a.value_text()) for p, e, a in rows] + [5])
        gdb.write("the interleaving, positions %d..%d:\n" % (lo, hi))
        for pos, e, a in rows:
            gdb.write("%10d  core%d  %-5s %-*s  %-*s  %s\n" %
                      (pos, a.core, a.kind, width, e, vwidth, a.value_text(),
                       a.place.short()))
        _demo["interleaving"] = rows


class DemoUnlocks(gdb.Command):
    """demo-unlocks DATA LOCK: for each of the two stores into DATA in the last
`raptor race` (lost update), find its core's read of DATA before it and the
core's stores of 0 into LOCK (releases) in between: a store made after its
own core released the lock was made without it. Sets $early_unlock (the
position of the release), $early_unlock_core and $early_unlock_load (the
position of that core's read of DATA)."""

    def __init__(self):
        super().__init__("demo-unlocks", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        if len(argv) != 2:
            raise gdb.GdbError("usage: demo-unlocks DATA LOCK")
        r = _last.get("race")
        if r is None or r.kind != "lost update":
            raise gdb.GdbError("demo-unlocks: run `raptor race DATA` first (a lost update)")
        found = []
        for st in (r.lost, r.store):
            back = history(argv[0], 0, st.position - 1, stop=lambda a, c=st.core: a.core == c)
            if not back or back[0].core != st.core or back[0].kind != "load":
                gdb.write("core%d's store at %d: no read of %s by core%d before it\n" %
                          (st.core, st.position, argv[0], st.core))
                continue
            load = back[0]
            for u in history(argv[1], load.position, st.position - 1):
                if u.core == st.core and u.kind == "store" and u.after is not None and \
                        not any(u.after):
                    found.append((st, load, u))
                    gdb.write("core%d read %s at position %d, released %s at position %d, "
                              "then stored %s at position %d: a store without the lock\n" %
                              (st.core, argv[0], load.position, argv[1], u.position,
                               argv[0], st.position))
                    for line in u.describe():
                        gdb.write("    %s\n" % line)
        if not found:
            gdb.write("no store into %s made after its core released %s\n" % (argv[0], argv[1]))
        else:
            gdb.set_convenience_variable("early_unlock", found[0][2].position)
            gdb.set_convenience_variable("early_unlock_core", found[0][2].core)
            gdb.set_convenience_variable("early_unlock_load", found[0][1].position)
        _demo["unlocks"] = found


def _verdict(name):
    """The culprit lines for demo name, or (None, why)."""
    r = _last.get("race")
    if r is None:
        return None, "no race was found"
    if name in ("lost-update", "check-then-act", "early-unlock"):
        if r.kind != "lost update":
            return None, "the race found is a %s, not a lost update" % r.kind
        lines = [r.load.culprit("stale-load"), r.lost.culprit("lost-store"),
                 r.store.culprit("overwrite")]
        if name == "early-unlock":
            unlocks = _demo.get("unlocks")
            if not unlocks:
                return None, "no store into the balance was made without the lock"
            lines += [u.culprit("early-unlock") for st, load, u in unlocks]
        return lines, None
    if name == "publish":
        if r.kind != "stale read":
            return None, "the race found is a %s, not a stale read" % r.kind
        flag = _last.get("last-writer")
        if flag is None or flag.position >= r.load.position or flag.core != r.store.core:
            return None, "no store into the flag by core%d before the stale read" % r.store.core
        return [r.load.culprit("stale-load"), r.store.culprit("late-store"),
                flag.culprit("flag-store")], None
    return None, "unknown demo %r" % name


class DemoVerdict(gdb.Command):
    """demo-verdict NAME: print the culprit accesses found for demo NAME and
quit 0, or say what is missing and quit 1."""

    def __init__(self):
        super().__init__("demo-verdict", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        name = arg.strip()
        try:
            lines, why = _verdict(name)
        except (gdb.error, AttributeError) as e:
            lines, why = None, str(e)
        if lines is None:
            gdb.write("FAIL %s: %s\n" % (name, why))
            gdb.flush()
            gdb.execute("quit 1")
        for line in lines:
            gdb.write(line + "\n")
        gdb.write("PASS %s: the culprit accesses are found\n" % name)
        gdb.flush()
        gdb.execute("quit 0")


DemoConnect()
DemoInterleaving()
DemoUnlocks()
DemoVerdict()
