#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit mkimage against Debian's mkimage and against the floor on the same
# jobs: a FIT with a 64 MiB kernel and a small DTB (sha256 hashes,
# sha256,rsa2048 configuration signature, key written to a control DTB
# with -K -r), same .its, key and SOURCE_DATE_EPOCH:
#   create + sign (-f), re-sign in place (-F), create with external data (-E);
#   the floor: `openssl dgst -sha256 -sign` of the kernel (one read, one
#   hash, one RSA signature) then `cp` of it (one write);
# and two FITs of several payloads, created and signed: the kernel, the DTB
# and a 16 MiB ramdisk (issue 29 item 12), and issue 34's 10 MB kernel
# followed by a 50 MB ramdisk.
# Medians of alternated runs, wall time and CPU time (user + system, dtc
# and cp included: on a shared machine the wall time also counts waiting
# for the CPU); peak RSS (largest process, dtc included) and page faults
# of one more run.  Files live on tmpfs (/dev/shm) when available so the
# figures measure the tools, not the disk; vfit fsyncs, mkimage does not.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
VFIT=$BUILD/vfit
. tests/fixtures.sh
. bench/alternate.inc
MKIMAGE=${MKIMAGE:-/usr/bin/mkimage}
SIZE_MB=${BENCH_MKIMAGE_MB:-64}
RUNS=${BENCH_RUNS:-5}
if [ ! -x /usr/bin/time ] || [ ! -x "$MKIMAGE" ] || [ ! -x "$BUILD/bench/cpu_time" ]; then
	echo "SKIP: needs /usr/bin/time (package time), $MKIMAGE and $BUILD/bench/cpu_time"
	exit 0
fi
bench_dir
export SOURCE_DATE_EPOCH=1700000000

fit_inputs $((SIZE_MB * 1024 * 1024))
fit_keys rsa2048:dev
fit_its -d bench -c sha256,rsa2048:dev > fit.its
cp nosig.dtb v.dtb
cp nosig.dtb m.dtb
"$VFIT" mkimage -q -f fit.its -k keys -E vext.fit > /dev/null
"$MKIMAGE" -f fit.its -k keys -E mext.fit > /dev/null
head -c $((16 * 1024 * 1024)) /dev/urandom > ramdisk.bin
fit_its -d three -r ramdisk.bin -s '"fdt", "kernel", "ramdisk"' -c sha256,rsa2048:dev > three.its
head -c 10000000 /dev/urandom > small.bin
head -c 50000000 /dev/urandom > big.bin
fit_its -d issue34 -k small.bin -f "" -r big.bin -s '"kernel", "ramdisk"' \
	-c sha256,rsa2048:dev > i34.its

# shellcheck disable=SC2034  # read by alternate() and peak()
{
cmd_vc="$VFIT mkimage -q -f fit.its -k keys -K v.dtb -r v.fit"
cmd_mc="$MKIMAGE -f fit.its -k keys -K m.dtb -r m.fit"
cmd_floor="openssl dgst -sha256 -sign keys/dev.key -out sig.bin kernel.bin && cp kernel.bin floor.bin"
cmd_vf="$VFIT mkimage -q -F -k keys -K v.dtb -r v.fit"
cmd_mf="$MKIMAGE -F -k keys -K m.dtb -r m.fit"
cmd_ve="$VFIT mkimage -q -F -k keys -E vext.fit"
cmd_me="$MKIMAGE -F -k keys -E mext.fit"
cmd_v3="cp nosig.dtb v3.dtb && $VFIT mkimage -q -f three.its -k keys -K v3.dtb -r v3.fit"
cmd_m3="cp nosig.dtb m3.dtb && $MKIMAGE -f three.its -k keys -K m3.dtb -r m3.fit"
cmd_v34="$VFIT mkimage -q -f i34.its i34v.fit"
cmd_m34="$MKIMAGE -f i34.its i34m.fit"
}
cat kernel.bin ramdisk.bin small.bin big.bin > /dev/null
alternate_cpu "$RUNS" vc mc floor
alternate_cpu "$RUNS" vf mf ve me
alternate_cpu "$RUNS" v3 m3 v34 m34
# Same job: the trees may differ only in signer-name/signer-version.
dtc -I dtb -O dts m.fit 2>/dev/null | grep -v signer > m.dts
dtc -I dtb -O dts v.fit 2>/dev/null | grep -v signer > v.dts
cmp -s m.dts v.dts && same=yes || same=NO
cmp -s i34v.fit i34m.fit || same=NO

echo "$(machine); median of $RUNS alternated runs, files on $base"
printf '  %-34s %9s %8s %8s %8s %12s\n' "$SIZE_MB MiB kernel" "wall ms" "CPU ms" "RSS MiB" \
	faults "vs mkimage"
line() { # label name [mkimage-name]
	set -- "$1" "$2" "${3:-}" $(peak "$2")
	r=
	[ -n "$3" ] && r=$(awk "BEGIN { printf \"%.3fx\", $(median "$2") / $(median "$3") }")
	printf '  %-34s %9s %8s %8s %8s %12s\n' "$1" "$(median "$2")" "$(cpu "$2")" "$4" "$5" "$r"
}
line "vfit mkimage -f (create + sign)" vc mc
line "Debian mkimage -f" mc
line "floor: dgst -sign + cp" floor
line "vfit mkimage -F (re-sign)" vf mf
line "Debian mkimage -F" mf
line "vfit mkimage -F -E (external)" ve me
line "Debian mkimage -F -E" me
line "vfit -f kernel, DTB, 16 MiB ramdisk" v3 m3
line "Debian mkimage -f, the same" m3
line "vfit -f issue 34 (10 MB, then 50 MB)" v34 m34
line "Debian mkimage -f, the same" m34
vc=$(median vc) mc=$(median mc) fl=$(median floor)
uvc=$(cpu vc) ufl=$(cpu floor)
set -- $(peak vc)
vrss=$1
set -- $(peak mc)
mrss=$1
ok() { awk "BEGIN { print ($1 <= $2) ? \"ok\" : \"MISSED\" }"; }
rm_=$(awk "BEGIN { printf \"%.2f\", $vc / $mc }")
rf=$(awk "BEGIN { printf \"%.2f\", $vc / $fl }")
urf=$(awk "BEGIN { printf \"%.2f\", $uvc / $ufl }")
printf '  create + sign: %sx Debian mkimage (goal <= 0.15: %s); the floor: %sx by wall time, %sx by CPU time (goal <= 1: %s, %s); same tree: %s\n' \
	"$rm_" "$(ok "$rm_" 0.15)" "$rf" "$urf" "$(ok "$rf" 1)" "$(ok "$urf" 1)" "$same"
echo "README | \`vfit mkimage\`, create + sign $SIZE_MB MiB | $vc ms ($uvc ms CPU), $vrss MiB RSS | Debian \`mkimage\` $mc ms, $mrss MiB ($rm_ x); \`openssl dgst -sign\` + \`cp\` $fl ms, $ufl ms CPU ($rf x wall, $urf x CPU) |" | sed 's/ x)/x)/g; s/ x wall/x wall/; s/ x CPU)/x CPU)/'
# README rows: A / B of two jobs against Debian's mkimage (label, then vfit and
# mkimage of job A, vfit and mkimage of job B).
rss() { set -- $(peak "$1"); echo "$1"; }
pair() {
	echo "README | $1 | $(median "$2") / $(median "$4") ms, $(rss "$2") / $(rss "$4") MiB RSS |" \
		"Debian \`mkimage\` $(median "$3") / $(median "$5") ms, $(rss "$3") / $(rss "$5") MiB" \
		"($(awk "BEGIN { printf \"%.3fx / %.3fx\", $(median "$2") / $(median "$3"), $(median "$4") / $(median "$5") }")) |"
}
pair "\`vfit mkimage\`, re-sign in place (\`-F\`) / with external data (\`-F -E\`), the same FIT" \
	vf mf ve me
pair "\`vfit mkimage\`, create + sign kernel + DTB + 16 MiB ramdisk / a 10 MB kernel then a 50 MB ramdisk" \
	v3 m3 v34 m34
[ "$same" = yes ]
