#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit under the names of U-Boot's other host tools, side by side with the
# real ones: Debian's dumpimage and mkenvimage (u-boot-tools 2023.01), and
# U-Boot HEAD's dumpimage, mkenvimage, fit_check_sign and fit_info where
# tests/fixtures.sh's `anchors` finds them (else those parts are skipped,
# class anchor).  Every case runs both tools on the same inputs in two
# directories: a success must give the same exit status (0), the same
# standard output byte for byte and the same output file byte for byte; a
# failure must fail in both, vfit with its contract status (1 bad input,
# 2 usage or I/O; U-Boot's tools exit 1, or dumpimage's 253/255) and one
# "vfit: ..." line, and vfit must leave no output file.  Where vfit
# differs on purpose (README "Deliberate differences"), the case checks
# vfit alone and says so.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000
MKIMAGE=${MKIMAGE:-/usr/bin/mkimage}
DUMPIMAGE=${DUMPIMAGE:-/usr/bin/dumpimage}
MKENVIMAGE=${MKENVIMAGE:-/usr/bin/mkenvimage}
if ! "$MKIMAGE" -V 2>/dev/null | grep -q 'mkimage version 2023\.01' ||
	! "$DUMPIMAGE" -V 2>/dev/null | grep -q 'dumpimage version 2023\.01' ||
	! [ -x "$MKENVIMAGE" ]; then
	skip tool "Debian's u-boot-tools 2023.01 (mkimage, dumpimage, mkenvimage) not found: nothing compared"
	finish
	exit $?
fi
anchors
HEAD_DUMP='' HEAD_ENV='' HEAD_INFO=''
for _t in dumpimage mkenvimage fit_info; do
	if [ -z "$ANCHORS" ] || [ ! -x "$ANCHORS/u-boot-head-$_t" ]; then
		continue
	fi
	case $_t in
	dumpimage) HEAD_DUMP=$ANCHORS/u-boot-head-$_t ;;
	mkenvimage) HEAD_ENV=$ANCHORS/u-boot-head-$_t ;;
	fit_info) HEAD_INFO=$ANCHORS/u-boot-head-$_t ;;
	esac
done

# vfit under each name, as a build system's PATH would hold it.
mkdir bin
for n in dumpimage mkenvimage fit_check_sign fit_info; do ln -s "$VFIT" "bin/$n"; done
V=$T/bin

# run DIR CMD...: CMD in DIR (inputs in ../in; "out" and "nodir" removed
# first), its stdout, stderr and status kept there.  Shell builtins where
# they do: the matrices below are a few hundred runs.
mkdir r v
run() {
	_d=$1
	shift
	rm -rf "$_d/out" "$_d/nodir"
	(cd "$_d" && "$@" >stdout 2>stderr)
	echo $? >"$_d/rc"
}

# case NAME WANT REF VFIT_TOOL ARGS...: one case as described above; the
# output file, if any, is called "out".  WANT is vfit's status.
case_() {
	_n=$1 _want=$2 _ref=$3 _vf=$4
	shift 4
	run r "$_ref" "$@"
	run v "$_vf" "$@"
	read -r _rr <r/rc
	read -r _rv <v/rc
	if [ "$_want" = 0 ]; then
		# A script's listing: mkimage prints a host address where vfit
		# prints the file offset (README), the rest must match.
		cmp -s r/stdout v/stdout || sed -i 's/^\(    Offset = 0x\).*/\1/' r/stdout v/stdout
		if [ "$_rr" = 0 ] && [ "$_rv" = 0 ] && cmp -s r/stdout v/stdout &&
			{ [ ! -e r/out ] && [ ! -e v/out ] || cmp -s r/out v/out; }; then
			pass
		else
			fail "$_n: exit $_rr/$_rv, or stdout or out differ"
			diff r/stdout v/stdout | head -n 6 | sed 's/^/    /'
			sed 's/^/    vfit: /' v/stderr | head -n 3
		fi
		return
	fi
	read -r _line <v/stderr
	if [ "$_rr" != 0 ] && [ "$_rv" = "$_want" ] && [ ! -e v/out ]; then
		case $_line in
		"vfit: "*) pass; return ;;
		esac
	fi
	fail "$_n: exit $_rr/$_rv (want nonzero/$_want), or vfit wrote out, or no 'vfit:' line"
	sed 's/^/    vfit: /' v/stderr | head -n 3
}

# ---- inputs -------------------------------------------------------------
mkdir in
cd in || exit 2
random k.bin 3000
random r.bin 1001
random d.bin 77
printf 'echo one\n' >s1.txt
printf 'echo two\nbootm\n' >s2.txt
"$MKIMAGE" -A arm -O linux -T multi -C none -n multi -d k.bin:r.bin:d.bin m.img >/dev/null &&
	"$MKIMAGE" -A arm64 -O linux -T kernel -C none -a 0x80000 -n kernel -d k.bin s.img >/dev/null &&
	"$MKIMAGE" -A arm -O linux -T script -C none -n script -d s1.txt:s2.txt sc.img >/dev/null &&
	"$MKIMAGE" -A arm -O linux -T ramdisk -C gzip -n rd -d r.bin rd.img >/dev/null || exit 2
cat >f.its <<'EOF'
/dts-v1/;
/ {
	description = "tools";
	#address-cells = <1>;
	images {
		kernel {
			description = "k";
			data = /incbin/("k.bin");
			type = "kernel";
			arch = "arm64";
			os = "linux";
			compression = "none";
			load = <0x80000>;
			entry = <0x80000>;
			hash-1 { algo = "sha256"; };
		};
		fdt-1 {
			description = "d";
			data = /incbin/("d.bin");
			type = "flat_dt";
			arch = "arm64";
			compression = "none";
			hash-1 { algo = "crc32"; };
			hash-2 { algo = "sha256"; };
		};
		ramdisk {
			description = "r";
			data = /incbin/("r.bin");
			type = "ramdisk";
			arch = "arm64";
			os = "linux";
			compression = "none";
			hash-1 { algo = "sha1"; };
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			kernel = "kernel";
			fdt = "fdt-1";
			ramdisk = "ramdisk";
			signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; sign-images = "kernel", "fdt", "ramdisk"; };
		};
	};
};
EOF
mkdir keys
"$VFIT" keygen -a rsa2048 -k keys -n dev >/dev/null || exit 2
printf '/dts-v1/; / { model = "u-boot"; };' | dtc -I dts -O dtb -o ctl.dtb
cp ctl.dtb ctl-mk.dtb
printf '/dts-v1/; / { model = "other"; };' | dtc -I dts -O dtb -o other.dtb
mkdir keys2
"$VFIT" keygen -a rsa2048 -k keys2 -n dev >/dev/null || exit 2
"$VFIT" mkimage -f f.its -k keys2 -K other.dtb -r other.fit >/dev/null || exit 2
# The same FIT from Debian's mkimage: embedded, -E, -E -p (data-position), signed with -K.
"$MKIMAGE" -f f.its f.fit >/dev/null && "$MKIMAGE" -E -f f.its fe.fit >/dev/null &&
	"$MKIMAGE" -E -p 0x2000 -f f.its fp.fit >/dev/null &&
	"$MKIMAGE" -f f.its -k keys -K ctl-mk.dtb -r mk.fit >/dev/null &&
	"$VFIT" mkimage -f f.its -k keys -K ctl.dtb -r v.fit >/dev/null || exit 2
# A legacy image with its header CRC broken, one with its data CRC broken.
cp s.img badh.img
flip_byte badh.img 40
cp s.img badd.img
flip_byte badd.img 100
cd .. || exit 2

# ---- dumpimage: Debian 2023.01, then HEAD --------------------------------
dump_matrix() {
	D=$1
	case_ "$2 -l multi" 0 "$D" "$V/dumpimage" -l ../in/m.img
	case_ "$2 -l kernel" 0 "$D" "$V/dumpimage" -l ../in/s.img
	case_ "$2 -l script" 0 "$D" "$V/dumpimage" -l ../in/sc.img
	case_ "$2 -l FIT" 0 "$D" "$V/dumpimage" -l ../in/f.fit
	case_ "$2 -l external FIT" 0 "$D" "$V/dumpimage" -l ../in/fe.fit
	case_ "$2 -l signed FIT" 0 "$D" "$V/dumpimage" -l ../in/mk.fit
	for p in 0 1 2; do
		case_ "$2 FIT -p $p" 0 "$D" "$V/dumpimage" -T flat_dt -p $p -o out ../in/f.fit
		case_ "$2 -E FIT -p $p" 0 "$D" "$V/dumpimage" -T flat_dt -p $p -o out ../in/fe.fit
		case_ "$2 -E -p FIT -p $p" 0 "$D" "$V/dumpimage" -T flat_dt -p $p -o out ../in/fp.fit
		case_ "$2 multi -p $p" 0 "$D" "$V/dumpimage" -T multi -p $p -o out ../in/m.img
	done
	case_ "$2 signed FIT -p 0" 0 "$D" "$V/dumpimage" -T flat_dt -p 0 -o out ../in/mk.fit
	case_ "$2 FIT, no -p" 0 "$D" "$V/dumpimage" -T flat_dt -o out ../in/f.fit
	case_ "$2 -T kernel on multi -p 1" 0 "$D" "$V/dumpimage" -T kernel -p 1 -o out ../in/m.img
	case_ "$2 kernel image" 0 "$D" "$V/dumpimage" -T kernel -o out ../in/s.img
	case_ "$2 kernel image, -p 1 unused" 0 "$D" "$V/dumpimage" -T kernel -p 1 -o out ../in/s.img
	case_ "$2 script -p 1 (whole data)" 0 "$D" "$V/dumpimage" -T script -p 1 -o out ../in/sc.img
	case_ "$2 ramdisk image" 0 "$D" "$V/dumpimage" -T ramdisk -o out ../in/rd.img
	case_ "$2 -T filesystem on kernel" 0 "$D" "$V/dumpimage" -T filesystem -o out ../in/s.img
	# Failures.
	case_ "$2 FIT -p 3" 1 "$D" "$V/dumpimage" -T flat_dt -p 3 -o out ../in/f.fit
	case_ "$2 multi -p 3" 1 "$D" "$V/dumpimage" -T multi -p 3 -o out ../in/m.img
	case_ "$2 -T flat_dt on legacy" 1 "$D" "$V/dumpimage" -T flat_dt -o out ../in/s.img
	case_ "$2 -T kernel on FIT" 1 "$D" "$V/dumpimage" -T kernel -o out ../in/f.fit
	case_ "$2 -T kernel -l on FIT" 1 "$D" "$V/dumpimage" -T kernel -l ../in/f.fit
	case_ "$2 header CRC" 1 "$D" "$V/dumpimage" -T kernel -o out ../in/badh.img
	case_ "$2 data CRC" 1 "$D" "$V/dumpimage" -T kernel -o out ../in/badd.img
	case_ "$2 -p abc" 2 "$D" "$V/dumpimage" -T flat_dt -p abc -o out ../in/f.fit
	case_ "$2 -T bogus" 2 "$D" "$V/dumpimage" -T bogus -l ../in/f.fit
	case_ "$2 missing image" 2 "$D" "$V/dumpimage" -l ../in/none.img
	case_ "$2 no -o" 2 "$D" "$V/dumpimage" -T flat_dt -p 0 ../in/f.fit
	case_ "$2 no -T" 2 "$D" "$V/dumpimage" -p 0 -o out ../in/f.fit
	case_ "$2 output dir missing" 2 "$D" "$V/dumpimage" -T kernel -o nodir/out ../in/s.img
}
dump_matrix "$DUMPIMAGE" "dumpimage 2023.01"
if [ -n "$HEAD_DUMP" ]; then
	dump_matrix "$HEAD_DUMP" "dumpimage HEAD"
else
	skip anchor "U-Boot HEAD's dumpimage not found: its matrix not run"
fi
# The output file's mode: 0600 when dumpimage creates it, kept when it exists.
run v "$V/dumpimage" -T kernel -o out ../in/s.img
is "dumpimage: new file mode" "600" "$(stat -c %a v/out)"
# -V: a line scripts can match, naming vfit.
"$V/dumpimage" -V >ver.txt
contains "dumpimage -V" ver.txt '^dumpimage version vfit [0-9]'

# ---- mkenvimage: Debian 2023.01, then HEAD ----------------------------------
cd in || exit 2
printf 'bootcmd=run distro_bootcmd\nbootdelay=3\n\n# a comment\nfdtfile=board.dtb\n' >env.txt
printf 'a=1\n\n\n#c1\n#c2\n  \nb=x#y\n#\nlast=no newline' >env2.txt
printf 'cmd=echo a\\\necho b\\\n\nx=1\n' >env3.txt
printf 'a=1\r\nb=2\r\n' >crlf.txt
printf '# only\n\n#comments\n' >comments.txt
: >empty.txt
printf 'a=1234567890\nb=xyz\n' >fit.txt
printf 'a=1234567890\nb=xyz' >fit2.txt
awk 'BEGIN { for (i = 0; i < 400; i++) printf "var%d=value-%d\n", i, i }' >big.txt
cd .. || exit 2

# The text on standard input, for either tool.
ref_stdin() { "$E" "$@" <../in/env.txt; }
vfit_stdin() { "$V/mkenvimage" "$@" <../in/env.txt; }
env_matrix() {
	E=$1
	case_ "$2 basic" 0 "$E" "$V/mkenvimage" -s 0x4000 -o out ../in/env.txt
	case_ "$2 -r" 0 "$E" "$V/mkenvimage" -r -s 0x4000 -o out ../in/env.txt
	case_ "$2 -b" 0 "$E" "$V/mkenvimage" -b -s 0x4000 -o out ../in/env.txt
	case_ "$2 -r -b" 0 "$E" "$V/mkenvimage" -r -b -s 0x2000 -o out ../in/env.txt
	case_ "$2 -p 0" 0 "$E" "$V/mkenvimage" -p 0 -s 0x1000 -o out ../in/env.txt
	case_ "$2 -p 0x55" 0 "$E" "$V/mkenvimage" -p 0x55 -s 256 -o out ../in/env.txt
	case_ "$2 decimal size" 0 "$E" "$V/mkenvimage" -s 16384 -o out ../in/env.txt
	case_ "$2 octal size" 0 "$E" "$V/mkenvimage" -s 010000 -o out ../in/env.txt
	case_ "$2 blank lines, comments, no final newline" 0 "$E" "$V/mkenvimage" -s 512 -o out ../in/env2.txt
	case_ "$2 backslash-newline" 0 "$E" "$V/mkenvimage" -s 512 -o out ../in/env3.txt
	case_ "$2 CRLF kept" 0 "$E" "$V/mkenvimage" -s 512 -o out ../in/crlf.txt
	case_ "$2 comments only" 0 "$E" "$V/mkenvimage" -s 512 -o out ../in/comments.txt
	case_ "$2 empty input" 0 "$E" "$V/mkenvimage" -s 512 -o out ../in/empty.txt
	case_ "$2 400 variables" 0 "$E" "$V/mkenvimage" -r -s 0x20000 -o out ../in/big.txt
	case_ "$2 to stdout (-o -)" 0 "$E" "$V/mkenvimage" -s 1024 -o - ../in/env.txt
	case_ "$2 to stdout (no -o)" 0 "$E" "$V/mkenvimage" -s 1024 ../in/env.txt
	case_ "$2 stdin (-)" 0 ref_stdin vfit_stdin -s 1024 -o out -
	case_ "$2 stdin (no file)" 0 ref_stdin vfit_stdin -s 1024 -o out
	# Around the edge: 19 bytes of entries + the closing NUL, with and
	# without a final newline, with and without -r.
	for s in 22 23 24 25 26 27; do
		for f in fit fit2; do
			for r in "" -r; do
				if "$E" $r -s $s -o /dev/null "in/$f.txt" 2>/dev/null; then w=0; else w=1; fi
				case_ "$2 -s $s $r $f" $w "$E" "$V/mkenvimage" $r -s $s -o out "../in/$f.txt"
			done
		done
	done
	case_ "$2 too large" 1 "$E" "$V/mkenvimage" -s 0x100 -o out ../in/big.txt
	case_ "$2 -s 0" 2 "$E" "$V/mkenvimage" -s 0 -o out ../in/env.txt
	case_ "$2 no -s" 2 "$E" "$V/mkenvimage" -o out ../in/env.txt
	case_ "$2 -s 16k" 2 "$E" "$V/mkenvimage" -s 16k -o out ../in/env.txt
	case_ "$2 missing input" 2 "$E" "$V/mkenvimage" -s 0x100 -o out ../in/none.txt
	case_ "$2 unknown option" 2 "$E" "$V/mkenvimage" -x -s 0x100 -o out ../in/env.txt
	case_ "$2 -s without a value" 2 "$E" "$V/mkenvimage" -s
}
# Buildroot boot/uboot/uboot.mk, UBOOT_INSTALL_IMAGES_CMDS (BR2_TARGET_UBOOT_ENVIMAGE):
#	$(HOST_DIR)/usr/bin/mkenvimage -s $(BR2_TARGET_UBOOT_ENVIMAGE_SIZE) \
#		$(if $(BR2_TARGET_UBOOT_ENVIMAGE_REDUNDANT),-r) \
#		-o $(BINARIES_DIR)/uboot-env.bin $(BR2_TARGET_UBOOT_ENVIMAGE_SOURCE))
# with Nerves' size "131072", and the redundant variant.
for redund in "" -r; do
	case_ "Buildroot envimage $redund" 0 "$MKENVIMAGE" "$V/mkenvimage" -s 131072 $redund -o out ../in/env.txt
done
env_matrix "$MKENVIMAGE" "mkenvimage 2023.01"
if [ -n "$HEAD_ENV" ]; then
	env_matrix "$HEAD_ENV" "mkenvimage HEAD"
else
	skip anchor "U-Boot HEAD's mkenvimage not found: its matrix not run"
fi
# Existing output replaced; a failure leaves it as it was.
run v "$V/mkenvimage" -s 0x100 -o out ../in/env.txt
cp v/out v/keep
(cd v && "$V/mkenvimage" -s 0x100 -o out ../in/big.txt 2>/dev/null)
ok "mkenvimage: a failure leaves the output" cmp v/out v/keep
"$V/mkenvimage" -V >ver.txt
contains "mkenvimage -V" ver.txt '^mkenvimage version vfit [0-9]'

# ---- fit_check_sign and fit_info: U-Boot HEAD ---------------------------------
if [ -n "$HEAD_CHECK" ]; then
	# check NAME WANT ARGS...: both tools' exit status, and the line each prints.
	check() {
		_n=$1 _w=$2
		shift 2
		run r "$HEAD_CHECK" "$@"
		run v "$V/fit_check_sign" "$@"
		if [ "$_w" = 0 ]; then
			is "fit_check_sign $_n: HEAD's status" 0 "$(cat r/rc)"
		else
			ok "fit_check_sign $_n: HEAD fails" test "$(cat r/rc)" != 0
		fi
		is "fit_check_sign $_n: vfit's status" "$_w" "$(cat v/rc)"
		if [ "$_w" = 0 ]; then
			contains "fit_check_sign $_n: line" v/stderr '^Signature check OK$'
		else
			contains "fit_check_sign $_n: line" v/stderr '^Signature check Bad'
		fi
	}
	check "vfit-signed" 0 -f ../in/v.fit -k ../in/ctl.dtb
	check "mkimage-signed" 0 -f ../in/mk.fit -k ../in/ctl-mk.dtb
	check "-c conf-1" 0 -k ../in/ctl.dtb -f ../in/v.fit -c conf-1
	check "other key" 1 -f ../in/other.fit -k ../in/ctl.dtb
	# A byte of the kernel's data changed: where it is, fit_info says.
	off=$("$V/fit_info" -f in/v.fit -n /images/kernel -p data | sed -n 's/^OFF: //p')
	cp in/v.fit bad.fit
	flip_byte bad.fit $((off + 100))
	check "tampered kernel" 1 -f ../bad.fit -k ../in/ctl.dtb
	# HEAD accepts a missing -k (hashes only): vfit refuses (README).
	run v "$V/fit_check_sign" -f ../in/v.fit
	is "fit_check_sign without -k: refused" 2 "$(cat v/rc)"
	contains "fit_check_sign without -k: says why" v/stderr '^vfit: fit_check_sign: -k CONTROL_DTB is needed'
else
	skip anchor "U-Boot HEAD's fit_check_sign not found: not compared"
fi
if [ -n "$HEAD_INFO" ]; then
	info() { case_ "fit_info $1" "$2" "$HEAD_INFO" "$V/fit_info" -f "../in/$3" -n "$4" -p "$5"; }
	info "kernel data" 0 f.fit /images/kernel data
	info "fdt data" 0 f.fit /images/fdt-1 data
	info "description" 0 f.fit /images/kernel description
	info "hash value" 0 mk.fit /images/kernel/hash-1 value
	info "signature value" 0 mk.fit /configurations/conf-1/signature-1 value
	info "root timestamp" 0 f.fit / timestamp
	info "external data-offset" 0 fe.fit /images/ramdisk data-offset
	info "data-position" 0 fp.fit /images/ramdisk data-position
	info "no such node" 1 f.fit /images/none data
	info "relative path" 1 f.fit images/kernel data
	info "not a FIT" 1 k.bin / data
	case_ "fit_info missing -p" 2 "$HEAD_INFO" "$V/fit_info" -f ../in/f.fit -n /images/kernel
	# HEAD prints LEN: -1 and a meaningless OFF for a missing property: vfit refuses.
	run v "$V/fit_info" -f ../in/f.fit -n /images/kernel -p none
	is "fit_info missing property: refused" 1 "$(cat v/rc)"
else
	skip anchor "U-Boot HEAD's fit_info not found: not compared"
fi
finish
