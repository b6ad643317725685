#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor stat: the real trace ports (ETMv4, ETMv3.5, MTB, ETMv4 in CoreSight frames, ETMv4 with cycle counting) beside the encodings, equal to what etmcheck encodes from the truth'

ETMCHECK=$BUILD/etmcheck
test_require "$RAPTOR" "$ETMCHECK" python3

# Loops (reduction, recorded the fast way: stat replays it for the other
# encodings too), SysTick interrupts on every core of an M33 (ARMv8-M:
# ETMv4 sends no exception return packet), races on 8 cores, and the
# exception model driven hard on one core (irq: nesting, tail-chaining,
# faults), recorded with --all-encodings (stat replays only for the ports).
test_expect_success 'setup: recordings with the truth' '
	"$RAPTOR" record "$GUEST/reduction-m3-O2.elf" --cores 2 --truth -o red -q >/dev/null &&
	"$RAPTOR" record "$GUEST/systick-m33-O2.elf" --cores 2 --truth -o sy -q >/dev/null &&
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 8 --truth -o racy -q >/dev/null &&
	"$RAPTOR" record "$GUEST/irq-m3-O2.elf" --cores 1 --truth --all-encodings -o irq -q >/dev/null &&
	RECS="red sy racy irq"
'

test_expect_success 'stat --help names the new options and table' '
	"$RAPTOR" stat --help >help &&
	for o in --no-ports --etm-sync --ports-raw "cdf or ports" ETMv4 ETMv3.5 MTB; do
		grep -q -- "$o" help || { echo "missing $o"; return 1; }
	done
'

test_expect_success 'the text report has the trace port rows beside the encodings, per core and in total' '
	"$RAPTOR" stat racy >out &&
	grep "^encoding " out && grep "^trace port  *bits  *bytes  *bpi  *bpc  *ratio  *to  */ tre bits\$" out &&
	for p in etm4 etm3 mtb etm4.cstf etm4.cc etm3.cc; do
		grep -q "^  $p  *[0-9][0-9]* " out || { echo "no row $p"; return 1; }
	done &&
	grep "^ports by core  *etm4 bpi  *etm4 bpc  *etm3 bpi  *etm3 bpc  *mtb bpi  *mtb bpc  *mtb pkts\$" out &&
	test $(sed -n "/^ports by core/,/^\$/p" out | grep -c "^  core [0-7] ") = 8 &&
	sed -n "/^ports by core/,/^\$/p" out | grep "^  all " &&
	grep "etm4 ETMv4 (ARMv7-M), etm3 ETMv3.5, both a sync every 4096 bytes" out &&
	"$RAPTOR" stat sy >out &&
	grep "etm4 ETMv4 (ARMv8-M)" out
'

# ports REC SYNC: stat's ports table as "core port bits" lines
ports() {
	"$RAPTOR" stat "$1" --csv=ports --etm-sync "$2" |
		awk -F, "NR > 1 { print \$2, \$3, \$4 }"
}

# etm_bits REC SYNC: etmcheck's bytes as the same lines, in bits; etm4.cc
# and etm3.cc from etmcheck --cycles 1 (its ETMv4 counting the truth's
# cycles, its ETMv3.5 cycle accurate, every count checked)
etm_bits() {
	"$ETMCHECK" "$1" --sync "$2" >etm.out || return 1
	grep -q "; 0 mismatches\$" etm.out || return 1
	"$ETMCHECK" "$1" --sync "$2" --cycles 1 >etmcc.out || return 1
	grep -q "; 0 mismatches\$" etmcc.out || return 1
	awk "/^core [0-9]* (etm4|etm3|mtb):/ {
			for (i = 1; i < NF; i++) if (\$(i + 1) == \"bytes,\") b = \$i
			sub(/:/, \"\", \$3); print \$2, \$3, 8 * b; t[\$3] += 8 * b }
		/^frames: / { for (i = 1; i < NF; i++) if (\$(i + 1) == \"bytes,\") f = \$i }
		END { print \"all etm4\", t[\"etm4\"]; print \"all etm3\", t[\"etm3\"];
			print \"all mtb\", t[\"mtb\"]; print \"all etm4.cstf\", 8 * f }" etm.out &&
	awk "/^core [0-9]* etm[34]:/ {
			for (i = 1; i < NF; i++) if (\$(i + 1) == \"bytes,\") b = \$i
			sub(/:/, \".cc\", \$3); print \$2, \$3, 8 * b; t[\$3] += 8 * b }
		END { print \"all etm4.cc\", t[\"etm4.cc\"]; print \"all etm3.cc\", t[\"etm3.cc\"] }" etmcc.out
}

test_expect_success 'every bit count equals etmcheck'"'"'s on the same recording and settings (per core and in total)' '
	for r in $RECS; do
		for s in 4096 1024; do
			ports $r $s | sort >got &&
			etm_bits $r $s | sort >want &&
			test $(wc -l <want) -ge 5 &&
			test_cmp want got || { echo "$r sync $s"; return 1; }
		done
	done
'

test_expect_success '--ports-raw writes the streams etmcheck --raw writes, byte for byte' '
	for r in red sy irq; do
		rm -rf a b && mkdir a b &&
		"$RAPTOR" stat $r --ports-raw a --etm-sync 1024 >/dev/null &&
		"$ETMCHECK" $r --raw b --sync 1024 -q >/dev/null &&
		(cd b && ls) >want && (cd a && ls) >got && test_cmp want got &&
		for f in $(cat want); do cmp a/$f b/$f || { echo "$r $f"; return 1; }; done
	done
'

test_expect_success 'plausible: ETMv4 below ETMv3.5, MTB 64 bits a packet, frames whole 16-byte frames above the raw ETMv4, sums and rates add up' '
	for r in $RECS; do
		"$RAPTOR" stat $r --csv=ports >$r.ports &&
		"$RAPTOR" stat $r --csv=cores >$r.cores || return 1
	done &&
	py_check=$(cat <<-\EOF
	import csv, sys
	for rec in sys.argv[1:]:
	    rows = list(csv.DictReader(open(rec + ".ports")))
	    cores = {c["core"]: c for c in csv.DictReader(open(rec + ".cores"))}
	    b = {(x["core"], x["port"]): int(x["bits"]) for x in rows}
	    ids = [c for c in cores if c != "all"]
	    for c in ids + ["all"]:
	        # irq spends its time taking exceptions: ETMv4 sends the return
	        # address and the handler of each, ETMv3.5 the handler alone
	        if rec != "irq":
	            assert b[c, "etm4"] < b[c, "etm3"], (rec, c, "etm4 >= etm3")
	        pk = [x for x in rows if x["core"] == c and x["port"] == "mtb"][0]
	        assert b[c, "mtb"] == 64 * int(pk["packets"]) > 0, (rec, c, "mtb")
	        for x in rows:
	            if x["core"] != c:
	                continue
	            i, y = int(cores[c]["instructions"]), int(cores[c]["cycles"])
	            assert abs(float(x["bpi"]) - int(x["bits"]) / i) < 1e-6, (rec, c, x)
	            assert abs(float(x["bpc"]) - int(x["bits"]) / y) < 1e-6, (rec, c, x)
	    for p in ("etm4", "etm3", "mtb", "etm4.cc", "etm3.cc"):
	        assert sum(b[c, p] for c in ids) == b["all", p], (rec, p, "sum")
	    for c in ids + ["all"]:
	        assert b[c, "etm4"] < b[c, "etm4.cc"], (rec, c, "cycle counts cost nothing")
	        assert b[c, "etm3"] < b[c, "etm3.cc"], (rec, c, "W atoms cost nothing")
	    f = b["all", "etm4.cstf"]
	    assert f % 128 == 0 and b["all", "etm4"] < f, (rec, "frames")
	    assert ("0", "etm4.cstf") not in b
	    print(rec, "ok")
	EOF
	) &&
	python3 -c "$py_check" $RECS
'

test_expect_success 'the same run recorded the fast way and with --all-encodings: the same ports' '
	"$RAPTOR" record "$GUEST/reduction-m3-O2.elf" --cores 2 --all-encodings -o red-all -q >/dev/null &&
	ports red 4096 >fast.ports && ports red-all 4096 >all.ports && test_cmp fast.ports all.ports
'

test_expect_success '--json: trace_ports with every port, its core bits adding up; null with --no-ports' '
	"$RAPTOR" stat racy --json >racy.json &&
	"$RAPTOR" stat racy --json --no-ports >none.json &&
	python3 -c "
import json
j = json.load(open(\"racy.json\"))
t = j[\"trace_ports\"]
assert t[\"sync_period\"] == 4096 and t[\"etm4_arch\"] == \"ARMv7-M\"
names = [p[\"name\"] for p in t[\"ports\"]]
assert names == [\"etm4\", \"etm3\", \"mtb\", \"etm4.cstf\", \"etm4.cc\", \"etm3.cc\"], names
tre = [e for e in j[\"encodings\"] if e[\"name\"] == \"tre\"][0]
for p in t[\"ports\"]:
    if p[\"name\"] == \"etm4.cstf\":
        assert p[\"core_bits\"] is None
    else:
        assert len(p[\"core_bits\"]) == 8 and sum(p[\"core_bits\"]) == p[\"bits\"], p
    assert abs(p[\"bpi\"] - p[\"bits\"] / j[\"instructions\"]) < 1e-9
    assert abs(p[\"vs_tre\"] - p[\"bits\"] / tre[\"bits\"]) < 1e-9
assert t[\"ports\"][2][\"bits\"] == 64 * t[\"ports\"][2][\"packets\"]
assert json.load(open(\"none.json\"))[\"trace_ports\"] is None
"
'

test_expect_success 'without a load-value stream the ports are not known, and say why' '
	"$RAPTOR" record "$GUEST/reduction-m3-O2.elf" --cores 2 --lv-enc none -o cf -q >/dev/null &&
	"$RAPTOR" stat cf >out &&
	grep "^trace ports     not known: they are fed from a replay of the run, which needs both" out &&
	"$RAPTOR" stat cf --json >cf.json &&
	python3 -c "import json; assert json.load(open(\"cf.json\"))[\"trace_ports\"] is None" &&
	test_expect_code 1 "$RAPTOR" stat cf --csv=ports 2>err &&
	grep "cf: the trace ports are not known: the recording has no load-value stream" err
'

test_expect_success 'bad usage and errors' '
	test_expect_code 2 "$RAPTOR" stat red --etm-sync 1000 2>err &&
	grep -- "--etm-sync: .1000. is not a power of 2 from 256 to 1048576 bytes" err &&
	test_expect_code 2 "$RAPTOR" stat red --etm-sync 128 2>err &&
	test_expect_code 2 "$RAPTOR" stat red --no-ports --csv=ports 2>err &&
	grep -- "--no-ports excludes --csv=ports" err &&
	test_expect_code 2 "$RAPTOR" stat red --no-ports --ports-raw x 2>err &&
	test_expect_code 1 "$RAPTOR" stat red --ports-raw no/such/dir 2>err &&
	grep "cannot create .no/such/dir/etm4-core0.bin." err &&
	"$RAPTOR" stat red --no-ports >out && grep "^trace ports     left out (--no-ports)" out
'

test_done
