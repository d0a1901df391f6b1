/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every build-time knob of the device library, in one place.  Override any
 * of them with -D when building libvfit (and the code that includes these
 * headers).  Values must be plain decimal integers.
 *
 * Knobs marked [ABI] change the layout of a public struct.  They are
 * stamped into the names of the entry points that take such structs
 * (VFIT_ABI below), so an application built with other values than
 * libvfit.a fails to link instead of corrupting memory.
 */
#ifndef VFIT_CONFIG_H
#define VFIT_CONFIG_H

/* ---- algorithms (U-Boot's Kconfig in spirit) ------------------------------
 * Everything is on by default.  A product that only needs sha256,rsa2048
 * builds with the others at 0 and links only that.  A disabled algorithm
 * is reported as VFIT_ERR_UNSUPPORTED at run time, never skipped.
 */
#ifndef VFIT_HAVE_CRC32
#define VFIT_HAVE_CRC32 1
#endif
/* FIT `crc16-ccitt` (U-Boot's hash-images.its); 32 bytes of table. */
#ifndef VFIT_HAVE_CRC16
#define VFIT_HAVE_CRC16 1
#endif
#ifndef VFIT_HAVE_MD5
#define VFIT_HAVE_MD5 1
#endif
#ifndef VFIT_HAVE_SHA1
#define VFIT_HAVE_SHA1 1
#endif
/* SHA-224 shares the SHA-256 engine; only the vector tests need it. */
#ifndef VFIT_HAVE_SHA224
#define VFIT_HAVE_SHA224 1
#endif
#ifndef VFIT_HAVE_SHA256
#define VFIT_HAVE_SHA256 1
#endif
#ifndef VFIT_HAVE_SHA384
#define VFIT_HAVE_SHA384 1
#endif
#ifndef VFIT_HAVE_SHA512
#define VFIT_HAVE_SHA512 1
#endif
/* The CPU's SHA-1/SHA-256 instructions (x86 SHA-NI, ARMv8 CE) when present. */
#ifndef VFIT_HAVE_SHA_ACCEL
#define VFIT_HAVE_SHA_ACCEL 1
#endif
/* RSA signatures (rsa2048 .. rsa4096): 0 for a verifier that takes ECDSA alone. */
#ifndef VFIT_HAVE_RSA
#define VFIT_HAVE_RSA 1
#endif
#ifndef VFIT_HAVE_RSA_PSS
#define VFIT_HAVE_RSA_PSS 1
#endif
/*
 * ECDSA curves (FIT ecdsa256 / ecdsa384).  Each costs its constants and
 * base-point table; the arithmetic is shared.
 */
#ifndef VFIT_HAVE_ECDSA_P256
#define VFIT_HAVE_ECDSA_P256 1
#endif
#ifndef VFIT_HAVE_ECDSA_P384
#define VFIT_HAVE_ECDSA_P384 1
#endif
/* Derived, not a knob: any ECDSA curve built in. */
#define VFIT_HAVE_ECDSA (VFIT_HAVE_ECDSA_P256 || VFIT_HAVE_ECDSA_P384)
/* Largest RSA modulus accepted (2048, 3072 or 4096); sizes the RSA stack buffers. */
#ifndef VFIT_RSA_MAX_BITS
#define VFIT_RSA_MAX_BITS 4096
#endif

/* ---- code shape --------------------------------------------------------------
 * VFIT_SHA_COMPACT: looped SHA-2 rounds (default under -Os).
 * VFIT_RSA_LIMB32: 32-bit Montgomery limbs even where unsigned __int128
 * exists (default: 64-bit limbs when the compiler has __int128).
 * VFIT_RSA_ADX: mulx/adcx/adox rows on x86-64 (default when built with
 * -madx -mbmi2); VFIT_RSA_NO_ASM: no inline assembly at all.
 * Their defaults are set where they are used (lib/hash/hash_int.h,
 * lib/rsa/rsa.c) because they depend on the compiler's predefined macros.
 */

/* ---- crypto backend ----------------------------------------------------------
 * 1: every hash and signature check of the verifier goes through the
 * struct vfit_crypto table passed to vfit_verify_with() (vfit/crypto.h).
 * 0: a minimal build with the crypto fixed at build time: vfit_verify()
 * calls the library's own hash and signature code directly, with no
 * table and no indirect call, and vfit_verify_with() does not exist (an
 * application that calls it fails to link).  Every check still runs.
 */
#ifndef VFIT_CRYPTO_TABLE
#define VFIT_CRYPTO_TABLE 1
#endif

/* ---- reporting -----------------------------------------------------------------
 * [ABI] 1: the verifier records every signature and hash check it makes
 * (struct vfit_verify_result.check[]) and where the first fatal error is
 * (node, path, property, key).  0: a minimal build for small boot ROMs;
 * every check still runs, only the records and locations are left out.
 */
#ifndef VFIT_REPORT
#define VFIT_REPORT 1
#endif

/* ---- limits -------------------------------------------------------------------- */
/* Largest FIT (header totalsize) accepted, like CONFIG_FIT_SIGNATURE_MAX_SIZE; at most 1 GiB. */
#ifndef VFIT_SIGNATURE_MAX_SIZE
#define VFIT_SIGNATURE_MAX_SIZE 0x10000000u
#endif
/* [ABI] Image references of one configuration in the verify result (kernel, fdt, loadables...). */
#ifndef VFIT_MAX_IMAGES
#define VFIT_MAX_IMAGES 16
#endif
/* [ABI] Check records kept in the verify result (VFIT_REPORT=1); more are counted as dropped. */
#ifndef VFIT_MAX_CHECKS
#define VFIT_MAX_CHECKS 48
#endif
/*
 * [ABI] Distinct strings that one configuration's properties name (each may be
 * an image: fit-format.md §3.3).  A configuration naming more is refused
 * (VFIT_ERR_LIMIT) rather than scanned: resolving them costs a pass over
 * /images each way.
 */
#ifndef VFIT_MAX_CONF_REFS
#define VFIT_MAX_CONF_REFS 32
#endif
/* signature* subnodes of one configuration or image that are tried; more: VFIT_ERR_LIMIT. */
#ifndef VFIT_MAX_SIGNATURES
#define VFIT_MAX_SIGNATURES 16
#endif
/* hash* subnodes of one image that are checked; more: VFIT_ERR_LIMIT. */
#ifndef VFIT_MAX_HASHES
#define VFIT_MAX_HASHES 16
#endif

/*
 * Fixed by the format, not knobs: U-Boot's region walk keeps node paths in
 * 200 bytes and 32 levels (fit-format.md §3.4, §7), and its node list
 * holds 100 nodes; a control FDT may mark at most 32 keys required (one
 * bit each in the policy); property names are at most 127 bytes.
 */
#define VFIT_MAX_DEPTH 32
#define VFIT_PATH_MAX 200
#define VFIT_MAX_HASHED_NODES 100
#define VFIT_MAX_KEYS 32
/*
 * Longest property name accepted (the devicetree specification allows 31
 * characters): every later read of a name is bounded by it.
 */
#define VFIT_PROP_NAME_MAX 127

/*
 * The ABI stamp: public entry points that take structs sized by [ABI]
 * knobs are really named e.g. vfit_verify_with_abi_2_16_48_1_32
 * (VFIT_ABI_GEN, then VFIT_MAX_IMAGES, VFIT_MAX_CHECKS, VFIT_REPORT,
 * VFIT_MAX_CONF_REFS), so an application built with other values fails
 * to link instead of handing the library a struct of another size.
 * VFIT_ABI_GEN is not a knob: it goes up whenever a struct or function
 * type those entry points take changes incompatibly (with the version in
 * vfit/vfit.h), so an application built against older headers fails to
 * link too.  1: 0.1; 2: 0.2, the crypto ops take their backend.
 * Stamped: vfit_verify_with (vfit_verify inlines it; with
 * VFIT_CRYPTO_TABLE=0 vfit_verify itself), vfit_conf_refs, vfit_conf_list
 * (fit.h), vfit_boot, vfit_boot_mark_good, vfit_boot_update (boot.h);
 * tests/build/abi.sh links each with other knobs and an older stamp.
 */
#define VFIT_ABI_GEN 2
#define VFIT_ABI_PASTE_(name, g, i, c, r, f) name##_abi_##g##_##i##_##c##_##r##_##f
#define VFIT_ABI_PASTE(name, g, i, c, r, f) VFIT_ABI_PASTE_(name, g, i, c, r, f)
#define VFIT_ABI(name) \
	VFIT_ABI_PASTE(name, VFIT_ABI_GEN, VFIT_MAX_IMAGES, VFIT_MAX_CHECKS, VFIT_REPORT, \
		       VFIT_MAX_CONF_REFS)

/*
 * A result the caller must look at (a failed check ignored is a verified
 * boot bypassed): the compiler warns when it is dropped.
 */
#if defined(__GNUC__) || defined(__clang__)
#define VFIT_MUST_CHECK __attribute__((warn_unused_result))
#else
#define VFIT_MUST_CHECK
#endif

#if VFIT_SIGNATURE_MAX_SIZE > 0x40000000
#error "VFIT_SIGNATURE_MAX_SIZE above 1 GiB: external-data bounds use 32-bit sums"
#endif
#if VFIT_RSA_MAX_BITS != 2048 && VFIT_RSA_MAX_BITS != 3072 && VFIT_RSA_MAX_BITS != 4096
#error "VFIT_RSA_MAX_BITS must be 2048, 3072 or 4096"
#endif
#if !VFIT_HAVE_RSA && !VFIT_HAVE_ECDSA
#error "no signature algorithm: VFIT_HAVE_RSA and both VFIT_HAVE_ECDSA_* are 0"
#endif
#if VFIT_MAX_IMAGES < 1 || VFIT_MAX_CHECKS < 1 || VFIT_MAX_CONF_REFS < 1
#error "VFIT_MAX_* must be at least 1"
#endif

#endif
