/* SPDX-License-Identifier: BSD-3-Clause */
/* libvfit-host: the build-machine side (OpenSSL 3, libfdt, dtc). */
#ifndef VFIT_HOST_H
#define VFIT_HOST_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "vfit/vfit.h"

/*
 * Host errors carry the exit status the CLI contract asks for
 * (1: bad input / verification failure, 2: usage or I/O) and one line of
 * text that names the file, node and property.
 */
struct vfit_err {
	int status;
	char msg[512];
};

/* Sets e (first error wins) and returns -1, so callers can `return vfit_err_set(...)`. */
int vfit_err_set(struct vfit_err *e, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define VFIT_EXIT_REJECT 1
#define VFIT_EXIT_USAGE 2

/*
 * Prints e as the one error line "vfit: [CMD: ]MESSAGE" on stderr and
 * returns its exit status: VFIT_EXIT_USAGE if nothing set one, so a
 * failure can never exit 0.
 */
int vfit_err_print(const struct vfit_err *e, const char *cmd);

/*
 * Reads the regular file path into private read-only memory at *p (an
 * empty file gives NULL and 0): a snapshot that a writer of the file
 * cannot change while it is checked.  The open cannot hang on a FIFO put
 * in its place.  0, or -1 with e set (VFIT_EXIT_USAGE).  vfit_file_unmap()
 * releases it.
 */
int vfit_file_map(const char *path, const void **p, size_t *len, struct vfit_err *e);
void vfit_file_unmap(const void *p, size_t len);

/*
 * A FIT read for vfit_verify() with its big payloads (embedded `data` of
 * 1 MiB or more, external data) left in the file (host/fit_sparse.c): *p
 * and *len are the file as one buffer whose payload pages are not
 * readable; vfit_sparse_verify() verifies it, hashing those bytes
 * straight from the file -- a second error (status 2) if the file
 * changed meanwhile.  Same contract as vfit_file_map() otherwise.
 */
struct vfit_sparse;
int vfit_sparse_open(const char *path, struct vfit_sparse **s, const void **p, size_t *len,
		     struct vfit_err *e);
int vfit_sparse_verify(struct vfit_sparse *s, const void *ctl, size_t ctl_len, const char *conf,
		       unsigned int flags, struct vfit_verify_result *res, struct vfit_err *e);
void vfit_sparse_close(struct vfit_sparse *s);

/* ---- keys (host/keys.c) ---------------------------------------------- */

/* An RSA public key in U-Boot's pre-processed form (fit-format.md §4.2). */
struct vfit_rsa_pub {
	uint32_t num_bits;
	uint32_t n0inv;                          /* -n^-1 mod 2^32 */
	uint64_t exponent;
	uint8_t modulus[VFIT_RSA_MAX_BITS / 8];  /* num_bits/8 bytes, big-endian */
	uint8_t rr[VFIT_RSA_MAX_BITS / 8];       /* 2^(2*num_bits) mod n, same form */
};

/* Pre-processes an OpenSSL RSA public (or private) key. */
int vfit_rsa_pub_from_pkey(const EVP_PKEY *pkey, struct vfit_rsa_pub *pub, struct vfit_err *e);
/* The device library's view of pub (pointers into pub). */
void vfit_rsa_pub_key(const struct vfit_rsa_pub *pub, struct vfit_rsa_key *key);
/*
 * Writes /signature/key-<name> into an FDT opened for writing, exactly as
 * mkimage -K does (property order, cells, algo, optional required), replacing
 * an existing node's properties in place.  Returns 0 or a negative libfdt
 * error (-FDT_ERR_NOSPACE: grow the blob and retry).  To match mkimage's
 * file byte for byte, grow as it does: totalsize (and the file) += 1024,
 * then 2048, 3072, ... cumulatively, keeping what the failed attempt wrote,
 * and count an attempt on which the FIT ran out of space as a retry too
 * (mkimage grows the -K DTB on every retry of its FIT pass).
 */
int vfit_rsa_keynode_write(void *fdt, const char *name, const struct vfit_rsa_pub *pub,
			   const char *algo, const char *required);

/* ---- ECDSA keys (host/keys_ecdsa.c) ----------------------------------- */

/* An ECDSA public key as the key node holds it (docs/fit-format.md §4.3). */
struct vfit_ecdsa_pub {
	enum vfit_ec_curve curve;
	const char *curve_name;                 /* ecdsa,curve: "prime256v1", "secp384r1" */
	size_t len;                             /* bytes per coordinate: 32, 48 */
	uint8_t x[VFIT_ECDSA_MAX_BYTES];        /* ecdsa,x-point: big-endian, len bytes */
	uint8_t y[VFIT_ECDSA_MAX_BYTES];        /* ecdsa,y-point */
};

/*
 * The curve of an OpenSSL key: P-256 or P-384 by name, else -1 with e set
 * (not EC, explicit parameters, another curve).
 */
int vfit_ecdsa_pkey_curve(const EVP_PKEY *pkey, enum vfit_ec_curve *curve, struct vfit_err *e);
/* The key node's ecdsa,curve string of a curve ("prime256v1", "secp384r1"), or NULL. */
const char *vfit_ecdsa_curve_name(enum vfit_ec_curve curve);
/* The public point of an OpenSSL EC key (public or private) on P-256 or P-384. */
int vfit_ecdsa_pub_from_pkey(const EVP_PKEY *pkey, struct vfit_ecdsa_pub *pub,
			     struct vfit_err *e);
/* The device library's loaded key for pub: vfit_ecdsa_key_load()'s result. */
enum vfit_result vfit_ecdsa_pub_key(const struct vfit_ecdsa_pub *pub, struct vfit_ecdsa_key *key);
/*
 * Writes /signature/<name> (no "key-" prefix, unlike RSA) into an FDT
 * opened for writing, creating /signature if needed and updating an
 * existing node's properties in place.  With algo NULL it is mkimage
 * 2023.01's node, byte for byte: ecdsa,curve, ecdsa,x-point, ecdsa,y-point
 * only (then required must be NULL: 2023.01 never writes it, so its -r
 * marks no ECDSA key required).  With algo it is v2025.01's and later:
 * key-name-hint = name first, algo and the optional required last.
 * Note that 2023.01 itself refuses a DTB without /signature (it adds no
 * key) and fails when the node exists; the caller decides whether to
 * follow it.  Returns 0 or a negative libfdt error (-FDT_ERR_NOSPACE: grow
 * the blob and retry, as for vfit_rsa_keynode_write()).
 */
int vfit_ecdsa_keynode_write(void *fdt, const char *name, const struct vfit_ecdsa_pub *pub,
			     const char *algo, const char *required);

/* ---- mkimage, keygen, info (host/mkimage.c, keygen.c, list.c, ...) ---- */

#include <stdio.h>

/* One `mkimage` run; the fields mirror its options (fit-format.md §10). */
struct vfit_mkimage {
	const char *its;          /* -f FILE (NULL with -F or -f auto) */
	int auto_fit;             /* -f auto */
	int update;               /* -F: out is an existing FIT, updated in place */
	const char *out;          /* the FIT written */
	const char *dtc_opts;     /* -D (default "-I dts -O dtb -p 500") */
	const char *keydir;       /* -k */
	const char *keyfile;      /* -G */
	const char *keyname;      /* -g (auto FITs) */
	const char *algo;         /* -o */
	const char *keydest;      /* -K */
	const char *comment;      /* -c */
	const char *engine;       /* -N: OpenSSL engine holding the keys */
	int required;             /* -r */
	int allow_missing_keys;   /* --allow-missing-keys: skip unsigned nodes like mkimage */
	int touch;                /* -t */
	int external;             /* -E */
	uint32_t align;           /* -B (0: mkimage 2023.01's 4) */
	int64_t position;         /* -p (-1: none) */
	/* -f auto */
	const char *arch, *os, *type, *comp, *name;
	uint32_t load, entry;
	const char *datafile;     /* -d */
	const char **dtbs;        /* -b, repeatable */
	int ndtbs;
	const char *initrd;       /* -i */
	int auto_conf;            /* -f auto-conf: signed configurations (needs -g, -o) */
	const char *tfa, *tee;    /* -y, -z: TF-A BL31 and TEE loadables for -f auto */
	uint32_t tfa_addr, tee_addr;  /* -Y, -Z: their load and entry address */
	/* filled in by the run, for mkimage's closing lines */
	char signed_conf[256];
	char key_node[256];
};

/* Builds/updates, hashes, signs, extracts and writes atomically. */
int vfit_mkimage_run(struct vfit_mkimage *m, struct vfit_err *e);

/*
 * Listing of a FIT or legacy image exactly as `mkimage -l` prints it, or
 * with info != 0 what `vfit info` adds: signature status and signer,
 * hashed nodes, external data, rollback index, unsigned references.
 */
int vfit_image_list_file(FILE *f, const char *path, int info, struct vfit_err *e);

/* U-Boot's names of image types, architectures, OSes and compressions (host/names.c). */
enum vfit_name_kind {
	VFIT_NAME_TYPE,
	VFIT_NAME_ARCH,
	VFIT_NAME_OS,
	VFIT_NAME_COMP,
};
/* Is this a short name U-Boot knows ("arm64", "kernel", "gzip", ...)? */
int vfit_name_known(enum vfit_name_kind kind, const char *name);
/* mkimage's "Invalid ..., supported are:" table: every short and long name. */
void vfit_name_print_all(FILE *f, enum vfit_name_kind kind);

/*
 * The first image the configuration signature at sig_path leaves out of
 * its hashed-nodes although the configuration references it (mkimage's
 * sign-images rule; U-Boot HEAD and vfit check every referenced image).
 * 1 with its name and the referencing property, 0 if none.
 */
int vfit_fit_sign_gap(const void *fit, size_t len, const char *sig_path, char *img, size_t isize,
		      char *prop, size_t psize);

/* A U-Boot legacy image (uImage, boot script, multi-file image): mkimage without -f. */
struct vfit_legacy {
	const char *arch, *os, *type, *comp;  /* short names (-A -O -T -C) */
	uint32_t load, entry;     /* -a, -e */
	int entry_set;            /* -e given; else entry = load (+ 64 with -x) */
	const char *name;         /* -n: at most 32 bytes are kept */
	const char *datafiles;    /* -d FILE, or FILE:FILE:... for multi and script */
	int xip;                  /* -x: the file starts with 64 bytes of 0xff for the header */
	int no_data;              /* -s: header only */
};
/* Writes the image atomically, byte for byte as mkimage does. */
int vfit_legacy_write(const struct vfit_legacy *l, const char *out, struct vfit_err *e);

/*
 * New RSA key pair DIR/NAME.key (0600) + DIR/NAME.crt (self-signed,
 * CN=NAME); DIR is made (0700) when missing (both keygen calls).
 */
int vfit_keygen(const char *dir, const char *name, unsigned int bits, int force,
		struct vfit_err *e);
/* New ECDSA key DIR/NAME.pem (PKCS#8 PEM, 0600) on P-256 or P-384: what mkimage reads. */
int vfit_keygen_ecdsa(const char *dir, const char *name, enum vfit_ec_curve curve, int force,
		      struct vfit_err *e);

/* ---- JSON output (host/json.c) ---------------------------------------- */

/*
 * s as a JSON string (RFC 8259), or null for NULL: quote, backslash and
 * control characters escaped, well-formed UTF-8 kept as it is, any other
 * byte written as \u00XX, so the output is valid JSON for any input.
 */
void vfit_json_str(FILE *f, const char *s);
/*
 * The member every failing --json run has in the object it prints:
 * "error":{"status":STATUS,"message":LINE}, STATUS the exit status and
 * LINE the one line printed on stderr (without its newline).
 */
void vfit_json_error(FILE *f, int status, const char *line);

#endif
