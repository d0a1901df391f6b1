# SPDX-License-Identifier: BSD-3-Clause
# Builders for boot-flow test devices, sourced by tests/cli/boot_*.sh after
# tests/lib.sh.  Keys come from `vfit keygen`, FITs from `vfit mkimage`.
#   boot_keys                      keys in $K: rom recovery kernel kernel2 user
#   kernel_fit OUT KEY DTB [VAR=VALUE...]   kernel FIT signed with KEY, pubkey into DTB
#       INDEX=n (rollback-index), RCTR=name (rollback-counter), COMP=none|gzip|lz4, KLOAD=,
#       KENTRY= (default KLOAD), FDTLOAD=, RDLOAD=, KSIZE=bytes, KFILL=zero (payload of zeros),
#       DESC=description, REQ=-r (empty: key not required), NOSIG=1 (no signature node),
#       IMGSIG=1 (every image signed instead of the configuration),
#       ALGO=sha256,rsa2048 (the signature algo: KEY's kind, e.g. sha256,ecdsa256)
#   bl_fit OUT KEY ROMDTB BLDTB [VAR=VALUE...]   bootloader FIT: firmware + BLDTB as its fdt
#       INDEX=n, RCTR=name, FWLOAD=addr, FWENTRY=addr, IMGSIG=1, ALGO= (as above)
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
	INDEX= RCTR= COMP=none KLOAD=0x80080000 KENTRY= FDTLOAD=0x83000000 RDLOAD=0x84000000
	KSIZE=20000 KFILL= DESC=kernel REQ=-r NOSIG= IMGSIG= ALGO=sha256,rsa2048
	for a in "$@"; do eval "$a"; done
	d=$W/k.$(basename "$out")
	mkdir -p "$d"
	if [ "$KFILL" = zero ]; then
		head -c "$KSIZE" /dev/zero >"$d/kernel.bin"
	else
		random "$d/kernel.bin" "$KSIZE"
	fi
	case $COMP in
	gzip) gzip -9 -n -c "$d/kernel.bin" >"$d/kernel.img" ;;
	lz4) lz4 -q -9 -c "$d/kernel.bin" >"$d/kernel.img" ;;
	*) cp "$d/kernel.bin" "$d/kernel.img" ;;
	esac
	cp "$d/kernel.bin" "$out.kernel.bin"
	printf '/dts-v1/;\n/ { model = "sim"; compatible = "vfit,sim"; };\n' |
		dtc -I dts -O dtb -o "$d/board.dtb" - 2>/dev/null
	random "$d/ramdisk.bin" 3000
	idx=$(rollback)
	sig="signature-1 { algo = \"$ALGO\"; key-name-hint = \"$key\";
				sign-images = \"kernel\", \"fdt\", \"ramdisk\"; };"
	isig=
	[ -n "$IMGSIG" ] && isig="signature-1 { algo = \"$ALGO\"; key-name-hint = \"$key\"; };" &&
		sig=
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
			entry = <${KENTRY:-$KLOAD}>;
			hash-1 { algo = "sha256"; };
			$isig
		};
		fdt-1 {
			data = /incbin/("board.dtb");
			type = "flat_dt";
			arch = "arm64";
			compression = "none";
			load = <$FDTLOAD>;
			hash-1 { algo = "sha256"; };
			$isig
		};
		ramdisk-1 {
			data = /incbin/("ramdisk.bin");
			type = "ramdisk";
			arch = "arm64";
			os = "linux";
			compression = "none";
			load = <$RDLOAD>;
			hash-1 { algo = "sha256"; };
			$isig
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

bl_fit() { # OUT KEY ROMDTB BLDTB [VAR=VALUE...]
	out=$1 key=$2 rom=$3 bldtb=$4
	shift 4
	INDEX= RCTR= FWLOAD=0x87000000 FWENTRY= IMGSIG= ALGO=sha256,rsa2048
	for a in "$@"; do eval "$a"; done
	d=$W/b.$(basename "$out")
	mkdir -p "$d"
	random "$d/u-boot.bin" 5000
	cp "$bldtb" "$d/bl.dtb"
	idx=$(rollback)
	entry=
	[ -n "$FWENTRY" ] && entry="entry = <$FWENTRY>;"
	isig= sig="signature-1 { algo = \"$ALGO\"; key-name-hint = \"$key\";
				sign-images = \"firmware\", \"fdt\"; };"
	[ -n "$IMGSIG" ] && isig="signature-1 { algo = \"$ALGO\"; key-name-hint = \"$key\"; };" &&
		sig=
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
			$entry
			hash-1 { algo = "sha256"; };
			$isig
		};
		fdt-1 {
			description = "its control DTB";
			data = /incbin/("bl.dtb");
			type = "flat_dt";
			arch = "arm64";
			compression = "none";
			hash-1 { algo = "sha256"; };
			$isig
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			description = "bootloader";
			firmware = "firmware-1";
			fdt = "fdt-1";
			$idx
			$sig
		};
	};
};
ITS
	[ -f "$rom" ] || empty_dtb "$rom"
	(cd "$d" && $MKIMAGE -q -f b.its -k "$K" -K "$rom" -r "$out") >"$d/log" 2>&1 ||
		{ cat "$d/log"; return 1; }
}

# The rollback properties INDEX and RCTR ask for.
rollback() {
	[ -n "$INDEX" ] && printf 'rollback-index = <%s>; ' "$INDEX"
	[ -n "$RCTR" ] && printf 'rollback-counter = "%s";' "$RCTR"
	true
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
