/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Internals shared by the lib/fit_*.c files: the verification context
 * that carries the inputs and the caller's result, and the few helpers
 * more than one file needs.  Nothing here is public API.
 */
#ifndef VFIT_FIT_INTERNAL_H
#define VFIT_FIT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfit/fit.h"

struct vfit_ctx {
	const uint8_t *fit;
	size_t len;                     /* bytes loaded */
	const void *ctl;
	struct vfit_verify_result *res;
	int keys;                       /* /signature in ctl, or < 0 */
	int img_key[VFIT_MAX_KEYS];     /* key nodes with required = "image" */
	unsigned int nimg_keys;
	bool conf_enforced;             /* a required key verified the configuration */
};

/* Records the first fatal error and returns r (so callers can `return fail(...)`). */
enum vfit_result vfit_fail(struct vfit_ctx *c, enum vfit_result r, bool in_control,
			   int node, const char *prop);

/*
 * Appends a check to the result (dropped, and counted, when the table is
 * full); its algo and key name are read from node and key_node (-1: none).
 */
void vfit_record(struct vfit_ctx *c, enum vfit_check_kind kind, bool required,
		 const char *image, enum vfit_result r, int node, int key_node);

/*
 * Structure walk of spec 6.2 / 7 on fdt[0..len).  fit_rules adds the FIT
 * rules (no '@' or '/' in names, depth and path limits, unique sibling
 * names, node count, FDT_END last).  *bad is the offending node or -1.
 */
enum vfit_result vfit_fdt_walk(const void *fdt, size_t len, bool fit_rules, int *bad);

/* vfit_fit_check() that also says where it failed (node offset or -1, property). */
enum vfit_result vfit_fit_check_where(const void *fit, size_t len, int *node,
				      const char **prop);

/* NUL-terminated string property of exactly one string, or NULL. */
const char *vfit_prop_str(const void *fdt, int node, const char *name);
/*
 * The properties named in names (NUL-separated, ended by an empty name) of
 * node, in one pass over the node instead of one fdt_getprop() scan per
 * name: v[i] is the i-th name's value and length (p NULL when absent).  As
 * with fdt_getprop(), the first of two equal names wins.
 */
struct vfit_prop {
	const uint8_t *p;
	int len;
};
void vfit_props(const void *fdt, int node, const char *names, struct vfit_prop *v,
		unsigned int n);
/* v as exactly one NUL-terminated string, or NULL. */
const char *vfit_str(const struct vfit_prop *v);
/* Whether node's name starts with prefix. */
bool vfit_name_prefix(const void *fdt, int node, const char *prefix);
/* Big-endian cell at p. */
uint32_t vfit_be32(const void *p);

/* A signature node's properties: vfit_props() with VFIT_SIG_PROPS fills v[VFIT_SP_N]. */
#define VFIT_SIG_PROPS "algo\0value\0padding\0hashed-strings\0"
enum { VFIT_SP_ALGO, VFIT_SP_VALUE, VFIT_SP_PADDING, VFIT_SP_HASHED_STRINGS, VFIT_SP_N };

/*
 * Checks one signature value over digest (of the hash its algo names) with
 * the RSA key at key_node; sp are the signature node's properties above.
 */
enum vfit_result vfit_sig_check(const struct vfit_ctx *c, const struct vfit_prop *sp,
				const uint8_t *digest, int key_node);

/* Configuration signatures with the required-conf keys (spec 6.3). */
enum vfit_result vfit_conf_verify(struct vfit_ctx *c, int conf);

/* Image data location with the bounds of spec 2.6 / 6.5, and image checks (6.4). */
enum vfit_result vfit_image_locate(struct vfit_ctx *c, struct vfit_image *img);
enum vfit_result vfit_image_verify(struct vfit_ctx *c, unsigned int index);

#endif
