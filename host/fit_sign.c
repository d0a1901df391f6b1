/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Signing: key material (-k DIR: for RSA NAME.key and, for -K, NAME.crt,
 * for ECDSA NAME.pem, as mkimage reads them; -G FILE; or keys in an
 * OpenSSL engine with -N, see engine_key_id()), image signatures over a
 * payload digest, configuration signatures over the message of
 * fit-format.md §3.4 (built by the device library's own
 * vfit_conf_nodes()/vfit_conf_digest(), so signer and verifier cover the
 * same bytes), the properties mkimage writes, and the public key nodes
 * of -K.  Only the signature value differs between RSA and ECDSA.
 *
 * ECDSA signatures are randomized, as mkimage's are: OpenSSL 3.0 (Debian
 * 12) has no RFC 6979 deterministic nonces (the "nonce-type" parameter
 * came with 3.2), so two runs give two different valid values.
 *
 * Properties are written in mkimage's order (value, signer-name,
 * signer-version, comment, timestamp, hashed-nodes, hashed-strings, algo
 * with -o), so libfdt's insert-at-front leaves the same blob order.  They
 * are recorded (host/fdtedit.c) and applied in one pass per signing pass,
 * and the FIT is checked and indexed once (host/fit_index.c): signing
 * thousands of configurations costs one region walk each over what they
 * sign, never a pass over the whole FIT per signature.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libfdt.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "mkimage_int.h"
#include "vfit/fit.h"

#define MAX_KEYS 32

struct key {
	char *name;        /* key-name-hint, or the -G file for nameless nodes */
	uint8_t kind;      /* enum vfit_sig_kind it was loaded for: RSA or ECDSA */
	EVP_PKEY *priv;    /* NULL: not found (with --allow-missing-keys) */
	EVP_PKEY *pub;     /* for -K: NAME.crt (-k RSA) or the private key */
	struct vfit_rsa_pub rsa;
	struct vfit_ecdsa_pub ec;
};

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

struct algo {
	enum vfit_hash hash;
	const struct vfit_sig_algo *sig;  /* the row of the device library's table */
	char str[64];      /* the full algo string (a copy: the FIT moves while signing) */
	char hint[128];    /* key-name-hint: names the -K key node */
	int pss;
};

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

int vfit_timestamp(uint32_t *t, struct vfit_err *e)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	unsigned long long v;
	char *end;

	if (!sde || !*sde) {
		*t = (uint32_t)time(NULL);
		return 0;
	}
	errno = 0;
	v = strtoull(sde, &end, 10);
	if (errno || *end || v > UINT32_MAX || *sde == '-')
		return vfit_err_set(e, VFIT_EXIT_USAGE, "SOURCE_DATE_EPOCH=%s: not a time", sde);
	*t = (uint32_t)v;
	return 0;
}

/* "<hash>,<algorithm>": the device library's grammar and table, so vfit signs what it verifies. */
static int parse_algo(const char *name, const void *fit, int node, const char *str,
		      struct algo *a, struct vfit_err *e)
{
	struct vfit_algo la;
	const char *comma = strchr(str, ',');

	if (strlen(str) >= sizeof(a->str) || vfit_algo_parse(str, (int)strlen(str) + 1, &la)) {
		if (comma && !strcmp(comma + 1, "secp521r1"))
			return vfit_err_set(e, VFIT_EXIT_REJECT,
					    "%s: %s: algo '%s': P-521 is not supported (no device can "
					    "verify it; use ecdsa256 or ecdsa384)", name,
					    vfit_node_path(fit, node), str);
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: unknown algo '%s'", name,
				    vfit_node_path(fit, node), str);
	}
	strcpy(a->str, str);
	a->hash = la.hash;
	a->sig = la.sig;
	return 0;
}

static int node_algo(const struct vfit_signer *s, const char *name, const void *fit, int node,
		     struct algo *a, struct vfit_err *e)
{
	const char *str = s->m->algo ? s->m->algo : vfit_fdt_str(fit, node, "algo");
	const char *pad;

	if (!str)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: algo missing (give one with -o)",
				    name, vfit_node_path(fit, node));
	if (parse_algo(name, fit, node, str, a, e))
		return -1;
	pad = vfit_fdt_str(fit, node, "padding");
	a->pss = pad && !strcmp(pad, "pss");
	if (pad && !a->pss && strcmp(pad, "pkcs-1.5"))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: unknown padding '%s'", name,
				    vfit_node_path(fit, node), pad);
	/* The verifier refuses it: ECDSA has no padding (fit_sig.c). */
	if (a->pss && a->sig->kind != VFIT_SIG_RSA)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: padding 'pss' with algo '%s': "
				    "ECDSA has no padding (remove the property)", name,
				    vfit_node_path(fit, node), str);
	return 0;
}

enum vfit_hash vfit_sign_node_hash(const struct vfit_signer *s, const char *name,
				   const void *fit, int node, struct vfit_err *e)
{
	struct algo a;

	if (node_algo(s, name, fit, node, &a, e))
		return VFIT_HASH_INVALID;
	return a.hash;
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
static struct key *get_key(struct vfit_signer *s, const char *name, const void *fit, int node,
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

/* RSASSA-PKCS1-v1_5 or PSS (salt = hash length, MGF1 with the same hash) of a digest. */
static int rsa_sign(const char *name, const void *fit, int node, EVP_PKEY *priv,
		    const struct algo *a, const uint8_t *digest, uint8_t *sig, size_t *siglen,
		    struct vfit_err *e)
{
	EVP_MD *md = EVP_MD_fetch(NULL, vfit_hash_name(a->hash), NULL);
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(priv, NULL);
	int ok = md && ctx && EVP_PKEY_sign_init(ctx) > 0 &&
		 EVP_PKEY_CTX_set_signature_md(ctx, md) > 0;

	if (ok && a->pss)
		ok = EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PSS_PADDING) > 0 &&
		     EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, RSA_PSS_SALTLEN_DIGEST) > 0 &&
		     EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, md) > 0;
	else if (ok)
		ok = EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) > 0;
	ok = ok && EVP_PKEY_sign(ctx, sig, siglen, digest, vfit_hash_size(a->hash)) > 0;
	EVP_PKEY_CTX_free(ctx);
	EVP_MD_free(md);
	if (!ok)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: signing with %s failed", name,
				    vfit_node_path(fit, node), a->str);
	return 0;
}

/*
 * ECDSA of a digest as mkimage signs it: the digest goes to the key
 * unchanged (no message digest is set, so a longer one is truncated to
 * the order's length, as the verifier does) and OpenSSL's DER signature
 * becomes the FIT's raw r || s, each left-padded to the curve size.
 */
static int ecdsa_sign(const char *name, const void *fit, int node, EVP_PKEY *priv,
		      const struct algo *a, const uint8_t *digest, uint8_t *sig, size_t *siglen,
		      struct vfit_err *e)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(priv, NULL);
	int half = a->sig->sig_len / 2;
	uint8_t der[2 * (VFIT_ECDSA_MAX_BYTES + 4) + 4];
	const uint8_t *p = der;
	size_t len = sizeof(der);
	ECDSA_SIG *es = NULL;
	const BIGNUM *r, *s;
	int ok;

	ok = ctx && EVP_PKEY_sign_init(ctx) > 0 &&
	     EVP_PKEY_sign(ctx, der, &len, digest, vfit_hash_size(a->hash)) > 0 &&
	     (es = d2i_ECDSA_SIG(NULL, &p, (long)len)) != NULL;
	if (ok) {
		ECDSA_SIG_get0(es, &r, &s);
		ok = BN_bn2binpad(r, sig, half) == half && BN_bn2binpad(s, sig + half, half) == half;
	}
	ECDSA_SIG_free(es);
	EVP_PKEY_CTX_free(ctx);
	if (!ok)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: signing with %s failed", name,
				    vfit_node_path(fit, node), a->str);
	*siglen = (size_t)a->sig->sig_len;
	return 0;
}

/* mkimage's properties of a signed node, in its order. */
static int write_sig(struct vfit_signer *s, struct vfit_edits *ed, int node, const uint8_t *sig,
		     size_t siglen, const char *nodes, size_t nodes_len, uint32_t strings)
{
	const struct vfit_mkimage *m = s->m;
	fdt32_t hs[2] = { 0, cpu_to_fdt32(strings) }, ts = cpu_to_fdt32(s->ts);
	int r;

	r = vfit_edits_set(ed, node, "value", sig, siglen);
	r = r ? r : vfit_edits_set(ed, node, "signer-name", "vfit", 5);
	r = r ? r : vfit_edits_set(ed, node, "signer-version", VFIT_VERSION,
				   sizeof(VFIT_VERSION));
	if (!r && m->comment)
		r = vfit_edits_set(ed, node, "comment", m->comment, strlen(m->comment) + 1);
	r = r ? r : vfit_edits_set(ed, node, "timestamp", &ts, sizeof(ts));
	if (!r && nodes) {
		r = vfit_edits_set(ed, node, "hashed-nodes", nodes, nodes_len);
		r = r ? r : vfit_edits_set(ed, node, "hashed-strings", hs, sizeof(hs));
	}
	if (!r && m->algo)
		r = vfit_edits_set(ed, node, "algo", m->algo, strlen(m->algo) + 1);
	return r;
}

/*
 * The ECDSA key node, /signature/NAME.  Where Debian's mkimage 2023.01
 * writes one (/signature exists, the node does not, no -r) it is 2023.01's
 * node, byte for byte: the three ecdsa,* properties, no algo (which makes
 * it serve its curve with any hash, fit_keys.c).  Elsewhere 2023.01 fails
 * or ignores what was asked, and vfit does what U-Boot v2025.01 and later
 * do: /signature created, the node with key-name-hint and algo, and with
 * -r `required` (2023.01 never marks an ECDSA key required); once the run
 * had to create /signature, for its every ECDSA key.  A node that exists
 * keeps its form: 2023.01's is rewritten as it is (unless -r asks for
 * more), a later one updated in place.
 */
static int ecdsa_key_write(struct vfit_signer *s, void *dtb, const struct key *k,
			   const struct algo *a, const char *required)
{
	int keys = fdt_subnode_offset(dtb, 0, "signature");
	int node = keys >= 0 ? fdt_subnode_offset(dtb, keys, a->hint) : -1;
	int later;

	s->ec_later |= keys < 0;
	later = s->ec_later || required || (node >= 0 && fdt_getprop(dtb, node, "algo", NULL));
	return vfit_ecdsa_keynode_write(dtb, a->hint, &k->ec, later ? a->str : NULL, required);
}

static int write_key(struct vfit_signer *s, struct key *k, const struct algo *a,
		     const char *required, struct vfit_fdtbuf *dtb, struct vfit_err *e)
{
	const char *prefix = k->kind == VFIT_SIG_ECDSA ? "" : "key-";
	int r;

	if (!dtb)
		return 0;
	if (!a->hint[0])
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: a signature node has no key-name-hint "
				    "to name its key node", s->m->keydest);
	if (!s->m->required)
		required = NULL;
	while ((r = k->kind == VFIT_SIG_ECDSA ? ecdsa_key_write(s, dtb->buf, k, a, required)
		    : vfit_rsa_keynode_write(dtb->buf, a->hint, &k->rsa, a->str, required)) ==
	       -FDT_ERR_NOSPACE)
		if (vfit_fdtbuf_reserve(dtb, 4096))
			break;
	if (r)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: /signature/%s%s: %s", s->m->keydest,
				    prefix, a->hint, fdt_strerror(r));
	snprintf(s->last_key, sizeof(s->last_key), "/signature/%s%s", prefix, a->hint);
	return 0;
}

/*
 * Signs a digest and records the node's properties and writes (-K) the key
 * node.  nodes is NULL for an image signature; a configuration's key is
 * required "conf", an image's "image".
 */
static int sign_write(struct vfit_signer *s, const char *name, const void *fit, int node,
		      struct key *k, const struct algo *a, const uint8_t *digest,
		      const char *nodes, size_t nodes_len, uint32_t strings,
		      struct vfit_edits *ed, struct vfit_fdtbuf *keydtb, struct vfit_err *e)
{
	uint8_t sig[VFIT_RSA_MAX_BITS / 8];
	size_t siglen = sizeof(sig);
	int r;

	r = a->sig->kind == VFIT_SIG_ECDSA
		? ecdsa_sign(name, fit, node, k->priv, a, digest, sig, &siglen, e)
		: rsa_sign(name, fit, node, k->priv, a, digest, sig, &siglen, e);
	if (r)
		return -1;
	r = write_sig(s, ed, node, sig, siglen, nodes, nodes_len, strings);
	if (r)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s: %s", name, vfit_node_path(fit, node),
				    fdt_strerror(r));
	return write_key(s, k, a, nodes ? "conf" : "image", keydtb, e);
}

/* An ECDSA key must be on the algo's curve (not just of its size: brainpoolP256r1 is not P-256). */
static int curve_ok(const char *name, const void *fit, int node, const struct key *k,
		    const struct algo *a, struct vfit_err *e)
{
	enum vfit_ec_curve curve;
	struct vfit_err ke = { 0 };

	if (vfit_ecdsa_pkey_curve(k->priv, &curve, &ke))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: key '%s': %s", name,
				    vfit_node_path(fit, node), k->name, ke.msg);
	if (curve != a->sig->curve)
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: %s: key '%s' is on curve %s but algo '%s' needs %s", name,
				    vfit_node_path(fit, node), k->name, vfit_ecdsa_curve_name(curve),
				    a->str, vfit_ecdsa_curve_name(a->sig->curve));
	return 0;
}

/* Key lookup, algorithm and size checks shared by both kinds of signature. */
static struct key *prepare(struct vfit_signer *s, const char *name, const void *fit, int node,
			   struct algo *a, int *skip, struct vfit_err *e)
{
	const char *hint = vfit_fdt_str(fit, node, "key-name-hint");
	struct key *k;
	int bits;

	*skip = 0;
	if (node_algo(s, name, fit, node, a, e))
		return NULL;
	if (hint && strlen(hint) >= sizeof(a->hint))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: key-name-hint too long", name,
				    vfit_node_path(fit, node)), NULL;
	snprintf(a->hint, sizeof(a->hint), "%s", hint ? hint : "");
	if (!s->ts && vfit_timestamp(&s->ts, e))
		return NULL;
	k = get_key(s, name, fit, node, a->sig->kind, skip, e);
	if (!k)
		return NULL;
	if (a->sig->kind == VFIT_SIG_ECDSA)
		return curve_ok(name, fit, node, k, a, e) ? NULL : k;
	bits = EVP_PKEY_get_bits(k->priv);
	if (bits < 0 || (unsigned int)bits != a->sig->key_bits)
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: %s: key '%s' has %d bits but algo '%s' needs %u", name,
				    vfit_node_path(fit, node), k->name, bits, a->str,
				    (unsigned int)a->sig->key_bits),
		       NULL;
	return k;
}

int vfit_sign_image_node(struct vfit_signer *s, const char *name, const void *fit, int node,
			 const uint8_t *digest, enum vfit_hash hash, struct vfit_edits *ed,
			 struct vfit_fdtbuf *keydtb, struct vfit_err *e)
{
	struct algo a;
	struct key *k;
	int skip;

	k = prepare(s, name, fit, node, &a, &skip, e);
	if (!k)
		return skip ? 0 : -1;
	if (a.hash != hash || !digest)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: internal digest mismatch", name,
				    vfit_node_path(fit, node));
	return sign_write(s, name, fit, node, k, &a, digest, NULL, 0, 0, ed, keydtb, e);
}

/* ---- configurations ----------------------------------------------------------- */

/*
 * hashed-nodes: the node list as paths, ordered like mkimage's (root,
 * configuration, then the images in sign-images order, each followed by
 * its listed children, then any other listed image).  Verifiers only test
 * membership; the order just keeps the output identical to mkimage's
 * whenever both sign the same set.
 */
struct groups {
	unsigned int n;
	unsigned int start[VFIT_MAX_HASHED_NODES + 1];  /* group g = [start[g], start[g+1]) */
	char done[VFIT_MAX_HASHED_NODES];
};

static int emit(const struct vfit_fit_index *ix, const struct vfit_node_list *l,
		struct groups *gr, unsigned int g, char *out, size_t size, size_t *n)
{
	unsigned int j;

	if (gr->done[g])
		return 0;
	gr->done[g] = 1;
	for (j = gr->start[g]; j < gr->start[g + 1]; j++) {
		if (vfit_fit_index_path(ix, l->offset[j], out + *n, size - *n))
			return -1;
		*n += strlen(out + *n) + 1;
	}
	return 0;
}

static int hashed_nodes(const void *fit, const struct vfit_fit_index *ix, int conf, int sig,
			const struct vfit_node_list *l, char *out, size_t size, size_t *len)
{
	static const char *const defaults[] = { "kernel", "fdt", "script" };
	int images = vfit_fit_index_images(ix), nprops, i, k, cnt, img;
	struct groups gr;
	unsigned int j, g;
	const char *p, *sname;
	size_t n = 0;

	memset(&gr, 0, sizeof(gr));
	for (j = 0; j < l->count; j++)
		if (j < 2 || vfit_fit_index_parent(ix, l->offset[j]) == images)
			gr.start[gr.n++] = j;
	gr.start[gr.n] = l->count;
	if (emit(ix, l, &gr, 0, out, size, &n) || (gr.n > 1 && emit(ix, l, &gr, 1, out, size, &n)))
		return -1;
	nprops = fdt_stringlist_count(fit, sig, "sign-images");
	for (i = 0; i < (nprops > 0 ? nprops : 3); i++) {
		p = nprops > 0 ? fdt_stringlist_get(fit, sig, "sign-images", i, NULL) : defaults[i];
		cnt = p ? fdt_stringlist_count(fit, conf, p) : 0;
		for (k = 0; k < cnt; k++) {
			sname = fdt_stringlist_get(fit, conf, p, k, NULL);
			img = sname ? vfit_fit_index_image(ix, sname) : -1;
			for (g = 2; img >= 0 && g < gr.n; g++)
				if (l->offset[gr.start[g]] == img &&
				    emit(ix, l, &gr, g, out, size, &n))
					return -1;
		}
	}
	for (g = 2; g < gr.n; g++)
		if (emit(ix, l, &gr, g, out, size, &n))
			return -1;
	*len = n;
	return 0;
}

/*
 * A configuration signature protects each image only through its hashes:
 * one must be cryptographic, as the verifier demands (VFIT_ERR_WEAK_HASH).
 * The hash nodes are the listed children of each image.
 */
static int weak_images(const char *name, const void *fit, const struct vfit_fit_index *ix,
		       int conf, const struct vfit_node_list *l, struct vfit_err *e)
{
	char conf_path[VFIT_PATH_MAX];
	unsigned int i, j;
	enum vfit_hash h;
	const char *algo;
	int strong;

	for (i = 2; i < l->count; i = j) {
		strong = 0;
		for (j = i + 1; j < l->count && vfit_fit_index_parent(ix, l->offset[j]) ==
		     l->offset[i]; j++) {
			algo = vfit_fdt_str(fit, l->offset[j], "algo");
			h = algo ? vfit_hash_lookup(algo, strlen(algo)) : VFIT_HASH_INVALID;
			strong |= vfit_sig_hash_ok(h);
		}
		if (strong)
			continue;
		snprintf(conf_path, sizeof(conf_path), "%s", vfit_node_path(fit, conf));
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: %s: signed image has no cryptographic hash (only CRC or "
				    "MD5): %s signs it, so give it a sha1, sha256, sha384 or sha512 "
				    "hash node", name, vfit_node_path(fit, l->offset[i]), conf_path);
	}
	return 0;
}

/* The node list, from the configuration's names resolved through the index. */
static int conf_list(const char *name, const void *fit, const struct vfit_fit_index *ix,
		     int conf, struct vfit_node_list *list, struct vfit_err *e)
{
	struct vfit_diag diag = { -1, NULL, VFIT_LIMIT_NONE };
	char conf_path[VFIT_PATH_MAX];
	struct vfit_conf_refs refs;
	enum vfit_result vr;
	unsigned int i;

	vr = vfit_conf_refs(fit, conf, &refs, &diag);
	for (i = 0; !vr && i < refs.n; i++)
		refs.node[i] = vfit_fit_index_image(ix, refs.name[i]);
	if (!vr)
		vr = vfit_conf_list(fit, conf, &refs, list, &diag);
	if (!vr)
		return weak_images(name, fit, ix, conf, list, e);
	snprintf(conf_path, sizeof(conf_path), "%s", vfit_node_path(fit, conf));
	if (vr == VFIT_ERR_NO_HASH)
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: %s: no hash node, but signed configuration %s needs one",
				    name, vfit_node_path(fit, diag.node), conf_path);
	return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: %s", name,
			    vfit_node_path(fit, diag.node >= 0 ? diag.node : conf),
			    vr == VFIT_ERR_NO_IMAGES ? "configuration references no image"
						     : vfit_result_to_string(vr));
}

static int sign_conf(struct vfit_signer *s, const char *name, const void *fit,
		     const struct vfit_fit_index *ix, struct vfit_edits *ed, int conf, int node,
		     struct vfit_fdtbuf *keydtb, struct vfit_err *e)
{
	uint8_t digest[VFIT_HASH_MAX_SIZE];
	struct vfit_node_list list;
	struct vfit_hash_ctx ctx;
	size_t nlen;
	char nodes[VFIT_MAX_HASHED_NODES * 256];
	enum vfit_result vr;
	const char *str;
	uint32_t strings;
	struct algo a;
	struct key *k;
	int skip;

	k = prepare(s, name, fit, node, &a, &skip, e);
	if (!k)
		return skip ? 0 : -1;
	if (conf_list(name, fit, ix, conf, &list, e))
		return -1;
	if (vfit_hash_init(&ctx, a.hash))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: hash %s not available", name,
				    vfit_hash_name(a.hash));
	vr = vfit_conf_digest_skip(fit, &list, 0, vfit_fit_index_ends(ix), &ctx);
	if (vr)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: %s", name,
				    vfit_node_path(fit, conf), vfit_result_to_string(vr));
	/*
	 * The message ends with the strings block as it is when this
	 * signature is made: mkimage signs in turn, so the names earlier
	 * signatures added are in it (recorded, not yet in fit).
	 */
	str = vfit_edits_strings(ed, &strings);
	vfit_hash_update(&ctx, str, strings);
	vfit_hash_final(&ctx, digest);
	if (hashed_nodes(fit, ix, conf, node, &list, nodes, sizeof(nodes), &nlen))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: node paths too long", name,
				    vfit_node_path(fit, conf));
	if (vfit_fit_index_path(ix, node, s->last_conf, sizeof(s->last_conf)))
		s->last_conf[0] = 0;
	return sign_write(s, name, fit, node, k, &a, digest, nodes, nlen, strings, ed, keydtb, e);
}

int vfit_fit_sign_confs(const char *name, struct vfit_fdtbuf *fit, struct vfit_signer *s,
			struct vfit_fdtbuf *keydtb, struct vfit_err *e)
{
	int confs = fdt_path_offset(fit->buf, "/configurations"), conf, node, r = -1;
	struct vfit_diag diag = { -1, NULL, VFIT_LIMIT_NONE };
	struct vfit_fit_index *ix = NULL;
	struct vfit_edits *ed = NULL;
	enum vfit_result vr;

	if (!vfit_signer_active(s) || confs < 0)
		return 0;
	/* Checked once for every signature: what the verifier will check first. */
	vr = vfit_fit_check(fit->buf, fdt_totalsize(fit->buf), 0, &diag);
	if (vr)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s%snot a valid FIT to sign: %s", name,
				    diag.node >= 0 ? vfit_node_path(fit->buf, diag.node) : "",
				    diag.node >= 0 ? ": " : "", vfit_result_to_string(vr));
	ix = vfit_fit_index_new(name, fit->buf, e);
	ed = ix ? vfit_edits_new(fit->buf) : NULL;
	if (!ed) {
		if (ix)
			vfit_err_set(e, VFIT_EXIT_USAGE, "out of memory");
		goto out;
	}
	fdt_for_each_subnode(conf, fit->buf, confs) {
		fdt_for_each_subnode(node, fit->buf, conf) {
			if (vfit_fdt_prefix(fit->buf, node, "signature") &&
			    sign_conf(s, name, fit->buf, ix, ed, conf, node, keydtb, e))
				goto out;
		}
	}
	r = vfit_edits_apply(ed, fit);
	if (r)
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", name, fdt_strerror(r));
out:
	vfit_edits_free(ed);
	vfit_fit_index_free(ix);
	return r ? -1 : 0;
}
