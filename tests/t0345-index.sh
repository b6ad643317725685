#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor index: a persistent index written, reused, and rebuilt when stale, truncated or damaged; the recording never written'

test_require "$RAPTOR" "$BUILD/truthq" gdb-multiarch timeout python3
export TRUTHQ="$BUILD/truthq"

. "$SRC/tests/gdbserve.sh"

# sums REC: the SHA-256 of every file of REC but its index, one a line.
sums() {
	(cd "$1" && find . -type f ! -name index.raptor ! -name "index.raptor.tmp*" | sort |
		xargs sha256sum)
}

# set_version FILE V: the index FILE's header says format version V, its CRC-32 mended.
set_version() {
	python3 - "$1" "$2" <<-\EOF
	import struct, sys, zlib
	b = bytearray(open(sys.argv[1], "rb").read())
	b[8:12] = struct.pack("<I", int(sys.argv[2]))
	b[268:272] = struct.pack("<I", zlib.crc32(bytes(b[:268])))
	open(sys.argv[1], "wb").write(b)
	EOF
}

# set_delta FILE R D: record R of the index FILE says its state is the D-th after its key
# (the delta field), the body's SHA-256 and the header's CRC-32 mended.
set_delta() {
	python3 - "$1" "$2" "$3" <<-\EOF
	import hashlib, struct, sys, zlib
	b = bytearray(open(sys.argv[1], "rb").read())
	u32 = lambda o: struct.unpack_from("<I", b, o)[0]
	o = 272
	for r in range(int(sys.argv[2]) + 1):
	    o += 28                # slot, steps, position, sealed
	    o += 4 + u32(o)        # the summary blob
	    if r == int(sys.argv[2]):
	        struct.pack_into("<I", b, o, int(sys.argv[3]))
	        break
	    o += 4                 # delta
	    o += 4 + u32(o)        # the state blob
	    n = u32(o); o += 4     # the new pages
	    for _ in range(n):
	        o += 4; o += 4 + u32(o)
	    n = u32(o); o += 4 + 8 * n
	b[176:208] = hashlib.sha256(bytes(b[272:])).digest()
	b[268:272] = struct.pack("<I", zlib.crc32(bytes(b[:268])))
	open(sys.argv[1], "wb").write(b)
	EOF
}

# loaded ERR FILE: ERR says the index FILE was loaded, and nothing was rebuilt.
loaded() {
	sed "s/^/# /" "$1" &&
	grep "^raptor: index: loaded [1-9][0-9]* checkpoints from $2 " "$1" &&
	! grep "rebuilding" "$1"
}

# rebuilt ERR FILE WHY: ERR reports FILE as WHY, not used, then rebuilt into FILE.
rebuilt() {
	sed "s/^/# /" "$1" &&
	grep "warning: $2: $3" "$1" &&
	grep "^raptor: index: rebuilding the index of " "$1" &&
	grep "^raptor: index: wrote [1-9][0-9]* checkpoints to $2" "$1" &&
	! grep "index: loaded" "$1"
}

test_expect_success 'setup: full-state and control-flow-only 4-core recordings' '
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 4 --truth -o full -q >/dev/null &&
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 4 --truth --seed 7 -o other -q \
		>/dev/null &&
	"$RAPTOR" record "$GUEST/lu-m3-O0.elf" --cores 4 --lv-enc none --truth -o cf -q \
		>/dev/null &&
	sums full >full.sums && sums cf >cf.sums && sums other >other.sums
'

test_expect_success 'no index: replay neither looks for one nor writes one' '
	"$RAPTOR" replay full --random 20 --interval 1000 2>err &&
	! grep "index:\|index\.raptor" err &&
	test ! -e full/index.raptor
'

test_expect_success 'raptor index --help; registered as a command' '
	"$RAPTOR" index --help >help &&
	grep -- "--cache-dir DIR" help && grep -- "--force" help &&
	"$RAPTOR" --help >help && grep "^  index " help &&
	test_expect_code 2 "$RAPTOR" index 2>err && grep "exactly one recording" err
'

test_expect_success 'full state: raptor index writes REC/index.raptor, a second one finds it up to date' '
	"$RAPTOR" index full --interval 1000 2>err &&
	sed "s/^/# /" err &&
	grep "checkpoints over [0-9]* instructions .* to full/index.raptor" err &&
	grep "(their states [0-9]*, [1-9][0-9]* of them deltas; 0 dropped on the way, 0 not laid down" err &&
	test -s full/index.raptor &&
	test "$(head -c 8 full/index.raptor)" = RAPTORIX &&
	"$RAPTOR" index full --interval 1000 2>err &&
	grep "full/index.raptor: up to date" err &&
	cp full/index.raptor full.index
'

test_expect_success 'full state: replay --random loads it and still equals the truth' '
	"$RAPTOR" replay full --random 200 --interval 1000 2>err &&
	loaded err full/index.raptor &&
	grep "200 random positions among [0-9]* equal the ground truth" err &&
	cmp full/index.raptor full.index
'

test_expect_success 'full state: breakpoints, watchpoints and reverse steps from the index equal the truth' '
	"$RAPTOR" replay full --check-points 30 --interval 1000 2>err &&
	loaded err full/index.raptor &&
	grep "checks in both directions equal the ground truth" err
'

test_expect_success 'a small budget thins the loaded checkpoints, seeks still exact' '
	"$RAPTOR" replay full --random 100 --interval 1000 --memory 1M 2>err &&
	loaded err full/index.raptor &&
	grep "100 random positions among [0-9]* equal the ground truth" err &&
	grep "checkpoints: [0-9]* bytes now, [0-9]* at most, budget [0-9]* of --memory 1048576 " err
'

test_expect_success '--no-index ignores it; --to seeks from it' '
	"$RAPTOR" replay full --random 50 --interval 1000 --no-index 2>err &&
	! grep "index:" err &&
	"$RAPTOR" replay full --interval 1000 --to 5000 2>err &&
	loaded err full/index.raptor &&
	grep "5000 instructions replayed" err
'

test_expect_success 'a small budget: raptor index lays down none of what thinning would drop before the end; seeks and stops from it exact' '
	rm -rf small && cp -r full small && rm -f small/index.raptor &&
	"$RAPTOR" index small --interval 200 --memory 1M 2>err &&
	sed "s/^/# /" err &&
	grep "[1-9][0-9]* dropped on the way, [1-9][0-9]* not laid down, as thinning would have dropped them before the end" err &&
	"$RAPTOR" replay small --random 100 --interval 200 2>err &&
	loaded err small/index.raptor &&
	grep "100 random positions among [0-9]* equal the ground truth" err &&
	"$RAPTOR" replay small --check-points 20 --interval 200 2>err &&
	loaded err small/index.raptor &&
	grep "checks in both directions equal the ground truth" err
'

test_expect_success 'control flow only: indexed, loaded, seeks and breakpoints equal the truth' '
	"$RAPTOR" index cf --interval 700 2>err &&
	test -s cf/index.raptor &&
	"$RAPTOR" replay cf --random 100 --interval 700 2>err &&
	loaded err cf/index.raptor &&
	grep "100 random positions among [0-9]* equal the ground truth" err &&
	"$RAPTOR" replay cf --check-points 20 --interval 700 2>err &&
	loaded err cf/index.raptor
'

test_expect_success 'stale: another run recorded into the directory, the old index kept' '
	cp full.index other/index.raptor &&
	"$RAPTOR" replay other --random 50 --interval 1000 2>err &&
	rebuilt err other/index.raptor "stale: manifest.ini changed since it was written" &&
	grep "50 random positions among [0-9]* equal the ground truth" err &&
	! cmp -s other/index.raptor full.index &&
	"$RAPTOR" replay other --random 50 --interval 1000 2>err &&
	loaded err other/index.raptor
'

test_expect_success 'stale: the cf stream changed (the manifest kept)' '
	cp full.index other/index.raptor &&
	cp -r full cfchanged &&
	cp full.index cfchanged/index.raptor &&
	flipbit cfchanged/cf.bin 3 &&
	"$RAPTOR" index cfchanged --interval 1000 2>err;
	sed "s/^/# /" err &&
	grep "warning: cfchanged/index.raptor: stale: the cf stream changed" err &&
	rm -r cfchanged
'

test_expect_success 'stale: another interval' '
	"$RAPTOR" replay full --random 20 --interval 1500 2>err &&
	rebuilt err full/index.raptor "stale: written with --interval 1000, this replay uses 1500" &&
	"$RAPTOR" index full --interval 1000 2>err &&
	grep "stale: written with --interval 1500" err &&
	cmp full/index.raptor full.index
'

test_expect_success 'another format version: a version-4 index (no deltas) is not read, rebuilt' '
	cp full.index full/index.raptor &&
	set_version full/index.raptor 4 &&
	"$RAPTOR" replay full --random 20 --interval 1000 2>err &&
	rebuilt err full/index.raptor "index format version 4, this raptor reads version 5" &&
	cmp full/index.raptor full.index
'

test_expect_success 'truncated: in the body, and in the header' '
	size=$(wc -c <full.index) &&
	head -c $((size - 100)) full.index >full/index.raptor &&
	"$RAPTOR" replay full --random 20 --interval 1000 2>err &&
	rebuilt err full/index.raptor "truncated: $((size - 100)) bytes, the header says $size" &&
	cmp full/index.raptor full.index &&
	head -c 100 full.index >full/index.raptor &&
	"$RAPTOR" replay full --random 20 --interval 1000 2>err &&
	rebuilt err full/index.raptor "truncated: 100 bytes, shorter than the 272-byte header" &&
	cmp full/index.raptor full.index
'

test_expect_success 'damaged: a bit flipped in the body, in the header, in the magic' '
	size=$(wc -c <full.index) &&
	for bit in $(((size - 50) * 8 + 3)) $((300 * 8)) $((200 * 8 + 1)) 5; do
		cp full.index full/index.raptor &&
		flipbit full/index.raptor $bit &&
		"$RAPTOR" replay full --random 20 --interval 1000 2>err &&
		rebuilt err full/index.raptor "" &&
		grep -E "damaged: the (body.s SHA-256|header.s CRC-32)|not a raptor index" err &&
		cmp full/index.raptor full.index || return 1
	done
'

test_expect_success 'damaged: a delta that names no key, or not the latest one' '
	for rd in "0 1" "1 2" "3 1"; do
		cp full.index full/index.raptor &&
		set_delta full/index.raptor $rd &&
		"$RAPTOR" replay full --random 20 --interval 1000 2>err &&
		sed "s/^/# /" err &&
		grep "error: full/index.raptor: damaged: its body has a delta whose key is not the latest whole state before it" err &&
		grep "^raptor: index: rebuilding the index of full" err &&
		grep "20 random positions among [0-9]* equal the ground truth" err &&
		cmp full/index.raptor full.index || return 1
	done
'

test_expect_success 'a read-only recording: the index goes to the cache directory' '
	mkdir cache && chmod 777 cache &&
	cp -r cf ro && rm ro/index.raptor && chmod -R a+rX . && chmod a-w ro &&
	test_when_finished "chmod u+w ro" &&
	p= &&
	if touch ro/probe 2>/dev/null; then
		rm ro/probe &&
		p="setpriv --reuid=65534 --regid=65534 --clear-groups" &&
		XDG_CACHE_HOME=$TRASH/cache $p "$RAPTOR" replay ro --to 1 -q --no-index
	fi &&
	XDG_CACHE_HOME=$TRASH/cache $p "$RAPTOR" index ro --interval 700 2>err &&
	sed "s/^/# /" err &&
	test ! -e ro/index.raptor &&
	ls cache/raptor/*.raptor >files && test $(wc -l <files) = 1 &&
	XDG_CACHE_HOME=$TRASH/cache $p "$RAPTOR" replay ro --random 50 --interval 700 2>err &&
	loaded err "$TRASH/cache/raptor/[0-9a-f]*.raptor" &&
	"$RAPTOR" index ro --interval 700 --cache-dir "$TRASH/cache/raptor" 2>err &&
	grep "up to date" err
'

test_expect_success 'serve loads the index: --at end and a position at once' '
	"$RAPTOR" serve full --interval 1000 --port 0 --port-file port --at 3000 2>err &
	pid=$! &&
	for i in $(seq 100); do [ -s port ] && break; sleep 0.1; done &&
	kill $pid && wait $pid;
	loaded err full/index.raptor
'

test_expect_success 'serve from the index: GDB breakpoints and watchpoints both ways equal the truth' '
	"$RAPTOR" record "$GUEST/racy-m3-O0.elf" --cores 4 --truth -o racy -q >/dev/null &&
	sums racy >racy.sums &&
	"$RAPTOR" index racy --interval 2000 2>err &&
	serve racy racy --interval 2000 &&
	gdb_script breaks.py racy &&
	gdb_script watch.py racy &&
	test_bg_kill racy &&
	loaded bg-racy.log racy/index.raptor &&
	sums racy >now && test_cmp racy.sums now
'

test_expect_success 'the recordings files are byte-identical to what was recorded' '
	sums full >now && test_cmp full.sums now &&
	sums cf >now && test_cmp cf.sums now &&
	sums other >now && test_cmp other.sums now &&
	! ls full/*.tmp* cf/*.tmp* other/*.tmp* 2>/dev/null
'

test_done
