/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef VFIT_RESULT_H
#define VFIT_RESULT_H

/*
 * The one result convention of the library, for every header under vfit/:
 *
 *  - a call that can fail returns an enum, never a bare int: enum
 *    vfit_result here for the verifier, the hashes, the ciphers and the
 *    pre-load check; one enum per subsystem where its failures differ
 *    (vfit_disk_result, vfit_decomp_result, vfit_tpm_result, vfit_io,
 *    vfit_state_check, vfit_boot_result, vfit_boot_outcome);
 *  - 0 is success in each (VFIT_OK, VFIT_DISK_OK, ...) and every failure
 *    is positive, so `if (r)` reads "failed" everywhere and no caller
 *    compares with < 0;
 *  - values are stable ABI, new codes are only appended, and each enum
 *    has a _to_string() for logs;
 *  - a check whose result decides whether input is trusted is
 *    VFIT_MUST_CHECK (vfit/config.h): ignoring it does not compile.
 *
 * Questions return bool (vfit_gpt_entries_ok()); lookups that can miss
 * return a named sentinel of their enum (VFIT_HASH_INVALID,
 * VFIT_COMP_UNKNOWN) or NULL.
 */
enum vfit_result {
	VFIT_OK = 0,
	VFIT_ERR_UNSUPPORTED = 1,   /* algorithm unknown or not built in */
	VFIT_ERR_KEY = 2,           /* key malformed or inconsistent */
	VFIT_ERR_SIG_LENGTH = 3,    /* signature length != modulus length */
	VFIT_ERR_SIG_RANGE = 4,     /* signature value >= modulus */
	VFIT_ERR_SIGNATURE = 5,     /* padding or digest does not match */
	VFIT_ERR_PARAM = 6,         /* caller passed an impossible argument */
	/* FIT format (fit-format.md §6.2, 7) */
	VFIT_ERR_FORMAT = 7,        /* not a well-formed FDT, or a malformed property */
	VFIT_ERR_TRUNCATED = 8,     /* totalsize larger than the bytes loaded */
	VFIT_ERR_TOO_LARGE = 9,     /* totalsize above VFIT_SIGNATURE_MAX_SIZE */
	VFIT_ERR_UNIT_ADDRESS = 10, /* '@' (or '/') in a node or configuration name */
	VFIT_ERR_LIMIT = 11,        /* depth, path, node, list or region limit exceeded */
	VFIT_ERR_DUPLICATE = 12,    /* two sibling nodes with the same name */
	VFIT_ERR_MISSING = 13,      /* mandatory node or property absent */
	/* configuration and images (fit-format.md §3.3, 6.3, 6.4) */
	VFIT_ERR_NO_CONFIG = 14,    /* selected configuration does not exist */
	VFIT_ERR_NO_IMAGES = 15,    /* configuration references no image */
	VFIT_ERR_NO_HASH = 16,      /* image without hash nodes */
	VFIT_ERR_HASH = 17,         /* hash value does not match the data */
	VFIT_ERR_HASH_LENGTH = 18,  /* hash value length differs from the digest length */
	VFIT_ERR_HASHED_STRINGS = 19, /* hashed-strings shorter than two cells */
	VFIT_ERR_STRINGS_BOUNDS = 20, /* hashed-strings beyond the strings block */
	VFIT_ERR_DATA = 21,         /* external data property negative or incomplete */
	VFIT_ERR_DATA_BOUNDS = 22,  /* payload outside the loaded bytes, or inside the FDT */
	VFIT_ERR_DATA_OVERLAP = 23, /* payloads of two images overlap */
	/* keys and policy (fit-format.md §4.4, 6.3) */
	VFIT_ERR_REQUIRED = 24,     /* a required key verified no signature */
	VFIT_ERR_KEY_ALGO = 25,     /* key node algo differs from the signature's */
	VFIT_ERR_NO_SIGNATURE = 26, /* no signature node, or one without a value */
	VFIT_ERR_UNENFORCED = 27,   /* control FDT requires no key: nothing was enforced */
	VFIT_ERR_CONTROL = 28,      /* control FDT malformed */
	VFIT_ERR_WEAK_HASH = 29,    /* a signed image has only CRC/MD5 hashes (fit-format.md §6.4) */
};

/* Returns the name of r for logs ("OK", "signature mismatch", ...; "unknown error" past them). */
const char *vfit_result_to_string(enum vfit_result r);

#endif
