/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Keys held in an OpenSSL engine (mkimage -N), e.g. a PKCS#11 token
 * through libp11's "pkcs11" engine.
 *
 * The ENGINE API is deprecated in OpenSSL 3, but it is what mkimage -N
 * uses and, on Debian 12, the only PKCS#11 path OpenSSL has (there is no
 * pkcs11 provider package).  It is confined to this file, which alone
 * silences the deprecation warnings; the keys it returns are ordinary
 * EVP_PKEYs that host/mkimage/sign.c signs with through the EVP interface.
 */
#define OPENSSL_SUPPRESS_DEPRECATED

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/engine.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ui.h>

#include "vfit-host/keys.h"

struct vfit_engine {
	ENGINE *eng;
	UI_METHOD *ui;
	char id[64];
};

/*
 * The engine's PIN prompt: vfit never asks on the terminal (it runs in
 * build scripts); without a usable MKIMAGE_SIGN_PIN the key load fails
 * with a message instead.
 */
static int no_prompt(UI *ui, UI_STRING *uis)
{
	(void)ui;
	(void)uis;
	return -1;
}

/*
 * The reason of the first queued OpenSSL error (the engine's own, e.g.
 * "PIN incorrect" or "object not found", comes before the generic
 * ENGINE_load_private_key one), or a generic text; clears the queue.
 */
static const char *ossl_reason(void)
{
	const char *r = ERR_reason_error_string(ERR_peek_error());

	ERR_clear_error();
	return r ? r : "no details";
}

struct vfit_engine *vfit_engine_open(const char *id, struct vfit_err *e)
{
	struct vfit_engine *g = calloc(1, sizeof(*g));
	const char *pin = getenv("MKIMAGE_SIGN_PIN");

	if (!g)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "out of memory"), NULL;
	snprintf(g->id, sizeof(g->id), "%s", id);
	g->ui = UI_create_method("vfit: no PIN prompt");
	if (!g->ui || UI_method_set_reader(g->ui, no_prompt)) {
		UI_destroy_method(g->ui);
		free(g);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "out of memory"), NULL;
	}
	g->eng = ENGINE_by_id(id);
	if (!g->eng) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "-N %s: OpenSSL engine not available (%s)", id,
			     ossl_reason());
		UI_destroy_method(g->ui);
		free(g);
		return NULL;
	}
	/*
	 * libp11 prints its own diagnostics on stderr unless told to be
	 * quiet; vfit reports one line instead.  Engines without these
	 * commands ignore them (optional = 1).
	 */
	if (!ENGINE_ctrl_cmd_string(g->eng, "QUIET", NULL, 1) ||
	    (pin && !ENGINE_ctrl_cmd_string(g->eng, "PIN", pin, 1)) || !ENGINE_init(g->eng)) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "-N %s: cannot initialise the engine (%s)", id,
			     ossl_reason());
		ENGINE_free(g->eng);
		UI_destroy_method(g->ui);
		free(g);
		return NULL;
	}
	return g;
}

EVP_PKEY *vfit_engine_key(struct vfit_engine *g, const char *key_id, int public,
			  struct vfit_err *e)
{
	EVP_PKEY *k = public ? ENGINE_load_public_key(g->eng, key_id, g->ui, NULL)
			     : ENGINE_load_private_key(g->eng, key_id, g->ui, NULL);

	if (!k)
		/* A token hides its private objects until login: say why that did not happen. */
		vfit_err_set(e, VFIT_EXIT_USAGE, "-N %s: cannot load %s key '%s' (%s%s)", g->id,
			     public ? "public" : "private", key_id, ossl_reason(),
			     getenv("MKIMAGE_SIGN_PIN") ? "" : "; MKIMAGE_SIGN_PIN is not set");
	return k;
}

void vfit_engine_close(struct vfit_engine *g)
{
	if (!g)
		return;
	ENGINE_finish(g->eng);
	ENGINE_free(g->eng);
	UI_destroy_method(g->ui);
	free(g);
}
