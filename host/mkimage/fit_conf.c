/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration pass: every configuration signature over the message
 * of fit-format.md §3.4, built by the device library's own
 * vfit_conf_nodes()/vfit_conf_digest(), so signer and verifier cover the
 * same bytes.  The FIT is checked and indexed once (host/mkimage/fit_index.c):
 * signing thousands of configurations costs one region walk each over
 * what they sign, never a pass over the whole FIT per signature.
 */
#include <stdio.h>
#include <string.h>

#include <libfdt.h>

#include "mkimage_int.h"

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

	k = vfit_sign_prepare(s, name, fit, node, &a, &skip, e);
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
	return vfit_sign_write(s, name, fit, node, k, &a, digest, nodes, nlen, strings, ed, keydtb, e);
}

/*
 * What the device checks first, checked once for every signature.  With
 * -E the device checks the FDT without the data, and it is that FDT that
 * must be within U-Boot's size limit; embedded, a FIT over the limit is
 * refused on the device whatever its signatures say, so it is refused
 * here, with the way round.  (Where external data ends past the limit,
 * host/mkimage/mkimage.c warns: U-Boot HEAD bounds it too.)
 */
static int check_fit(const char *name, const struct vfit_fdtbuf *fit, int external,
		     struct vfit_err *e)
{
	struct vfit_diag diag = { -1, NULL, VFIT_LIMIT_NONE };
	struct vfit_ext_layout lay;
	const void *fdt = fit->buf;
	enum vfit_result vr;

	if (external) {
		if (vfit_ext_extract(name, fit, 4, -1, 1, &lay, e))
			return -1;
		fdt = lay.fdt.buf;
	}
	vr = vfit_fit_check(fdt, fdt_totalsize(fdt), 0, &diag);
	if (vr == VFIT_ERR_TOO_LARGE)
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: the FIT is %u bytes, more than the %u in "
			     "which U-Boot checks signatures (CONFIG_FIT_SIGNATURE_MAX_SIZE): keep "
			     "the data outside the FDT with -E", name, fdt_totalsize(fdt),
			     VFIT_SIGNATURE_MAX_SIZE);
	else if (vr)
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s%snot a valid FIT to sign: %s", name,
			     diag.node >= 0 ? vfit_node_path(fdt, diag.node) : "",
			     diag.node >= 0 ? ": " : "", vfit_result_to_string(vr));
	if (external)
		vfit_ext_layout_free(&lay);
	return vr ? -1 : 0;
}

int vfit_fit_sign_confs(const char *name, struct vfit_fdtbuf *fit, int external,
			struct vfit_signer *s, struct vfit_fdtbuf *keydtb, struct vfit_err *e)
{
	int confs = fdt_path_offset(fit->buf, "/configurations"), conf, node, r = -1;
	struct vfit_fit_index *ix = NULL;
	struct vfit_edits *ed = NULL;

	if (!vfit_signer_active(s) || confs < 0)
		return 0;
	if (check_fit(name, fit, external, e))
		return -1;
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
