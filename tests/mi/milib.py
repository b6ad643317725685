# milib.py: drive the real gdb-multiarch over GDB/MI, as IDEs do (VS Code's
# cortex-debug, Eclipse CDT), for tests/t0430-serve-mi.sh.
#
# GDB runs as `gdb-multiarch --interpreter=mi3` on pipes; MI class sends
# one command at a time with a numeric token and reads GDB's output records
# until that command's result record (and, for a resuming command, until
# the *stopped record that ends it). Every line both ways goes to a
# transcript, which the test shows when it fails. The oracle is the
# recording's ground truth read by build/truthq, never the replay.
import os
import re
import select
import subprocess
import time


class Fail(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Fail(what)


# ---- MI output syntax (GDB manual, "GDB/MI Output Syntax") -----------------

_ESC = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "a": "\a", "b": "\b",
        "f": "\f", "v": "\v", "e": "\x1b"}


def _cstring(s, i):
    """The C string starting at s[i] (a quote): (text, index past it)."""
    out = []
    i += 1
    while i < len(s):
        c = s[i]
        if c == '"':
            return "".join(out), i + 1
        if c == "\\":
            i += 1
            e = s[i]
            if e in "01234567":
                j = i
                while j < i + 3 and j < len(s) and s[j] in "01234567":
                    j += 1
                out.append(chr(int(s[i:j], 8)))
                i = j
                continue
            out.append(_ESC.get(e, e))
        else:
            out.append(c)
        i += 1
    raise Fail("MI: unterminated string: %s" % s)


def _value(s, i):
    """The value at s[i]: a string, a dict (tuple) or a list."""
    if s[i] == '"':
        return _cstring(s, i)
    if s[i] == "{":
        res, i = _results(s, i + 1, "}")
        return res, i
    if s[i] == "[":
        items = []
        i += 1
        while s[i] != "]":
            if s[i] in '"{[':
                v, i = _value(s, i)
            else:  # a result: the list of frame={...},frame={...}
                k = s.index("=", i)
                v, i = _value(s, k + 1)
            items.append(v)
            if s[i] == ",":
                i += 1
        return items, i + 1
    raise Fail("MI: no value at %d: %s" % (i, s))


def _results(s, i, close):
    """name=value,... up to close (or the end): (dict, index past close)."""
    res = {}
    while i < len(s) and s[i] != close:
        k = s.index("=", i)
        name = s[i:k]
        v, i = _value(s, k + 1)
        res[name] = v
        if i < len(s) and s[i] == ",":
            i += 1
    return res, i + 1


class Record:
    """One output record: kind is one of ^ * + = (class and results) or
    ~ @ & (text); token the command's token for a result record."""

    def __init__(self, line):
        m = re.match(r"(\d*)([\^*+=~@&])(.*)$", line)
        check(m is not None, "MI: not an output record: %r" % line)
        self.line = line
        self.token = m.group(1)
        self.kind = m.group(2)
        rest = m.group(3)
        self.cls, self.results, self.text = "", {}, ""
        if self.kind in "~@&":
            self.text = _cstring(rest, 0)[0]
        else:
            cls, _, tail = rest.partition(",")
            self.cls = cls
            if tail:
                self.results = _results(tail, 0, None)[0]

    def get(self, key, default=None):
        return self.results.get(key, default)

    def __getitem__(self, key):
        check(key in self.results, "MI: no %s in %s" % (key, self.line))
        return self.results[key]


class Stop:
    """How a resuming command ended: the *stopped record and the console
    text GDB printed since the command (CLI messages such as `No more
    reverse-execution history.`)."""

    def __init__(self, record, console):
        self.record = record
        self.console = console
        self.reason = record.get("reason")
        self.thread = int(record["thread-id"])
        self.frame = record.get("frame", {})

    def pc(self):
        return int(self.frame["addr"], 16)


# ---- the GDB process ----------------------------------------------------------


class MI:
    def __init__(self, elf, transcript, gdb="gdb-multiarch"):
        self.log = open(transcript, "w")
        self.proc = subprocess.Popen([gdb, "-nx", "-q", "--interpreter=mi3", elf],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self.buf = b""
        self.token = 0
        self.console = []   # stream text since the last command
        self.events = []    # async records (= and *) since the last command
        self.version = None
        # GDB prints its banner records and a prompt before the first command
        self.cmd("-gdb-version")
        m = re.search(r"GNU gdb .*?(\d+)\.(\d+)", "".join(self.console))
        check(m is not None, "-gdb-version: no version in %r" % "".join(self.console))
        self.version = (int(m.group(1)), int(m.group(2)))

    def close(self):
        if self.proc.poll() is None:
            try:
                self._send("-gdb-exit")
                self.proc.wait(timeout=20)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def _send(self, text):
        self.log.write("-> %s\n" % text)
        self.log.flush()
        self.proc.stdin.write((text + "\n").encode())
        self.proc.stdin.flush()

    def _line(self, deadline):
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            check(left > 0, "MI: GDB said nothing for too long")
            r, _, _ = select.select([fd], [], [], left)
            if r:
                chunk = os.read(fd, 65536)
                check(chunk, "MI: GDB exited (status %s)" % self.proc.poll())
                self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        line = line.decode(errors="replace").rstrip("\r")
        self.log.write("<- %s\n" % line)
        return line

    def _record(self, deadline):
        """The next output record (prompts skipped)."""
        while True:
            line = self._line(deadline)
            if line.strip() in ("(gdb)", "") or not re.match(r"\d*[\^*+=~@&]", line):
                continue  # the prompt, or GDB's stderr (in the transcript)
            rec = Record(line)
            if rec.kind in "~@&":
                if rec.kind != "&":
                    self.console.append(rec.text)
            elif rec.kind in "=*+":
                self.events.append(rec)
            return rec

    def send(self, text, timeout=120):
        """Send an MI command; its result record (^done, ^running, ^error,
        ^connected, ...). Stream and async records before it are kept in
        self.console and self.events."""
        self.token += 1
        tok = str(self.token)
        self.console, self.events = [], []
        self._send(tok + text)
        deadline = time.monotonic() + timeout
        while True:
            rec = self._record(deadline)
            if rec.kind == "^" and rec.token == tok:
                return rec

    def cmd(self, text, timeout=120):
        """A command that must succeed: its result record."""
        rec = self.send(text, timeout)
        check(rec.cls in ("done", "connected", "running"),
              "%s: %s" % (text, rec.get("msg", rec.line)))
        return rec

    def error(self, text):
        """A command that must fail: GDB's message."""
        rec = self.send(text)
        check(rec.cls == "error", "%s: %s, want an error" % (text, rec.line))
        return rec["msg"]

    def resume(self, text, timeout=300):
        """A resuming command (-exec-*): ^running, then the *stopped record."""
        rec = self.cmd(text)
        check(rec.cls == "running", "%s: %s, not ^running" % (text, rec.line))
        deadline = time.monotonic() + timeout
        stopped = [e for e in self.events if e.kind == "*" and e.cls == "stopped"]
        while not stopped:
            rec = self._record(deadline)
            if rec.kind == "*" and rec.cls == "stopped":
                stopped.append(rec)
        return Stop(stopped[0], "".join(self.console))

    def console_cmd(self, text):
        """A CLI command through -interpreter-exec: what it printed."""
        self.cmd("-interpreter-exec console %s" % quote(text))
        return "".join(self.console)


def quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---- the oracle -----------------------------------------------------------------


class Truth:
    """Questions to REC's ground truth through truthq."""

    def __init__(self, truthq, rec):
        self.truthq, self.rec = truthq, rec
        self.order = []   # order[P - 1]: (core, pc) of the instruction at position P
        for line in self.lines("trace"):
            c, pc = line.split()
            self.order.append((int(c), int(pc, 16)))
        self.end = int(self.lines("end")[0])

    def lines(self, *args):
        out = subprocess.run([self.truthq, self.rec] + [str(a) for a in args],
                             capture_output=True, text=True)
        check(out.returncode == 0, "truthq %s: %s" % (" ".join(map(str, args)), out.stderr))
        return out.stdout.splitlines()

    def regs(self, position):
        """Every core's 23 registers at position: {core: [values]}."""
        res = {}
        for line in self.lines("at", position):
            f = line.split()
            res[int(f[1])] = [int(v, 16) for v in f[2:]]
        return res

    def stores(self, addr, length=4):
        """[(position, core, pc, value)] of every store into [addr, addr+length)."""
        res = []
        for line in self.lines("stores", addr, length):
            f = line.split()
            res.append((int(f[0]), int(f[2]), int(f[4], 16), int(f[10], 16)))
        return res

    def execs(self, pc):
        """[(position, core)] of every retirement of the instruction at pc."""
        return [(int(f.split()[0]), int(f.split()[2])) for f in self.lines("execs", "0x%x" % pc)]

    def owner(self, p):
        """The core of the instruction at position p (1-based)."""
        return self.order[p - 1][0]

    def next_of(self, core, p):
        """The position right after core's next instruction after p."""
        p += 1
        while self.owner(p) != core:
            p += 1
        return p

    def prev_of(self, core, p):
        """The position just before core's latest instruction at or before p."""
        while self.owner(p) != core:
            p -= 1
        return p - 1
