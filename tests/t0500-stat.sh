#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'raptor stat and raptor tune: numbers that add up, every format, bad input'

test_require "$RAPTOR" python3 gnuplot

# py SCRIPT ARGS...: run a python3 check; it fails by an exception or exit 1.
py() {
	py_s_=$1
	shift
	python3 -c "$py_s_" "$@"
}

test_expect_success 'setup: recordings of a few workloads, in several configurations' '
	"$RAPTOR" record "$GUEST/reduction-m3-O2.elf" --cores 2 --all-encodings -o red -q >/dev/null &&
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 4 --cf-enc nxb --lv-enc mc2rt \
		--functional --all-encodings -o racy -q >/dev/null &&
	"$RAPTOR" record "$GUEST/crc32-m3-O2.elf" --cores 1 --cf small --all-encodings -o crc -q >/dev/null &&
	"$RAPTOR" record "$GUEST/radix-m3-O2.elf" --cores 2 --cf-enc none --lv-enc none \
		--chunks cnt=4/3,ta=5/5,cc=6/3,icnt=3/3,fah=2/2,lvcc=5/3 \
		--all-encodings -o qs -q >/dev/null &&
	{ "$RAPTOR" record "$BUILD/isatest/spin-forever.elf" --cores 2 --max-insns 300000 \
		--all-encodings -o part -q >/dev/null 2>&1; test $? = 125; } &&
	"$RAPTOR" record "$GUEST/lu-m3-O2.elf" --cores 4 --cf-enc tra --lv-enc cfiata \
		--all-encodings -o ad -q >/dev/null &&
	"$RAPTOR" record "$GUEST/ring-m3-O0.elf" --cores 2 --cf-enc tra --lv-enc cfiata \
		--functional --cf small --all-encodings -o adf -q >/dev/null &&
	RECS="red racy crc qs part ad adf"
'

# old_format REC OLD: OLD is REC as a raptor before the adaptive encodings
# wrote it: no [cf.tra] [cf.ttra] [lv.cfiata] [lv.tcfiata], no such columns.
old_format() {
	rm -rf "$2" && cp -r "$1" "$2" &&
	awk "/^\[/ { skip = /^\[(cf\.t?tra|lv\.t?cfiata)\]/ } !skip" "$1/stats.ini" >"$2/stats.ini" &&
	awk -F, -v OFS=, "NR == 1 { for (i = 1; i <= NF; i++) keep[i] = \$i !~ /^t?(tra|cfiata)\$/ }
		{ s = \"\"; for (i = 1; i <= NF; i++) if (keep[i]) s = s (s == \"\" ? \"\" : \",\") \$i; print s }" \
		"$1/timeline.csv" >"$2/timeline.csv"
}

test_expect_success 'stat --help and tune --help describe every option' '
	"$RAPTOR" stat --help >help &&
	for o in --json --csv --over-time --plot --cdf --plot-cdf --help; do
		grep -q -- "$o" help || { echo "stat: missing $o"; return 1; }
	done &&
	"$RAPTOR" tune --help >help &&
	for o in --max --json --csv --help; do
		grep -q -- "$o" help || { echo "tune: missing $o"; return 1; }
	done &&
	"$RAPTOR" --help >help &&
	grep "^  stat " help && grep "^  tune " help
'

test_expect_success 'the text report: every section, the recorded streams, partial runs' '
	"$RAPTOR" stat red >out &&
	for s in execution predictors "data cache" encoding "field bits" "bpi by core"; do
		grep -q "^$s" out || { echo "missing $s"; return 1; }
	done &&
	grep "recorded streams: cf ttre ($(ini red/manifest.ini cf bits) bits), lv tcfiat ($(ini red/manifest.ini lv bits) bits)" out &&
	grep "^  cf ttre .* recorded$" out &&
	grep "^  lv nxlv.gz " out &&
	"$RAPTOR" stat racy >out &&
	grep "recorded streams: cf nxb .*, lv mc2rt " out &&
	grep "^  core 3 " out &&
	"$RAPTOR" stat qs >out &&
	grep "recorded streams: no cf, no lv" out &&
	"$RAPTOR" stat part >out &&
	grep "recording part: partial, the program did not exit" out &&
	"$RAPTOR" stat red --cdf >out &&
	grep "^field length CDF" out && grep "^  values " out
'

# check_json REC...: the checks every recording's REC.json must pass.
check_json='
import json, os, sys
def ini(path):
	d, s = {}, None
	for line in open(path):
		line = line.strip()
		if line.startswith("["):
			s = line[1:-1]; d[s] = {}
		elif "=" in line and not line.startswith(";"):
			k, v = [x.strip() for x in line.split("=", 1)]; d[s][k] = v
	return d
def check(rec):
	j = json.load(open(rec + ".json"))
	st, mf = ini(rec + "/stats.ini"), ini(rec + "/manifest.ini")
	assert j["instructions"] == int(st["run"]["instructions"])
	assert j["cycles"] == int(st["run"]["cycles"])
	assert j["cores"] == len(j["per_core"]) == int(mf["board"]["cores"])
	encs = {e["name"]: e for e in j["encodings"]}
	old = "cf.tra" not in st
	assert len(encs) == (14 if old else 18), encs.keys()
	for e in j["encodings"]:
		if e["field_bits"] is None:
			assert e["name"].endswith(".gz")
			continue
		assert sum(e["field_bits"].values()) == e["bits"], e["name"]
		sec = e["stream"] + "." + e["name"]
		assert e["bits"] == int(st[sec]["bits"]), sec
		assert abs(e["bpi"] - e["bits"] / j["instructions"]) < 1e-9
		assert abs(e["bpc"] - e["bits"] / j["cycles"]) < 1e-9
		base = encs[e["baseline"]]
		assert e["ratio"] is None or abs(e["ratio"] - base["bits"] / e["bits"]) < 1e-9
		assert sum(e["core_bits"]) == e["bits"], e["name"]
		if e["stream"] == "cf":
			assert e["branch_msgs"] + e["target_msgs"] + e["exc_msgs"] + e["end_msgs"] == e["msgs"]
	# the recorded streams: manifest bits = stats bits = the stream files
	for s in ("cf", "lv"):
		name = j["recorded"][s]
		if mf[s]["encoding"] == "none":
			assert name is None
			continue
		pre = "t" if mf[s]["timed"] == "1" else ""
		assert name == pre + mf[s]["encoding"], (name, mf[s])
		bits = int(mf[s]["bits"])
		assert encs[name]["recorded"] and encs[name]["bits"] == bits
		assert os.path.getsize(rec + "/" + mf[s]["file"]) == (bits + 7) // 8
	assert sum(e["recorded"] for e in j["encodings"]) == (mf["cf"]["encoding"] != "none") + (mf["lv"]["encoding"] != "none")
	# mispredictions are the TR messages; exceptions and ends the others
	t = j["total"]
	for k in ("instructions", "outcome_misses", "target_misses", "loads", "cfiat_msgs", "mc2rt_msgs"):
		assert t[k] == sum(c[k] for c in j["per_core"]), k
	# the adaptive encodings: the same messages as their fixed twins, other chunks
	for name, twin in ((("tra", "tre"), ("ttra", "ttre"), ("cfiata", "cfiat"), ("tcfiata", "tcfiat")) if not old else ()):
		a, f = encs[name], encs[twin]
		assert a["fixed"] == twin and abs(a["gain"] - f["bits"] / a["bits"]) < 1e-9, name
		assert a["msgs"] == f["msgs"], name
		for k in ("ti", "tnt", "exc", "value"):
			assert a["field_bits"][k] == f["field_bits"][k], (name, k)
		for k in ("branch_msgs", "target_msgs", "exc_msgs", "end_msgs"):
			assert a.get(k) == f.get(k), (name, k)
	for name in ("trb", "ttrb", "tre", "ttre") + (("tra", "ttra") if not old else ()):
		e = encs[name]
		assert e["branch_msgs"] + e["target_msgs"] == t["outcome_misses"] + t["target_misses"]
		assert e["exc_msgs"] == t["branches"]["exceptions"]
		assert e["end_msgs"] == j["cores"]
	assert encs["cfiat"]["msgs"] == t["cfiat_msgs"] and encs["mc2rt"]["msgs"] == t["mc2rt_msgs"]
	assert encs["nxlv"]["msgs"] == t["loads"]
	if t["branches"]["cond_direct"]:
		assert abs(t["outcome_miss_rate"] - t["outcome_misses"] / t["branches"]["cond_direct"]) < 1e-12
	assert abs(t["ipc"] - j["instructions"] / j["cycles"]) < 1e-12
for rec in sys.argv[1:]:
	print("checking", rec)
	check(rec)
'

test_expect_success '--json parses, and its numbers add up (fields, streams, messages)' '
	for r in $RECS; do
		"$RAPTOR" stat $r --json >$r.json || return 1
	done &&
	python3 -m json.tool red.json >/dev/null &&
	py "$check_json" $RECS
'

test_expect_success '--csv: the encoding table has the right columns and adds up' '
	echo recording,stream,encoding,timed,recorded,bits,msgs,bits_cc,bits_ti,bits_cnt,bits_tnt,bits_ta,bits_icnt,bits_exc,bits_value,bpi,bpc,baseline,ratio,fixed,gain >expect &&
	for r in $RECS; do
		"$RAPTOR" stat $r --csv >$r.csv &&
		head -1 $r.csv >head && test_cmp expect head &&
		test $(wc -l <$r.csv) = 19 &&
		awk -F, -v r=$r "NR > 1 && \$1 != r { exit 1 }
			NR > 1 && \$3 !~ /gz/ {
				s = 0; for (i = 8; i <= 15; i++) s += \$i
				if (s != \$6) exit 1 }" $r.csv || { echo "$r"; return 1; }
	done &&
	grep "^red,cf,ttre,1,1,$(ini red/manifest.ini cf bits)," red.csv &&
	grep "^red,lv,tcfiat,1,1,$(ini red/manifest.ini lv bits)," red.csv &&
	grep "^racy,cf,nxb,0,1,$(ini racy/manifest.ini cf bits)," racy.csv &&
	grep "^ad,cf,ttra,1,1,$(ini ad/manifest.ini cf bits),.*,ttre,[0-9.]*\$" ad.csv &&
	grep "^ad,lv,tcfiata,1,1,$(ini ad/manifest.ini lv bits),.*,tcfiat,[0-9.]*\$" ad.csv &&
	grep "^adf,cf,tra,0,1,$(ini adf/manifest.ini cf bits),.*,tre,[0-9.]*\$" adf.csv &&
	grep "^adf,lv,cfiata,0,1,$(ini adf/manifest.ini lv bits),.*,cfiat,[0-9.]*\$" adf.csv
'

test_expect_success 'tra and cfiata: the recorded stream is the stat total, field bits add up, a gain' '
	for r in ad adf; do
		for s in cf lv; do
			e=$(ini $r/manifest.ini $s encoding) &&
			case $e in tra | cfiata) ;; *) return 1 ;; esac &&
			if test $(ini $r/manifest.ini $s timed) = 1; then t=t; else t=; fi &&
			bits=$(ini $r/stats.ini $s.$t$e bits) &&
			test "$bits" = $(ini $r/manifest.ini $s bits) &&
			test $(wc -c <$r/$s.bin) = $(((bits + 7) / 8)) &&
			sum=0 &&
			for k in cc ti cnt tnt ta icnt exc value; do
				v=$(ini $r/stats.ini $s.$t$e bits_$k) && sum=$((sum + ${v:-0}))
			done &&
			test $sum = $bits || { echo "$r $s $e: $sum $bits"; return 1; }
		done
	done &&
	"$RAPTOR" stat ad >out &&
	grep "recorded streams: cf ttra ($(ini ad/manifest.ini cf bits) bits), lv tcfiata ($(ini ad/manifest.ini lv bits) bits)" out &&
	grep "^  cf ttra .* gain [0-9.]*x vs ttre  recorded$" out &&
	grep "^  lv cfiata .* gain [0-9.]*x vs cfiat$" out &&
	grep "^  cf tra " out | awk "{ exit !(\$3 < $(ini ad/stats.ini cf.tre bits)) }" &&
	"$RAPTOR" stat ad --json >ad.json &&
	py "
import json
e = {x[\"name\"]: x for x in json.load(open(\"ad.json\"))[\"encodings\"]}
assert e[\"ttra\"][\"gain\"] > 1 and e[\"tra\"][\"gain\"] > 1, e[\"ttra\"]
assert \"gain\" not in e[\"ttre\"]
"
'

test_expect_success 'a recording from before tra and cfiata: stat, replay, windows, plot' '
	old_format red oldred &&
	! grep -q "cf.tra" oldred/stats.ini && ! grep -q tra oldred/timeline.csv &&
	"$RAPTOR" stat oldred >out &&
	! grep -q " tra\| ttra\| cfiata" out &&
	grep "^  cf ttre .* recorded$" out &&
	"$RAPTOR" stat oldred --csv >old.csv && test $(wc -l <old.csv) = 15 &&
	"$RAPTOR" stat oldred --json >oldred.json && py "$check_json" oldred &&
	"$RAPTOR" stat oldred --over-time $(($(ini oldred/stats.ini timeline window) * 3)) --plot old.svg >/dev/null &&
	"$RAPTOR" replay oldred -q &&
	"$RAPTOR" tune oldred >/dev/null &&
	old_format ad oldad &&
	test_expect_code 1 "$RAPTOR" stat oldad 2>err &&
	grep "oldad/manifest.ini: \[cf\] records ttra, but stats.ini has no \[cf.ttra\]" err
'

test_expect_success '--csv=cores and --csv=cdf: columns, one row per core and a total' '
	"$RAPTOR" stat racy --csv=cores >cores.csv &&
	head -1 cores.csv >head &&
	echo recording,core,instructions,cycles,ipc,cond_direct,uncond_direct,indirect,returns,exceptions,outcome_misses,target_misses,outcome_miss_rate,target_miss_rate,loads,stores,uncached_loads,line_misses,fa_load_hits,cfiat_msgs,mc2rt_msgs,line_miss_rate,fa_miss_rate,mc2rt_trace_miss_rate >expect &&
	test_cmp expect head &&
	test "$(cut -d, -f2 cores.csv | tail -n +2 | tr "\n" " ")" = "0 1 2 3 all " &&
	awk -F, "NR > 1 && NR < 6 { s += \$3 } END { exit s == 0 }" cores.csv &&
	test $(awk -F, "NR > 1 && NR < 6 { s += \$3 } END { print s }" cores.csv) = \
		$(ini racy/stats.ini run instructions) &&
	"$RAPTOR" stat red --csv=cdf >cdf.csv &&
	head -1 cdf.csv | grep -x "recording,field,encoding,chunks,length,values,cdf" &&
	for f in bCnt "|diffTA|" diffCC iCnt fahCnt dCC; do
		test "$(grep ",$f," cdf.csv | tail -1 | cut -d, -f7)" = 1 || { echo "$f"; return 1; }
	done &&
	test $(grep ",bCnt," cdf.csv | awk -F, "{ s += \$6 } END { print s }") = \
		$(ini red/stats.ini cf.ttre msgs)
'

test_expect_success '--over-time: the windows add up to the totals, per core too' '
	for r in red racy part; do
		w=$(ini $r/stats.ini timeline window) &&
		n=$((w * 7)) &&
		"$RAPTOR" stat $r --over-time $n --csv >win.csv &&
		head -1 win.csv | grep -x "recording,start,cycles,core,encoding,bits,bpc" &&
		for e in nxb tnxb trb ttrb tre ttre tra ttra nxlv tnxlv cfiat tcfiat mc2rt tmc2rt cfiata tcfiata; do
			s=$(ini $r/stats.ini cf.$e bits)
			test -n "$s" || s=$(ini $r/stats.ini lv.$e bits)
			all=$(awk -F, -v e=$e "\$4 == \"all\" && \$5 == e { s += \$6 } END { print s + 0 }" win.csv) &&
			cores=$(awk -F, -v e=$e "NR > 1 && \$4 != \"all\" && \$5 == e { s += \$6 } END { print s + 0 }" win.csv) &&
			test "$all" = "$s" && test "$cores" = "$s" || { echo "$r $e: $all $cores $s"; return 1; }
		done &&
		"$RAPTOR" stat $r --over-time $n --json >win-$r.json &&
		echo "$r $n" >>windows || return 1
	done &&
	py "
import json, sys
for line in open(\"windows\"):
	r, n = line.split()
	n = int(n)
	j = json.load(open(\"win-\" + r + \".json\"))
	o = j[\"over_time\"]
	ws = o[\"windows\"]
	assert o[\"window\"] == n
	assert len(ws) == -(-j[\"cycles\"] // n), (r, len(ws))
	assert sum(w[\"cycles\"] for w in ws) == j[\"cycles\"]
	assert all(w[\"start\"] == i * n for i, w in enumerate(ws))
	for e in j[\"encodings\"]:
		if e[\"field_bits\"] is None:
			continue
		name = e[\"name\"]
		assert sum(w[\"bits\"][name] for w in ws) == e[\"bits\"], (r, name)
		assert all(sum(w[\"core_bits\"][c][name] for c in range(j[\"cores\"])) ==
			w[\"bits\"][name] for w in ws), (r, name)
		assert all(abs(w[\"bpc\"][name] - w[\"bits\"][name] / w[\"cycles\"]) < 1e-9 for w in ws)
" &&
	"$RAPTOR" stat red --over-time $(ini red/stats.ini timeline window) >out &&
	grep "^bandwidth over time: bits per cycle, all cores, windows of" out &&
	grep "^  peak " out && grep "^  mean " out
'

test_expect_success 'a long run grows the window (1, 2, 10, 20 ... x 100) and keeps the sums' '
	test $(ini part/stats.ini timeline window) = 1000 &&
	test $(ini part/stats.ini timeline windows) -le 1000 &&
	test $(($(wc -l <part/timeline.csv) - 1)) = $((2 * $(ini part/stats.ini timeline windows))) &&
	"$RAPTOR" stat part --over-time 1000000 --csv >/dev/null
'

# valid_svg FILE 'WORD|WORD...' ...: each FILE is an SVG document (XML, an
# <svg> root) holding each WORD.
valid_svg() {
	py "
import sys, xml.etree.ElementTree as ET
args = sys.argv[1:]
for f, words in zip(args[::2], args[1::2]):
	root = ET.parse(f).getroot()
	assert root.tag.endswith(\"svg\"), (f, root.tag)
	text = open(f).read()
	for w in words.split(\"|\"):
		assert w in text, (f, w)
" "$@"
}

test_expect_success '--plot and --plot-cdf write valid SVG charts with titles and keys' '
	"$RAPTOR" stat red --plot bw.svg >/dev/null &&
	"$RAPTOR" stat racy --over-time $(($(ini racy/stats.ini timeline window) * 10)) \
		--plot bw4.svg >/dev/null &&
	"$RAPTOR" stat red --plot-cdf cdf.svg --json >/dev/null &&
	valid_svg bw.svg "trace port bandwidth over time|bits per cycle|Control flow|Load values|Recorded streams by core|tnxb|ttre|tcfiat|tmc2rt|core 1" \
		bw4.svg "core 3|nxb|mc2rt|windows of $(($(ini racy/stats.ini timeline window) * 10)) cycles" \
		cdf.svg "cumulative distribution of field lengths|bCnt|diffCC|fahCnt"
'

test_expect_success 'a plot that cannot be written is an error, the report still printed' '
	test_must_fail "$RAPTOR" stat red --plot nosuchdir/x.svg >out 2>err &&
	grep "nosuchdir/x.svg" err &&
	grep "^execution" out
'

test_expect_success 'bad usage: exit 2 and a clear message' '
	test_expect_code 2 "$RAPTOR" stat 2>err &&
	grep "no recording given" err &&
	test_expect_code 2 "$RAPTOR" stat red racy 2>err &&
	grep "exactly one recording" err &&
	test_expect_code 2 "$RAPTOR" stat red --json --csv 2>err &&
	grep "exclude each other" err &&
	test_expect_code 2 "$RAPTOR" stat red --csv=pie 2>err &&
	grep "unknown table" err &&
	test_expect_code 2 "$RAPTOR" stat red --over-time abc 2>err &&
	grep "over-time: .abc." err &&
	test_expect_code 2 "$RAPTOR" stat red --over-time 0 2>err &&
	test_expect_code 2 "$RAPTOR" stat red --over-time 150 2>err &&
	grep "must be a multiple of this recording.s window of $(ini red/stats.ini timeline window) cycles" err &&
	test_expect_code 2 "$RAPTOR" stat red --csv=windows 2>err &&
	grep "needs --over-time" err &&
	test_expect_code 2 "$RAPTOR" stat red --bogus 2>err &&
	grep "usage: raptor stat" err &&
	test_expect_code 2 "$RAPTOR" tune 2>err &&
	grep "no recording given" err &&
	test_expect_code 2 "$RAPTOR" tune red --max 0 2>err &&
	grep "max" err &&
	test_expect_code 2 "$RAPTOR" tune red --json --csv 2>err
'

# damage NAME HOW: a copy of red, damaged.
damage() {
	rm -rf "$1" && cp -r red "$1" && (cd "$1" && eval "$2")
}

test_expect_success 'a missing or damaged recording: exit 1, naming the file and the value' '
	test_expect_code 1 "$RAPTOR" stat nosuch 2>err &&
	grep "nosuch/manifest.ini: cannot read" err &&
	damage d1 "rm stats.ini" &&
	test_expect_code 1 "$RAPTOR" stat d1 2>err && grep "d1/stats.ini: cannot read" err &&
	damage d2 "head -c 100 cf.bin >x && mv x cf.bin" &&
	test_expect_code 1 "$RAPTOR" stat d2 2>err &&
	grep "d2/cf.bin: 100 bytes, but manifest.ini \[cf\] bits = $(ini red/manifest.ini cf bits)" err &&
	damage d3 "sed -i \"/^\[cf.trb\]/,/^\[/ s/^bits_ta = .*/bits_ta = 1/\" stats.ini" &&
	test_expect_code 1 "$RAPTOR" stat d3 2>err && grep "\[cf.trb\]: the field bits add up" err &&
	damage d4 "sed -i \"/^\[lv.tcfiat\]/,/^\[/ s/^bits = .*/bits = x12/\" stats.ini" &&
	test_expect_code 1 "$RAPTOR" stat d4 2>err && grep "\[lv.tcfiat\] bits = .x12.: not a number" err &&
	damage d5 "sed -i 3d timeline.csv" &&
	test_expect_code 1 "$RAPTOR" stat d5 2>err && grep "d5/timeline.csv: line 3: window start" err &&
	damage d6 "sed -i \"/^\[hist.cf.cnt\]/,/^\[/ s/^len1 = .*/len1 = 1/\" stats.ini" &&
	test_expect_code 1 "$RAPTOR" stat d6 2>err &&
	grep "\[hist.cf.cnt\]: the values take .* bits with chunks 3,2, but \[cf.ttre\] bits_cnt" err &&
	damage d7 "sed -i \"/^\[core1\]/,/^\[/ { /^loads = /d }\" stats.ini" &&
	test_expect_code 1 "$RAPTOR" stat d7 2>err && grep "\[core1\] loads: missing" err &&
	damage d8 "echo garbage >timeline.csv" &&
	test_expect_code 1 "$RAPTOR" stat d8 2>err && grep "d8/timeline.csv: line 1: not the header" err &&
	damage d9 "sed -i \"s/^cores = 2/cores = 3/\" stats.ini" &&
	test_expect_code 1 "$RAPTOR" stat d9 2>err && grep "\[run\] cores = 3, manifest.ini says 2" err &&
	test_expect_code 1 "$RAPTOR" tune red d3 2>err && grep "field bits add up" err
'

test_expect_success 'a recording without a timeline or histograms (older raptor): clear errors' '
	damage old "rm timeline.csv && sed -i \"/^\[hist\./,\\\$d\" stats.ini" &&
	! grep -q "^\[timeline\]" old/stats.ini &&
	"$RAPTOR" stat old >out && ! grep -q "bpi by core" out &&
	test_expect_code 1 "$RAPTOR" stat old --over-time 1000 2>err &&
	grep "no timeline in this recording" err &&
	test_expect_code 1 "$RAPTOR" stat old --plot-cdf x.svg 2>err &&
	grep "no field histograms" err &&
	test_expect_code 1 "$RAPTOR" tune old 2>err &&
	grep "stats.ini has no \[hist.cf.cnt\]" err
'

test_expect_success 'tune: the best pair is the grid minimum; defaults match the recordings' '
	"$RAPTOR" tune red racy crc part --json >tune.json &&
	python3 -m json.tool tune.json >/dev/null &&
	py "
import json
j = json.load(open(\"tune.json\"))
def ini(path):
	d, s = {}, None
	for line in open(path):
		line = line.strip()
		if line.startswith(\"[\"):
			s = line[1:-1]; d[s] = {}
		elif \"=\" in line and not line.startswith(\";\"):
			k, v = [x.strip() for x in line.split(\"=\", 1)]; d[s][k] = v
	return d
st = [ini(r + \"/stats.ini\") for r in j[\"recordings\"]]
where = {\"bCnt\": (\"cf.ttre\", \"bits_cnt\"), \"|diffTA|\": (\"cf.ttre\", \"bits_ta\"),
	\"diffCC\": (\"cf.ttre\", \"bits_cc\"), \"iCnt\": (\"cf.ttre\", \"bits_icnt\"),
	\"fahCnt\": (\"lv.tcfiat\", \"bits_cnt\"), \"dCC\": (\"lv.tcfiat\", \"bits_cc\")}
assert set(j[\"fields\"]) == set(where)
for name, f in j[\"fields\"].items():
	sec, key = where[name]
	assert f[\"default_bits\"] == sum(int(s[sec][key]) for s in st), name
	assert f[\"recorded\"] == f[\"default\"]
	grid = f[\"cost\"]
	assert len(grid) == j[\"max\"] == 16 and all(len(r) == 16 for r in grid)
	m = min(min(r) for r in grid)
	assert f[\"best_bits\"] == m == grid[f[\"best\"][0] - 1][f[\"best\"][1] - 1], name
	assert m <= f[\"default_bits\"]
	assert grid[f[\"default\"][0] - 1][f[\"default\"][1] - 1] == f[\"default_bits\"]
for enc, sec in ((\"ttre\", \"cf.ttre\"), (\"tre\", \"cf.tre\"), (\"tcfiat\", \"lv.tcfiat\"), (\"cfiat\", \"lv.cfiat\")):
	t = j[\"totals\"][enc]
	assert t[\"default\"] == sum(int(s[sec][\"bits\"]) for s in st), enc
	assert t[\"best\"] <= t[\"default\"]
" &&
	"$RAPTOR" tune red racy crc part >tune.out &&
	grep "^raptor tune: 4 recordings" tune.out &&
	grep "^sensitivity" tune.out && grep "0.00\*" tune.out &&
	"$RAPTOR" tune red --csv --max 5 >tune.csv &&
	head -1 tune.csv | grep -x "field,c0,c1,bits,above_best,best,default" &&
	test $(($(wc -l <tune.csv) - 1)) = $((6 * 25)) &&
	test $(awk -F, "\$6 == 1" tune.csv | wc -l) = 6
'

test_expect_success 'tune is exact: recording again with the best sizes gives its totals' '
	"$RAPTOR" tune red --json >t1.json &&
	set -- $(py "
import json
j = json.load(open(\"t1.json\"))
f, t = j[\"fields\"], j[\"totals\"]
b = lambda n: \"%d/%d\" % tuple(f[n][\"best\"])
print(\"cnt=%s,ta=%s,cc=%s,icnt=%s,fah=%s,lvcc=%s\" % (b(\"bCnt\"), b(\"|diffTA|\"),
	b(\"diffCC\"), b(\"iCnt\"), b(\"fahCnt\"), b(\"dCC\")))
print(t[\"ttre\"][\"best\"], t[\"tre\"][\"best\"], t[\"tcfiat\"][\"best\"], t[\"cfiat\"][\"best\"])
") &&
	"$RAPTOR" record "$GUEST/reduction-m3-O2.elf" --cores 2 --chunks $1 --all-encodings \
		-o best -q >/dev/null &&
	test $(ini best/stats.ini cf.ttre bits) = $2 &&
	test $(ini best/stats.ini cf.tre bits) = $3 &&
	test $(ini best/stats.ini lv.tcfiat bits) = $4 &&
	test $(ini best/stats.ini lv.cfiat bits) = $5 &&
	test $(ini best/manifest.ini cf bits) = $(ini best/stats.ini cf.ttre bits) &&
	"$RAPTOR" stat best >/dev/null
'

test_expect_success 'tune on recordings with their own chunk sizes shows them' '
	"$RAPTOR" tune qs >out &&
	grep "recorded" out &&
	grep "^  bCnt .* 4,3 " out &&
	"$RAPTOR" tune qs --json >qs.json &&
	py "
import json
f = json.load(open(\"qs.json\"))[\"fields\"]
assert f[\"bCnt\"][\"recorded\"] == [4, 3] and f[\"fahCnt\"][\"recorded\"] == [2, 2]
assert f[\"bCnt\"][\"recorded_bits\"] == $(ini qs/stats.ini cf.ttre bits_cnt)
assert f[\"dCC\"][\"recorded_bits\"] == $(ini qs/stats.ini lv.tcfiat bits_cc)
" &&
	"$RAPTOR" tune qs red >out &&
	grep "^  bCnt .* mixed" out
'

test_done
