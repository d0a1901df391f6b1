# SPDX-License-Identifier: BSD-3-Clause
# Builders for boot-flow test devices, sourced by tests/cli/boot_*.sh after
# tests/lib.sh.  Keys come from `vfit keygen`, FITs from `vfit mkimage`.
#   boot_keys                      keys in $K: rom recovery kernel kernel2 user
#   kernel_fit OUT KEY DTB [VAR=VALUE...]   kernel FIT signed with KEY, pubkey into DTB
#       INDEX=n (rollback-index), COMP=none|gzip|lz4, KLOAD=, FDTLOAD=, RDLOAD=, KSIZE=bytes,
#       DESC=description, REQ=-r (empty: key not required), NOSIG=1 (no signature node)
#   bl_fit OUT KEY ROMDTB BLDTB [INDEX=n] [FWLOAD=addr]   bootloader FIT: firmware + BLDTB as its fdt
#   recovery_fit OUT ROMDTB        recovery FIT signed with key-recovery (not required)
#   std_device DIR                 rom.dtb, bl.dtb, both slots [bl.fit kernel.fit], recovery
MKIMAGE="$VFIT mkimage"
K=$T/keys
W=$T/work
mkdir -p "$K" "$W"

empty_dtb() { # OUT
	printf '/dts-v1/;\n/ { };\n' | dtc -I dts -O dtb -o "$1" - 2>/dev/null
}

boot_keys() {
	for k in rom recovery kernel kernel2 user; do
		"$VFIT" keygen -a rsa2048 -k "$K" -n "$k" >/dev/null || return 1
	done
}

kernel_fit() { # OUT KEY DTB [VAR=VALUE...]
	out=$1 key=$2 dtb=$3
	shift 3
	INDEX= COMP=none KLOAD=0x80080000 FDTLOAD=0x83000000 RDLOAD=0x84000000 KSIZE=20000
	DESC=kernel REQ=-r NOSIG=
	for a in "$@"; do eval "$a"; done
	d=$W/k.$(basename "$out")
	mkdir -p "$d"
	random "$d/kernel.bin" "$KSIZE"
	case $COMP in
	gzip) gzip -9 -n -c "$d/kernel.bin" >"$d/kernel.img" ;;
	lz4) lz4 -q -9 -c "$d/kernel.bin" >"$d/kernel.img" ;;
	*) cp "$d/kernel.bin" "$d/kernel.img" ;;
	esac
	cp "$d/kernel.bin" "$out.kernel.bin"
	printf '/dts-v1/;\n/ { model = "sim"; compatible = "vfit,sim"; };\n' |
		dtc -I dts -O dtb -o "$d/board.dtb" - 2>/dev/null
	random "$d/ramdisk.bin" 3000
	idx=
	[ -n "$INDEX" ] && idx="rollback-index = <$INDEX>;"
	sig="signature-1 { algo = \"sha256,rsa2048\"; key-name-hint = \"$key\";
				sign-images = \"kernel\", \"fdt\", \"ramdisk\"; };"
	[ -n "$NOSIG" ] && sig=
	cat >"$d/k.its" <<ITS
/dts-v1/;
/ {
	description = "$DESC";
	#address-cells = <1>;
	images {
		kernel {
			description = "Linux";
			data = /incbin/("kernel.img");
			type = "kernel";
			arch = "arm64";
			os = "linux";
			compression = "$COMP";
			load = <$KLOAD>;
			entry = <$KLOAD>;
			hash-1 { algo = "sha256"; };
		};
		fdt-1 {
			data = /incbin/("board.dtb");
			type = "flat_dt";
			arch = "arm64";
			compression = "none";
			load = <$FDTLOAD>;
			hash-1 { algo = "sha256"; };
		};
		ramdisk-1 {
			data = /incbin/("ramdisk.bin");
			type = "ramdisk";
			arch = "arm64";
			os = "linux";
			compression = "none";
			load = <$RDLOAD>;
			hash-1 { algo = "sha256"; };
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			description = "kernel, fdt, ramdisk";
			kernel = "kernel";
			fdt = "fdt-1";
			ramdisk = "ramdisk-1";
			$idx
			$sig
		};
	};
};
ITS
	[ -f "$dtb" ] || empty_dtb "$dtb"
	(cd "$d" && $MKIMAGE -q -f k.its -k "$K" -K "$dtb" $REQ "$out") >"$d/log" 2>&1 ||
		{ cat "$d/log"; return 1; }
}

bl_fit() { # OUT KEY ROMDTB BLDTB [INDEX=n] [FWLOAD=addr]
	out=$1 key=$2 rom=$3 bldtb=$4
	shift 4
	INDEX= FWLOAD=0x87000000
	for a in "$@"; do eval "$a"; done
	d=$W/b.$(basename "$out")
	mkdir -p "$d"
	random "$d/u-boot.bin" 5000
	cp "$bldtb" "$d/bl.dtb"
	idx=
	[ -n "$INDEX" ] && idx="rollback-index = <$INDEX>;"
	cat >"$d/b.its" <<ITS
/dts-v1/;
/ {
	description = "bootloader";
	#address-cells = <1>;
	images {
		firmware-1 {
			description = "next stage";
			data = /incbin/("u-boot.bin");
			type = "firmware";
			arch = "arm64";
			os = "u-boot";
			compression = "none";
			load = <$FWLOAD>;
			hash-1 { algo = "sha256"; };
		};
		fdt-1 {
			description = "its control DTB";
			data = /incbin/("bl.dtb");
			type = "flat_dt";
			arch = "arm64";
			compression = "none";
			hash-1 { algo = "sha256"; };
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			description = "bootloader";
			firmware = "firmware-1";
			fdt = "fdt-1";
			$idx
			signature-1 {
				algo = "sha256,rsa2048";
				key-name-hint = "$key";
				sign-images = "firmware", "fdt";
			};
		};
	};
};
ITS
	[ -f "$rom" ] || empty_dtb "$rom"
	(cd "$d" && $MKIMAGE -q -f b.its -k "$K" -K "$rom" -r "$out") >"$d/log" 2>&1 ||
		{ cat "$d/log"; return 1; }
}

recovery_fit() { # OUT ROMDTB: signed with key "recovery", added to ROMDTB without -r
	kernel_fit "$1" recovery "$2" DESC=recovery REQ=
}

# A device: ROM keys rom (required) + recovery; slot chains bl.fit -> kernel.fit.
std_device() { # DIR [kernel_fit options...]
	dev=$1
	shift
	rm -f "$W/rom.dtb" "$W/bl.dtb"
	recovery_fit "$W/recovery.fit" "$W/rom.dtb" &&
	kernel_fit "$W/kernel.fit" kernel "$W/bl.dtb" "$@" &&
	bl_fit "$W/bl.fit" rom "$W/rom.dtb" "$W/bl.dtb" &&
	"$VFIT" boot --device "$dev" init --rom "$W/rom.dtb" --recovery "$W/recovery.fit" \
		"$W/bl.fit" "$W/kernel.fit" >/dev/null
}

# Flips one byte in the middle of a file (inside a payload for our FITs).
tamper() { # FILE [OFFSET]
	size=$(stat -c %s "$1")
	off=${2:-$((size / 2))}
	b=$(od -An -tu1 -j "$off" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $(( (b + 1) % 256 )))" |
		dd of="$1" bs=1 seek="$off" conv=notrunc 2>/dev/null
}
