# SPDX-License-Identifier: BSD-3-Clause
# Shared inputs for tests/*/*.sh and bench/*.sh, sourced after tests/lib.sh
# (a bench script sets ROOT and VFIT itself).  Nothing here checks anything:
# what a test asserts stays in the test.
#   fit_its [OPTION]...     the usual signed FIT source on stdout (below)
#   fit_inputs BYTES        kernel.bin (BYTES: lib.sh's `random` where it is
#                           loaded, else /dev/urandom), board.dtb, and two
#                           control DTBs: nosig.dtb (no /signature) and
#                           empty.dtb (an empty /signature)
#   fit_keys ALGO:NAME...   `vfit keygen -a ALGO -n NAME` into keys/; exits 2
#                           when one fails (a test's input, not its subject)
#   fit_dtbs_its N [unsigned]  a kernel FIT with N device trees (below)
#   cipher_keys [IV]...     (tests) keys/dev.* (rsa2048, as fit_keys) and the
#                           AES keys keys/k128.bin, k192.bin and k256.bin;
#                           each IV a 16-byte keys/IV.bin
#   cipher_kernel_its DESC ALGO KEY [CIPHER-PROPS [NODES]]  the start of an
#                           encrypted FIT's source, through its kernel (below)
#   bench_dir               (benches) W: a scratch directory on tmpfs where
#                           there is one (its parent: base), removed at
#                           exit; the shell moves into it
#   anchors                 U-Boot HEAD's tools (not Debian packages):
#                           HEAD_MKIMAGE and HEAD_CHECK (fit_check_sign), each
#                           an executable or empty; $MKIMAGE_HEAD and
#                           $FIT_CHECK_SIGN_HEAD first, then the directories
#                           $VFIT_ANCHORS, ../shared/anchors and
#                           ../../shared/anchors beside the repository (a git
#                           worktree one level down); ANCHORS is the first of
#                           those that exists (other anchor files)
#
# fit_its writes a kernel (hash-1, load and entry), an fdt-1 and
# configuration conf-1 = { kernel, fdt-1 } with signature nodes, in the
# layout mkimage's documentation uses.  Options:
#   -d DESC        description ("fit")
#   -n             no `#address-cells = <1>` in the root
#   -H ALGO        every image's hash-1 algo (sha256)
#   -k FILE        the kernel's data (kernel.bin)
#   -L ADDR        the kernel's load and entry address (0x80000)
#   -f FILE        fdt-1's data (board.dtb); -f "" leaves fdt-1 out
#   -r FILE        a ramdisk-1 with this data, in conf-1 too
#   -i ALGO:KEY    an image signature in the kernel
#   -I ALGO:KEY    an image signature in every image
#   -c ALGO:KEY    a configuration signature; repeated: signature-2, ...
#   -s LIST        sign-images of the configuration signatures, as dts
#                  ('"fdt", "kernel"'; '"kernel"' without fdt-1; "": none)
#   -p PADDING     padding = "PADDING" in every signature
#   -x PROPS       more properties (dts text) in every configuration signature
fit_its() {
	_d=fit _ac='#address-cells = <1>;' _h=sha256 _k=kernel.bin _l=0x80000 _f=board.dtb
	_r='' _i='' _ii='' _c='' _s=- _p='' _x=''
	OPTIND=1
	while getopts d:nH:k:L:f:r:i:I:c:s:p:x: _o; do
		case $_o in
		d) _d=$OPTARG ;;
		n) _ac= ;;
		H) _h=$OPTARG ;;
		k) _k=$OPTARG ;;
		L) _l=$OPTARG ;;
		f) _f=$OPTARG ;;
		r) _r=$OPTARG ;;
		i) _i=$OPTARG ;;
		I) _ii=$OPTARG ;;
		c) _c="$_c $OPTARG" ;;
		s) _s=$OPTARG ;;
		p) _p=$OPTARG ;;
		x) _x=$OPTARG ;;
		*) echo "fit_its: bad option" >&2; return 2 ;;
		esac
	done
	if [ "$_s" = - ]; then
		_s='"kernel"'
		[ -n "$_f" ] && _s='"fdt", "kernel"'
	fi
	_pp=${_p:+"padding = \"$_p\"; "}
	_isig=${_ii:-$_i}
	[ -n "$_isig" ] && _isig=$(_fit_sig signature-1 "$_isig" "$_pp")
	_esig=
	[ -n "$_ii" ] && _esig=$_isig
	printf '/dts-v1/;\n/ {\n\tdescription = "%s";\n' "$_d"
	[ -n "$_ac" ] && printf '\t%s\n' "$_ac"
	printf '\timages {\n'
	_fit_image kernel "$_k" '"kernel"; arch = "arm64"; os = "linux"' "load = <$_l>; entry = <$_l>;" "$_isig"
	[ -n "$_f" ] && _fit_image fdt-1 "$_f" '"flat_dt"; arch = "arm64"' "" "$_esig"
	[ -n "$_r" ] && _fit_image ramdisk-1 "$_r" '"ramdisk"; arch = "arm64"; os = "linux"' "" "$_esig"
	printf '\t};\n\tconfigurations {\n\t\tdefault = "conf-1";\n\t\tconf-1 {\n'
	printf '\t\t\tkernel = "kernel";%s%s\n' "${_f:+ fdt = \"fdt-1\";}" "${_r:+ ramdisk = \"ramdisk-1\";}"
	_n=0
	for _sig in $_c; do
		_n=$((_n + 1))
		printf '\t\t\t%s\n' "$(_fit_sig "signature-$_n" "$_sig" "${_s:+"sign-images = $_s; "}$_pp${_x:+"$_x "}")"
	done
	printf '\t\t};\n\t};\n};\n'
}

# _fit_sig NAME ALGO:KEY PROPS: one signature node on one line (tests edit
# them with sed by line)
_fit_sig() {
	printf '%s { algo = "%s"; key-name-hint = "%s"; %s};' "$1" "${2%%:*}" "${2#*:}" "$3"
}

# _fit_image NAME FILE TYPE-OS LOAD SIGNATURE
_fit_image() {
	printf '\t\t%s {\n\t\t\tdata = /incbin/("%s");\n' "$1" "$2"
	printf '\t\t\ttype = %s; compression = "none";\n' "$3"
	[ -n "$4" ] && printf '\t\t\t%s\n' "$4"
	printf '\t\t\thash-1 { algo = "%s"; };\n' "$_h"
	[ -n "$5" ] && printf '\t\t\t%s\n' "$5"
	printf '\t\t};\n'
}

fit_inputs() {
	if command -v random >/dev/null 2>&1 && [ -n "${T:-}" ]; then
		random kernel.bin "$1"
	else
		head -c "$1" /dev/urandom > kernel.bin
	fi
	printf '/dts-v1/; / { model = "board"; compatible = "v,b"; };' | dtc -I dts -O dtb -o board.dtb
	printf '/dts-v1/; / { model = "control"; };' | dtc -I dts -O dtb -o nosig.dtb
	printf '/dts-v1/; / { model = "control"; signature { }; };' | dtc -I dts -O dtb -o empty.dtb
}

fit_keys() {
	mkdir -p keys
	for _kk in "$@"; do
		"$VFIT" keygen -a "${_kk%%:*}" -k keys -n "${_kk#*:}" > /dev/null || exit 2
	done
}

# fit_dtbs_its N [unsigned]: the layout of Linux's scripts/make_fit.py: the
# kernel "Image", fdt-1..N all of board.dtb, conf-K = { kernel, fdt-K }
# each with a sha256,rsa2048 signature by "dev" ("unsigned": none).
fit_dtbs_its() {
	awk -v n="$1" -v signed="$([ "${2:-}" = unsigned ] || echo 1)" 'BEGIN {
	print "/dts-v1/;\n/ {\n\tdescription = \"kernel and " n " DTBs\";\n\t#address-cells = <1>;"
	print "\timages {\n\t\tkernel {\n\t\t\tdata = /incbin/(\"Image\");"
	print "\t\t\ttype = \"kernel\"; arch = \"arm64\"; os = \"linux\"; compression = \"none\";"
	print "\t\t\tload = <0x40480000>; entry = <0x40480000>;"
	print "\t\t\thash-1 { algo = \"sha256\"; };\n\t\t};"
	for (i = 1; i <= n; i++) {
		print "\t\tfdt-" i " {\n\t\t\tdescription = \"board-" i "\";"
		print "\t\t\tdata = /incbin/(\"board.dtb\");"
		print "\t\t\ttype = \"flat_dt\"; arch = \"arm64\"; compression = \"none\";"
		print "\t\t\thash-1 { algo = \"sha256\"; };\n\t\t};"
	}
	print "\t};\n\tconfigurations {\n\t\tdefault = \"conf-1\";"
	for (i = 1; i <= n; i++) {
		print "\t\tconf-" i " {\n\t\t\tkernel = \"kernel\";\n\t\t\tfdt = \"fdt-" i "\";"
		if (signed) {
			print "\t\t\tsignature-1 { algo = \"sha256,rsa2048\"; key-name-hint = \"dev\";"
			print "\t\t\t\tsign-images = \"kernel\", \"fdt\"; };"
		}
		print "\t\t};"
	}
	print "\t};\n};"
	}'
}

cipher_keys() {
	fit_keys rsa2048:dev
	random keys/k128.bin 16
	random keys/k192.bin 24
	random keys/k256.bin 32
	for _iv in "$@"; do
		random "keys/$_iv.bin" 16
	done
}

# cipher_kernel_its DESC ALGO KEY [CIPHER-PROPS [NODES]]: "/dts-v1/; / {"
# with description DESC, "images {" and a kernel node: kernel.bin loaded
# and started at 0x40400000, hash-1 sha256, NODES (dts text, e.g. an image
# signature), then "cipher { algo = ALGO; key-name-hint = KEY;
# CIPHER-PROPS };".  The caller writes the other images, closes /images
# and writes the configurations.
cipher_kernel_its() {
	printf '/dts-v1/;\n/ {\n\tdescription = "%s";\n\timages {\n' "$1"
	printf '\t\tkernel {\n\t\t\tdata = /incbin/("kernel.bin");\n'
	printf '\t\t\ttype = "kernel"; arch = "arm64"; os = "linux"; compression = "none";\n'
	printf '\t\t\tload = <0x40400000>; entry = <0x40400000>;\n'
	printf '\t\t\thash-1 { algo = "sha256"; };\n'
	[ -n "${5:-}" ] && printf '\t\t\t%s\n' "$5"
	printf '\t\t\tcipher { algo = "%s"; key-name-hint = "%s"; %s};\n\t\t};\n' "$2" "$3" \
		"${4:+$4 }"
}

# shellcheck disable=SC2034 # HEAD_MKIMAGE, HEAD_CHECK, ANCHORS: for the caller
anchors() {
	ANCHORS=
	for _a in ${VFIT_ANCHORS:+"$VFIT_ANCHORS"} "$ROOT/../shared/anchors" "$ROOT/../../shared/anchors"; do
		[ -d "$_a" ] && [ -z "$ANCHORS" ] && ANCHORS=$_a
		[ -x "$_a/u-boot-head-mkimage" ] && : "${MKIMAGE_HEAD:=$_a/u-boot-head-mkimage}"
		[ -x "$_a/u-boot-head-fit_check_sign" ] && : "${FIT_CHECK_SIGN_HEAD:=$_a/u-boot-head-fit_check_sign}"
	done
	HEAD_MKIMAGE='' HEAD_CHECK=''
	[ -x "${MKIMAGE_HEAD:-}" ] && HEAD_MKIMAGE=$MKIMAGE_HEAD
	[ -x "${FIT_CHECK_SIGN_HEAD:-}" ] && HEAD_CHECK=$FIT_CHECK_SIGN_HEAD
	return 0
}

bench_dir() {
	base=/dev/shm
	[ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
	W=$(mktemp -d "$base/vfit-bench.XXXXXX") || exit 2
	trap 'rm -rf "$W"' EXIT
	cd "$W" || exit 2
}
