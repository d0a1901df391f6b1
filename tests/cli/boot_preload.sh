#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot with pre-load signatures (include/vfit/preload.h): when the ROM
# DTB has /image/pre-load/sig, the staged bytes are checked against it
# before any FIT parsing and the header is stripped.  Mandatory: a kernel
# FIT wrapped by `vfit preload` boots; the same FIT bare, a header with a
# flipped signature byte, or a header made for another image is refused
# with the reason named.  Not mandatory: the bare FIT boots, as in U-Boot.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"
need dtc fdtget openssl

boot_keys || { fail "keygen"; finish; exit 1; }
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$W/pre.pem" 2>/dev/null
empty_dtb "$W/rom.dtb"
ok "kernel FIT" kernel_fit "$W/k.fit" rom "$W/rom.dtb"
cp "$W/rom.dtb" "$W/opt.dtb"
ok "wrapped, key node mandatory" "$VFIT" preload -k "$W/pre.pem" -K "$W/rom.dtb" -m \
	"$W/k.fit" "$W/kp.fit"
ok "wrapped, key node optional" "$VFIT" preload -k "$W/pre.pem" -K "$W/opt.dtb" \
	"$W/k.fit" "$W/ko.fit"
is "mandatory in the ROM DTB" yes "$(fdtget "$W/rom.dtb" /image/pre-load/sig mandatory)"

# boots NAME ROM FIT: the device boots FIT and starts its kernel.
boots() {
	ok "$1: device" "$VFIT" boot --device "$T/$1" init --rom "$2" "$3"
	status 0 "$1: boots" "$VFIT" boot --device "$T/$1" --dump "$T/$1.ram"
	contains "$1: started" "$T/.out" "^Starting kernel at 80080000"
	ok "$1: kernel bytes in RAM" cmp "$T/$1.ram/kernel.bin" "$W/k.fit.kernel.bin"
}
# refused NAME FIT REASON: the device with the mandatory key refuses FIT.
refused() {
	ok "$1: device" "$VFIT" boot --device "$T/$1" init --rom "$W/rom.dtb" "$2"
	status 1 "$1: refused" "$VFIT" boot --device "$T/$1"
	contains "$1: reason named" "$T/.out" \
		"^slot A stage 1: pre-load signature refused before the FIT was parsed: $3"
	if grep -q "^Starting kernel" "$T/.out"; then fail "$1: started"; else pass; fi
}

boots mandatory "$W/rom.dtb" "$W/kp.fit"
refused bare "$W/k.fit" "no signature \(magic\)"
# A flipped byte of the header signature (bytes 64.. of the header).
cp "$W/kp.fit" "$W/flip.fit"
flip_byte "$W/flip.fit" 100
refused tampered "$W/flip.fit" "signature mismatch \(header signature\)"
# The header of another image of the same size, in front of this FIT.
cp "$W/k.fit" "$W/other.fit"
flip_byte "$W/other.fit" 300
ok "other image wrapped" "$VFIT" preload -k "$W/pre.pem" "$W/other.fit" "$W/otherp.fit"
{ head -c 4096 "$W/otherp.fit"; cat "$W/k.fit"; } >"$W/swap.fit"
refused other-image "$W/swap.fit" "signature mismatch \(image signature\)"

boots optional-bare "$W/opt.dtb" "$W/k.fit"
boots optional-header "$W/opt.dtb" "$W/ko.fit"

# A header size that is not a multiple of 8 (the FIT behind it must stay
# 8-byte aligned for libfdt): refused, though its signatures verify.
ok "wrapped with a 4100-byte header" "$VFIT" preload -k "$W/pre.pem" -s 4100 "$W/k.fit" \
	"$W/k4100.fit"
refused unaligned "$W/k4100.fit" "malformed FIT \\(header_size not a multiple of 8\\)"
# A pre-load key node the device cannot read (mandatory neither yes nor no)
# is no licence to boot the bare FIT: refused, naming the key node.
cp "$W/rom.dtb" "$W/badkey.dtb"
fdtput -t s "$W/badkey.dtb" /image/pre-load/sig mandatory maybe
ok "bad-key: device" "$VFIT" boot --device "$T/bad-key" init --rom "$W/badkey.dtb" "$W/k.fit"
status 1 "bad-key: refused" "$VFIT" boot --device "$T/bad-key"
contains "bad-key: reason names the key node" "$T/.out" \
	"^slot A stage 1: pre-load signature refused before the FIT was parsed: malformed FIT \\(key /image/pre-load/sig\\)$"
# A key node without its public key (or algo-name, signature-size) is a
# broken policy, not "no pre-load configured": the bare FIT is refused.
for prop in public-key algo-name signature-size; do
	cp "$W/rom.dtb" "$W/no-$prop.dtb"
	fdtput -d "$W/no-$prop.dtb" /image/pre-load/sig "$prop"
	ok "no $prop: device" "$VFIT" boot --device "$T/no-$prop" init --rom "$W/no-$prop.dtb" \
		"$W/k.fit"
	status 1 "no $prop: the bare FIT refused" "$VFIT" boot --device "$T/no-$prop"
	contains "no $prop: reason names the key node" "$T/.out" \
		"^slot A stage 1: pre-load signature refused before the FIT was parsed: .*\\(key /image/pre-load/sig\\)$"
done
# The recovery FIT passes the same gate: bare, refused (the device halts);
# wrapped, it boots.
ok "recovery FIT" recovery_fit "$W/rec.fit" "$W/rom.dtb"
ok "recovery wrapped" "$VFIT" preload -k "$W/pre.pem" "$W/rec.fit" "$W/recp.fit"
ok "bare recovery: device" "$VFIT" boot --device "$T/rec-bare" init --rom "$W/rom.dtb" \
	--recovery "$W/rec.fit" "$W/k.fit"
status 1 "bare recovery: halts" "$VFIT" boot --device "$T/rec-bare"
contains "bare recovery: reason" "$T/.out" \
	"^recovery: pre-load signature refused before the FIT was parsed: no signature \(magic\)"
if grep -q "^Starting" "$T/.out"; then fail "bare recovery: started"; else pass; fi
ok "wrapped recovery: device" "$VFIT" boot --device "$T/rec-wrapped" init --rom "$W/rom.dtb" \
	--recovery "$W/recp.fit" "$W/k.fit"
status 1 "wrapped recovery: boots recovery" "$VFIT" boot --device "$T/rec-wrapped"
contains "wrapped recovery: started" "$T/.out" "^Starting RECOVERY kernel"
finish
