# raptor.py: GDB commands for chasing races through a raptor recording.
#
#   $ gdb-multiarch -q PROGRAM.elf -ex 'target remote 127.0.0.1:3333'
#   (gdb) source gdbscripts/raptor.py
#   (gdb) raptor race counter
#
#   raptor where                        the position; every core's pc and source line
#   raptor goto POSITION|begin|end      move the whole board to another position
#   raptor last-writer EXPR             reverse to the last store into EXPR
#   raptor accesses EXPR [--window N]   every core's loads and stores of EXPR around now
#   raptor race EXPR [--window N]       the conflicting accesses behind EXPR's value
#
# A position is the number of instructions all cores together have retired
# (`monitor time`). The access "at position P" is made by the P-th
# instruction to retire; the state just before it is position P - 1, which
# is where a reverse watchpoint stop leaves GDB (pc at the accessing
# instruction). Everything here goes through GDB: reverse execution,
# temporary hardware watchpoints and raptor serve's monitor commands (time,
# goto, who-wrote). Nothing reads the recording's files, so the commands
# work on any recording and check the server rather than trust it.
#
# The commands give back what the user had: their breakpoints are disabled
# while the commands run and re-enabled afterwards, and `accesses` and
# `race` return to the position, thread and frame they started from.
# `last-writer` is a movement: it leaves you at the store it found.
#
# Loaded, it also makes GDB follow the monitor commands that move the
# replay (`monitor goto`, `monitor reset halt`): hookpost-monitor flushes
# GDB's register cache and shows the frame (docs/GDB.md). `raptor debug REC`
# starts GDB with this file loaded.
#
# The same work is available to Python (the demo scripts use it):
# where_(), goto(), last_writer(), accesses(), history(), race(); results
# are Access and Race objects. Each command also sets convenience
# variables: $raptor_position, $raptor_core (last-writer); $race_kind,
# $race_load, $race_lost, $race_store (race: positions as above) and
# $race_load_core, $race_lost_core, $race_store_core.
import os
import re

import gdb

ACCESS_WINDOW = 8  # raptor accesses: accesses shown on each side of now
RACE_WINDOW = 400  # raptor race: accesses looked at, at most, going back

_last = {}  # the latest results, for scripts: "race", "last-writer", "accesses"

# The latest stop event, to tell our watchpoint's stops from the others.
# Kept on the gdb module so that sourcing this file again connects once.
if not hasattr(gdb, "_raptor_stops"):
    gdb._raptor_stops = [None]
    gdb.events.stop.connect(lambda ev: gdb._raptor_stops.__setitem__(0, ev))


def _run(cmd):
    return gdb.execute(cmd, to_string=True)


def _fail(fmt, *args):
    raise gdb.GdbError("raptor: " + (fmt % args if args else fmt))


def _need_target():
    thread = gdb.selected_thread()
    if thread is None or not thread.is_valid():
        _fail("no target: run `raptor serve REC` and `target remote 127.0.0.1:PORT` first")
    return thread


def monitor(cmd):
    """The text of `monitor CMD`; a gdb.GdbError naming the command if it fails.
    (The callers flush what they move: the hooks below are kept out.)"""
    _need_target()
    busy, _hook["busy"] = _hook["busy"], True
    try:
        return _run("monitor " + cmd)
    except gdb.error as e:
        _fail("monitor %s: %s", cmd, e)
    finally:
        _hook["busy"] = busy


def position():
    """The current position (instructions retired by all cores)."""
    out = monitor("time")
    m = re.search(r"^position (\d+)", out, re.M)
    if not m:
        _fail("`monitor time` names no position (is the target raptor serve?): %r", out.strip())
    return int(m.group(1))


def goto(where):
    """monitor goto WHERE (a position, begin or end), then drop GDB's stale registers."""
    monitor("goto %s" % where)
    _run("maintenance flush register-cache")


# ------------------------------------------------------------------ the view follows the replay
#
# `monitor goto`, `monitor reset halt` (any monitor command that moves the
# replay) change every core's state behind GDB's back: GDB keeps its
# register cache and frames from before. GDB hooks cannot see a command's
# arguments, so hook-monitor notes the position before the command and
# hookpost-monitor compares it after; if it moved, the register cache is
# flushed and the selected frame shown again. The monitor commands of this
# file (`monitor time` ...) are let through without it. A user's own
# hook-monitor or hookpost-monitor is replaced (GDB keeps one of each).

_hook = {"busy": False, "before": None}


def _position_quiet():
    try:
        m = re.search(r"^position (\d+)", gdb.execute("monitor time", to_string=True), re.M)
    except gdb.error:
        return None
    return int(m.group(1)) if m else None


def _target_is_remote():
    t = gdb.selected_thread()
    return t is not None and t.is_valid()


def _before_monitor():
    _hook["before"] = None
    if _hook["busy"] or not _target_is_remote():
        return
    _hook["busy"] = True
    try:
        _hook["before"] = _position_quiet()
    finally:
        _hook["busy"] = False


def _after_monitor():
    before, _hook["before"] = _hook["before"], None
    if _hook["busy"] or before is None:
        return
    _hook["busy"] = True
    try:
        now = _position_quiet()
        if now is None or now == before:
            return
        gdb.execute("maintenance flush register-cache", to_string=True)
        try:
            gdb.write(gdb.execute("frame", to_string=True))
        except gdb.error:
            pass
    finally:
        _hook["busy"] = False


gdb._raptor_before_monitor = _before_monitor
gdb._raptor_after_monitor = _after_monitor
gdb.execute("define hook-monitor\npython gdb._raptor_before_monitor()\nend")
gdb.execute("define hookpost-monitor\npython gdb._raptor_after_monitor()\nend")


def _core_of(thread):
    """A thread's core: raptor names its threads coreN; thread N is core N-1."""
    m = re.match(r"core(\d+)$", thread.name or "")
    if m:
        return int(m.group(1))
    return thread.num - 1


def _thread_of(core):
    for t in gdb.selected_inferior().threads():
        if _core_of(t) == core:
            return t
    return None


# ------------------------------------------------------------------ source


def _source_text(symtab, line):
    try:
        with open(symtab.fullname(), errors="replace") as f:
            for i, text in enumerate(f, 1):
                if i == line:
                    return text.strip()
    except (OSError, RuntimeError, gdb.error):
        pass
    return ""


def _function_at(pc):
    try:
        block = gdb.block_for_pc(pc)
    except RuntimeError:
        block = None
    while block is not None and block.function is None:
        block = block.superblock
    if block is not None:
        return block.function.name
    out = _run("info symbol 0x%x" % pc)
    return "??" if out.startswith("No symbol") else out.split()[0]


class Place:
    """Where code is in the source: function, file, line and the line's text.
    From a pc, or from a frame (a caller's line is its call's, not the
    return address's)."""

    def __init__(self, pc, sal=None, func=None):
        self.pc = pc
        self.func = func or _function_at(pc)
        if sal is None:
            sal = gdb.find_pc_line(pc)
        self.file = sal.symtab.filename if sal.symtab else None
        self.line = sal.line if sal.symtab else 0
        self.text = _source_text(sal.symtab, sal.line) if sal.symtab else ""

    def short(self):
        if not self.file:
            return "%s" % self.func
        return "%s:%d %s" % (os.path.basename(self.file), self.line, self.func)

    def __str__(self):
        return self.short() + ("   " + self.text if self.text else "")


# ------------------------------------------------------------------ EXPR


_WATCH_TYPES = {1: "unsigned char", 2: "unsigned short", 4: "unsigned int", 8: "unsigned long long"}


class Location:
    """EXPR as a range of memory: address, size, type; read at the current position."""

    def __init__(self, expr):
        expr = expr.strip()
        if not expr:
            _fail("an expression is needed, e.g. a variable name")
        try:
            v = gdb.parse_and_eval(expr)
        except gdb.error as e:
            _fail("%s: %s", expr, e)
        if v.address is None or v.type.code == gdb.TYPE_CODE_FUNC:
            _fail("%s is not an object in memory (a variable, a field, *pointer, ...)", expr)
        self.expr = expr
        self.type = v.type
        self.size = v.type.sizeof
        if self.size == 0:
            _fail("%s has size 0", expr)
        self.addr = int(v.address) & 0xFFFFFFFF
        if self.size in _WATCH_TYPES:
            self.watch_expr = "*(%s *) 0x%x" % (_WATCH_TYPES[self.size], self.addr)
        else:
            self.watch_expr = "*(unsigned char (*)[%d]) 0x%x" % (self.size, self.addr)

    def read(self):
        """The bytes at the current position, or None where the recording cannot tell."""
        try:
            return bytes(gdb.selected_inferior().read_memory(self.addr, self.size))
        except (gdb.MemoryError, gdb.error):
            return None

    def show(self, data):
        if data is None:
            return "<unknown>"
        try:
            return str(gdb.Value(data, self.type))
        except (gdb.error, TypeError, ValueError):
            return "0x" + data[::-1].hex()

    def __str__(self):
        return "%s (%d byte%s at 0x%08x)" % (self.expr, self.size, "" if self.size == 1 else "s",
                                            self.addr)


# ------------------------------------------------------------------ accesses


def _kind(pc):
    """load, store or access (unknown) for the instruction at pc, and its text."""
    try:
        asm = gdb.newest_frame().architecture().disassemble(pc)[0]["asm"]
    except (gdb.error, gdb.MemoryError, IndexError):
        return "access", "?"
    insn = " ".join(asm.split())
    op = insn.split(" ")[0].lower()
    if op.startswith(("str", "stm", "push")):
        return "store", insn
    if op.startswith(("ldr", "ldm", "pop")):
        return "load", insn
    return "access", insn


class Access:
    """One instruction's access to a Location, as seen from GDB.

    position: the instruction's position (its state-before is position - 1)
    core, pc, kind (load / store / access), insn (its disassembly),
    before / after: the Location's bytes before and after it (None: unknown),
    place: its source Place; caller: the calling frame's Place, or None."""

    def __init__(self, loc, pos, core, pc, kind, insn, before, caller):
        self.loc = loc
        self.position = pos
        self.core = core
        self.pc = pc
        self.kind = kind
        self.insn = insn
        self.before = before
        self.after = None
        self.place = Place(pc)
        self.caller = caller

    def value(self):
        """What a load read, what a store wrote (as text)."""
        return self.loc.show(self.after if self.kind == "store" else self.before)

    def value_text(self):
        """A load's value; "old -> new" for a store (or an access of unknown kind)."""
        if self.kind == "load":
            return self.loc.show(self.before)
        return "%s -> %s" % (self.loc.show(self.before), self.loc.show(self.after))

    def line(self):
        """One line of a table: position, core, what happened, where."""
        return "%10d  core%d  %-5s %-22s %s" % (self.position, self.core, self.kind,
                                                self.value_text(), self.place)

    def describe(self):
        """Several lines: the access, its instruction, its source, its caller."""
        lines = ["core%d (thread %d) at position %d, pc 0x%08x: %s" %
                 (self.core, self.core + 1, self.position, self.pc, self.insn),
                 "    %s" % self.place]
        if self.caller is not None:
            lines.append("    called from %s" % self.caller)
        return lines

    def culprit(self, role):
        """A machine-readable line: ROLE core C pc 0x... position P."""
        return "culprit %s core %d pc 0x%08x position %d" % (role, self.core, self.pc,
                                                             self.position)


def _caller_place(frame):
    try:
        older = frame.older()
        if older is None or older.pc() == 0:
            return None
        return Place(older.pc() & 0xFFFFFFFF, older.find_sal(), older.name())
    except (gdb.error, RuntimeError):
        return None


def _access_here(loc):
    """The access the current reverse stop is about to undo: the stopped
    thread's next instruction, at position now + 1."""
    pos = position() + 1
    core = _core_of(gdb.selected_thread())
    frame = gdb.newest_frame()
    pc = frame.pc() & 0xFFFFFFFF
    kind, insn = _kind(pc)
    caller = _caller_place(frame)
    return Access(loc, pos, core, pc, kind, insn, loc.read(), caller)


class _Watch:
    """A temporary, internal hardware watchpoint over a Location."""

    def __init__(self, loc, wp_class):
        try:
            self.bp = gdb.Breakpoint(loc.watch_expr, gdb.BP_WATCHPOINT, wp_class, internal=True)
            self.bp.silent = True
        except (gdb.error, RuntimeError) as e:
            _fail("cannot watch %s: %s", loc, e)
        if wp_class == gdb.WP_WRITE and self.bp.type != gdb.BP_HARDWARE_WATCHPOINT:
            self.delete()
            _fail("GDB would watch %s in software (one step at a time): `set "
                  "can-use-hw-watchpoints 1` and check the target's watchpoint limit", loc)

    def hit(self, ev):
        if not isinstance(ev, gdb.BreakpointEvent):
            return False
        return any(b.is_valid() and b.number == self.bp.number for b in ev.breakpoints)

    def delete(self):
        if self.bp is not None and self.bp.is_valid():
            self.bp.delete()
        self.bp = None


def _resume(cmd, watch):
    """continue or reverse-continue. True at a stop of our watchpoint, False at
    the end or the beginning of the recording; anything else is an error."""
    gdb._raptor_stops[0] = None
    try:
        _run(cmd)
    except gdb.error as e:
        _fail("%s: %s", cmd, e)
    ev = gdb._raptor_stops[0]
    if watch.hit(ev):
        return True
    if ev is not None and type(ev) is gdb.StopEvent:
        return False  # no reason: GDB's "No more reverse-execution history"
    if isinstance(ev, gdb.SignalEvent):
        _fail("%s stopped by %s (interrupted?)", cmd, ev.stop_signal)
    if isinstance(ev, gdb.BreakpointEvent):
        _fail("%s stopped at breakpoint %s, not at the watchpoint", cmd,
              ", ".join(str(b.number) for b in ev.breakpoints))
    _fail("%s: the target reported no stop", cmd)


class _Session:
    """Holds the user's place and breakpoints while a command moves around.
    The user's enabled breakpoints are disabled so only our watchpoint stops;
    close() re-enables them and, if `back`, returns to the saved place."""

    def __init__(self, back):
        self.back = back
        self.thread = _need_target()
        self.position = position()
        self.level = 0
        try:
            f = gdb.selected_frame()
            while f is not None and f.newer() is not None:
                f = f.newer()
                self.level += 1
        except gdb.error:
            self.level = 0
        self.disabled = [b for b in gdb.breakpoints() if b.is_valid() and b.enabled]
        for b in self.disabled:
            b.enabled = False
        self.watches = []
        # Our stops are not the user's: no frame printed at each, no
        # "[Switching to Thread N]" (GDB 12 and later).
        try:
            self.quiet = gdb.parameter("suppress-cli-notifications")
            _run("set suppress-cli-notifications on")
        except (RuntimeError, gdb.error):
            self.quiet = None
        # Every core must run on our continues, whatever the user locked.
        try:
            self.locking = gdb.parameter("scheduler-locking")
            if self.locking in ("on", "step"):
                _run("set scheduler-locking off")
        except (RuntimeError, gdb.error):
            self.locking = None

    def watch(self, loc, wp_class):
        w = _Watch(loc, wp_class)
        self.watches.append(w)
        return w

    def return_to_start(self):
        goto(self.position)
        restore_selection(self.thread, self.level)

    def close(self):
        errors = []
        for w in self.watches:
            try:
                w.delete()
            except (gdb.error, RuntimeError) as e:
                errors.append(str(e))
        for b in self.disabled:
            if b.is_valid():
                b.enabled = True
        if self.quiet is not None:
            _run("set suppress-cli-notifications %s" % ("on" if self.quiet else "off"))
        if self.locking in ("on", "step"):
            _run("set scheduler-locking %s" % self.locking)
        if self.back:
            try:
                self.return_to_start()
            except gdb.GdbError as e:
                errors.append(str(e))
        if errors:
            _fail("could not put everything back: %s", "; ".join(errors))


def restore_selection(thread, level=0):
    if thread is not None and thread.is_valid():
        thread.switch()
    if level:
        try:
            f = gdb.newest_frame()
            for _ in range(level):
                f = f.older() if f is not None else None
            if f is not None:
                f.select()
        except gdb.error:
            pass


def _walk_back(loc, watch, start_value):
    """Reverse-continue on the access watchpoint: every access to loc, the
    latest first, each with the value after it filled in. Ends at the
    beginning of the recording."""
    after = start_value
    while _resume("reverse-continue", watch):
        a = _access_here(loc)
        a.after = after
        after = a.before
        yield a


# ------------------------------------------------------------------ where / goto


class CoreState:
    def __init__(self, core, thread, insns, cycle, pc):
        self.core, self.thread, self.insns, self.cycle, self.pc = core, thread, insns, cycle, pc
        self.place = Place(pc) if pc is not None else None


def where_():
    """(position, [CoreState]) from `monitor time`."""
    out = monitor("time")
    m = re.search(r"^position (\d+)", out, re.M)
    if not m:
        _fail("`monitor time` names no position (is the target raptor serve?): %r", out.strip())
    cores = []
    for c in re.finditer(r"^\s*core(\d+) \(thread (\d+)\): (\d+) instructions, cycle (\d+), "
                         r"pc (0x[0-9a-fA-F]+)", out, re.M):
        cores.append(CoreState(int(c.group(1)), int(c.group(2)), int(c.group(3)),
                               int(c.group(4)), int(c.group(5), 16)))
    return int(m.group(1)), out.splitlines()[0], cores


def print_where():
    pos, head, cores = where_()
    gdb.write(head + "\n")
    sel = gdb.selected_thread()
    sel_core = _core_of(sel) if sel is not None else -1
    for c in cores:
        gdb.write("%s core%d (thread %d): %d instructions, cycle %d, pc 0x%08x  %s\n" %
                  ("*" if c.core == sel_core else " ", c.core, c.thread, c.insns, c.cycle, c.pc,
                   c.place))
    if not cores:
        gdb.write("  (monitor time listed no cores)\n")


# ------------------------------------------------------------------ last-writer


def _who_wrote(loc):
    """raptor serve's own answer: (position, core, pc) of the last store into
    loc at or before now, None if nothing stored there, or False if the
    server cannot say."""
    try:
        out = _run("monitor who-wrote 0x%x %d" % (loc.addr, loc.size))
    except gdb.error:
        return False
    best = None
    for line in out.splitlines():
        p = re.search(r"position (\d+)", line)
        c = re.search(r"core ?(\d+)", line)
        pc = re.search(r"pc (0x[0-9a-fA-F]+)", line)
        if p and c and pc:
            cand = (int(p.group(1)), int(c.group(1)), int(pc.group(1), 16))
            if best is None or cand[0] > best[0]:
                best = cand
    if best is None and re.search(r"unknown|not (a )?(recognized|supported)", out, re.I):
        return False
    return best


def last_writer(expr):
    """Reverse to the last store into expr before now, across all cores: a
    temporary hardware write watchpoint, checked against `monitor
    who-wrote` (GDB skips stores that leave the value unchanged; the server
    does not). Leaves GDB just before the store, in the storing thread.
    Returns the store's Access (before/after: the values around it)."""
    loc = Location(expr)
    s = _Session(back=False)
    found = None
    try:
        now = loc.read()
        told = _who_wrote(loc)
        w = s.watch(loc, gdb.WP_WRITE)
        if _resume("reverse-continue", w):
            found = _access_here(loc)
        if told and (found is None or told[0] > found.position):
            # a store of the value that was already there: invisible to GDB
            goto(told[0] - 1)
            restore_selection(_thread_of(told[1]))
            found = _access_here(loc)
        if found is None:
            s.back = True
            _fail("nothing stored into %s before position %d", loc, s.position)
        if told is not None and told is not False and told[0] != found.position:
            gdb.write("raptor: warning: monitor who-wrote says position %d, the watchpoint "
                      "stopped at %d\n" % (told[0], found.position))
        found.after = now
    except BaseException:
        s.back = True
        s.close()
        raise
    s.close()
    gdb.set_convenience_variable("raptor_position", found.position)
    gdb.set_convenience_variable("raptor_core", found.core)
    _last["last-writer"] = found
    return found


# ------------------------------------------------------------------ accesses


def history(expr, since, until=None, stop=None):
    """Every access to expr at positions since < P <= until (default: now),
    in global order; with stop (a function of an Access), only back to the
    latest access it accepts, which is the first of the list. Returns to
    where it started."""
    loc = expr if isinstance(expr, Location) else Location(expr)
    s = _Session(back=True)
    res = []
    try:
        if until is not None and until != s.position:
            goto(until)
        w = s.watch(loc, gdb.WP_ACCESS)
        for a in _walk_back(loc, w, loc.read()):
            if a.position <= since:
                break
            res.append(a)
            if stop is not None and stop(a):
                break
    finally:
        s.close()
    res.reverse()
    return res


def accesses(expr, before=ACCESS_WINDOW, after=ACCESS_WINDOW):
    """Up to `before` accesses to expr at or before now and `after` ones
    after now, every core's, in global order: (list of Access, now).
    Forward on an access watchpoint to find the last one, then back over
    all of them; returns to where it started."""
    loc = Location(expr)
    s = _Session(back=True)
    res = []
    try:
        now = s.position
        w = s.watch(loc, gdb.WP_ACCESS)
        for _ in range(after):
            if not _resume("continue", w):
                break
        older = 0
        for a in _walk_back(loc, w, loc.read()):
            res.append(a)
            if a.position <= now:
                older += 1
                if older >= before:
                    break
    finally:
        s.close()
    res.reverse()
    _last["accesses"] = (res, now)
    return res, now


def print_accesses(loc_text, res, now):
    gdb.write("accesses to %s around position %d, in global order:\n" % (loc_text, now))
    gdb.write("  position  core   kind  value                  source\n")
    marked = False
    for a in res:
        if not marked and a.position > now:
            gdb.write("  ---------- now: position %d ----------\n" % now)
            marked = True
        gdb.write(a.line() + "\n")
    if not marked:
        gdb.write("  ---------- now: position %d ----------\n" % now)
    if not res:
        gdb.write("  (none)\n")


# ------------------------------------------------------------------ race


class Race:
    """The conflicting accesses that explain a value.

    kind "lost update": `load` (core A) read a value; `lost` (core B) stored
      a new one; `store` (core A again) wrote a value computed from the stale
      load over it. `also_lost`: every other core's store between load and
      store (all their updates vanished), `lost` being the last of them.
    kind "stale read": `load` (core A) read the value that `store` (core B)
      then replaced, and core A never read it again: A acted on an old value.
      `lost` is None."""

    def __init__(self, kind, loc, load, lost, store, also_lost=(), now=None, looked=0):
        self.kind = kind
        self.loc = loc
        self.load = load
        self.lost = lost
        self.store = store
        self.also_lost = list(also_lost)
        self.now = now
        self.looked = looked

    def accesses(self):
        return [a for a in (self.load, self.lost, self.store) if a is not None]

    def report(self):
        L, S, X = self.load, self.store, self.lost
        lines = ["%s on %s, found among the last %d accesses before position %d:" %
                 (self.kind, self.loc, self.looked, self.now)]
        if self.kind == "lost update":
            lines.append("  1. core%d read  %s = %s at position %d" %
                         (L.core, self.loc.expr, L.value(), L.position))
            lines += ["     " + t for t in L.describe()[1:]]
            lines.append("  2. core%d wrote %s = %s at position %d   <- lost" %
                         (X.core, self.loc.expr, X.value(), X.position))
            lines += ["     " + t for t in X.describe()[1:]]
            lines.append("  3. core%d wrote %s = %s at position %d, computed from its read in 1" %
                         (S.core, self.loc.expr, S.value(), S.position))
            lines += ["     " + t for t in S.describe()[1:]]
            n = len(self.also_lost)
            lines.append("  core%d's store in 2 was overwritten by core%d, which had read %s "
                         "before it: %s" % (X.core, S.core, self.loc.expr,
                                            "that update is lost" if n == 1
                                            else "%d updates are lost" % n))
        else:
            lines.append("  1. core%d read  %s = %s at position %d" %
                         (L.core, self.loc.expr, L.value(), L.position))
            lines += ["     " + t for t in L.describe()[1:]]
            lines.append("  2. core%d wrote %s = %s at position %d, after core%d's read" %
                         (S.core, self.loc.expr, S.value(), S.position, L.core))
            lines += ["     " + t for t in S.describe()[1:]]
            lines.append("  core%d read %s before core%d wrote it, and never read it again: "
                         "it went on with the old value" % (L.core, self.loc.expr, S.core))
        return lines


def race(expr, window=RACE_WINDOW):
    """Walk back from now over every access to expr (an access watchpoint)
    until the most recent conflicting pair shows, looking at `window`
    accesses at most:

      lost update: a core's store whose previous access to expr was a load,
        with another core's store in between: that store was overwritten by
        a value computed from a stale read;
      stale read: a core's last access to expr is a load, and another core
        stored a different value after it.

    The first one completed going back (the most recent one) is returned,
    as a Race; a gdb.GdbError if there is none. Returns to where it started."""
    loc = Location(expr)
    s = _Session(back=True)
    try:
        now_value = loc.read()
        w = s.watch(loc, gdb.WP_ACCESS)
        seen = []      # latest first
        pending = {}   # core -> its store whose previous access is not seen yet
        later = set()  # cores that access expr after the walk's point
        found = None
        for a in _walk_back(loc, w, now_value):
            seen.append(a)
            if a.kind == "store":
                pending[a.core] = a
            elif a.kind == "load":
                st = pending.pop(a.core, None)
                if st is not None:
                    between = [x for x in seen if x.kind == "store" and x.core != a.core and
                               a.position < x.position < st.position]
                    if between:
                        found = Race("lost update", loc, a, between[0], st, between)
                if found is None and a.core not in later and a.before != now_value:
                    after = [x for x in seen if x.kind == "store" and x.core != a.core and
                             x.position > a.position]
                    if after:
                        found = Race("stale read", loc, a, None, after[-1])
            else:
                pending.pop(a.core, None)
            later.add(a.core)
            if found is not None or len(seen) >= window:
                break
    finally:
        s.close()
    if found is None:
        _fail("no conflicting accesses to %s in the %d access%s before position %d%s", loc,
              len(seen), "" if len(seen) == 1 else "es", s.position,
              " (the whole recording)" if len(seen) < window else "; try --window N")
    found.now = s.position
    found.looked = len(seen)
    gdb.set_convenience_variable("race_kind", found.kind)
    gdb.set_convenience_variable("race_load", found.load.position)
    gdb.set_convenience_variable("race_store", found.store.position)
    gdb.set_convenience_variable("race_lost", found.lost.position if found.lost else 0)
    gdb.set_convenience_variable("race_load_core", found.load.core)
    gdb.set_convenience_variable("race_store_core", found.store.core)
    gdb.set_convenience_variable("race_lost_core", found.lost.core if found.lost else -1)
    _last["race"] = found
    return found


# ------------------------------------------------------------------ commands


def _split_window(arg, default):
    """EXPR [--window N] (or --window N EXPR): (expr, n)."""
    n = default
    m = re.search(r"(?:^|\s)--window(?:=|\s+)(\S+)\s*$", arg) or \
        re.match(r"^\s*--window(?:=|\s+)(\S+)(\s|$)", arg)
    if m:
        try:
            n = int(m.group(1), 0)
        except ValueError:
            _fail("--window wants a number, not %r", m.group(1))
        if n < 1:
            _fail("--window wants a number >= 1")
        arg = arg[:m.start()] + arg[m.end():]
    elif "--window" in arg:
        _fail("--window wants a number")
    return arg.strip(), n


class RaptorCommand(gdb.Command):
    """Commands for debugging races in a raptor recording.

raptor where                        the position; every core's pc and source line
raptor goto POSITION|begin|end      move the whole board to another position
raptor last-writer EXPR             reverse to the last store into EXPR (any core)
raptor accesses EXPR [--window N]   every core's loads and stores of EXPR around now
raptor race EXPR [--window N]       the conflicting accesses behind EXPR's value

A position counts the instructions retired by all cores; `monitor time`
shows it. `help raptor COMMAND` says more."""

    def __init__(self):
        super().__init__("raptor", gdb.COMMAND_USER, gdb.COMPLETE_COMMAND, True)


class RaptorWhere(gdb.Command):
    """raptor where: the position, and every core's instruction count, cycle,
pc and source line (from `monitor time`); * marks the selected thread."""

    def __init__(self):
        super().__init__("raptor where", gdb.COMMAND_USER, gdb.COMPLETE_NONE)

    def invoke(self, arg, from_tty):
        if arg.strip():
            _fail("raptor where takes no argument")
        print_where()


class RaptorGoto(gdb.Command):
    """raptor goto POSITION|begin|end: move every core to that position
(monitor goto), flush GDB's register cache, and show the selected thread's frame.
POSITION counts instructions retired by all cores; the state at P is the one
right after the P-th instruction."""

    def __init__(self):
        super().__init__("raptor goto", gdb.COMMAND_USER, gdb.COMPLETE_NONE)

    def invoke(self, arg, from_tty):
        where = arg.strip()
        if where in ("begin", "end", "start"):
            where = "begin" if where == "start" else where
        else:
            try:
                p = int(gdb.parse_and_eval(where)) if where else None
            except gdb.error as e:
                _fail("goto: %s", e)
            if p is None or p < 0:
                _fail("usage: raptor goto POSITION|begin|end")
            where = str(p)
        goto(where)
        now = position()
        if where.isdigit() and int(where) != now:
            gdb.write("position %d (the recording has no position %s)\n" % (now, where))
        else:
            gdb.write("position %d\n" % now)
        try:
            gdb.write(_run("frame"))
        except gdb.error as e:
            gdb.write("(no frame: %s)\n" % e)


class RaptorLastWriter(gdb.Command):
    """raptor last-writer EXPR: reverse-continue, across every core, to the
last store into EXPR before now, and stay there: GDB is left just before
the store (pc at the storing instruction, its thread selected; stepi
executes it). Shows the core, position, source line and the old and new
values. $raptor_position and $raptor_core are set. Run it again to get to
the store before that one. Your breakpoints are off while it searches."""

    def __init__(self):
        super().__init__("raptor last-writer", gdb.COMMAND_USER, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        a = last_writer(arg)
        gdb.write("last store into %s:\n" % a.loc)
        for line in a.describe():
            gdb.write("  %s\n" % line)
        gdb.write("  %s: %s -> %s\n" % (a.loc.expr, a.loc.show(a.before), a.loc.show(a.after)))
        gdb.write("now at position %d, just before that store (stepi executes it)\n" %
                  (a.position - 1))


class RaptorAccesses(gdb.Command):
    """raptor accesses EXPR [--window N]: every core's loads and stores of EXPR
around now, in global order: up to N before now and N after (default 8),
each with its position, core, value and source line. Found with an access
watchpoint, forward and then in reverse; you are put back where you were."""

    def __init__(self):
        super().__init__("raptor accesses", gdb.COMMAND_USER, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        expr, n = _split_window(arg, ACCESS_WINDOW)
        res, now = accesses(expr, n, n)
        print_accesses(str(Location(expr)), res, now)


class RaptorRace(gdb.Command):
    """raptor race EXPR [--window N]: the conflicting accesses from different
cores that explain EXPR's value now. Walks back over every access to EXPR
(at most N, default 400) to the most recent
  lost update: core A read EXPR, core B stored into it, then core A stored
    a value computed from its stale read over B's (B's update is lost); or
  stale read: core A's last read of EXPR came just before core B stored a
    new value, and A never read it again (A went on with the old one).
Shows each access's position, core, value and source line and sets
$race_kind, $race_load, $race_lost (0 for a stale read) and $race_store to
their positions (`raptor goto $race_load - 1` goes to just before the read)
and $race_load_core, $race_lost_core, $race_store_core to their cores.
You are put back where you were."""

    def __init__(self):
        super().__init__("raptor race", gdb.COMMAND_USER, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        expr, n = _split_window(arg, RACE_WINDOW)
        r = race(expr, n)
        for line in r.report():
            gdb.write(line + "\n")


class RaptorStepi(gdb.Command):
    """raptor stepi [N]: step the selected thread's core N instructions (1 by
default), as GDB's stepi would, through `monitor stepi CORE N`: in a
control-flow-only recording (--lv-enc none, a trace port, an imported ETM
capture) GDB cannot stepi itself (its frame ids need the stack pointer, which
the trace does not carry). Other cores run as the recorded order has them.
Shows the new pc."""

    reverse = False

    def __init__(self, name="raptor stepi"):
        super().__init__(name, gdb.COMMAND_USER, gdb.COMPLETE_NONE)

    def invoke(self, arg, from_tty):
        n = arg.strip() or "1"
        if not n.isdigit() or int(n) < 1:
            _fail("usage: raptor %sstepi [N]", "reverse-" if self.reverse else "")
        t = gdb.selected_thread()
        if t is None:
            _fail("no thread selected")
        out = monitor("%sstepi %d %s" % ("reverse-" if self.reverse else "", t.num - 1, n))
        _run("maintenance flush register-cache")
        gdb.write(out.split(";")[0] + "\n")


class RaptorReverseStepi(RaptorStepi):
    """raptor reverse-stepi [N]: step the selected thread's core back N
instructions (`monitor reverse-stepi CORE N`), for control-flow-only
recordings as `raptor stepi`."""

    reverse = True

    def __init__(self):
        super().__init__("raptor reverse-stepi")


RaptorCommand()
RaptorWhere()
RaptorStepi()
RaptorReverseStepi()
RaptorGoto()
RaptorLastWriter()
RaptorAccesses()
RaptorRace()
