/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the files of host/mkimage/ only: the passes mkimage.c runs
 * (encryption, dm-verity, the image and configuration passes, external
 * data) and what they share (the FIT index, the signer and its keys).
 */
#ifndef VFIT_MKIMAGE_INT_H
#define VFIT_MKIMAGE_INT_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "vfit/fit.h"
#include "vfit-host/err.h"
#include "vfit-host/fdtbuf.h"
#include "vfit-host/keys.h"
#include "vfit-host/mkimage.h"

/* ---- a FIT's nodes indexed in one walk (host/mkimage/fit_index.c) ------- */

struct vfit_fit_index;
/* fit passed vfit_fit_check(); two children of /images with one name are refused. */
struct vfit_fit_index *vfit_fit_index_new(const char *file, const void *fit, struct vfit_err *e);
void vfit_fit_index_free(struct vfit_fit_index *ix);
/* end[off / 4] past each node's END_NODE, for vfit_conf_digest_skip(). */
const int32_t *vfit_fit_index_ends(const struct vfit_fit_index *ix);
/* /images, and its child named name (or -1). */
int vfit_fit_index_images(const struct vfit_fit_index *ix);
int vfit_fit_index_image(const struct vfit_fit_index *ix, const char *name);
/* Parent's offset of the node at off, or -1. */
int vfit_fit_index_parent(const struct vfit_fit_index *ix, int off);
/* The node's path; -1 if it does not fit in size. */
int vfit_fit_index_path(const struct vfit_fit_index *ix, int off, char *buf, size_t size);

/* ---- dm-verity (host/mkimage/verity.c) ---------------------------------- */

/*
 * For each image with a dm-verity node: appends the hash tree to the
 * image data and fills in digest, salt, num-data-blocks and
 * hash-start-block, as U-Boot HEAD's mkimage does (needs -E).
 */
int vfit_verity_images(const char *name, struct vfit_fdtbuf *fit, int external,
		       struct vfit_err *e);

/* ---- encryption (host/mkimage/cipher.c) --------------------------------- */

/*
 * Encrypts every image of fit that has a `cipher` node and no
 * data-size-unciphered yet, as mkimage -k does (fit-format.md §11.1): key
 * (and IV) from KEYDIR/<hint>.bin, a random IV into the cipher node when
 * there is no iv-name-hint, AES-CBC with PKCS#7 padding in place of data,
 * data-size-unciphered, and with keydtb (-K) the key node
 * /cipher/key-<algo>-<key>[-<iv>].  Nothing happens without keydir.  Runs
 * before the image pass, so hashes and signatures cover the ciphertext.
 */
int vfit_cipher_images(const char *name, struct vfit_fdtbuf *fit, const char *keydir,
		       struct vfit_fdtbuf *keydtb, struct vfit_err *e);

/* ---- external data (host/mkimage/extdata.c) ----------------------------- */

/*
 * Loads the FIT at path for -F: its FDT, with every data-offset or
 * data-position payload (after the FDT) made a `data` property; payloads
 * of VFIT_PAYLOAD_MIN or more, embedded or external, stay in the file
 * (host/core/fdtbuf.c), the others are read once.  *imported: whether any
 * data was external.
 */
int vfit_ext_load(const char *path, struct vfit_fdtbuf *out, int *imported,
		  struct vfit_err *e);

/* The layout -E produces: the packed FDT plus payload segments. */
struct vfit_ext_layout {
	struct vfit_fdtbuf fdt;  /* FDT without payloads */
	struct vfit_seg *seg;    /* [0] = FDT, then one per payload */
	int nseg;
	uint64_t size;           /* file size */
};
/*
 * Payloads still in their files become segments copied from them.  The
 * FDT's padding to its aligned size is what mkimage 2023.01 leaves there
 * (vfit_ext_pad()), or with zero_pad zeros, as U-Boot HEAD writes (for a
 * FIT whose external data came in as HEAD imports it, -F).
 */
int vfit_ext_extract(const char *name, const struct vfit_fdtbuf *fit, uint32_t align,
		     int64_t position, int zero_pad, struct vfit_ext_layout *lay,
		     struct vfit_err *e);
void vfit_ext_layout_free(struct vfit_ext_layout *lay);
/*
 * The bytes [from, to) past the packed end of the external FIT's FDT, as
 * mkimage 2023.01 leaves them there (host/mkimage/extdata_pad.c): fit is the
 * signed FIT with its data, from the FDT's packed size, to its aligned one.
 */
int vfit_ext_pad(const struct vfit_fdtbuf *fit, int64_t position, uint32_t align, uint8_t *pad,
		 size_t from, size_t to);

/* ---- checks (host/mkimage/fit_hash.c) ----------------------------------- */

/*
 * Structure rules mkimage and U-Boot need before anything is written
 * (fit-format.md §3.4, 6.2, 7); VFIT_FIT_ALLOW_AT lets '@' through for a
 * FIT that will not be signed.
 */
int vfit_fit_precheck(const char *name, const void *fit, unsigned int flags, struct vfit_err *e);

/* ---- the signer (host/mkimage/sign.c, sign_keys.c) ---------------------- */

#define MAX_KEYS 32

struct key {
	char *name;        /* key-name-hint, or the -G file for nameless nodes */
	uint8_t kind;      /* enum vfit_sig_kind it was loaded for: RSA or ECDSA */
	EVP_PKEY *priv;    /* NULL: not found (with --allow-missing-keys) */
	EVP_PKEY *pub;     /* for -K: NAME.crt (-k RSA) or the private key */
	struct vfit_rsa_pub rsa;
	struct vfit_ecdsa_pub ec;
};

/* Key material and what was signed, shared by the image and configuration passes. */
struct vfit_signer {
	const struct vfit_mkimage *m;
	struct key keys[MAX_KEYS];
	int nkeys;
	uint32_t ts;
	char last_conf[256];
	char last_key[256];
	struct vfit_engine *eng;  /* -N, opened with the first key */
	int warned;               /* the missing "pkcs11:" prefix was reported */
	int ec_later;             /* this run writes v2025.01's ECDSA key nodes (ecdsa_key_write) */
};

/* A signature node's parsed algo. */
struct algo {
	enum vfit_hash hash;
	const struct vfit_sig_algo *sig;  /* the row of the device library's table */
	char str[64];      /* the full algo string (a copy: the FIT moves while signing) */
	char hint[128];    /* key-name-hint: names the -K key node */
	int pss;
};

struct vfit_signer *vfit_signer_new(const struct vfit_mkimage *m);
void vfit_signer_free(struct vfit_signer *s);
int vfit_signer_active(const struct vfit_signer *s);
/* Last signed configuration node path ("" if none), for mkimage's closing lines. */
const char *vfit_signer_last_conf(const struct vfit_signer *s);
const char *vfit_signer_last_key(const struct vfit_signer *s);

/*
 * The key for a signature node, loaded once per name and kind (an RSA and
 * an ECDSA key may share a name: NAME.key and NAME.pem).  Returns NULL
 * with *skip set when the key is missing and --allow-missing-keys was
 * given (sign_keys.c).
 */
struct key *vfit_signer_key(struct vfit_signer *s, const char *name, const void *fit, int node,
			    uint8_t kind, int *skip, struct vfit_err *e);
/* Key lookup, algorithm and size checks shared by both kinds of signature. */
struct key *vfit_sign_prepare(struct vfit_signer *s, const char *name, const void *fit, int node,
			      struct algo *a, int *skip, struct vfit_err *e);
/*
 * Signs a digest, records the node's properties in ed and writes (-K) the
 * key node.  nodes is NULL for an image signature; a configuration's key
 * is required "conf", an image's "image".
 */
int vfit_sign_write(struct vfit_signer *s, const char *name, const void *fit, int node,
		    struct key *k, const struct algo *a, const uint8_t *digest, const char *nodes,
		    size_t nodes_len, uint32_t strings, struct vfit_edits *ed,
		    struct vfit_fdtbuf *keydtb, struct vfit_err *e);
/* Signs one image signature node of fit given the payload digest; its properties go in ed. */
int vfit_sign_image_node(struct vfit_signer *s, const char *name, const void *fit, int node,
			 const uint8_t *digest, enum vfit_hash hash, struct vfit_edits *ed,
			 struct vfit_fdtbuf *keydtb, struct vfit_err *e);
/* Hash algorithm of a signature node's algo (after -o); INVALID + error if bad. */
enum vfit_hash vfit_sign_node_hash(const struct vfit_signer *s, const char *name,
				   const void *fit, int node, struct vfit_err *e);

/* ---- the image and configuration passes (fit_hash.c, fit_conf.c) -------- */

/*
 * The root timestamp (unless ts is NULL), then every image: hash* values
 * and (with keys) signature* nodes, in node order.  A payload still in
 * its file is hashed from it.
 */
int vfit_fit_hash_images(const char *name, struct vfit_fdtbuf *fit, const uint32_t *ts,
			 struct vfit_signer *s, struct vfit_fdtbuf *keydtb, struct vfit_err *e);
/*
 * Every configuration signature* node.  external: the data will move out
 * of the FDT (-E), so the FIT the device checks is the FDT without it.
 */
int vfit_fit_sign_confs(const char *name, struct vfit_fdtbuf *fit, int external,
			struct vfit_signer *s, struct vfit_fdtbuf *keydtb, struct vfit_err *e);

#endif
