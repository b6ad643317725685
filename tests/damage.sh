# damage.sh: small shell functions that damage a recording on purpose, for
# the tests that check how raptor takes damage (t0300, t0310, t0320,
# t0720). Sourced by tests/lib.sh, and by the job scripts those tests write
# (`. "$SRC/tests/damage.sh"`), which run without lib.sh. No side effects.

# getkey REC SECTION KEY: the value of [SECTION] KEY in REC/manifest.ini.
getkey() {
	awk -v s="[$2]" -v k="$3" '/^\[/ { sec = $0 }
		sec == s && index($0, k " = ") == 1 { print substr($0, length(k) + 4) }' \
		"$1/manifest.ini"
}

# setkey_in MANIFEST SECTION KEY VALUE: set [SECTION] KEY in the file
# MANIFEST; fails if the key is not there.
setkey_in() {
	awk -v s="[$2]" -v k="$3" -v v="$4" '/^\[/ { sec = $0 }
		sec == s && index($0, k " = ") == 1 { $0 = k " = " v; done = 1 }
		{ print }
		END { exit !done }' "$1" >"$1.tmp" &&
	mv "$1.tmp" "$1"
}

# byte FILE OFFSET: the byte at OFFSET, in decimal.
byte() { od -An -tu1 -j $2 -N1 "$1" | tr -d ' '; }

# setbyte FILE OFFSET VALUE: write one byte in place.
setbyte() {
	printf "$(printf '\\%03o' $3)" | dd of="$1" bs=1 seek=$2 conv=notrunc 2>/dev/null
}

# flipbit FILE BIT: invert bit BIT (bit i is bit i % 8 of byte i / 8) in place.
flipbit() {
	setbyte "$1" $(($2 / 8)) $(($(byte "$1" $(($2 / 8))) ^ (1 << ($2 % 8))))
}
