# SPDX-License-Identifier: BSD-3-Clause
# lib.mk: the sources of libvfit, the device library, for building it in
# another project's tree (as libfdt's Makefile.libfdt).  Include it from
# any GNU make build; the objects go in YOUR build directory (here $(O)),
# never beside the sources, so one vfit tree serves several builds:
#
#   include path/to/vfit/lib.mk
#   VFIT_OBJ := $(addprefix $(O)/vfit/,$(VFIT_SRC_VERIFIER:.c=.o))
#   $(O)/vfit/%.o: $(VFIT_ROOT)/%.c
#   	@mkdir -p $(@D)
#   	$(CC) $(CFLAGS) $(VFIT_CFLAGS) -c -o $@ $<
#   CFLAGS += -ffunction-sections -fdata-sections -DVFIT_HAVE_SHA1=0 ...  # knobs, see below
#   LDFLAGS += -Wl,--gc-sections
#
# -ffunction-sections -fdata-sections with --gc-sections at the link are
# what every size figure of the README assumes (`make size`): without them
# a product carries every function of each object it touches.
#
# libfdt for the target: libvfit calls libfdt, from the firmware's own tree
# (dtc's libfdt/, U-Boot's scripts/dtc/libfdt, TF-A's lib/libfdt) or a
# libfdt.a built for the target.  VFIT_FDT_SRC_VERIFIER names the libfdt
# sources the verifier needs, VFIT_FDT_SRC those of all of lib/ (the boot
# flow writes key views with fdt_sw.c), relative to that libfdt directory,
# which must also hold fdt.h, libfdt.h, libfdt_env.h and libfdt_internal.h:
#
#   FDT_OBJ := $(addprefix $(O)/fdt/,$(VFIT_FDT_SRC_VERIFIER:.c=.o))
#   $(O)/fdt/%.o: $(LIBFDT_DIR)/%.c   (same recipe, with -I$(LIBFDT_DIR))
#
# Lists are relative to VFIT_ROOT (the vfit tree, found from this file's
# own path unless set), one per capability:
#   VFIT_SRC_CORE      result names, version, the counter name rule
#   VFIT_SRC_HASH      CRC-32, CRC-16, MD5, SHA-1, SHA-2 (+ SHA-NI / ARMv8 CE)
#   VFIT_SRC_RSA       RSA PKCS#1 v1.5 and PSS
#   VFIT_SRC_ECDSA     ECDSA P-256 / P-384
#   VFIT_SRC_FIT       FIT checks, signed regions, the verifier, crypto backends
#   VFIT_SRC_AES       AES-CBC, for encrypted images (the verifier's cipher nodes)
#   VFIT_SRC_VERIFIER  all of the above: what vfit_verify() needs
#   VFIT_SRC_PRELOAD   pre-load signature headers (bootm preload; uses hash, rsa, ecdsa)
#   VFIT_SRC_DECOMP    gzip and LZ4 decompression of images
#   VFIT_SRC_DISK      the boot disk (GPT, slots, records, counters)
#   VFIT_SRC_TPM       TPM 2.0 commands and the event log (the flow's trust state)
#   VFIT_SRC_BOOT      the boot flow (A/B, chain, rollback, updates, measured boot)
#   VFIT_SRC_NET       DHCP and a TFTP read of one file over a port's Ethernet device
#                      (network recovery; needs nothing else of lib/)
#   VFIT_SRC           every source of lib/ (the boot flow needs all but pre-load and net)
#   VFIT_SRC_ARMV7     optional ARMv7-A SHA-256 assembly (with -DVFIT_SHA256_ARMV7_ASM)
# The code is freestanding C11 (no heap, no globals) and needs libfdt's
# headers and functions, and memcpy/memset/memcmp/strlen/strcmp/strchr.
#
# Knobs: -D on the compiler line, for the library and for every file that
# includes its headers alike; each is described in include/vfit/config.h.
#   VFIT_HAVE_CRC32 VFIT_HAVE_CRC16 VFIT_HAVE_MD5 VFIT_HAVE_SHA1
#   VFIT_HAVE_SHA224 VFIT_HAVE_SHA256 VFIT_HAVE_SHA384 VFIT_HAVE_SHA512
#   VFIT_HAVE_SHA_ACCEL VFIT_HAVE_RSA VFIT_HAVE_RSA_PSS VFIT_HAVE_ECDSA_P256
#   VFIT_HAVE_ECDSA_P384 VFIT_RSA_MAX_BITS VFIT_SIGNATURE_MAX_SIZE
#   VFIT_MAX_SIGNATURES VFIT_MAX_HASHES                    (0/1 or limits)
#   VFIT_CRYPTO_TABLE (0: no crypto backend seam, vfit_verify() a function)
#   VFIT_REPORT VFIT_MAX_IMAGES VFIT_MAX_CHECKS VFIT_MAX_CONF_REFS  [ABI]
#   VFIT_SHA_COMPACT VFIT_RSA_LIMB32 VFIT_RSA_ADX VFIT_RSA_NO_ASM (code shape)
# The [ABI] knobs are stamped into the names of the entry points that take
# the structs they size, so a mismatch fails to link (tests/build/abi.sh).
# CMakeLists.txt in the same directory builds the same lists with CMake.

VFIT_ROOT ?= $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
VFIT_CFLAGS := -I$(VFIT_ROOT)/include

vfit_src = $(patsubst $(VFIT_ROOT)/%,%,$(sort $(wildcard $(addprefix $(VFIT_ROOT)/,$(1)))))

VFIT_SRC_CORE     := $(call vfit_src,lib/*.c)
VFIT_SRC_HASH     := $(call vfit_src,lib/hash/*.c)
VFIT_SRC_RSA      := $(call vfit_src,lib/rsa/*.c)
VFIT_SRC_ECDSA    := $(call vfit_src,lib/ecdsa/*.c)
VFIT_SRC_FIT      := $(call vfit_src,lib/fit/*.c)
VFIT_SRC_AES      := $(call vfit_src,lib/aes/*.c)
VFIT_SRC_VERIFIER := $(VFIT_SRC_CORE) $(VFIT_SRC_HASH) $(VFIT_SRC_RSA) $(VFIT_SRC_ECDSA) \
                     $(VFIT_SRC_FIT) $(VFIT_SRC_AES)
VFIT_SRC_PRELOAD  := $(call vfit_src,lib/preload/*.c)
VFIT_SRC_DECOMP   := $(call vfit_src,lib/decomp/*.c)
VFIT_SRC_DISK     := $(call vfit_src,lib/disk/*.c)
VFIT_SRC_TPM      := $(call vfit_src,lib/tpm/*.c)
VFIT_SRC_BOOT     := $(call vfit_src,lib/boot/*.c)
VFIT_SRC_NET      := $(call vfit_src,lib/net/*.c)
VFIT_SRC          := $(call vfit_src,lib/*.c lib/*/*.c)
VFIT_SRC_ARMV7    := lib/hash/sha256_armv7.S

# The libfdt sources (in the embedder's libfdt directory) that lib/ calls into.
VFIT_FDT_SRC_VERIFIER := fdt.c fdt_ro.c
VFIT_FDT_SRC          := fdt.c fdt_ro.c fdt_sw.c
