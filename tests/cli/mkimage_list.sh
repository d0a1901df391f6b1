#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit mkimage -l and vfit info: mkimage's listing plus signature status,
# hashed-nodes and external data.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000

head -c 700 /dev/zero > kernel.bin
mkdir keys
"$VFIT" keygen -a rsa2048 -k keys -n dev || exit 2
cat > l.its <<'EOT'
/dts-v1/;
/ {
	description = "listing";
	images {
		kernel {
			description = "Linux";
			data = /incbin/("kernel.bin");
			type = "kernel"; arch = "arm64"; os = "linux"; compression = "none";
			load = <0x80000>; entry = <0x80000>;
			hash-1 { algo = "crc32"; };
			hash-2 { algo = "sha256"; };
			signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; };
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			kernel = "kernel";
			signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; padding = "pss"; };
			signature-2 { algo = "sha256,rsa2048"; key-name-hint = "other"; };
		};
	};
};
EOT
ok "build" "$VFIT" mkimage -q -E -f l.its -k keys --allow-missing-keys -c hi l.fit
ok "info" "$VFIT" info l.fit
cp "$T/.out" info.txt
"$VFIT" mkimage -l l.fit > l.txt
status 0 "-l" test $? = 0
# -l is mkimage's listing exactly (scripts parse it); info adds vfit's lines.
status 1 "-l: no vfit-only lines" grep -E "Signer|Rollback|Hashed|Data Offset|Comment" l.txt
contains "-l: unsigned node as mkimage says" l.txt "^  Sign value:   unavailable$"
status 0 "-l = info minus its extra lines" test "$(grep -c . l.txt)" -lt "$(grep -c . info.txt)"
contains "description" info.txt "^FIT description: listing$"
contains "created" info.txt "^Created: +Tue Nov 14 22:13:20 2023"
contains "image" info.txt "^ Image 0 \(kernel\)$"
contains "type" info.txt "^  Type: +Kernel Image$"
contains "arch" info.txt "^  Architecture: AArch64$"
contains "load" info.txt "^  Load Address: 0x00080000$"
contains "external offset" info.txt "^  Data Offset: +0x00000000"
contains "data size" info.txt "^  Data Size: +700 Bytes"
contains "crc32" info.txt "^  Hash value: +[0-9a-f]{8}$"
contains "image sig" info.txt "^  Sign algo: +sha256,rsa2048:dev$"
contains "padding" info.txt "^  Sign padding: pss$"
contains "signer" info.txt "^  Signer: +vfit "
contains "comment" info.txt "^  Comment: +hi$"
contains "hashed nodes" info.txt "^  Hashed nodes: /$"
contains "hashed nodes list" info.txt "^ +/images/kernel/hash-1$"
contains "unsigned node" info.txt "^  Sign value: +unsigned$"
contains "unsigned hint" info.txt "^  Sign algo: +sha256,rsa2048:other$"
contains "default conf" info.txt "^ Default Configuration: 'conf-1'$"
status 2 "info missing file" "$VFIT" info nosuch.fit
printf 'junk' > junk.bin
status 1 "info not a FIT" "$VFIT" info junk.bin
contains "one line" "$T/.out" "^vfit: junk.bin: not a FIT"
printf '/dts-v1/; / { a = <1>; };' | dtc -I dts -O dtb -o plain.dtb
status 1 "info DTB without /images" "$VFIT" info plain.dtb
head -c 100 l.fit > cut.fit
status 1 "info truncated" "$VFIT" info cut.fit
status 2 "info usage" "$VFIT" info
# Anti-rollback index: shown with its counter, its absence warned about.
contains "no rollback-index warned" info.txt "^  Rollback: +WARNING: no rollback-index \(treated as 0"
sed 's|kernel = "kernel";|kernel = "kernel"; rollback-index = <7>; rollback-counter = "os";|' l.its > r.its
ok "build with an index" "$VFIT" mkimage -q -f r.its -k keys --allow-missing-keys r.fit
ok "info with an index" "$VFIT" info r.fit
contains "index and counter" "$T/.out" "^  Rollback: +index 7, counter os$"
sed 's|kernel = "kernel";|kernel = "kernel"; rollback-index = /bits/ 64 <7>;|' l.its > r2.its
status 1 "mkimage refuses a 64-bit index" "$VFIT" mkimage -q -f r2.its -k keys --allow-missing-keys r2.fit
contains "names file and node" "$T/.out" "^vfit: r2.its: /configurations/conf-1: rollback-index must be one 32-bit cell$"
status 1 "nothing written" test -e r2.fit
sed 's|kernel = "kernel";|kernel = "kernel"; rollback-index = <1>; rollback-counter = "a b";|' l.its > r3.its
status 1 "mkimage refuses a bad counter name" "$VFIT" mkimage -q -f r3.its -k keys --allow-missing-keys r3.fit
contains "counter name rule" "$T/.out" "^vfit: r3.its: /configurations/conf-1: rollback-counter must be"
cp r.fit r2.fit
fdtput -t x r2.fit /configurations/conf-1 rollback-index 0 7
ok "info with a bad index" "$VFIT" info r2.fit
contains "bad index named" "$T/.out" "^  Rollback: +invalid rollback-index \(8 bytes"
finish
