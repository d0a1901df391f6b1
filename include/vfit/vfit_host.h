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
 * Maps the regular file path read-only into *p (an empty file gives NULL
 * and 0): the bytes a verifier checks are the file's, with no copy.  The
 * open cannot hang on a FIFO put in its place.  0, or -1 with e set
 * (VFIT_EXIT_USAGE).  vfit_file_unmap() releases it.
 */
int vfit_file_map(const char *path, const void **p, size_t *len, struct vfit_err *e);
void vfit_file_unmap(const void *p, size_t len);

/* ---- keys (host/keys.c) ---------------------------------------------- */

/* An RSA public key in U-Boot's pre-processed form (spec section 4.2). */
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

/* ---- rollback counters (host/counters*.c) ------------------------------ */

/*
 * Named monotonic counters for anti-rollback.  A counter name is
 * 1..VFIT_CTR_NAME_MAX characters of [A-Za-z0-9._-]; a configuration that
 * names no counter (rollback-counter) uses its boot stage's own counter
 * ("bootloader", "stageN", "kernel", "recovery": see lib/boot_chain.c), so
 * chains never share one by accident.  Values are unsigned 64-bit and only
 * move forward.
 *
 * Two backends behind one handle:
 *  - file: one checksummed file (at most 64 counters), replaced atomically
 *    (format in host/counters_file.c).  A counter never advanced reads as 0.
 *    A missing, truncated or corrupted file is an error (status 1), never a
 *    reset to zero.  The checksum catches corruption and naive edits, not
 *    an attacker who can write storage (he can replay an old copy): that
 *    is what the TPM backend is for.
 *  - tpm: one TPM 2.0 NV counter per name (see host/counters_tpm.c for the
 *    index layout, attributes and threat model), reached through a TCTI
 *    string such as "swtpm:host=127.0.0.1,port=2321".  Counters must be
 *    provisioned; an unprovisioned name is an error (status 1), so is a TPM
 *    that refuses a command; an unreachable TPM is status 2.  There is no
 *    fallback from one backend to the other.
 * Every function returns 0 (or a handle) on success, and -1 (or NULL) with
 * e set on failure.
 */
#define VFIT_CTR_NAME_MAX 31
/* Size of the TPM counters' authValue file (raw random bytes). */
#define VFIT_CTR_AUTH_SIZE 32

struct vfit_ctr_store;

/* Whether name is a valid counter name. */
int vfit_ctr_name_valid(const char *name);

/* Creates an empty file store at path; fails if path already exists. */
int vfit_ctr_file_provision(const char *path, struct vfit_err *e);
struct vfit_ctr_store *vfit_ctr_file_open(const char *path, struct vfit_err *e);

/*
 * Defines (if needed) and initialises the TPM counters for names[0..n-1].
 * auth_path holds the VFIT_CTR_AUTH_SIZE-byte authValue; it is created from
 * fresh random bytes when missing.  Needs the platform hierarchy (empty
 * platform auth, as firmware has it before handing the TPM to the OS).
 * Idempotent: already provisioned names are checked, not changed.
 */
int vfit_ctr_tpm_provision(const char *tcti, const char *auth_path, const char *const *names,
			   size_t n, struct vfit_err *e);
/*
 * Opens the TPM counters with the authValue in auth_path.  Both TPM
 * functions set TSS2_LOG=all+none when it is unset, so tpm2-tss does not
 * print its own lines next to ours (child processes inherit that).
 */
struct vfit_ctr_store *vfit_ctr_tpm_open(const char *tcti, const char *auth_path,
					 struct vfit_err *e);
/*
 * NV index of the TPM counter for name: VFIT_CTR_TPM_BASE + 2 * (first two
 * bytes of SHA-256(name)); its baseline index is the next one.
 */
#define VFIT_CTR_TPM_BASE 0x01500000u
uint32_t vfit_ctr_tpm_index(const char *name);
/* An NV counter moves by one per command: one advance moves at most this far. */
#define VFIT_CTR_TPM_MAX_STEP 1024

/* Current value of counter name. */
int vfit_ctr_read(struct vfit_ctr_store *s, const char *name, uint64_t *value, struct vfit_err *e);
/*
 * Moves counter name forward to value.  A value not above the current one
 * changes nothing and succeeds.  old_value/new_value (either may be NULL)
 * receive the counter before and after.
 */
int vfit_ctr_advance(struct vfit_ctr_store *s, const char *name, uint64_t value,
		     uint64_t *old_value, uint64_t *new_value, struct vfit_err *e);
/* "file PATH" or "tpm TCTI", for log lines. */
const char *vfit_ctr_describe(const struct vfit_ctr_store *s);
void vfit_ctr_close(struct vfit_ctr_store *s);

/* ---- mkimage, keygen, info (host/mkimage.c, keygen.c, list.c, ...) ---- */

#include <stdio.h>

/* One `mkimage` run; the fields mirror its options (spec section 10). */
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
	/* filled in by the run, for mkimage's closing lines */
	char signed_conf[256];
	char key_node[256];
};

/* Builds/updates, hashes, signs, extracts and writes atomically. */
int vfit_mkimage_run(struct vfit_mkimage *m, struct vfit_err *e);

/* Listing of a FIT file in `mkimage -l` style, with signature status and external data. */
int vfit_fit_list_file(FILE *f, const char *path, struct vfit_err *e);

/* New RSA key pair DIR/NAME.key (0600) + DIR/NAME.crt (self-signed, CN=NAME). */
int vfit_keygen(const char *dir, const char *name, unsigned int bits, int force,
		struct vfit_err *e);

#endif
