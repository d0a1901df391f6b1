#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot with ECDSA keys: a chain of ECDSA stages (ROM key P-384, kernel
# key P-256 in the verified bootloader's DTB), chains that mix RSA and
# ECDSA stages both ways, a tampered ECDSA signature falling back to slot
# B, ECDSA image signatures (verified, but placement stays unsigned), and
# an update signed on the wrong curve refused.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"

for k in ecrom:ecdsa384 eckern:ecdsa256 rom:rsa2048 kernel:rsa2048 recovery:rsa2048; do
	"$VFIT" keygen -a "${k#*:}" -k "$K" -n "${k%%:*}" > /dev/null ||
		{ fail "keygen $k"; finish; exit 1; }
done

# device DIR ROMKEY ROMALGO KERNKEY KERNALGO [kernel_fit options]: the std_device chain
device() {
	dev=$1 rk=$2 ra=$3 kk=$4 ka=$5
	shift 5
	rm -f "$W/rom.dtb" "$W/bl.dtb"
	recovery_fit "$W/recovery.fit" "$W/rom.dtb" &&
	kernel_fit "$W/kernel.fit" "$kk" "$W/bl.dtb" ALGO="$ka" "$@" &&
	bl_fit "$W/bl.fit" "$rk" "$W/rom.dtb" "$W/bl.dtb" ALGO="$ra" &&
	"$VFIT" boot --device "$dev" init --rom "$W/rom.dtb" --recovery "$W/recovery.fit" \
		"$W/bl.fit" "$W/kernel.fit" > /dev/null
}

# Adds one to the first byte of a signature value in FIT.
tamper_sig() { # FIT NODE
	v=$(fdtget -t bx "$1" "$2" value)
	fdtput -t bx "$1" "$2" value $(printf '%x' $(( (0x${v%% *} + 1) % 256 ))) ${v#* }
}

# ---- ECDSA all the way: P-384 ROM key, P-256 kernel key ------------------------------
D=$T/ec
ok "ECDSA device" device "$D" ecrom sha384,ecdsa384 eckern sha256,ecdsa256
is "ROM key node: no key- prefix" "ecrom recovery" \
	"$(fdtget -l "$W/rom.dtb" /signature | sed 's/^key-//' | sort | tr '\n' ' ' | sed 's/ $//')"
status 0 "ECDSA chain boots" "$VFIT" boot --device "$D" --dump "$T/ram"
out=$T/out.txt
cp "$T/.out" "$out"
contains "ROM key" "$out" "Trusting key 'ecrom' \(sha384,ecdsa384, required for conf\) from the ROM control DTB"
contains "stage-2 key from the verified DTB" "$out" "Trusting key 'eckern' \(sha256,ecdsa256, required for conf\) from fdt 'fdt-1' verified in stage 1"
contains "stage 1 signature" "$out" "Verifying Hash Integrity \.\.\. sha384,ecdsa384:ecrom\+ OK"
contains "stage 2 signature" "$out" "Verifying Hash Integrity \.\.\. sha256,ecdsa256:eckern\+ OK"
contains "kernel started" "$out" "^Starting kernel at 80080000, fdt 83000000, ramdisk 84000000 \.\.\.$"
ok "kernel bytes in RAM" cmp "$T/ram/kernel.bin" "$W/kernel.fit.kernel.bin"

# a tampered ECDSA signature in slot A's kernel: slot B boots
tamper_sig "$D/slot-a/stage2.fit" /configurations/conf-1/signature-1
status 0 "tampered ECDSA signature: slot B" "$VFIT" boot --device "$D"
contains "slot A reason" "$T/.out" "^slot A stage 2: failed to verify required signature"
contains "slot B boots" "$T/.out" "^Starting kernel at 80080000"
# both bootloaders tampered: recovery (RSA key-recovery)
tamper_sig "$D/slot-b/stage1.fit" /configurations/conf-1/signature-1
status 1 "tampered ECDSA bootloader: recovery" "$VFIT" boot --device "$D"
contains "slot B stage 1 reason" "$T/.out" "^slot B stage 1: failed to verify required signature"
contains "recovery started" "$T/.out" "^Starting RECOVERY kernel at 80080000"

# ---- mixed chains --------------------------------------------------------------------
D=$T/rsa-ec
ok "RSA ROM, ECDSA kernel" device "$D" rom sha256,rsa2048 eckern sha512,ecdsa256
status 0 "RSA -> ECDSA boots" "$VFIT" boot --device "$D"
contains "RSA stage" "$T/.out" "sha256,rsa2048:rom\+ OK"
contains "ECDSA stage" "$T/.out" "sha512,ecdsa256:eckern\+ OK"
contains "RSA -> ECDSA kernel" "$T/.out" "^Starting kernel at 80080000"
D=$T/ec-rsa
ok "ECDSA ROM, RSA kernel" device "$D" ecrom sha256,ecdsa384 kernel sha256,rsa2048
status 0 "ECDSA -> RSA boots" "$VFIT" boot --device "$D"
contains "ECDSA stage (sha256 on P-384)" "$T/.out" "sha256,ecdsa384:ecrom\+ OK"
contains "RSA stage" "$T/.out" "sha256,rsa2048:kernel\+ OK"
contains "ECDSA -> RSA kernel" "$T/.out" "^Starting kernel at 80080000"

# ---- ECDSA image signatures: verified, but they leave placement unsigned ---------------
kernel_fit "$W/kernel-img.fit" eckern "$W/blimg.dtb" ALGO=sha256,ecdsa256 IMGSIG=1 ||
	fail "image-signed kernel"
is "eckern required for images" image "$(fdtget "$W/blimg.dtb" /signature/eckern required)"
"$VFIT" verify -f "$W/kernel-img.fit" -k "$W/blimg.dtb" > "$T/v.txt" 2>&1
status 0 "the verifier accepts the ECDSA image signatures" test $? = 0
contains "image signature line" "$T/v.txt" "sha256,ecdsa256:eckern\+ sha256\+ OK"
D=$T/ec-img
ok "device" device "$D" ecrom sha384,ecdsa384 eckern sha256,ecdsa256
rm -f "$W/bl-img.dtb"
bl_fit "$W/bl-img.fit" ecrom "$W/rom.dtb" "$W/blimg.dtb" ALGO=sha384,ecdsa384
cp "$W/bl-img.fit" "$D/slot-a/stage1.fit"
cp "$W/kernel-img.fit" "$D/slot-a/stage2.fit"
status 0 "slot A refused (unsigned placement), slot B boots" "$VFIT" boot --device "$D"
contains "placement reason" "$T/.out" "^slot A stage 2: configuration 'conf-1' is not covered by a verified configuration signature"

# ---- an update whose kernel is signed with the wrong curve is refused ----------------
D=$T/upd
ok "update device" device "$D" ecrom sha384,ecdsa384 eckern sha256,ecdsa256
mkdir -p "$T/k384" && "$VFIT" keygen -a ecdsa384 -k "$T/k384" -n eckern > /dev/null
cp "$T/k384/eckern.pem" "$K/eckern.pem"
kernel_fit "$W/wrong.fit" eckern "$W/wrong.dtb" ALGO=sha384,ecdsa384 ||
	fail "kernel signed with a P-384 key of the same name"
status 1 "update with a P-384 signature for a P-256 key refused" \
	"$VFIT" boot --device "$D" update "$W/wrong.fit"
contains "update reason" "$T/.out" "key algorithm does not match the signature"
status 0 "the device still boots" "$VFIT" boot --device "$D"
contains "old kernel" "$T/.out" "sha256,ecdsa256:eckern\+ OK"
finish
