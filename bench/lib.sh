# bench/lib.sh: what the benchmark scripts share; sourced, with $tmp set to
# a scratch directory.

# timed CMD...: run CMD once, output in $tmp/out; sets wall (s), cpu_s
# (user + system, s), rss (peak, KiB) and rc (its exit status)
timed() {
	local u s
	rc=0
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$@" </dev/null >"$tmp/out" 2>&1 || rc=$?
	read -r wall u s rss <"$tmp/time" || true
	cpu_s=$(awk -v u="${u:-0}" -v s="${s:-0}" 'BEGIN { print u + s }')
	wall=${wall:-0} rss=${rss:-0}
}

# key FILE NAME: the value of NAME= in rplbench's output (its last, when a
# key is printed again at the end)
key() { sed -n "s/^$2=//p" "$1" | tail -1; }
