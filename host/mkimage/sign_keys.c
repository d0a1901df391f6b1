/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Key material for signing: -k DIR (RSA NAME.key and, for -K, NAME.crt;
 * ECDSA NAME.pem, as mkimage reads them), -G FILE, or keys in an OpenSSL
 * engine with -N (see engine_key_id()); each loaded once per run, and the
 * signer that holds them.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libfdt.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "mkimage_int.h"

struct vfit_signer *vfit_signer_new(const struct vfit_mkimage *m)
{
	struct vfit_signer *s = calloc(1, sizeof(*s));

	if (s)
		s->m = m;
	return s;
}

void vfit_signer_free(struct vfit_signer *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < s->nkeys; i++) {
		free(s->keys[i].name);
		EVP_PKEY_free(s->keys[i].pub);
		EVP_PKEY_free(s->keys[i].priv);
	}
	vfit_engine_close(s->eng);
	free(s);
}

int vfit_signer_active(const struct vfit_signer *s)
{
	return s->m->keydir || s->m->keyfile || s->m->engine;
}

const char *vfit_signer_last_conf(const struct vfit_signer *s)
{
	return s->last_conf;
}

const char *vfit_signer_last_key(const struct vfit_signer *s)
{
	return s->last_key;
}

/*
 * The passphrase of an encrypted key file: MKIMAGE_SIGN_PASSWORD, as
 * mkimage's ECDSA code reads it (vfit takes it for RSA keys too).  Never
 * a prompt: without it an encrypted key fails to load instead of waiting
 * for a terminal that a build script does not have.
 */
static int passphrase(char *buf, int size, int rwflag, void *u)
{
	const char *pw = getenv("MKIMAGE_SIGN_PASSWORD");
	size_t n = pw ? strlen(pw) : 0;

	(void)rwflag;
	(void)u;
	if (!pw || n >= (size_t)size)
		return -1;
	memcpy(buf, pw, n);
	return (int)n;
}

static EVP_PKEY *read_private(const char *path)
{
	FILE *f = fopen(path, "r");
	EVP_PKEY *k;

	if (!f)
		return NULL;
	k = PEM_read_PrivateKey(f, NULL, passphrase, NULL);
	fclose(f);
	return k;
}

static EVP_PKEY *read_cert_key(const char *path)
{
	FILE *f = fopen(path, "r");
	EVP_PKEY *k = NULL;
	X509 *x;

	if (!f)
		return NULL;
	x = PEM_read_X509(f, NULL, NULL, NULL);
	fclose(f);
	if (x)
		k = X509_get_pubkey(x);
	X509_free(x);
	return k;
}

static int is_pkcs11(const struct vfit_mkimage *m)
{
	return m->engine && !strcmp(m->engine, "pkcs11");
}

/* Whether priv is a key of the kind (enum vfit_sig_kind) a signature needs. */
static int kind_ok(const EVP_PKEY *priv, uint8_t kind)
{
	return EVP_PKEY_is_a(priv, kind == VFIT_SIG_ECDSA ? "EC" : "RSA");
}

static const char *kind_name(uint8_t kind)
{
	return kind == VFIT_SIG_ECDSA ? "ECDSA" : "RSA";
}

/*
 * The key id mkimage gives the engine for key NAME.  pkcs11: an RFC 7512
 * URI, "pkcs11:" + the -k string (prefix added when missing) + the
 * object unless -k already selects one ("object=" or "id=" anywhere in
 * it, as mkimage tests it) + ";type=private" or ";type=public"; without
 * -k "pkcs11:object=NAME;type=...".  Other engines: -k string + NAME, or
 * the -G value, or NAME; the same id for both halves of the key.
 */
static int engine_key_id(struct vfit_signer *s, const char *hint, int public, char *id,
			 size_t size, struct vfit_err *e)
{
	const struct vfit_mkimage *m = s->m;
	const char *type = public ? "public" : "private", *dir = m->keydir, *pre;
	int n;

	if (!is_pkcs11(m))
		n = dir ? snprintf(id, size, "%s%s", dir, hint)
			: snprintf(id, size, "%s", m->keyfile ? m->keyfile : hint);
	else if (!dir)
		n = snprintf(id, size, "pkcs11:object=%s;type=%s", hint, type);
	else {
		pre = strncmp(dir, "pkcs11:", 7) ? "pkcs11:" : "";
		if (*pre && !s->warned++)
			fprintf(stderr, "vfit: warning: -k %s: not a PKCS#11 URI, using "
				"'pkcs11:%s'\n", dir, dir);
		n = strstr(dir, "object=") || strstr(dir, "id=")
			? snprintf(id, size, "%s%s;type=%s", pre, dir, type)
			: snprintf(id, size, "%s%s;object=%s;type=%s", pre, dir, hint, type);
	}
	if (n < 0 || (size_t)n >= size)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "-N %s: key id for '%s' too long",
				    m->engine, hint);
	return 0;
}

/* -N: the private key and, for -K, the public key, both from the engine. */
static int engine_keys(struct vfit_signer *s, struct key *k, const char *hint,
		       struct vfit_err *e)
{
	char id[PATH_MAX];

	if (!s->eng) {
		s->eng = vfit_engine_open(s->m->engine, e);
		if (!s->eng)
			return -1;
	}
	if (engine_key_id(s, hint, 0, id, sizeof(id), e))
		return -1;
	k->priv = vfit_engine_key(s->eng, id, 0, e);
	if (!k->priv)
		return -1;
	if (!kind_ok(k->priv, k->kind))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "-N %s: '%s' is not an %s key",
				    s->m->engine, id, kind_name(k->kind));
	if (!s->m->keydest)
		return 0;
	if (engine_key_id(s, hint, 1, id, sizeof(id), e))
		return -1;
	k->pub = vfit_engine_key(s->eng, id, 1, e);
	return k->pub ? 0 : -1;
}

/*
 * Key files: -k DIR (RSA: DIR/NAME.key, and DIR/NAME.crt for -K; ECDSA:
 * DIR/NAME.pem, whose private key also gives -K its point, as in
 * mkimage's lib/ecdsa) or -G FILE, which mkimage's ECDSA code prefers to
 * -k when both are given and its RSA code does not.  Returns 1 with *skip
 * set when the key is missing and --allow-missing-keys was given.
 */
static int file_keys(struct vfit_signer *s, struct key *k, const char *name, const void *fit,
		     int node, const char *hint, int *skip, struct vfit_err *e)
{
	const struct vfit_mkimage *m = s->m;
	const char *ext = k->kind == VFIT_SIG_ECDSA ? "pem" : "key";
	char path[PATH_MAX];
	int n;

	n = m->keydir && !(m->keyfile && k->kind == VFIT_SIG_ECDSA)
		? snprintf(path, sizeof(path), "%s/%s.%s", m->keydir, hint, ext)
		: snprintf(path, sizeof(path), "%s", m->keyfile);
	if (n < 0 || (size_t)n >= sizeof(path))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s: key path too long", name,
				    vfit_node_path(fit, node));
	if (access(path, F_OK)) {
		if (m->allow_missing_keys) {
			fprintf(stderr, "vfit: %s: %s: key '%s' not found (%s); left unsigned\n",
				name, vfit_node_path(fit, node), k->name, path);
			*skip = 1;
			return 1;
		}
		return vfit_err_set(e, VFIT_EXIT_USAGE,
				    "%s: %s: key '%s' not found: no %s (use --allow-missing-keys "
				    "to leave such nodes unsigned)", name, vfit_node_path(fit, node),
				    k->name, path);
	}
	k->priv = read_private(path);
	if (!k->priv)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: cannot read a PEM private key%s",
				    path, getenv("MKIMAGE_SIGN_PASSWORD") ? "" :
				    " (if it is encrypted, give its passphrase in MKIMAGE_SIGN_PASSWORD)");
	if (!kind_ok(k->priv, k->kind))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not an %s key", path,
				    kind_name(k->kind));
	if (!m->keydest)
		return 0;
	/* -K: mkimage takes an RSA key from NAME.crt; -G has no certificate. */
	if (!m->keydir || k->kind == VFIT_SIG_ECDSA) {
		EVP_PKEY_up_ref(k->priv);
		k->pub = k->priv;
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s.crt", m->keydir, hint);
	k->pub = read_cert_key(path);
	if (!k->pub)
		return vfit_err_set(e, VFIT_EXIT_USAGE,
				    "%s: cannot read the certificate for key '%s' (-K)", path, hint);
	if (EVP_PKEY_eq(k->pub, k->priv) != 1)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: certificate does not match %s/%s.key",
				    path, m->keydir, hint);
	return 0;
}

/*
 * The key for a signature node, loaded once per name and kind (an RSA and
 * an ECDSA key may share a name: NAME.key and NAME.pem).  Returns NULL
 * with *skip set when the key is missing and --allow-missing-keys was
 * given.
 */
struct key *vfit_signer_key(struct vfit_signer *s, const char *name, const void *fit, int node,
			   uint8_t kind, int *skip, struct vfit_err *e)
{
	const struct vfit_mkimage *m = s->m;
	const char *hint = vfit_fdt_str(fit, node, "key-name-hint");
	/* What names the key: the -G file when it alone identifies it, else the hint. */
	const char *id = !m->keydir && m->keyfile && !is_pkcs11(m) ? m->keyfile : hint;
	struct vfit_err ke = { 0 };
	struct key *k;
	int i, r;

	*skip = 0;
	if (!id || (!hint && (m->keydir || m->keydest)))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: key-name-hint missing", name,
				    vfit_node_path(fit, node)), NULL;
	for (i = 0; i < s->nkeys; i++)
		if (!strcmp(s->keys[i].name, id) && s->keys[i].kind == kind) {
			*skip = !s->keys[i].priv;
			return s->keys[i].priv ? &s->keys[i] : NULL;
		}
	if (s->nkeys == MAX_KEYS)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: more than %d keys", name, MAX_KEYS),
		       NULL;
	k = &s->keys[s->nkeys];
	memset(k, 0, sizeof(*k));
	k->name = strdup(id);
	k->kind = kind;
	if (!k->name)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "out of memory"), NULL;
	s->nkeys++;
	r = m->engine ? engine_keys(s, k, id, e) : file_keys(s, k, name, fit, node, hint, skip, e);
	if (r)
		return NULL;
	if (k->pub && (kind == VFIT_SIG_ECDSA ? vfit_ecdsa_pub_from_pkey(k->pub, &k->ec, &ke)
					      : vfit_rsa_pub_from_pkey(k->pub, &k->rsa, &ke)))
		return vfit_err_set(e, ke.status, "%s: %s: key '%s': %s", name,
				    vfit_node_path(fit, node), k->name, ke.msg), NULL;
	return k;
}

