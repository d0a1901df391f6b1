#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# FITs that vfit mkimage encrypts and signs boot in U-Boot HEAD (the anchor
# u-boot-head-qemu_arm64-cipher-preload.bin: FIT_CIPHER, IMAGE_PRE_LOAD_SIG,
# CMD_BOOTM_PRE_LOAD) under qemu-system-aarch64: `bootm start` verifies the
# configuration signature and decrypts with the key vfit wrote into the
# control DTB's /cipher node, `bootm loados` puts the plaintext at the load
# address, and `cmp.b` against the original payload (loaded beside it by
# QEMU) says it is byte for byte the same.  A FIT whose IV was changed is
# refused.  Pre-load signatures: the same FIT behind a header made by vfit
# preload (key node written by -K) passes `bootm start`'s pre-load check,
# which then finds the FIT after the header; a changed image byte or header
# field is refused before the FIT is looked at.  (PSS is not built into the
# anchor: tests/interop/preload_head.sh checks it with preload_check_sign.)
# One boot for all of it; without the anchor, a counted skip.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000
QEMU=${QEMU:-qemu-system-aarch64}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-120}
MACHINE="-machine virt -cpu cortex-a57 -m 1G -nic none -display none -monitor none"
need "$QEMU" dtc fdtput openssl
anchors
UBOOT=${UBOOT_HEAD_CIPHER:-${ANCHORS:+$ANCHORS/u-boot-head-qemu_arm64-cipher-preload.bin}}
if [ -z "$UBOOT" ] || [ ! -f "$UBOOT" ]; then
	skip anchor "u-boot-head-qemu_arm64-cipher-preload.bin not found (set UBOOT_HEAD_CIPHER): nothing booted"
	finish
	exit $?
fi

# An arm64 Image header (booting.rst) so that bootm loados takes the payload
# as a kernel: text_offset 0, image_size, flags bit 3 (place anywhere), so
# U-Boot leaves it at its 2 MiB-aligned load address; then random bytes.
le64() { printf "$(printf '%016x' "$1" | sed 's/\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)/\\x\8\\x\7\\x\6\\x\5\\x\4\\x\3\\x\2\\x\1/')"; }
{
	head -c 8 /dev/zero; le64 0; le64 262144; le64 8; head -c 24 /dev/zero
	printf 'ARMd'; head -c 4 /dev/zero
} > kernel.bin
random body.bin 65477
cat body.bin >> kernel.bin
cipher_keys iv

# its ALGO KEY IVHINT: the kernel encrypted, the configuration signed.
its() {
	cipher_kernel_its "vfit cipher boot" "$1" "$2" "$3"
	cat <<EOT
	};
	configurations {
		default = "conf-1";
		conf-1 {
			kernel = "kernel";
			signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; sign-images = "kernel"; };
		};
	};
};
EOT
}
# shellcheck disable=SC2086
ok "QEMU dumps its virt DTB" $QEMU $MACHINE -bios "$UBOOT" -machine dumpdtb=ctl.dtb
its aes256 k256 "" > a.its
its aes128 k128 'iv-name-hint = "iv";' > b.its
ok "vfit encrypts aes256, random IV" "$VFIT" mkimage -f a.its -k keys -K ctl.dtb -r a.fit
ok "vfit encrypts aes128, IV file, -E" "$VFIT" mkimage -E -f b.its -k keys -K ctl.dtb -r b.fit
cp a.fit t.fit
ok "change the IV" fdtput -t bx t.fit /images/kernel/cipher iv 1 2 3 4 5 6 7 8 9 a b c d e f 0
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out pre.pem 2>/dev/null
ok "vfit preload: header, key node" "$VFIT" preload -k pre.pem -K ctl.dtb a.fit p.bin
cp p.bin pimg.bin
flip_byte pimg.bin 5000
cp p.bin phdr.bin
flip_byte phdr.bin 13

# The FITs at 0x50000000 + n MiB, the plaintext at 0x58000000; the load
# address is cleared before each FIT, so each comparison is that FIT's.
printf '%s\n' "mw.b 0x40400000 0 0x10005" "bootm start 0x50000000#conf-1" "bootm loados" \
	"cmp.b 0x40400000 0x58000000 0x10005" "mw.b 0x40400000 0 0x10005" \
	"bootm start 0x50100000#conf-1" "bootm loados" "cmp.b 0x40400000 0x58000000 0x10005" \
	"bootm start 0x50200000#conf-1" "mw.b 0x40400000 0 0x10005" "bootm start 0x50300000#conf-1" \
	"bootm loados" "cmp.b 0x40400000 0x58000000 0x10005" "bootm start 0x50400000#conf-1" \
	"bootm start 0x50500000#conf-1" > cmds
LOADERS="-device loader,file=a.fit,addr=0x50000000,force-raw=on
 -device loader,file=b.fit,addr=0x50100000,force-raw=on
 -device loader,file=t.fit,addr=0x50200000,force-raw=on
 -device loader,file=p.bin,addr=0x50300000,force-raw=on
 -device loader,file=pimg.bin,addr=0x50400000,force-raw=on
 -device loader,file=phdr.bin,addr=0x50500000,force-raw=on
 -device loader,file=kernel.bin,addr=0x58000000,force-raw=on"

# uboot: one boot, each line of cmds at the prompt once the previous
# prompt is in the log (a FIFO on the serial input: no sleeps), poweroff.
prompt() {
	while [ "$(grep -c '^=> ' log)" -lt "$1" ]; do
		kill -0 "$qpid" 2>/dev/null || return 1
		sleep 0.01
	done
}
uboot() {
	mkfifo serial
	# shellcheck disable=SC2086
	timeout "$QEMU_TIMEOUT" $QEMU $MACHINE -serial stdio -bios "$UBOOT" -dtb ctl.dtb \
		$LOADERS <serial >log 2>&1 &
	qpid=$!
	exec 3>serial
	printf '\n' >&3
	n=1 rc=0
	while IFS= read -r c; do
		prompt $n || { rc=1; break; }
		printf '%s\n' "$c" >&3
		n=$((n + 1))
	done <cmds
	[ $rc = 0 ] && { prompt $n && printf 'poweroff\n' >&3 || rc=1; }
	exec 3>&-
	wait $qpid || rc=1
	return $rc
}
# block N: what U-Boot printed for the N-th command
block() { tr -d '\r' <log | awk -v n="$1" '/^=> / { k++; next } k == n'; }
trap '' PIPE
ok "U-Boot HEAD boots and answers every command" uboot
block 2 > a.out
contains "aes256: signature" a.out "Verifying Hash Integrity \.\.\. sha256,rsa2048:dev\+ OK"
contains "aes256: decrypted" a.out "Decrypting Data \.\.\. OK"
block 4 > a.cmp
contains "aes256: plaintext at the load address" a.cmp "Total of 65541 byte\(s\) were the same"
block 6 > b.out
contains "aes128 -E: decrypted" b.out "Decrypting Data \.\.\. OK"
block 8 > b.cmp
contains "aes128 -E: plaintext at the load address" b.cmp "Total of 65541 byte\(s\) were the same"
block 9 > t.out
contains "changed IV: refused" t.out "Failed to verify required signature"
status 1 "changed IV: never decrypted" grep -q "Decrypting" t.out
block 11 > p.out
contains "pre-load: header and image verified" p.out "INFO: signature check has succeed"
contains "pre-load: the FIT found after the header" p.out "from FIT Image at 50301000"
contains "pre-load: decrypted" p.out "Decrypting Data \.\.\. OK"
block 13 > p.cmp
contains "pre-load: plaintext at the load address" p.cmp "Total of 65541 byte\(s\) were the same"
block 14 > pimg.out
contains "pre-load: changed image byte refused" pimg.out "ERROR: signature check has failed"
status 1 "pre-load: the FIT never looked at" grep -q "Loading kernel" pimg.out
block 15 > phdr.out
contains "pre-load: changed header field refused" phdr.out "ERROR: header signature check has failed"
status 1 "pre-load: header refused, FIT never looked at" grep -q "Loading kernel" phdr.out
echo "U-Boot under test: $(tr -d '\r' <log | grep -m 1 '^U-Boot ')"
finish
