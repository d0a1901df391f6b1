/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mkimage's pre-load key (include/vfit-host/preload.h): U-Boot HEAD's
 * mkimage fills /image/pre-load/sig/public-key of the -K DTB from
 * KEYDIR/<key-name>.crt when that node names key-name (and algo-name), so
 * that binman's pre-load header and the boot loader's key come from the
 * same key directory.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include <libfdt.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "vfit/preload.h"
#include "vfit-host/fdtbuf.h"
#include "vfit-host/preload.h"

int vfit_preload_mkimage_key(const char *keydir, struct vfit_fdtbuf *keydtb, struct vfit_err *e)
{
	char path[PATH_MAX], name[256];
	const char *key;
	uint8_t *der = NULL;
	EVP_PKEY *k = NULL;
	X509 *x = NULL;
	FILE *f;
	int node, n, r;

	if (!keydir || !keydtb)
		return 0;
	node = fdt_path_offset(keydtb->buf, VFIT_PRELOAD_PATH);
	if (node < 0)
		return 0;
	/*
	 * Without key-name the node is someone else's (vfit preload -K writes
	 * a complete one): left alone, where U-Boot's mkimage fails.
	 */
	key = vfit_fdt_str(keydtb->buf, node, "key-name");
	if (!key)
		return 0;
	if (!vfit_fdt_str(keydtb->buf, node, "algo-name"))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: key-name without algo-name",
				    VFIT_PRELOAD_PATH);
	snprintf(name, sizeof(name), "%s", key);
	if ((size_t)snprintf(path, sizeof(path), "%s/%s.crt", keydir, name) >= sizeof(path))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: key path too long", VFIT_PRELOAD_PATH);
	f = fopen(path, "r");
	if (!f)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s: %s", VFIT_PRELOAD_PATH, path,
				    strerror(errno));
	x = PEM_read_X509(f, NULL, NULL, NULL);
	fclose(f);
	k = x ? X509_get_pubkey(x) : NULL;
	n = k ? i2d_PublicKey(k, &der) : -1;
	X509_free(x);
	EVP_PKEY_free(k);
	if (n <= 0)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: not a certificate",
				    VFIT_PRELOAD_PATH, path);
	r = vfit_fdt_setprop(keydtb, node, "public-key", der, (size_t)n);
	OPENSSL_free(der);
	if (r)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: public-key: %s", VFIT_PRELOAD_PATH,
				    fdt_strerror(r));
	return 0;
}
