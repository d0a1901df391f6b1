/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit keygen: the files mkimage looks for (docs/fit-format.md §4.1), made
 * with OpenSSL 3's EVP interface.  RSA: DIR/NAME.key (PEM private key, mode
 * 0600) and DIR/NAME.crt (self-signed X.509, CN=NAME), mkimage's source of
 * the public key.  ECDSA: DIR/NAME.pem only (PKCS#8 PEM, 0600; mkimage
 * derives the public key from it).  Files are written and fsync'd as
 * temporary files with their final modes first (vfit_out_write), then put
 * in place: linked without --force (link() fails if the name exists, so
 * an existing key is never replaced), renamed with it.  A failure before
 * that point changes nothing, and a crash never leaves a half-written key.
 * DIR is made (0700) when it does not exist, and taken away again when
 * the command fails after making it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "vfit-host/io.h"
#include "vfit-host/keys.h"

/* Ten years, as a build key is typically kept. */
#define CERT_DAYS 3650

static X509 *make_cert(EVP_PKEY *k, const char *name)
{
	X509 *x = X509_new();
	X509_NAME *n;
	int ok = x != NULL;

	ok = ok && X509_set_version(x, X509_VERSION_3);
	ok = ok && ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
	ok = ok && X509_gmtime_adj(X509_getm_notBefore(x), 0);
	ok = ok && X509_gmtime_adj(X509_getm_notAfter(x), 60L * 60 * 24 * CERT_DAYS);
	ok = ok && X509_set_pubkey(x, k);
	n = ok ? X509_get_subject_name(x) : NULL;
	ok = ok && n && X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_UTF8,
						    (const unsigned char *)name, -1, -1, 0);
	ok = ok && X509_set_issuer_name(x, n);
	ok = ok && X509_sign(x, k, EVP_sha256()) > 0;
	if (!ok) {
		X509_free(x);
		return NULL;
	}
	return x;
}

/* The PEM text of a private key (k) or certificate (x), written as a temporary file for path. */
static int write_pem(struct vfit_out *o, const char *path, EVP_PKEY *k, X509 *x,
		     struct vfit_err *e)
{
	BIO *bio = BIO_new(BIO_s_mem());
	struct vfit_seg seg = { 0 };
	char *text;
	long len;
	int ok;

	ok = bio && (k ? PEM_write_bio_PrivateKey(bio, k, NULL, NULL, 0, NULL, NULL)
		       : PEM_write_bio_X509(bio, x));
	len = ok ? BIO_get_mem_data(bio, &text) : 0;
	if (len <= 0) {
		BIO_free(bio);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot encode the PEM file", path);
	}
	seg.p = text;
	seg.len = (size_t)len;
	ok = !vfit_out_write(o, path, &seg, 1, seg.len, e);
	BIO_free(bio);
	return ok ? 0 : -1;
}

/* DIR/NAME.ext for a valid key name, else -1 with e set. */
static int key_path(char *path, size_t size, const char *dir, const char *name, const char *ext,
		    struct vfit_err *e)
{
	if (!*name || strchr(name, '/') || strchr(name, '@'))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "key name '%s': must not be empty or "
				    "contain '/' or '@'", name);
	if ((size_t)snprintf(path, size, "%s/%s.%s", dir, name, ext) >= size)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "path too long: %s/%s", dir, name);
	return 0;
}

static int exists(const char *path, int force, struct vfit_err *e)
{
	if (force || access(path, F_OK))
		return 0;
	return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: already exists (use --force to replace it)",
			    path);
}

/*
 * The key directory, made (mode 0700: it holds private keys) when missing,
 * as the README's first command expects in a fresh directory; *made says
 * so.  Only the last component is made: a mistyped parent stays an error.
 */
static int key_dir(const char *dir, int *made, struct vfit_err *e)
{
	*made = !mkdir(dir, 0700);
	if (*made || errno == EEXIST)
		return 0;
	return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot make the key directory: %s", dir,
			    strerror(errno));
}

int vfit_keygen(const char *dir, const char *name, unsigned int bits, int force,
		struct vfit_err *e)
{
	struct vfit_out ko = { .mode = 0600, .no_replace = !force };
	struct vfit_out co = { .mode = 0644, .no_replace = !force };
	char kpath[PATH_MAX], cpath[PATH_MAX];
	EVP_PKEY *k = NULL;
	X509 *x = NULL;
	int r = -1, made = 0;

	if (bits != 2048 && bits != 3072 && bits != 4096)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "key size %u: use rsa2048, rsa3072 or rsa4096",
				    bits);
	if (key_path(kpath, sizeof(kpath), dir, name, "key", e) ||
	    key_path(cpath, sizeof(cpath), dir, name, "crt", e) || exists(kpath, force, e) ||
	    exists(cpath, force, e))
		return -1;
	k = EVP_RSA_gen(bits);
	if (!k)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "RSA key generation failed");
	x = make_cert(k, name);
	if (!x) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "certificate creation failed");
		goto out;
	}
	if (key_dir(dir, &made, e) || write_pem(&ko, kpath, k, NULL, e))
		goto out;
	if (write_pem(&co, cpath, NULL, x, e)) {
		vfit_out_discard(&ko);
		goto out;
	}
	if (vfit_out_commit(&ko, e)) {
		vfit_out_discard(&co);
		goto out;
	}
	/* Do not leave a new key without its certificate. */
	if (vfit_out_commit(&co, e)) {
		if (!force)
			unlink(kpath);
		goto out;
	}
	r = 0;
out:
	if (r && made)
		rmdir(dir);
	X509_free(x);
	EVP_PKEY_free(k);
	return r;
}

int vfit_keygen_ecdsa(const char *dir, const char *name, enum vfit_ec_curve curve, int force,
		      struct vfit_err *e)
{
	struct vfit_out ko = { .mode = 0600, .no_replace = !force };
	char kpath[PATH_MAX];
	const char *group = curve == VFIT_EC_P256 ? "P-256"
			    : curve == VFIT_EC_P384 ? "P-384" : NULL;
	EVP_PKEY *k;
	int r, made;

	if (!group)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "ECDSA curve: use ecdsa256 or ecdsa384");
	if (key_path(kpath, sizeof(kpath), dir, name, "pem", e) || exists(kpath, force, e))
		return -1;
	k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", group);
	if (!k)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "ECDSA key generation failed");
	r = key_dir(dir, &made, e) || write_pem(&ko, kpath, k, NULL, e) ||
	    vfit_out_commit(&ko, e) ? -1 : 0;
	if (r && made)
		rmdir(dir);
	EVP_PKEY_free(k);
	return r;
}
