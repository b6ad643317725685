#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'hard-float (M4F, M7) recordings: the truth holds the FP registers (d0..d15 as s0..s31 on the M7), --verify and --random compare them'

test_require "$RAPTOR" python3 gzip "$BUILD/isatest/fp-arith.elf"

I=$BUILD/isatest

# truthf.py: a ground truth parsed per docs/FORMAT.md "truth.gz", read and
# damaged on purpose (it shares no code with streams/truth.c).
cat >truthf.py <<'EOF'
import gzip, struct, sys

NREGS, NFP = 23, 33
FIXED = {'R': 2 + 4 * NREGS, 'A': 13, 'E': 6}
usage = '''usage: truthf.py stats TRUTH       "records R n I n X n A n E n F n", "later-F n"
       truthf.py flip TRUTH OUT K    xor 1 into the last value of the K-th 'F' record
                                     after the resets' ones: prints "core C REG OLD NEW"
       truthf.py flip-reset TRUTH OUT  the same in core 0's reset 'F' record, on a
                                     register no later 'F' record of core 0 changes
       truthf.py strip TRUTH OUT     every 'F' record dropped
       truthf.py cut TRUTH OUT K     the data cut 4 bytes before the end of the K-th
                                     later 'F' record: prints its byte offset'''


def records(data):
    """(type, core, start, end, mask) of every record after the header."""
    if data[:8] != b'RPTRUTH1':
        sys.exit('not a truth file')
    pos = 9
    while pos < len(data):
        t, core, mask = chr(data[pos]), data[pos + 1], None
        if t in FIXED:
            size = FIXED[t]
        elif t == 'I':
            mask = struct.unpack_from('<I', data, pos + 11)[0]
            size = 15 + 4 * bin(mask).count('1')
        elif t == 'X':
            mask = struct.unpack_from('<I', data, pos + 8)[0]
            size = 12 + 4 * bin(mask).count('1')
        elif t == 'F':
            mask = struct.unpack_from('<Q', data, pos + 2)[0]
            if mask >> NFP:
                sys.exit('F mask 0x%x at byte %d' % (mask, pos))
            size = 10 + 4 * bin(mask).count('1')
        else:
            sys.exit('unknown record %r at byte %d' % (t, pos))
        if pos + size > len(data):
            sys.exit('truncated record at byte %d' % pos)
        yield t, core, pos, pos + size, mask
        pos += size


def name(i):
    return 'fpscr' if i == NFP - 1 else 's%d' % i


def main():
    if len(sys.argv) < 3:
        sys.exit(usage)
    cmd, path = sys.argv[1], sys.argv[2]
    data = gzip.open(path).read()
    recs = list(records(data))
    # a core's first 'F' is right before its reset ('R'), and holds all 33
    first = [a for a, b in zip(recs, recs[1:]) if a[0] == 'F' and b[0] == 'R']
    later = [r for r in recs if r[0] == 'F' and r not in first]
    for r in first:
        if r[4] != (1 << NFP) - 1:
            sys.exit('reset F record at byte %d: mask 0x%x' % (r[2], r[4]))
    if cmd == 'stats':
        counts = dict((t, 0) for t in 'RIXAEF')
        for r in recs:
            counts[r[0]] += 1
        print('records ' + ' '.join('%s %d' % (t, counts[t]) for t in 'RIXAEF'))
        print('later-F %d' % len(later))
        return
    out = sys.argv[3]
    if cmd == 'strip':
        kept = data[:9] + b''.join(data[r[2]:r[3]] for r in recs if r[0] != 'F')
        gzip.open(out, 'wb').write(kept)
        return
    if cmd == 'cut':
        rec = later[int(sys.argv[4])]
        gzip.open(out, 'wb').write(data[:rec[3] - 4])
        print(rec[2])
        return
    if cmd == 'flip':
        rec = later[int(sys.argv[4])]
        reg = rec[4].bit_length() - 1
    elif cmd == 'flip-reset':
        rec = [r for r in first if r[1] == 0][0]
        changed = 0
        for r in later:
            if r[1] == 0:
                changed |= r[4]
        reg = min(i for i in range(NFP) if not changed >> i & 1)
    else:
        sys.exit(usage)
    at = rec[2] + 10 + 4 * bin(rec[4] & ((1 << reg) - 1)).count('1')
    old = struct.unpack_from('<I', data, at)[0]
    data = bytearray(data)
    struct.pack_into('<I', data, at, old ^ 1)
    gzip.open(out, 'wb').write(bytes(data))
    print('core %d %s 0x%08x 0x%08x' % (rec[1], name(reg), old, old ^ 1))


main()
EOF

# verify_fp ELF CORES ARGS...: record with the truth, replay --verify; prints
# "ok N S F LATER ELF CORES": N instructions verified, S states whose FP
# registers were compared, F 'F' records (LATER of them after the resets),
# or the failure. The program must exit with status 0.
cat >verify_fp <<'EOF'
#!/bin/sh
elf=$1 n=$2
shift 2
d=$(mktemp -d rec.XXXXXX)
if ! "$RAPTOR" record "$elf" --cores $n "$@" --truth -o $d/r -q >/dev/null 2>$d/err
then
	echo "FAIL record $elf $n $*: $(tail -1 $d/err)"
	exit 0
fi
want=m4f
case $elf in *-m7-* | */fp64-*) want=m7 ;; esac
if ! grep -q "^model = $want\$" $d/r/manifest.ini; then
	echo "FAIL record $elf $n $*: not recorded as an $want"
	exit 0
fi
if ! "$RAPTOR" replay $d/r --verify 2>$d/err; then
	echo "FAIL replay $elf $n $*: $(grep error $d/err | head -1)"
	exit 0
fi
if ! grep -q "^  the program exited with status 0" $d/err; then
	echo "FAIL replay $elf $n $*: $(grep exited $d/err)"
	exit 0
fi
line=$(sed -n 's/^  \([0-9]*\) instructions verified against the ground truth (FP registers too: 33 in each of \([0-9]*\) states), 0 differences$/\1 \2/p' $d/err)
if [ -z "$line" ]; then
	echo "FAIL replay $elf $n $*: no FP registers verified: $(grep verified $d/err)"
	exit 0
fi
stats=$(python3 ./truthf.py stats $d/r/truth.gz) || { echo "FAIL truthf $elf"; exit 0; }
f=$(echo "$stats" | sed -n 's/^records .* F \([0-9]*\)$/\1/p')
later=$(echo "$stats" | sed -n 's/^later-F //p')
echo "ok $line $f $later $elf $n $*"
rm -rf $d
EOF
chmod +x verify_fp

# run_jobs JOBS: verify_fp over every line of JOBS, two at a time, into
# JOBS.results; fails on a FAIL or a missing result.
run_jobs() {
	xargs -P 2 -L 1 ./verify_fp <"$1" >"$1.results" &&
	test $(wc -l <"$1.results") = $(wc -l <"$1") &&
	! grep FAIL "$1.results" &&
	sed "s/^/# /" "$1.results"
}

# summed RESULTS WHAT: the instructions and FP states over the results
summed() {
	awk -v what="$2" '{ n += $2; s += $3; f += $4 } END {
		print "# " what ": " n " instructions verified, FP registers at " s " states (" 33 * s " comparisons), " f " F records" }' "$1"
}

test_expect_success 'setup: the hard-float programs' '
	grep -- "-m4f-" "$GUEST/single.list" >m4f.list &&
	abs_list m4f.list >single &&
	test $(wc -l <single) -ge 20 &&
	abs_list "$GUEST/multi-m4f.list" >multi &&
	test $(wc -l <multi) -ge 7 &&
	for t in fp-arith fp-random fp-exc fp-ctx; do echo "$I/$t.elf"; done >isa
'

test_expect_success 'every M4F workload and FP ISA program: --verify compares s0..s31 and FPSCR at every step' '
	# (under RAPTOR_TEST_SAMPLE, a sample of the workloads; fpmath and the ISA programs always)
	grep -v /fpmath- single | sed "s/\$/ 1/" >jobs &&
	test_sample jobs &&
	{ grep /fpmath- single; cat isa; } | sed "s/\$/ 1/" >>jobs &&
	run_jobs jobs &&
	summed jobs.results "single-core" &&
	# every state is compared: each instruction (faulted ones too) and exception entry, and the reset
	awk "\$3 <= \$2 { print \"too few FP states: \" \$0; bad = 1 } END { exit bad }" jobs.results &&
	# the programs that compute in floating point change the FP registers after the reset
	for e in fpmath-m4f-O2 fpmath-m4f-Os fp-arith fp-random fp-exc fp-ctx; do
		grep "/$e.elf 1" jobs.results >line &&
		test $(cut -d" " -f5 line) -gt 0 || { cat line; return 1; }
	done
'

test_expect_success 'the FP ISA programs take m4f from their ELF; --cpu m4f gives the same truth' '
	"$RAPTOR" record "$I/fp-exc.elf" --truth -o exc.attr -q >/dev/null &&
	"$RAPTOR" record "$I/fp-exc.elf" --cpu m4f --truth -o exc.cpu -q >/dev/null &&
	grep "^model = m4f" exc.attr/manifest.ini &&
	gzip -dc exc.attr/truth.gz >exc.attr.truth &&
	gzip -dc exc.cpu/truth.gz >exc.cpu.truth &&
	cmp exc.attr.truth exc.cpu.truth
'

test_expect_success 'multicore hard float: the m4f builds at 1, 2, 4 and 8 cores run to status 0 and verify, FP registers too' '
	while read e; do for n in 1 2 4 8; do echo "$e $n"; done; done <multi >mjobs &&
	test_sample mjobs &&
	run_jobs mjobs &&
	test $(wc -l <mjobs.results) -ge $(test_scaled 28) &&
	summed mjobs.results "multicore" &&
	# one reset F record per core at least
	awk "\$4 < \$NF { print \"fewer F records than cores: \" \$0; bad = 1 } END { exit bad }" mjobs.results
'

test_expect_success 'M7 (FPv5-D16): its workloads and fp64 programs at 1 core, the multicore ones at 2, verify d0..d15 and FPSCR at every step' '
	# (the FP workloads at O2 and Os; t0300 verifies every build of single.list)
	grep -- "-m7-" "$GUEST/single.list" >m7.list &&
	abs_list m7.list | grep -E "/(fpmath|fft|printf)-m7-O[2s]" | sed "s/\$/ 1/" >m7jobs &&
	test $(wc -l <m7jobs) -ge 6 &&
	test_sample m7jobs &&
	{
		abs_list m7.list | grep /dmath- | sed "s/\$/ 1/" &&
		for t in fp64-arith fp64-random fp64-ctx fp64-exc; do echo "$I/$t.elf 1"; done &&
		abs_list "$GUEST/multi-m7.list" | sed "s/\$/ 2/"
	} >>m7jobs &&
	grep -q "/dpar-m7-O2.elf 2\$" m7jobs &&
	run_jobs m7jobs &&
	summed m7jobs.results "M7" &&
	awk "\$3 <= \$2 { print \"too few FP states: \" \$0; bad = 1 } END { exit bad }" m7jobs.results &&
	# the double-precision programs change the FP registers after the reset
	for e in "dmath-m7-O2.elf 1" "fp64-arith.elf 1" "fp64-random.elf 1" "dpar-m7-O2.elf 2"; do
		grep "/$e \$" m7jobs.results >line &&
		test $(cut -d" " -f5 line) -gt 0 || { cat line; return 1; }
	done
'

test_expect_success 'M7: --random seeks both ways restore d0..d15 (2-core dpar, fp64-random)' '
	"$RAPTOR" record "$GUEST/dpar-m7-O2.elf" --cores 2 --truth -o dpar2 -q >/dev/null &&
	grep "^model = m7\$" dpar2/manifest.ini &&
	"$RAPTOR" record "$I/fp64-random.elf" --truth -o fp64r -q >/dev/null &&
	"$RAPTOR" replay dpar2 --random 60 2>err.dpar2 &&
	sed "s/^/# /" err.dpar2 &&
	grep "^raptor replay: dpar2: 60 random positions among [0-9]* equal the ground truth (FP registers too: 33 in each of 120 core states) ([0-9]* reached forward, [1-9][0-9]* backward;" err.dpar2 &&
	"$RAPTOR" replay fp64r --random 60 2>err.fp64r &&
	sed "s/^/# /" err.fp64r &&
	grep "^raptor replay: fp64r: 60 random positions among [0-9]* equal the ground truth (FP registers too: 33 in each of 60 core states) ([0-9]* reached forward, [1-9][0-9]* backward;" err.fp64r
'

test_expect_success 'setup: fpmath-m4f-O2 and fp-random recorded' '
	"$RAPTOR" record "$GUEST/fpmath-m4f-O2.elf" --truth -o fpm -q >/dev/null &&
	"$RAPTOR" record "$I/fp-random.elf" --truth -o fpr -q >/dev/null
'

test_expect_success '--random: every core'"'"'s FP registers equal the truth after seeks both ways' '
	for d in fpm fpr; do
		"$RAPTOR" replay $d --random 50 2>err.$d &&
		sed "s/^/# /" err.$d &&
		grep "^raptor replay: $d: 50 random positions among [0-9]* equal the ground truth (FP registers too: 33 in each of 50 core states)" err.$d ||
		return 1
	done &&
	"$RAPTOR" record "$GUEST/reduction-m4f-O2.elf" --cores 4 --truth -o red4 -q >/dev/null &&
	"$RAPTOR" replay red4 --random 50 2>err.red4 &&
	grep "50 random positions among [0-9]* equal the ground truth (FP registers too: 33 in each of 200 core states)" err.red4
'

test_expect_success 'a value flipped in an F record: --verify stops there, naming the register and both values' '
	python3 ./truthf.py stats fpm/truth.gz >stats &&
	later=$(sed -n "s/^later-F //p" stats) &&
	test "$later" -gt 1000 &&
	for k in 0 $((later / 2)) $((later - 1)); do
		rm -rf bad && cp -R fpm bad &&
		python3 ./truthf.py flip fpm/truth.gz bad/truth.gz $k >flip &&
		read x core reg old new <flip &&
		echo "# F record $k: $reg $old -> $new" &&
		test_expect_code 1 "$RAPTOR" replay bad --verify 2>err &&
		grep "^raptor: error: verify: core $core, instruction [0-9]* (position [0-9]*, [0-9]* verified): after pc 0x[0-9a-f]* $reg = $old, the truth $new$" err &&
		grep "FP registers too: 33 in each of [0-9]* states), stopped at the error above" err ||
		{ cat flip err; return 1; }
	done
'

test_expect_success 'a value flipped in the reset F record: --verify at reset, --random at its positions' '
	rm -rf bad && cp -R fpm bad &&
	python3 ./truthf.py flip-reset fpm/truth.gz bad/truth.gz >flip &&
	read x core reg old new <flip &&
	echo "# reset F record: $reg $old -> $new" &&
	test_expect_code 1 "$RAPTOR" replay bad --verify 2>err &&
	grep "^raptor: error: verify: core 0 at reset: $reg = $old, the truth $new$" err &&
	test_expect_code 1 "$RAPTOR" replay bad --random 5 2>err &&
	grep "^raptor: error: random access: position [0-9]* (reached [a-z]* from [0-9]*): core 0 $reg is $old, the truth $new$" err
'

test_expect_success 'FP state on one side only: a mismatched core model, for --verify and --random' '
	rm -rf nofp && cp -R fpm nofp &&
	python3 ./truthf.py strip fpm/truth.gz nofp/truth.gz &&
	python3 ./truthf.py stats nofp/truth.gz | grep " F 0$" &&
	test_expect_code 1 "$RAPTOR" replay nofp --verify 2>err &&
	grep "^raptor: error: verify: core 0 at reset: the replay.s core has an FPU, the truth has no FP registers (a mismatched core model)$" err &&
	test_expect_code 1 "$RAPTOR" replay nofp --random 5 2>err &&
	grep "^raptor: error: random access: position [0-9]*: core 0 has an FPU, the truth has no FP registers (a mismatched core model)$" err &&
	rm -rf m4 && cp -R fpm m4 &&
	sed -i "s/^model = m4f$/model = m4/" m4/manifest.ini &&
	test_expect_code 1 "$RAPTOR" replay m4 --verify 2>err &&
	grep "^raptor: error: verify: core 0 at reset: the replay.s core has no FPU, the truth has FP registers (a mismatched core model)$" err
'

test_expect_success 'an F record cut short: --verify says where' '
	rm -rf cut && cp -R fpm cut &&
	at=$(python3 ./truthf.py cut fpm/truth.gz cut/truth.gz 100) &&
	test_expect_code 1 "$RAPTOR" replay cut --verify 2>err &&
	grep "^raptor: error: .*cut/truth.gz: truncated record at byte $at$" err
'

test_expect_success 'integer recordings: no F record, the demo traces record byte-identical, the summary as before' '
	# (as traces/regen.sh records them: each demo shows its bug, exit status 1)
	while read name cores seed hidden; do
		case $name in "" | "#"*) continue ;; esac
		"$RAPTOR" record "$SRC/traces/$name.elf" --cores $cores --seed $seed --truth \
			-o demo.$name -q >/dev/null
		grep -q "^state = complete" demo.$name/manifest.ini &&
		cmp demo.$name/truth.gz "$SRC/traces/$name/truth.gz" &&
		echo "# traces/$name/truth.gz: recorded again, byte-identical" || return 1
	done <"$SRC/traces/demos.list" &&
	"$RAPTOR" record "$GUEST/systick-m4-O2.elf" --cores 2 --truth -o int -q >/dev/null &&
	python3 ./truthf.py stats int/truth.gz >stats &&
	grep " X [1-9][0-9]* .* F 0$" stats &&
	"$RAPTOR" replay int --verify 2>err &&
	grep "^  [0-9]* instructions verified against the ground truth, 0 differences$" err &&
	! grep "FP registers" err &&
	"$RAPTOR" replay int --random 10 2>err &&
	grep "10 random positions among [0-9]* equal the ground truth (" err &&
	! grep "FP registers" err
'

test_done
