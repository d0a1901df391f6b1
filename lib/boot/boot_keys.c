/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Key views: the control FDTs the flow hands to vfit_verify().  Each is a
 * fresh FDT holding only /signature and the key nodes selected from a
 * source DTB, written with libfdt's sequential-write functions into a
 * buffer of the scratch space (no heap):
 *
 *   built-in  the ROM keys except key-recovery, with their own `required`
 *             and `required-mode`: the vendor's policy, unchanged;
 *   recovery  key-recovery alone, forced `required = "conf"`: the recovery
 *             FIT must carry a configuration signature by that key, and
 *             that key can vouch for nothing else;
 *   user      every key of the user key store, forced `required = "conf"`
 *             with `required-mode = "any"`: one user signature on the
 *             configuration suffices, and a store that requires nothing
 *             can never make the device accept an unsigned image.
 *
 * Each view also carries its source's /cipher node unchanged: the AES keys
 * of encrypted images, used only after that view's keys verified them.
 * The built-in and recovery views carry the ROM's /image/pre-load/sig
 * node too: the key of the pre-load header the flow checks before it
 * parses a FIT those views verify (boot_chain.c).  The user view does not:
 * the header is the vendor's gate, a user key store cannot open or close it.
 */
#include <string.h>

#include <libfdt.h>

#include "boot_int.h"

#define RECOVERY_KEY "key-recovery"

static bool want_key(const char *name, enum vfit_keyview kind)
{
	bool recovery = !strcmp(name, RECOVERY_KEY);

	return kind == VFIT_VIEW_RECOVERY ? recovery : !recovery;
}

/* Copies the properties of src node `node`, dropping `required` when forced. */
static int copy_props(void *fdt, const void *src, int node, bool force)
{
	const char *name;
	const void *val;
	int prop, len, err;

	fdt_for_each_property_offset(prop, src, node) {
		val = fdt_getprop_by_offset(src, prop, &name, &len);
		if (!val)
			return -FDT_ERR_BADSTRUCTURE;
		if (force && !strcmp(name, "required"))
			continue;
		err = fdt_property(fdt, name, val, len);
		if (err)
			return err;
	}
	if (prop != -FDT_ERR_NOTFOUND)
		return prop;
	return force ? fdt_property_string(fdt, "required", "conf") : 0;
}

/*
 * The /cipher node and its key-* children, as they are: the AES keys of
 * the encrypted images this view's keys may verify (vfit/cipher.h).  They
 * grant no trust of their own: an image is decrypted only after a
 * configuration signature by a required key of the same view accepted it.
 */
static int copy_cipher(void *fdt, const void *src)
{
	int cipher = fdt_subnode_offset(src, 0, "cipher"), key, err;

	if (cipher < 0)
		return 0;
	err = fdt_begin_node(fdt, "cipher");
	err = err ? err : copy_props(fdt, src, cipher, false);
	if (err)
		return err;
	fdt_for_each_subnode(key, src, cipher) {
		const char *name = fdt_get_name(src, key, NULL);

		if (!name)
			return -FDT_ERR_BADSTRUCTURE;
		err = fdt_begin_node(fdt, name);
		err = err ? err : copy_props(fdt, src, key, false);
		err = err ? err : fdt_end_node(fdt);
		if (err)
			return err;
	}
	return fdt_end_node(fdt);
}

/* /image/pre-load/sig as it is, in an /image/pre-load of its own. */
static int copy_preload(void *fdt, const void *src)
{
	int sig = fdt_path_offset(src, "/image/pre-load/sig"), err;

	if (sig < 0)
		return 0;
	err = fdt_begin_node(fdt, "image");
	err = err ? err : fdt_begin_node(fdt, "pre-load");
	err = err ? err : fdt_begin_node(fdt, "sig");
	err = err ? err : copy_props(fdt, src, sig, false);
	err = err ? err : fdt_end_node(fdt);
	err = err ? err : fdt_end_node(fdt);
	return err ? err : fdt_end_node(fdt);
}

static int build(void *buf, int cap, const void *src, enum vfit_keyview kind)
{
	const void *mode;
	int keys, key, err, mode_len;
	bool force = kind != VFIT_VIEW_BUILT_IN;

	err = fdt_create(buf, cap);
	err = err ? err : fdt_finish_reservemap(buf);
	err = err ? err : fdt_begin_node(buf, "");
	err = err ? err : fdt_begin_node(buf, "signature");
	if (err)
		return err;
	keys = fdt_subnode_offset(src, 0, "signature");
	if (kind == VFIT_VIEW_USER) {
		err = fdt_property_string(buf, "required-mode", "any");
	} else if (kind == VFIT_VIEW_BUILT_IN && keys >= 0) {
		mode = fdt_getprop(src, keys, "required-mode", &mode_len);
		if (mode)
			err = fdt_property(buf, "required-mode", mode, mode_len);
	}
	if (err)
		return err;
	if (keys >= 0) {
		fdt_for_each_subnode(key, src, keys) {
			const char *name = fdt_get_name(src, key, NULL);

			if (!name || !want_key(name, kind))
				continue;
			err = fdt_begin_node(buf, name);
			err = err ? err : copy_props(buf, src, key, force);
			err = err ? err : fdt_end_node(buf);
			if (err)
				return err;
		}
	}
	err = fdt_end_node(buf);
	err = err ? err : copy_cipher(buf, src);
	if (!err && kind != VFIT_VIEW_USER)
		err = copy_preload(buf, src);
	err = err ? err : fdt_end_node(buf);
	return err ? err : fdt_finish(buf);
}

enum vfit_result vfit_boot_keyview_(void *buf, size_t cap, const void *src,
				   enum vfit_keyview kind, size_t *len)
{
	int err = cap > INT32_MAX ? -FDT_ERR_NOSPACE : build(buf, (int)cap, src, kind);

	if (err)
		return err == -FDT_ERR_NOSPACE ? VFIT_ERR_LIMIT : VFIT_ERR_CONTROL;
	*len = fdt_totalsize(buf);
	return VFIT_OK;
}

unsigned int vfit_boot_key_count_(const void *ctl)
{
	unsigned int n = 0;
	int keys = fdt_subnode_offset(ctl, 0, "signature"), key;

	if (keys < 0)
		return 0;
	fdt_for_each_subnode(key, ctl, keys)
		n++;
	return n;
}
