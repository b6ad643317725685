#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_description 'mutation campaign: a damaged recording replays identically or fails with a clear error'

# Every mutant of a recording must end in either
#   - an identical replay: exit 0 with --verify (every step compared with the
#     ground truth) and the same summary as the intact recording's, or
#   - a clear error: exit 1, the message names the damaged file and, for stream
#     damage, "core C, instruction N (position P), bit B"; a manifest error
#     names the file, [section] key and value. When --verify sees a
#     difference before the streams do (a damaged value the replay cannot
#     know, a wrong timing parameter), that is an error too; the mutant is then
#     replayed again without --verify, which must end in a clear error or exit
#     0 (the damage is then invisible to the streams, only --verify sees it).
# Never a crash (exit > 128), a hang (60 s), another exit status, or an
# unclear message. The counts per kind go to the log (V=1 shows them).

test_require "$RAPTOR" timeout awk od dd sha256sum xargs

# mutant 'GROUP|NAME|BASE|OP|ARG...': copy recording BASE to m.NAME, damage
# it by OP, replay it with --verify and print 'GROUP|NAME|OUTCOME|MESSAGE',
# OUTCOME one of identical, error, caught (--verify saw a difference first,
# the replay alone fails too), silent (the replay alone exits 0), BAD.
cat >mutant <<'EOF'
#!/bin/sh
IFS='|'
set -f
set -- $1
unset IFS
group=$1 name=$2 base=$3 op=$4
shift 4
m=m.$name
out() {
	echo "$group|$name|$1|$2"
	[ "$1" = BAD ] || rm -rf "$m" "$m.err" "$m.out" "$m.err2"
	exit 0
}
. "$SRC/tests/damage.sh"
setkey() { setkey_in "$m/manifest.ini" "$@"; } # SECTION KEY VALUE, in the mutant
sec_of() { echo ${1%.bin}; }
newsha() { setkey program sha256 $(sha256sum <"$m/program.elf" | cut -c1-64); }
runas=
rm -rf "$m" && cp -r "$base" "$m" || out BAD "cannot copy $base"
case $op in
trunc) # FILE BYTES [bits]: FILE cut to BYTES, and with bits: the manifest agrees
	head -c $2 "$base/$1" >"$m/$1" &&
	if [ "${3:-}" = bits ]; then setkey $(sec_of $1) bits $(($2 * 8)); fi ;;
flip) # FILE BIT
	flipbit "$m/$1" $2 ;;
swap) # cf.bin and lv.bin exchanged, their bits too
	mv "$m/cf.bin" "$m/swap" && mv "$m/lv.bin" "$m/cf.bin" && mv "$m/swap" "$m/lv.bin" &&
	setkey cf bits $(getkey $base lv bits) && setkey lv bits $(getkey $base cf bits) ;;
foreign) # OTHER FILE...: the FILEs and their bits from recording OTHER
	o=$1
	shift
	for f; do
		cp "$o/$f" "$m/$f" && setkey $(sec_of $f) bits $(getkey $o $(sec_of $f) bits) ||
			out BAD "cannot take $f from $o"
	done ;;
elf) # ELF [sha]: another program, with sha: the manifest's SHA-256 made to fit
	cp "$1" "$m/program.elf" && if [ "${2:-}" = sha ]; then newsha; fi ;;
elfbyte) # OFFSET [sha]: one byte of program.elf changed
	setbyte "$m/program.elf" $1 $((($(byte "$m/program.elf" $1) + 1) % 256)) &&
	if [ "${2:-}" = sha ]; then newsha; fi ;;
key) # SECTION KEY VALUE
	setkey "$1" "$2" "$3" ;;
manifest) # OTHER: the manifest of recording OTHER
	cp "$1/manifest.ini" "$m/manifest.ini" ;;
chmod) chmod 000 "$m/$1" && runas=$RUNAS ;;
rm) rm "$m/$1" ;;
rmrec) rm -r "$m" ;;
dir) rm "$m/$1" && mkdir "$m/$1" ;;
*) false ;;
esac || out BAD "cannot make the mutant ($op $*)"

timeout 60 $runas "$RAPTOR" replay "$m" --verify >"$m.out" 2>"$m.err"
rc=$?
case $rc in
0)
	# Identical: the same summary as the intact recording's.
	sed '1s/^raptor replay: [^ ]*: //; 1s/ in [0-9.]* s .*//' "$m.err" >"$m.sum"
	if cmp -s "$m.sum" "$base.sum"; then
		out identical ""
	fi
	out BAD "exit 0, but not the intact recording's replay: $(diff "$base.sum" "$m.sum" | tr '\n' ' ')" ;;
1) ;;
124) out BAD "hangs (killed after 60 s)" ;;
*) [ $rc -gt 128 ] && out BAD "killed by signal $((rc - 128)): $(tail -3 "$m.err" | tr '\n' ' ')"
	out BAD "exit $rc: $(tail -3 "$m.err" | tr '\n' ' ')" ;;
esac

# The error lines raptor prints, and what a clear one looks like.
S="^raptor: error: $m/(cf|lv)\.bin: core [0-9]+, instruction [0-9]+ \(position [0-9]+\), bit [0-9]+: "
V="^raptor: error: verify: core [0-9]+, instruction [0-9]+ \(position [0-9]+, [0-9]+ verified\): "
M="^raptor: error: $m/manifest\.ini: \[[a-z0-9]+\] [a-z0-9_]+ (= |is missing)"
F="^raptor: error: $m/[^ :]+: "
# is PATTERN...: the first error line matching one of the extended regexes.
is() {
	for p; do
		e=$(grep -E -m1 -e "$p" "$m.err") && return 0
	done
	return 1
}
isf() { e=$(grep -F -m1 -e "$1" "$m.err"); }
case $op in
trunc)
	if [ "$1" = manifest.ini ] || [ "$1" = program.elf ] || [ "$1" = truth.gz ]; then
		# the manifest: its reader; the program: its hash; the truth: --verify
		is "$M" "^raptor: error: $m/$1: " "$V"
	elif [ "${3:-}" = bits ]; then
		is "^raptor: error: $m/$1: core [0-9]+, instruction [0-9]+ \(position [0-9]+\), bit [0-9]+: "
	else
		bits=$(getkey $base $(sec_of $1) bits)
		isf "error: $m/$1: $2 bytes, but the manifest says the stream has $bits bits ($(((bits + 7) / 8)) bytes): the file is truncated"
	fi ;;
flip | swap | foreign) is "$S" "$V" ;;
elf | elfbyte)
	if [ "${2:-}" = sha ]; then
		is "$S" "$V" "$M" "^raptor: error: $m/program\.elf: "
	elif [ $op = elf ]; then
		is "^raptor: error: $m/program\.elf: SHA-256 [0-9a-f]{64}, but $m/manifest\.ini says the recorded program's is [0-9a-f]{64}: not the program that was recorded$"
	else
		is "^raptor: error: $m/program\.elf: "
	fi ;;
key)
	if [ "$2" = elf ] || [ "$2" = file ]; then
		# any name without a / is a file name: the replay looks for that file
		is "$S" "$V" "$M" "$F"
	elif [ "$3" = 'x!' ]; then
		isf "error: $m/manifest.ini: [$1] $2 = 'x!': "
	else
		is "$S" "$V" "$M" "$F"
	fi ;;
manifest) is "$S" "$V" "$M" "$F" ;;
chmod | rm | dir)
	is "^raptor: error: $m/$1: .*(Permission denied|No such file or directory|Is a directory|not an ELF file)" ;;
rmrec) is "^raptor: error: $m/manifest\.ini: .*No such file or directory" ;;
esac || out BAD "unclear error: $(grep error "$m.err" | tr '\n' ' ')"

echo "$e" | grep -qE "$V" || out error "$e"
# --verify saw a difference first: what does the replay alone say?
timeout 60 $runas "$RAPTOR" replay "$m" >/dev/null 2>"$m.err2"
rc=$?
case $rc in
0) out silent "$e" ;;
1) grep -qE "$S|$F" "$m.err2" && out caught "$e"
	out BAD "without --verify, unclear error: $(grep error "$m.err2" | tr '\n' ' ')" ;;
124) out BAD "without --verify, hangs (killed after 60 s)" ;;
*) out BAD "without --verify, exit $rc: $(tail -3 "$m.err2" | tr '\n' ' ')" ;;
esac
EOF
chmod +x mutant

# campaign JOBS: run the mutants of file JOBS two at a time, print their
# counts per group as '# ...' lines; fails if any mutant is BAD.
campaign() {
	test_sample "$1" &&
	xargs -d '\n' -n 1 -P 2 ./mutant <"$1" >"$1.raw" &&
	awk -F'|' 'NR == FNR { at[$2] = NR; next } { print at[$2] "|" $0 }' "$1" "$1.raw" |
		sort -t'|' -k1,1n | cut -d'|' -f2- >"$1.out" &&
	if [ "$(wc -l <"$1.out")" != "$(wc -l <"$1")" ]; then
		echo "$(wc -l <"$1.out") outcomes for $(wc -l <"$1") mutants"
		return 1
	fi &&
	awk -F'|' '
		function pl(k, what) { return k " " what (k == 1 ? "" : "s") }
		!($1 in n) { order[++groups] = $1 }
		{ n[$1]++; c[$1, $3]++ }
		$3 == "identical" { same[$1] = same[$1] " " $2 }
		$3 == "silent" { silent[$1] = silent[$1] " " $2 }
		$3 == "error" && !(($1) in ex) { ex[$1] = $4 }
		$3 == "caught" || $3 == "silent" { if (!(($1) in dx)) dx[$1] = $4 }
		END {
			for (i = 1; i <= groups; i++) {
				g = order[i]
				d = c[g, "caught"] + c[g, "silent"]
				printf "# %s: %s, %d identical, %s", g, pl(n[g], "mutant"),
					c[g, "identical"], pl(c[g, "error"], "error")
				if (d)
					printf ", %s seen by --verify (%d of them invisible " \
						"without it)", pl(d, "difference"), c[g, "silent"]
				if (c[g, "BAD"])
					printf ", %d BAD", c[g, "BAD"]
				printf "\n"
				if (g in ex)
					printf "#	e.g. %s\n", ex[g]
				if (g in dx)
					printf "#	e.g. %s\n", dx[g]
				if (c[g, "identical"] && c[g, "identical"] <= 12)
					printf "#	identical:%s\n", same[g]
				if (g in silent)
					printf "#	invisible without --verify:%s\n", silent[g]
			}
		}' "$1.out" &&
	! grep "^[^|]*|[^|]*|BAD|" "$1.out"
}

# size FILE: its length in bytes.
size() {
	wc -c <"$1" | tr -d ' '
}

# keys REC: two mutants per 'key = value' line of REC's manifest, a plausible
# wrong value and junk.
keys() {
	keys_sec=
	while IFS= read -r keys_line; do
		case $keys_line in
		\[*\]) keys_sec=${keys_line#\[} keys_sec=${keys_sec%\]}; continue ;;
		*' = '*) ;;
		*) continue ;;
		esac
		k=${keys_line%% = *} v=${keys_line#* = }
		case $keys_sec/$k in
		recording/format) w=raptor-recording-2 ;;
		recording/state) case $v in complete) w=partial ;; *) w=complete ;; esac ;;
		recording/tool) w="raptor 9.9" ;;
		program/elf) w=truth.gz ;;
		program/sha256) case $v in 0*) w=1${v#?} ;; *) w=0${v#?} ;; esac ;;
		program/model) case $v in m3) w="m4" ;; *) w="m3" ;; esac ;;
		cf/encoding) case $v in tre) w=trb ;; trb) w=nxb ;; *) w=tre ;; esac ;;
		lv/encoding) case $v in cfiat) w=mc2rt ;; mc2rt) w=nxlv ;; *) w=cfiat ;; esac ;;
		*/timed | */shared) w=$((1 - v)) ;;
		cf/predictors)
			case $v in
			gshare=4096,*) w=gshare=1024,ras=16,ibtb=16,shift=4 ;;
			*) w=gshare=4096,ras=32,ibtb=64,shift=4 ;;
			esac ;;
		board/timing_cache | lv/cache)
			case $v in
			*line=32*) w=$(echo "$v" | sed 's/line=32/line=16/') ;;
			*) w=$(echo "$v" | sed 's/line=[0-9]*/line=32/') ;;
			esac ;;
		cf/file) w=lv.bin ;;
		lv/file) w=cf.bin ;;
		truth/file) w=stats.ini ;;
		*)
			case $v in
			0x*) w=$(printf '0x%08x' $(((v + 4) & 0xffffffff))) ;;
			*,*) w=$((${v%,*} < 64 ? ${v%,*} + 1 : ${v%,*} - 1)),${v#*,} ;;
			'' | *[!0-9]*) echo "keys: no plausible value for [$keys_sec] $k = $v" >&2
				return 1 ;;
			*) w=$((v + 1)) ;;
			esac ;;
		esac
		echo "$1 manifest, wrong values|$1-$keys_sec-$k-wrong|$1|key|$keys_sec|$k|$w"
		echo "$1 manifest, junk (x!)|$1-$keys_sec-$k-junk|$1|key|$keys_sec|$k|x!"
	done <"$1/manifest.ini"
}

# le FILE OFFSET BYTES: the little-endian number at OFFSET.
le() {
	od -An -tu1 -j $2 -N$3 "$1" |
		awk '{ for (i = NF; i >= 1; i--) v = v * 256 + $i } END { print v }'
}

# summary REC: replay REC with --verify; its summary, less the directory name
# and the speed, goes to REC.sum: what the replay of an identical mutant prints.
summary() {
	"$RAPTOR" replay $1 --verify 2>$1.err &&
	sed '1s/^raptor replay: [^ ]*: //; 1s/ in [0-9.]* s .*//' $1.err >$1.sum &&
	grep -q "instructions verified against the ground truth, 0 differences" $1.sum &&
	grep -q "the program exited with status 0" $1.sum &&
	echo "# $1: $(sed -n "s/^  \([0-9]*\) instructions verified.*/\1/p" $1.sum)" \
		"instructions verified, the program exited with status 0"
}

# The job lists: 'GROUP|NAME|BASE|OP|ARG...' lines for ./mutant.

# truncations: each stream cut at k/64 of its length, the manifest unchanged;
# and cut at a few bytes with the manifest's bits saying so; the manifest,
# the program and the truth cut at k/64 of their length.
truncations() {
	for r in racy reduction; do
		for f in manifest.ini program.elf truth.gz; do
			len=$(size $r/$f) &&
			k=0 &&
			while [ $k -lt 64 ]; do
				echo "$r $f truncations|$r-$f-cut$k|$r|trunc|$f|$((k * len / 64))"
				k=$((k + 1))
			done || return 1
		done &&
		for s in cf lv; do
			len=$(size $r/$s.bin) &&
			k=0 &&
			while [ $k -lt 64 ]; do
				echo "$r $s.bin truncations|$r-$s-cut$k|$r|trunc|$s.bin|$((k * len / 64))"
				k=$((k + 1))
			done &&
			for o in 1 $((len / 4)) $((len / 2)) $((3 * len / 4)) $((len - 1)) $len; do
				echo "$r $s.bin early ends (bits edited)|$r-$s-end$o|$r|trunc|$s.bin|$o|bits"
			done || return 1
		done
	done
}

# flips: 64 bits per stream, drawn by awk's rand() from a fixed seed.
flips() {
	awk 'BEGIN { srand(310); for (i = 0; i < 256; i++) print rand() }' >rand &&
	i=0 &&
	for r in racy reduction; do
		for s in cf lv; do
			bits=$(sed -n "/^\[$s\]/,/^\[/ s/^bits = //p" $r/manifest.ini) &&
			i=$((i + 64)) &&
			head -n $i rand | tail -n 64 |
				awk -v b=$bits -v r=$r -v s=$s '{ p = int($1 * b)
					printf "%s %s.bin bit flips|%s-%s-flip%d-%d|%s|flip|%s.bin|%d\n",
						r, s, r, s, NR, p, r, s, p }' ||
				return 1
		done
	done
}

# swaps: cf.bin and lv.bin exchanged; the other recording's streams.
swaps() {
	for r in racy reduction; do
		o=reduction
		[ $r = racy ] || o=racy
		echo "$r swapped cf.bin and lv.bin|$r-swap|$r|swap"
		echo "$r streams of $o|$r-cf-of-$o|$r|foreign|$o|cf.bin"
		echo "$r streams of $o|$r-lv-of-$o|$r|foreign|$o|lv.bin"
		echo "$r streams of $o|$r-both-of-$o|$r|foreign|$o|cf.bin|lv.bin"
	done
}

# elves: other builds of the workloads, as they are and with the manifest's
# SHA-256 made to fit; one byte changed in the ELF header, the vector table,
# the code and the last byte of the file, as it is and with the SHA-256 fixed.
elves() {
	for r in racy reduction; do
		case $r in
		racy) others="racy-m3-O0 racy-m3-Os racy-m4-O2 reduction-m4-Os" ;;
		*) others="reduction-m4-O2 reduction-m4-O0 reduction-m3-Os racy-m4-O2" ;;
		esac
		for e in $others; do
			test -f "$GUEST/$e.elf" || return 1
			echo "$r another program|$r-elf-$e|$r|elf|$GUEST/$e.elf"
			echo "$r another program (SHA-256 edited)|$r-elf-$e-sha|$r|elf|$GUEST/$e.elf|sha"
		done
		# the first loaded segment with bytes: the vector table, then the code
		elf=$r/program.elf
		phoff=$(le $elf 28 4) phent=$(le $elf 42 2) phnum=$(le $elf 44 2)
		i=0 off=
		while [ $i -lt $phnum ] && [ -z "$off" ]; do
			h=$((phoff + i * phent))
			if [ "$(le $elf $h 4)" = 1 ] && [ "$(le $elf $((h + 16)) 4)" -gt 64 ]; then
				off=$(le $elf $((h + 4)) 4) len=$(le $elf $((h + 16)) 4)
			fi
			i=$((i + 1))
		done
		test -n "$off" || return 1
		for o in 0 4 18 $off $((off + 3)) $((off + 4)) $((off + len / 4)) \
			$((off + len / 2)) $((off + 3 * len / 4)) $(($(size $elf) - 1)); do
			echo "$r one byte changed|$r-byte$o|$r|elfbyte|$o"
			echo "$r one byte changed (SHA-256 edited)|$r-byte$o-sha|$r|elfbyte|$o|sha"
		done
	done
}

# manifests: a recording given another one's manifest.ini: another
# program's, and another run's of the same program (other seed, cores).
manifests() {
	echo "manifest of another program|racy-mf-reduction|racy|manifest|reduction"
	echo "manifest of another program|reduction-mf-racy|reduction|manifest|racy"
	echo "manifest of another run (seed 2)|racy-mf-seed2|racy|manifest|racyb"
	echo "manifest of another run (2 cores)|racy-mf-2cores|racy|manifest|racyc"
	echo "manifest of another run (seed 1)|racyb-mf-racy|racyb|manifest|racy"
}

# unreadable: chmod 000 (when that stops this user; see the test), a missing
# file or recording, a directory in place of a file.
unreadable() {
	for r in racy reduction; do
		for f in manifest.ini program.elf cf.bin lv.bin truth.gz stats.ini; do
			[ -z "$1" ] || echo "$r chmod 000|$r-chmod-$f|$r|chmod|$f"
			echo "$r missing file|$r-rm-$f|$r|rm|$f"
			echo "$r directory in place of a file|$r-dir-$f|$r|dir|$f"
		done
		echo "$r missing file|$r-rm-all|$r|rmrec"
	done
}

test_expect_success 'setup: two recordings, their replays verified' '
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 4 --truth -o racy -q >/dev/null &&
	"$RAPTOR" record "$GUEST/reduction-m4-Os.elf" --cpu m4 --cores 2 --cf-enc nxb \
		--lv-enc mc2rt --functional --truth -o reduction -q >/dev/null &&
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 4 --seed 2 --truth -o racyb -q >/dev/null &&
	"$RAPTOR" record "$GUEST/racy-m3-O2.elf" --cores 2 --truth -o racyc -q >/dev/null &&
	summary racy && summary reduction && summary racyb &&
	for r in racy reduction; do
		for f in manifest.ini program.elf cf.bin lv.bin truth.gz stats.ini; do
			test -s $r/$f || return 1
		done
	done
'

test_expect_success 'truncations: refused up front, or (bits edited) an early end mid-way; manifest, program, truth cut' '
	truncations >trunc &&
	test $(wc -l <trunc) = $((4 * (64 + 6) + 6 * 64)) &&
	campaign trunc
'

test_expect_success 'bit flips: 64 seeded random bits per stream' '
	flips >flips &&
	test $(wc -l <flips) = 256 &&
	campaign flips
'

test_expect_success 'CFiat value bits flipped: the replay names the traced bytes that differ from what it knows' '
	bits=$(sed -n "/^\[lv\]/,/^\[/ s/^bits = //p" racy/manifest.ini) &&
	n=0 &&
	for k in $(seq 1 24); do
		p=$(((k * 104729) % bits)) &&
		rm -rf cfiat && cp -r racy cfiat && flipbit cfiat/lv.bin $p &&
		test_expect_code 1 "$RAPTOR" replay cfiat 2>err &&
		grep -E "^raptor: error: cfiat/lv\.bin: core [0-9]+, instruction [0-9]+ \(position [0-9]+\), bit [0-9]+: " err ||
			return 1
		if grep -E "bit [0-9]+: the traced bytes at 0x[0-9a-f]{8} differ from what the replay knows there$" err; then
			n=$((n + 1))
		fi
	done &&
	echo "# $n of 24 flips: the traced bytes differ" &&
	test $n -ge 4
'

test_expect_success 'swapped streams, and streams from the other recording' '
	swaps >swaps &&
	campaign swaps
'

test_expect_success 'another program, one byte of the program changed' '
	elves >elves &&
	test $(wc -l <elves) = 56 &&
	campaign elves
'

test_expect_success 'every manifest key: a plausible wrong value, and junk' '
	keys racy >keys &&
	keys reduction >>keys &&
	test $(grep -c "^racy" keys) = $((2 * $(grep -c " = " racy/manifest.ini))) &&
	test $(grep -c "^reduction" keys) = $((2 * $(grep -c " = " reduction/manifest.ini))) &&
	campaign keys
'

test_expect_success 'a manifest from another recording: of another program, of another run' '
	manifests >manifests &&
	test $(wc -l <manifests) = 5 &&
	campaign manifests
'

test_expect_success 'unreadable and missing files, a directory in place of a file' '
	echo secret >probe && chmod 000 probe &&
	RUNAS= && export RUNAS &&
	chmod=yes &&
	if cat probe >/dev/null 2>&1; then
		p="setpriv --reuid=65534 --regid=65534 --clear-groups"
		if command -v setpriv >/dev/null && ! $p cat probe >/dev/null 2>&1 &&
			$p "$RAPTOR" replay racy --to 1 -q 2>/dev/null
		then
			RUNAS=$p
			echo "# uid $(id -u) reads files whatever their mode: the chmod 000" \
				"mutants are replayed as uid 65534 (setpriv)"
		else
			chmod=
			echo "# uid $(id -u) reads files whatever their mode, and no other uid" \
				"can replay here: the chmod 000 mutants are skipped"
		fi
	fi &&
	unreadable "$chmod" >unread &&
	campaign unread
'

test_done
