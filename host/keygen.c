/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit keygen: the two files mkimage looks for, DIR/NAME.key (PEM private
 * key, mode 0600) and DIR/NAME.crt (self-signed X.509, CN=NAME), made with
 * OpenSSL 3's EVP interface.  Each file is written to a temporary file
 * created O_EXCL with its final mode, then linked into place: link()
 * fails if the name exists, so without --force an existing key is never
 * replaced, and a crash never leaves a half-written key behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "mkimage_int.h"

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

/* Writes one PEM file through an O_EXCL temporary file and link()/rename(). */
static int write_pem(const char *path, mode_t mode, EVP_PKEY *k, X509 *x, int force,
		     struct vfit_err *e)
{
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	FILE *f = NULL;
	int fd = -1, ok;

	if (!tmp)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "out of memory");
	snprintf(tmp, n, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	ok = !fchmod(fd, mode) && (f = fdopen(fd, "w")) != NULL;
	if (ok)
		fd = -1;
	ok = ok && (k ? PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL)
		      : PEM_write_X509(f, x));
	ok = ok && !fflush(f) && !fsync(fileno(f));
	if (f && fclose(f))
		ok = 0;
	if (fd >= 0)
		close(fd);
	if (ok) {
		if (force)
			ok = !rename(tmp, path);
		else
			ok = !link(tmp, path);
		if (!ok)
			vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s%s", path, strerror(errno),
				     errno == EEXIST ? " (use --force to replace it)" : "");
	} else {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: write failed", path);
	}
	unlink(tmp);
	free(tmp);
	return ok ? 0 : -1;
}

int vfit_keygen(const char *dir, const char *name, unsigned int bits, int force,
		struct vfit_err *e)
{
	char kpath[4096], cpath[4096];
	EVP_PKEY *k = NULL;
	X509 *x = NULL;
	int r = -1;

	if (bits != 2048 && bits != 3072 && bits != 4096)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "key size %u: use rsa2048, rsa3072 or rsa4096",
				    bits);
	if (!*name || strchr(name, '/') || strchr(name, '@'))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "key name '%s': must not be empty or "
				    "contain '/' or '@'", name);
	snprintf(kpath, sizeof(kpath), "%s/%s.key", dir, name);
	snprintf(cpath, sizeof(cpath), "%s/%s.crt", dir, name);
	if (!force && (!access(kpath, F_OK) || !access(cpath, F_OK)))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: already exists (use --force to replace it)",
				    !access(kpath, F_OK) ? kpath : cpath);
	k = EVP_RSA_gen(bits);
	if (!k)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "RSA key generation failed");
	x = make_cert(k, name);
	if (!x) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "certificate creation failed");
		goto out;
	}
	if (write_pem(kpath, 0600, k, NULL, force, e))
		goto out;
	if (write_pem(cpath, 0644, NULL, x, force, e)) {
		/* Do not leave a key without its certificate. */
		unlink(kpath);
		goto out;
	}
	r = 0;
out:
	X509_free(x);
	EVP_PKEY_free(k);
	return r;
}
