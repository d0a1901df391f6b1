#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Adversarial FITs against the verifier (issue 10, class 1): each about
# BENCH_WORST_BYTES (default 4 MiB), built by $BUILD/bench/fit_worst (see
# bench/fit_worst.c for the shapes), every one of which verifies.  The
# first is the red team's: a signed FIT padded, where no signature looks,
# with a node of about a million FDT_NOP tags followed by 4,000 empty
# siblings, the largest the old quadratic sibling check could be made to
# chew on within its 4,096-node limit (23.8 s on main at 095beda).
# For each: the tag steps vfit_verify() takes per FDT tag, then the cpu
# time of `vfit verify` (whole command, default configuration) next to
# `openssl dgst -sha256` of the same file, and U-Boot HEAD's
# fit_check_sign for scale (one run, capped at BENCH_WORST_CAP s; where
# tests/fixtures.sh's `anchors` finds it).  "long-name" is also built at
# half the size: its time should double, not quadruple.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
VFIT=$BUILD/vfit
GEN=$BUILD/bench/fit_worst
. "$ROOT/tests/fixtures.sh"
anchors
BYTES=${BENCH_WORST_BYTES:-4194304}
CAP=${BENCH_WORST_CAP:-20}
if [ ! -x "$GEN" ]; then
	echo "SKIP: needs $GEN (make bench builds it)"
	exit 0
fi
bench_dir

now() { date +%s%N; }

# runs CMD...: "cpu wall", ms per run (cpu: user+sys), over 5 runs in a row
# after one to warm up, or that one alone when it took over a second;
# "failed failed" if one fails.  A short command's wall time on a shared
# machine is mostly waiting for a CPU: the ratios are of cpu time.
runs() {
	k=1
	s=$(now)
	/usr/bin/time -f '%U %S' -o t.txt "$@" > /dev/null 2>&1 || { echo failed failed; return; }
	e=$(now)
	if [ $(((e - s) / 1000000)) -lt 1000 ]; then
		k=5
		s=$(now)
		/usr/bin/time -f '%U %S' -o t.txt sh -c \
			'i=0; while [ $i -lt 5 ]; do "$@" > /dev/null 2>&1 || exit 1; i=$((i + 1)); done' \
			sh "$@" || { echo failed failed; return; }
		e=$(now)
	fi
	read -r u sy < t.txt
	awk "BEGIN { printf \"%.1f %.1f\", ($u + $sy) * 1000 / $k, ($e - $s) / 1e6 / $k }"
}

"$GEN" . "$BYTES" > gen.txt || { cat gen.txt; exit 1; }
status=0
: > rows.txt
tail -n +2 gen.txt | while read -r name bytes tags steps per result what; do
	[ "$result" = OK ] || { echo "fit_worst: $name: $result"; exit 1; }
	set -- $(runs "$VFIT" verify -f "$name.fit" -k ctl.dtb)
	v=$1 vw=$2
	set -- $(runs openssl dgst -sha256 "$name.fit")
	o=$1
	h=n/a
	if [ -n "$HEAD_CHECK" ]; then
		/usr/bin/time -f '%U %S' -o t.txt timeout "$CAP" "$HEAD_CHECK" -f "$name.fit" \
			-k ctl.dtb > /dev/null 2>&1
		case $? in
		0) h=$(awk '{ printf "%.1f", ($1 + $2) * 1000 }' t.txt) ;;
		124) h=">${CAP}000" ;;
		*) h=failed ;;
		esac
	fi
	echo "$name $bytes $per $v $o $vw $h" >> rows.txt
done || status=1

awk -v cap="$CAP" '
{ name[NR] = $1; bytes[NR] = $2; per[NR] = $3; v[NR] = $4; o[NR] = $5; vw[NR] = $6; h[NR] = $7 }
END {
	print "verify the default configuration, ms of cpu (user+sys) per run"
	printf "  %-15s %9s %9s %9s %10s %7s %8s %9s %11s\n", "shape", "bytes", "steps/tag",
		"vfit", "openssl", "ratio", "ns/byte", "vfit wall", "HEAD chk"
	for (i = 1; i <= NR; i++) {
		nsb = v[i] * 1e6 / bytes[i]
		printf "  %-15s %9d %9s %9s %10s %6.1fx %8.1f %9s %11s\n", name[i], bytes[i], per[i],
			v[i], o[i], v[i] / (o[i] > 0 ? o[i] : 1), nsb, vw[i], h[i]
		if (nsb > worst) { worst = nsb; w = i }
		t[name[i]] = v[i]; b[name[i]] = bytes[i]
	}
	printf "  worst per byte: %s, %.1f ns/byte, %.1fx openssl dgst -sha256\n", name[w], worst,
		v[w] / (o[w] > 0 ? o[w] : 1)
	printf "README | `vfit verify`, worst of %d adversarial 4 MiB FITs (`bench/worst.sh`): %s, cpu | %s ms (%.0f ns/byte) | `openssl dgst -sha256` %s ms (%.1fx); U-Boot HEAD `fit_check_sign` %s ms |\n",
		NR, name[w], v[w], worst, o[w], v[w] / (o[w] > 0 ? o[w] : 1), h[w]
	if ("long-name-half" in t && t["long-name-half"] > 0) {
		g = t["long-name"] / t["long-name-half"]
		printf "  long-name at %.1fx the bytes: %.1fx the time (%s)\n",
			b["long-name"] / b["long-name-half"], g,
			(g > 2.6 ? "SUPERLINEAR: libfdt measures every property name it reads" : "linear")
	}
	print "  openssl: openssl dgst -sha256 of the same file; ratio: vfit / openssl;"
	printf "  HEAD chk: U-Boot HEAD fit_check_sign, one run, capped at %d s.\n", cap
}' rows.txt
exit $status
