#!/bin/sh
# regen.sh: record the demo traces again from their committed ELFs and
# check that the recordings come out byte-identical (what `make traces` does).
#
#   traces/regen.sh [--out DIR] [--from-build GUEST] RAPTOR
#
# For each "NAME CORES SEED HIDDEN" line of traces/demos.list: `RAPTOR record
# traces/NAME.elf --cores CORES --seed SEED --truth` into DIR/NAME (default
# traces/NAME, replaced in place), then cmp every file with traces/NAME as
# it was. Exit 0 when every recording is byte-identical; 1 when one
# differs or is new (the new one is kept: review it, commit it), or when a
# recording fails. --from-build GUEST first copies GUEST/demos/NAME.elf
# (make guest-demos) over traces/NAME.elf, to take in changed demo sources.
set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 1
out=$here from=""
while [ $# -gt 1 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--from-build) from=$2; shift 2 ;;
	*) break ;;
	esac
done
if [ $# != 1 ]; then
	echo "usage: traces/regen.sh [--out DIR] [--from-build GUEST] RAPTOR" >&2
	exit 2
fi
raptor=$1
mkdir -p "$out" || exit 1
tmp=$(mktemp -d "$out/.regen.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
while read -r name cores seed _hidden; do
	case $name in '' | '#'*) continue ;; esac
	elf=$here/$name.elf
	if [ -n "$from" ]; then
		cp "$from/demos/$name.elf" "$elf" || { fails=$((fails + 1)); continue; }
	fi
	"$raptor" record "$elf" --cores "$cores" --seed "$seed" --truth --all-encodings -q \
		-o "$tmp/$name" >"$tmp/$name.out" 2>&1
	rc=$?
	if [ $rc = 125 ] || [ $rc = 2 ] || ! grep -q '^state = complete' "$tmp/$name/manifest.ini" 2>/dev/null; then
		echo "traces/$name: raptor record failed (exit $rc):"
		cat "$tmp/$name.out"
		fails=$((fails + 1))
		continue
	fi
	# The program's own verdict: every demo trace must show its bug.
	verdict=$(grep -m1 -E '^(FAIL|ok) ' "$tmp/$name.out")
	same=1 why=
	for f in "$tmp/$name"/* "$here/$name"/*; do
		[ -e "$f" ] || continue
		b=${f##*/}
		# the replay's index (raptor index, or serve's background one) is
		# derived from the recording, not part of it
		[ "$b" = index.raptor ] && continue
		[ -e "$here/$name/$b" ] && [ -e "$tmp/$name/$b" ] &&
			cmp -s "$here/$name/$b" "$tmp/$name/$b" && continue
		same=0
		case " $why " in *" $b "*) ;; *) why="$why $b" ;; esac
	done
	rm -rf "${out:?}/$name.old"
	[ -d "$out/$name" ] && mv "$out/$name" "$out/$name.old"
	mv "$tmp/$name" "$out/$name" && rm -rf "${out:?}/$name.old"
	if [ $same = 1 ]; then
		echo "traces/$name: byte-identical ($cores cores, seed $seed: $verdict)"
	else
		echo "traces/$name: DIFFERS from the committed recording:$why ($cores cores, seed $seed: $verdict)"
		fails=$((fails + 1))
	fi
	case $verdict in FAIL*) ;; *)
		echo "traces/$name: the bug does not show with seed $seed"
		fails=$((fails + 1)) ;;
	esac
done <"$here/demos.list"
[ $fails = 0 ]
