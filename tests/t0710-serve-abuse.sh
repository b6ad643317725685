#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor serve under abuse: hostile clients, hang-ups, Ctrl-C storms, crowds; it keeps serving'

# One `raptor serve` on 127.0.0.1 (a 4-core soak recording of 3M
# instructions) takes everything abuse.py (below) throws at it, phase by
# phase; after each, a fresh well-behaved session must work. Then its memory
# must not have grown more than 16 MiB past the warm-up (which indexes the
# whole recording), the real gdb-multiarch must still debug through it, and
# it must still exit 0 on SIGTERM. The numbers go out as TAP comments.

test_require "$RAPTOR" python3 gdb-multiarch timeout "$GUEST/soak-m3-O2.elf"

exec 3>&1 # the numbers: TAP comments on the script's output

cat >abuse.py <<'EOF'
#!/usr/bin/env python3
# abuse.py PORT PID [PHASE...]: hostile GDB remote-protocol clients against
# `raptor serve` on 127.0.0.1:PORT (process PID). Every phase checks that
# the server keeps answering; the counts go to stdout as '# ' lines. Exit
# status 0, or 1 with the reason on stderr.
import os
import random
import socket
import sys
import time

PORT, PID = int(sys.argv[1]), int(sys.argv[2])
PHASES = sys.argv[3:]
rng = random.Random(710)
T0 = time.time()


def fail(msg):
    sys.stderr.write("abuse.py: %s\n" % msg)
    sys.exit(1)


def say(msg):
    print("# %s" % msg, flush=True)


def alive():
    try:
        os.kill(PID, 0)
    except OSError:
        fail("the server (pid %d) is gone" % PID)


def rss_kb():
    with open("/proc/%d/status" % PID) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    fail("no VmRSS for pid %d" % PID)


def frame(payload):
    if isinstance(payload, str):
        payload = payload.encode("latin1")
    return b"$" + payload + b"#" + b"%02x" % (sum(payload) & 255)


def connect(timeout=10.0):
    for _ in range(100):
        try:
            s = socket.create_connection(("127.0.0.1", PORT), timeout=timeout)
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return s
        except (ConnectionRefusedError, ConnectionResetError):
            time.sleep(0.05)
    fail("cannot connect to port %d" % PORT)


class Client:
    """A small, strict RSP client: ack mode until noack() is called."""

    def __init__(self, timeout=30.0):
        self.s = connect(timeout)
        self.buf = b""
        self.ack = True

    def close(self):
        self.s.close()

    def send_raw(self, data):
        self.s.sendall(data)

    def read_more(self):
        data = self.s.recv(65536)
        if not data:
            raise EOFError("the server closed the connection")
        self.buf += data

    def packet(self):
        """The next packet's payload (console 'O' packets included), acking it."""
        while True:
            i = self.buf.find(b"$")
            if i >= 0:
                j = self.buf.find(b"#", i)
                if j >= 0 and len(self.buf) >= j + 3:
                    payload = self.buf[i + 1:j]
                    want = int(self.buf[j + 1:j + 3], 16)
                    if sum(payload) & 255 != want:
                        fail("bad checksum from the server: %r" % self.buf[i:j + 3])
                    junk = self.buf[:i].replace(b"+", b"").replace(b"-", b"")
                    if junk:
                        fail("junk between the server's packets: %r" % junk)
                    self.buf = self.buf[j + 3:]
                    if self.ack:
                        self.send_raw(b"+")
                    return payload
            self.read_more()

    def reply(self, payload, console=None):
        """Send a packet, return the reply (the 'O' packets before it go to console)."""
        self.send_raw(frame(payload))
        while True:
            p = self.packet()
            if p.startswith(b"O") and p != b"OK" and console is not None:
                console.append(bytes.fromhex(p[1:].decode()))
                continue
            if p.startswith(b"O") and p != b"OK":
                continue
            return p

    def hello(self):
        r = self.reply("qSupported:multiprocess+;swbreak+;hwbreak+;vContSupported+")
        if b"PacketSize" not in r:
            fail("qSupported: %r" % r)
        if self.reply("QStartNoAckMode") != b"OK":
            fail("QStartNoAckMode refused")
        self.ack = False
        self.buf = self.buf.lstrip(b"+")

    def sane(self, what):
        """The session answers: qC, the thread list, a register."""
        r = self.reply("qfThreadInfo")
        if not r.startswith(b"m1,2"):
            fail("%s: qfThreadInfo: %r" % (what, r))
        r = self.reply("pf")
        if len(r) != 8:
            fail("%s: pf: %r" % (what, r))
        return r


def fresh_session(what):
    """A new well-behaved session must work (after whatever went before)."""
    alive()
    c = Client()
    try:
        c.hello()
        c.sane(what)
        c.send_raw(frame("D"))
        if c.packet() != b"OK":
            fail("%s: D not OK" % what)
    except (EOFError, OSError, socket.timeout) as e:
        fail("%s: a fresh session failed: %s" % (what, e))
    c.close()


def drain(s, secs):
    s.settimeout(secs)
    got = 0
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            got += len(d)
    except (socket.timeout, OSError):
        pass
    return got


def phase_warmup():
    # index the whole recording once: forward to the end, back to the start
    c = Client(timeout=120)
    c.hello()
    r = c.reply("vCont;c")
    if not r.startswith(b"T05") or b"replaylog:end" not in r:
        fail("warm-up continue: %r" % r)
    r = c.reply("bc")
    if not r.startswith(b"T05") or b"replaylog:begin" not in r:
        fail("warm-up reverse-continue: %r" % r)
    c.send_raw(frame("D"))
    c.packet()
    c.close()
    time.sleep(0.2)
    say("warm-up: continue to the end and back, RSS %d kB" % rss_kb())


def phase_random():
    sent = 0
    for i in range(200):
        s = connect()
        n = rng.choice([0, 1, 16, 256, 4096, 20000])
        data = bytes(rng.getrandbits(8) for _ in range(n))
        if i % 3 == 0:  # framed garbage, some of it with valid checksums
            data = b"".join(frame(bytes(rng.getrandbits(8) & 0x7f for _ in range(rng.randrange(40))))
                            for _ in range(rng.randrange(1, 20)))
        try:
            s.sendall(data)
            sent += len(data)
            drain(s, 0.02)
        except OSError:
            pass
        s.close()
    fresh_session("after random bytes")
    say("random bytes: 200 connections, %d bytes sent" % sent)


def phase_checksums():
    c = Client()
    naks = 0
    for i in range(100):
        p = frame("qC")
        bad = p[:-2] + b"%02x" % ((int(p[-2:], 16) + 1 + i) & 255)
        if bad == p:
            continue
        c.send_raw(bad)
        while b"-" not in c.buf:
            c.read_more()
        c.buf = c.buf.replace(b"-", b"", 1)
        naks += 1
    c.sane("after bad checksums (ack mode)")
    c.hello()
    errs = 0
    for i in range(100):
        c.send_raw(frame("qC")[:-2] + b"zz")
        r = c.packet()
        if r != b"E01":
            fail("bad checksum in no-ack mode: %r" % r)
        errs += 1
    c.sane("after bad checksums (no-ack mode)")
    c.close()
    say("bad checksums: %d naks in ack mode, %d E01 in no-ack mode" % (naks, errs))


def phase_sizes():
    c = Client()
    c.hello()
    over = 0
    for n in (16385, 20000, 100000, 1 << 20):
        r = c.reply("m" + "0" * n)
        if r != b"E03":
            fail("a %d-byte packet: %r" % (n, r[:40]))
        over += 1
    # run-length encoded past the packet size
    r = c.reply(b"m0" + b"0*~" * 200)
    if r != b"E03":
        fail("run-length oversize: %r" % r[:40])
    c.sane("after oversize packets")
    c.close()
    cuts = 0
    for cut in (b"$", b"$m0,4", b"$m0,4#", b"$m0,4#2", b"$qSupported:" + b"x" * 5000, b"}", b"$}"):
        s = connect()
        s.sendall(cut)
        s.close()
        cuts += 1
    fresh_session("after truncated packets")
    say("sizes: %d oversize packets answered E03, %d truncated packets then a hang-up" % (over + 1, cuts))


def phase_hangups():
    n = 0
    for pkt in ("vCont;c", "c", "bc", "vCont;s:1", "bs"):
        for delay in (0, 0.001, 0.01):
            c = Client()
            c.hello()
            c.send_raw(frame(pkt))
            if delay:
                time.sleep(delay)
            c.close()
            n += 1
    fresh_session("after hang-ups mid-continue")
    # a GDB that comes back at once must not be taken for a second client
    for i in range(100):
        c = Client()
        c.hello()
        if i % 2:
            c.send_raw(frame("vCont;c"))
        c.close()
    fresh_session("after 100 quick reconnections")
    say("hang-ups: %d clients gone during a continue or step; 100 reconnections at once"
        % n)


def phase_cycles():
    t = time.time()
    answered = 0
    for i in range(1000):
        s = connect()
        if i % 2:
            s.sendall(b"+")
        if i % 5 == 0:
            s.sendall(frame("qC"))
        # hang up, and wait for the server to close its end too
        s.shutdown(socket.SHUT_WR)
        got = b""
        while True:
            d = s.recv(4096)
            if not d:
                break
            got += d
        if i % 5 == 0 and b"QC" in got:
            answered += 1
        s.close()
    if answered != 200:
        fail("qC answered %d times in 200 connections" % answered)
    t1 = time.time()
    for i in range(20):  # a burst: the listen backlog overflows, SYNs are retried
        s = connect()
        s.close()
    fresh_session("after 1000 connections")
    say("connect/disconnect: 1000 cycles in %.1f s (200 asked qC, all answered), "
        "then a burst of 20 in %.1f s" % (t1 - t, time.time() - t1))


def phase_ctrlc():
    c = Client(timeout=120)
    c.hello()
    stops = {}
    bursts = 0
    for i in range(40):
        pkt = ["vCont;c", "bc", "c", "vCont;c:1"][i % 4]
        c.send_raw(frame(pkt))
        time.sleep(rng.choice([0, 0, 0.001, 0.005, 0.02]))
        n = rng.randrange(1, 60)
        c.send_raw(b"\x03" * n)
        bursts += n
        r = c.packet()
        while r.startswith(b"O") and r != b"OK":
            r = c.packet()
        if not (r.startswith(b"T02") or r.startswith(b"T05")):
            fail("continue %d (%s) with %d Ctrl-C: %r" % (i, pkt, n, r))
        kind = "interrupted" if r.startswith(b"T02") else "ran to an end"
        stops[kind] = stops.get(kind, 0) + 1
        c.sane("after a Ctrl-C storm")
    # no stop reply may be left over
    c.s.settimeout(0.5)
    try:
        extra = c.s.recv(4096)
    except socket.timeout:
        extra = b""
    if extra:
        fail("bytes after the last stop reply: %r" % extra)
    c.s.settimeout(30)
    c.send_raw(frame("D"))
    c.packet()
    c.close()
    say("Ctrl-C storms: 40 continues, %d 0x03 bytes, %s" %
        (bursts, ", ".join("%d %s" % (v, k) for k, v in sorted(stops.items()))))


def refused(s):
    s.sendall(frame("qSupported"))
    s.settimeout(10)
    got = b""
    try:
        while b"#" not in got or len(got) < got.find(b"#") + 3:
            d = s.recv(4096)
            if not d:
                break
            got += d
    except socket.timeout:
        pass
    return b"another GDB is already attached" in got


def phase_second():
    a = Client(timeout=120)
    a.hello()
    a.sane("first client")
    ok = 0
    for i in range(5):
        b = connect()
        if not refused(b):
            fail("a second client was not refused")
        b.close()
        ok += 1
    a.sane("first client, after second clients")
    # during a continue
    a.send_raw(frame("vCont;c"))
    b = connect()
    if not refused(b):
        fail("a second client during a continue was not refused")
    b.close()
    ok += 1
    r = a.packet()
    if not r.startswith(b"T0"):
        fail("the continue during a second client: %r" % r)
    # a crowd: more than the server turns away politely
    crowd = [connect() for _ in range(8)]
    for s in crowd:
        try:
            s.sendall(frame("qC"))
        except OSError:
            pass
    for s in crowd:
        drain(s, 0.05)
        s.close()
    a.sane("first client, after a crowd")
    a.send_raw(frame("D"))
    a.packet()
    a.close()
    fresh_session("after second clients")
    say("second clients: %d refused with the message, a crowd of 8 turned away" % ok)


def checkpoints():
    c = Client()
    c.hello()
    con = []
    c.reply("qRcmd," + "stats".encode().hex(), console=con)
    c.send_raw(frame("D"))
    c.packet()
    c.close()
    text = b"".join(con).decode()
    for word in text.split(";")[1:2]:
        return int(word.split()[0])
    fail("monitor stats: %r" % text)


def phase_revloop():
    """Forward to the end and back, 10 times: the index must not grow."""
    before = checkpoints()
    c = Client(timeout=120)
    c.hello()
    for i in range(10):
        r = c.reply("vCont;c")
        if b"replaylog:end" not in r:
            fail("revloop: continue %d: %r" % (i, r))
        # a reverse step and a reverse continue from the end
        r = c.reply("bs")
        if not r.startswith(b"T05"):
            fail("revloop: reverse step %d: %r" % (i, r))
        r = c.reply("bc")
        if b"replaylog:begin" not in r:
            fail("revloop: reverse continue %d: %r" % (i, r))
    c.send_raw(frame("D"))
    c.packet()
    c.close()
    after = checkpoints()
    say("revloop: 10 times to the end and back: %d checkpoints before, %d after, RSS %d kB" %
        (before, after, rss_kb()))
    if after != before:
        fail("revloop: the replay's index grew from %d to %d checkpoints" % (before, after))


def main():
    phases = PHASES or ["warmup", "random", "checksums", "sizes", "hangups", "cycles",
                        "ctrlc", "second"]
    for p in phases:
        globals()["phase_" + p]()
        alive()
    say("abuse: %s in %.1f s, RSS %d kB" % (" ".join(phases), time.time() - T0, rss_kb()))


main()
EOF

# abuse PHASE...: the phases against the server; their '# ' lines to the TAP output.
abuse() {
	timeout 240 python3 -S abuse.py "$port" "$pid" "$@" >abuse.out 2>&1
	abuse_rc=$?
	grep "^# " abuse.out >&3
	cat abuse.out
	[ $abuse_rc = 0 ]
}

rss() {
	awk '$1 == "VmRSS:" { print $2 }' /proc/$pid/status
}

test_expect_success 'setup: a 4-core soak recording of 3M instructions, served' '
	"$RAPTOR" record "$GUEST/soak-m3-O2.elf" --cores 4 --max-insns 3000000 -o soak -q \
		>/dev/null 2>&1
	test -s soak/cf.bin &&
	# (under `make asan`: no quarantine of freed memory, or the RSS measures it)
	test_bg_start serve env \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0" \
		"$RAPTOR" serve soak --port 0 --port-file port &&
	for i in $(seq 100); do
		[ -s port ] && break
		sleep 0.1
	done &&
	port=$(cat port) && pid=$(test_bg_pid serve) &&
	test -n "$port" && kill -0 "$pid"
'

test_expect_success 'warm-up: forward to the end and back (the whole index built)' '
	abuse warmup &&
	rss0=$(rss) && test -n "$rss0"
'

test_expect_success 'random bytes: 200 connections of noise and framed garbage' '
	abuse random
'

test_expect_success 'bad checksums: a nak each in ack mode, E01 each in no-ack mode' '
	abuse checksums
'

test_expect_success 'oversize packets get E03, truncated ones and a hang-up end the session' '
	abuse sizes
'

test_expect_success '1000 connect/disconnect cycles, then a burst of 20' '
	abuse cycles
'

test_expect_success 'second clients are refused with a message, the attached one undisturbed' '
	abuse second
'

test_expect_success 'clients that hang up during a continue or a step' '
	abuse hangups
'

test_expect_success 'Ctrl-C storms: 0x03 bursts during 40 continues, one stop reply each' '
	abuse ctrlc
'

test_expect_success 'memory: RSS within 16 MiB of the warm-up after all that' '
	rss1=$(rss) && test -n "$rss0" && test -n "$rss1" &&
	echo "# memory: RSS $rss0 kB after the warm-up, $rss1 kB after the abuse" \
		"($(((rss1 - rss0) / 1024)) MiB more)" >&3 &&
	test $((rss1 - rss0)) -lt $((16 * 1024))
'

# replay/replay.c: restore_checkpoint() sets next_ckpt to the position + 1,
# and take_checkpoint() skips only stretches before the last checkpoint; so
# every reverse execution that restores the last checkpoint (near the end of
# the recording) and runs forward appends a checkpoint (~0.2 MiB here), for
# ever. The fix (take_checkpoint: also skip while fewer than `interval`
# instructions past the last checkpoint) makes this pass.
test_expect_success 'to the end and back 10 times: the replay index does not grow' '
	abuse revloop
'

test_expect_success 'the real gdb-multiarch still works: info threads, stepi, reverse-stepi' '
	cat >check.py <<-\EOF &&
	import gdb
	def run(c):
	    return gdb.execute(c, to_string=True)
	threads = [l for l in run("info threads").splitlines() if "Thread " in l]
	if len(threads) != 4:
	    raise gdb.GdbError("info threads: %r" % threads)
	pc0 = int(gdb.parse_and_eval("$pc"))
	run("stepi")
	pc1 = int(gdb.parse_and_eval("$pc"))
	run("reverse-stepi")
	pc2 = int(gdb.parse_and_eval("$pc"))
	if pc1 == pc0 or pc2 != pc0:
	    raise gdb.GdbError("stepi 0x%x -> 0x%x, reverse-stepi -> 0x%x" % (pc0, pc1, pc2))
	print("PASS %d threads, stepi 0x%x -> 0x%x and back" % (len(threads), pc0, pc1))
	EOF
	timeout 120 gdb-multiarch -nx -q --batch -ex "set pagination off" \
		-ex "target remote 127.0.0.1:$port" -x check.py soak/program.elf >gdb.out 2>&1 &&
	cat gdb.out &&
	grep "^PASS" gdb.out &&
	echo "# gdb-multiarch: $(grep "^PASS" gdb.out)" >&3
'

test_expect_success 'the server is alive, and exits 0 on SIGTERM' '
	kill -0 "$pid" &&
	kill -TERM "$pid" &&
	wait "$pid" &&
	test_bg_pid_serve= &&
	grep "raptor serve: stopped" bg-serve.log
'

test_done
