#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'gdb-multiarch on an imported ETM capture: breakpoints stop each core at its exact instruction, continue and reverse-continue retrace them, each core steps forward and back on its exact path (raptor stepi), registers and memory unavailable'

test_require "$RAPTOR" "$BUILD/truthq" gdb-multiarch timeout

ELF=$GUEST/racy-m3-O0.elf
export TRUTHQ="$BUILD/truthq"

. "$SRC/tests/gdbserve.sh"

test_expect_success 'setup: a 4-core race captured as framed ETMv4 (a probe'"'"'s ETB dump), imported, served' '
	"$RAPTOR" record "$ELF" --cores 4 --truth --cf-enc etm4 --port-framed \
		--trace-ids 0x31,0x32,0x33,0x34 -q -o board >/dev/null &&
	printf "[trace]\nformat = etm4\ncores = 4\nframed = 1\ntrace_ids = 0x31,0x32,0x33,0x34\n" >etb.ini &&
	cp board/cf.bin etb.bin &&
	"$RAPTOR" import etb.bin --elf "$ELF" --config etb.ini -o imported -q &&
	! grep -q "^\[truth\]" imported/manifest.ini &&
	cp board/truth.gz imported/ &&
	printf "[truth]\nfile = truth.gz\n" >>imported/manifest.ini &&
	serve imported imported
'

# tests/gdb/cfonly.py, the control-flow-only session: the server never
# reads the truth; the script compares each stop with it (truthq)
test_expect_success 'per-core breakpoints exact, continue and reverse-continue, registers unavailable' '
	gdb_script cfonly.py imported
'

test_expect_success 'each core'"'"'s stepi and reverse-stepi on its exact path, a thread'"'"'s own breakpoint, reverse-continue' '
	gdb_script etm.py imported
'

test_expect_success 'monitor info: the trace port, its trace IDs, each core'"'"'s gaps' '
	gdb-multiarch -nx -q --batch -ex "target remote 127.0.0.1:$port" \
		-ex "monitor info" imported/program.elf >info.out 2>&1 &&
	grep -q "control flow: a trace port, ETMv4, [0-9]* bytes of CoreSight formatter frames, decoded by OpenCSD; sync period 4096, trace IDs 0x31,0x32,0x33,0x34" info.out &&
	grep -q "core3: [0-9]* instructions traced, 0 exceptions, 0 gaps" info.out &&
	grep -q "partial: a capture" info.out
'

test_done
