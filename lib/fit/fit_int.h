/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Internals shared by the lib/fit_*.c files: the verification context
 * that carries the inputs, the caller's result and a cursor on the check
 * in progress, and the few helpers more than one file needs.  Nothing
 * here is public API.
 */
#ifndef VFIT_FIT_INT_H
#define VFIT_FIT_INT_H

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
	/*
	 * Where the check in progress is.  Every step points the cursor at
	 * what it is about to read; when a step fails, vfit_verify() reports
	 * the cursor, so no error path has to pass its location around.
	 */
	struct vfit_where {
		int node;
		const char *prop;
		bool in_control;
	} at;
	/* Recorded with each check: the image being verified (NULL: the configuration). */
	const struct vfit_image *img;
	bool required;                  /* signatures are checked for required keys */
	int fail_key;                   /* key of the last failed required attempt */
	bool conf_enforced;             /* a required key verified the configuration */
	struct vfit_node_list list;     /* what the configuration signatures cover */
	/* The digest of node dnode with hash dhash (see vfit_digest()). */
	int dnode;
	enum vfit_hash dhash;
	uint8_t digest[VFIT_HASH_MAX_SIZE];
};

/* Points the cursor at node (in the FIT, or in the control FDT) and prop. */
static inline void vfit_at(struct vfit_ctx *c, int node, const char *prop, bool in_control)
{
	c->at.node = node;
	c->at.prop = prop;
	c->at.in_control = in_control;
}

/* Appends a check (kind, outcome, FIT node, key node or -1) to the result. */
void vfit_record(struct vfit_ctx *c, enum vfit_check_kind kind, enum vfit_result r, int node,
		 int key_node);

/*
 * Structure walk of fit-format.md §6.2 / 7 on fdt[0..len).  fit_rules adds the FIT
 * rules (no '@' or '/' in names, depth and path limits, unique sibling
 * names, node count, FDT_END last).  *bad is the offending node or -1.
 */
enum vfit_result vfit_fdt_walk(const void *fdt, size_t len, bool fit_rules, int *bad);

/* vfit_fit_check() that also says where it failed (node offset or -1, property). */
enum vfit_result vfit_fit_check_where(const void *fit, size_t len, int *node,
				      const char **prop);

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
/* String property name of node as exactly one string, or NULL. */
const char *vfit_prop_str(const void *fdt, int node, const char *name);
/* Whether name is one of list (NUL-separated names, ended by an empty one). */
bool vfit_in(const char *name, const char *list);
/* Whether node's name starts with prefix. */
bool vfit_name_prefix(const void *fdt, int node, const char *prefix);

/*
 * The digest with h of what node covers, in *digest: with c->img set the
 * image's payload (node: its image node), else the configuration message
 * of fit-format.md §3.4 for signature node `node` with hashed-strings hs.  One entry
 * is cached: an image's hash and signature nodes share its payload digest,
 * and a signature is tried with every key before the next one, so no
 * payload or message is hashed twice in a row.
 */
enum vfit_result vfit_digest(struct vfit_ctx *c, int node, enum vfit_hash h,
			     const struct vfit_prop *hs, const uint8_t **digest);

/*
 * Signature checks of a configuration (c->img NULL) or of the image c->img
 * at node (fit-format.md §6.3, 6.4): role names the keys that must verify it,
 * any = one of them suffices.  VFIT_REQ_NONE checks image signatures with
 * every key for the record only, as U-Boot does.
 */
enum vfit_result vfit_sigs(struct vfit_ctx *c, int node, enum vfit_required role, bool any);

/* Image data location with the bounds of fit-format.md §2.6 / 6.5, and image checks (6.4). */
enum vfit_result vfit_image_locate(struct vfit_ctx *c, struct vfit_image *img);
enum vfit_result vfit_image_verify(struct vfit_ctx *c, const struct vfit_image *img);

#endif
