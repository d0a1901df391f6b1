/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Key views: the control FDTs the flow hands to vfit_verify().  Each is a
 * fresh FDT holding only /signature and the key nodes selected from a
 * source DTB, written with libfdt's sequential-write functions into a
 * buffer of the loader region (no heap):
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
 */
#include <string.h>

#include <libfdt.h>

#include "boot_int.h"
#include "../fit/fit_int.h"

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
	err = err ? err : fdt_end_node(buf);
	return err ? err : fdt_finish(buf);
}

int vfit_boot_keyview(void *buf, size_t cap, const void *src, enum vfit_keyview kind,
		      size_t *len)
{
	if (cap > INT32_MAX || build(buf, (int)cap, src, kind))
		return -1;
	*len = fdt_totalsize(buf);
	return 0;
}

unsigned int vfit_boot_key_count(const void *ctl)
{
	unsigned int n = 0;
	int keys = fdt_subnode_offset(ctl, 0, "signature"), key;

	if (keys < 0)
		return 0;
	fdt_for_each_subnode(key, ctl, keys)
		n++;
	return n;
}

/* A string property of at most 64 printable bytes, else NULL. */
static const char *short_str(const void *fdt, int node, const char *prop)
{
	const char *s = vfit_prop_str(fdt, node, prop);

	return s && strlen(s) < 64 ? s : NULL;
}

void vfit_boot_print_keys(const struct vfit_boot *b, const void *ctl, const char *prefix,
			  const char *origin)
{
	struct vfit_line l;
	const char *name, *algo, *req;
	int keys = fdt_subnode_offset(ctl, 0, "signature"), key;

	if (keys < 0)
		return;
	fdt_for_each_subnode(key, ctl, keys) {
		name = fdt_get_name(ctl, key, NULL);
		algo = short_str(ctl, key, "algo");
		req = short_str(ctl, key, "required");
		vfit_line_init(&l);
		vfit_line_str(&l, "   ");
		vfit_line_str(&l, prefix);
		vfit_line_str(&l, " '");
		vfit_line_str(&l, name ? name : "?");
		vfit_line_str(&l, "' (");
		vfit_line_str(&l, algo ? algo : "no algo");
		vfit_line_str(&l, req ? ", required for " : ", not required");
		if (req)
			vfit_line_str(&l, req);
		vfit_line_str(&l, ") from ");
		vfit_line_str(&l, origin);
		vfit_line_print(b, &l);
	}
}
