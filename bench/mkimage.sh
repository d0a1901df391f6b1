#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit mkimage against Debian's mkimage on the same job: create and sign a
# FIT with a 64 MiB kernel and a small DTB (sha256 hashes, sha256,rsa2048
# configuration signature, key written to a control DTB with -K -r), same
# .its, key and SOURCE_DATE_EPOCH.  Best of 3 wall-clock times, CPU time
# (user+sys, dtc included) and peak RSS (largest process of each run, dtc
# included) from /usr/bin/time.  Files live on tmpfs (/dev/shm) when
# available so the figures measure the tools, not the disk; vfit fsyncs,
# mkimage does not.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${BUILD:-build}
VFIT=$PWD/$BUILD/vfit
. tests/fixtures.sh
MKIMAGE=${MKIMAGE:-/usr/bin/mkimage}
SIZE_MB=${BENCH_MKIMAGE_MB:-64}
RUNS=3
if [ ! -x /usr/bin/time ] || [ ! -x "$MKIMAGE" ]; then
	echo "SKIP: needs /usr/bin/time (package time) and $MKIMAGE"
	exit 0
fi
bench_dir
export SOURCE_DATE_EPOCH=1700000000

fit_inputs $((SIZE_MB * 1024 * 1024))
fit_keys rsa2048:dev
fit_its -d bench -c sha256,rsa2048:dev > fit.its

# run TOOL... : best wall time, its CPU time, largest peak RSS over RUNS runs
run() {
	best= cpu= rss=0
	i=0
	while [ $i -lt $RUNS ]; do
		cp nosig.dtb k.dtb
		/usr/bin/time -f '%e %U %S %M' -o t.txt "$@" -f fit.its -k keys -K k.dtb -r out.fit \
			> /dev/null 2> err.txt || { cat err.txt; exit 1; }
		read -r e u s m < t.txt
		if [ -z "$best" ] || awk "BEGIN { exit !($e < $best) }"; then
			best=$e
			cpu=$(awk "BEGIN { printf \"%.2f\", $u + $s }")
		fi
		[ "$m" -gt "$rss" ] && rss=$m
		i=$((i + 1))
	done
	echo "$best $cpu $rss"
}

set -- $(run "$MKIMAGE")
m_t=$1 m_cpu=$2 m_rss=$3
cp out.fit mkimage.fit
set -- $(run "$VFIT" mkimage -q)
v_t=$1 v_cpu=$2 v_rss=$3
# Same job: the trees may differ only in signer-name/signer-version.
dtc -I dtb -O dts mkimage.fit 2>/dev/null | grep -v signer > m.dts
dtc -I dtb -O dts out.fit 2>/dev/null | grep -v signer > v.dts
cmp -s m.dts v.dts && same=yes || same=NO

printf 'create + sign, %d MiB kernel (best of %d, files on %s)\n' "$SIZE_MB" "$RUNS" "$base"
printf '  %-22s %9s %9s %12s\n' tool wall-s cpu-s peak-RSS-MiB
printf '  %-22s %9s %9s %12s\n' "mkimage $("$MKIMAGE" -V | sed 's/.* //')" "$m_t" "$m_cpu" $((m_rss / 1024))
printf '  %-22s %9s %9s %12s\n' "vfit mkimage" "$v_t" "$v_cpu" $((v_rss / 1024))
printf '  ratio vfit/mkimage: wall %s, cpu %s (goal <= 0.2); same tree: %s\n' \
	"$(awk "BEGIN { printf \"%.3f\", $v_t / $m_t }")" \
	"$(awk "BEGIN { printf \"%.3f\", $v_cpu / $m_cpu }")" "$same"
[ "$same" = yes ]
