#!/bin/bash
# profiles.sh: the ELFs of bench/run.sh's "ISS speed per core model" table,
# one line each: crc32, sha256 and fpmath at O2 for every core model (the
# M33's fpmath is its hard-float m33f build).
# Usage: bench/profiles.sh [BUILD]
set -eu
g=${1:-build}/guest
for m in m3 m4 m4f m7 m33 m0plus; do
	for w in crc32 sha256 fpmath; do
		e=$g/$w-$m-O2.elf
		[ "$m$w" = m33fpmath ] && e=$g/fpmath-m33f-O2.elf
		[ -e "$e" ] || { echo "profiles: $e is missing (make guest)" >&2; exit 1; }
		echo "$e"
	done
done
