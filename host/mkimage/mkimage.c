/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One mkimage run: source (dtc, -f auto, or the existing FIT with its
 * external data imported), structure checks, root timestamp, the image
 * pass (hashes, image signatures), the configuration pass, -E extraction,
 * then both outputs (FIT and -K DTB) written to temporary files and only
 * then renamed over the originals.  Everything happens in memory on one
 * copy of the FIT: a failure at any point leaves every file untouched.
 *
 * The FIT's size follows mkimage's retry loop so it matches byte for byte:
 * mkimage packs the FIT (size P) and retries the whole pass with 1 KiB
 * more room each time (iteration k: FIT buffer P + k KiB; the -K DTB file
 * grows by k KiB on every iteration k >= 1, cumulatively, since it is
 * edited in place) until nothing runs out of space.  The first k that
 * fits everything gives the FIT's final totalsize.
 *
 * The -K DTB's own size does not follow that schedule: about k^2/2 KiB
 * in all, 124 MB for 877 bytes of key once a FIT signs 1,000
 * configurations (mkimage itself then fails).  Here the DTB keeps its
 * size when the key node fits in its free space and otherwise grows by
 * exactly what the key needs; its contents are mkimage's, byte for byte.
 */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "vfit-host/io.h"
#include "vfit-host/its.h"
#include "vfit-host/preload.h"
#include "mkimage_int.h"

#define DEFAULT_DTC_OPTS "-I dts -O dtb -p 500"
#define DTB_SLACK (64 * 1024)

/* *imported: -F of a FIT whose data was external (imported as U-Boot HEAD does). */
static int load_source(struct vfit_mkimage *m, struct vfit_fdtbuf *fit, int *imported,
		       struct vfit_err *e)
{
	*imported = 0;
	if (m->auto_fit)
		return vfit_its_auto(m, fit, e);
	if (m->its)
		return vfit_its_compile(m->its, m->dtc_opts ? m->dtc_opts : DEFAULT_DTC_OPTS, 1,
					fit, e);
	return vfit_ext_load(m->out, fit, imported, e);
}

/* The -K DTB, with its file size and original totalsize (mkimage's sizes). */
static int load_keydest(const char *path, struct vfit_fdtbuf *dtb, size_t *file_size,
			size_t *total, struct vfit_err *e)
{
	char *data;
	size_t len;

	if (vfit_file_read(path, DTB_SLACK, &data, &len, e))
		return -1;
	*file_size = len;
	*total = len >= sizeof(struct fdt_header) ? fdt_totalsize(data) : 0;
	return vfit_fdtbuf_adopt(dtb, data, len, len + DTB_SLACK, path, e);
}

/* Room the DTB has in mkimage's iteration k (see the comment at the top). */
static size_t dtb_room(size_t totalsize, size_t file_size, size_t k)
{
	return k ? file_size + 1024 * k * (k + 1) / 2 : totalsize;
}

/*
 * mkimage's k counts retries for either output, so the DTB's schedule
 * still decides the FIT's size; the DTB itself only gets what it uses.
 */
static int finish_sizes(struct vfit_fdtbuf *fit, size_t packed, struct vfit_fdtbuf *dtb,
			size_t dtb_total, size_t dtb_file)
{
	size_t fit_used = vfit_fdt_used(fit->buf), dtb_used = dtb ? vfit_fdt_used(dtb->buf) : 0;
	size_t k = 0;

	while (packed + 1024 * k < fit_used || (dtb && dtb_room(dtb_total, dtb_file, k) < dtb_used))
		k++;
	if (vfit_fdtbuf_set_size(fit, packed + 1024 * k))
		return -1;
	return dtb ? vfit_fdtbuf_set_size(dtb, dtb_used > dtb_total ? dtb_used : dtb_total) : 0;
}

/* The FIT (-E: its FDT and payloads), then the -K DTB, each a temporary file until both are. */
static int write_outputs(struct vfit_mkimage *m, struct vfit_fdtbuf *fit, int imported,
			 struct vfit_fdtbuf *dtb, struct vfit_err *e)
{
	struct vfit_ext_layout lay = { .nseg = 0 };
	struct vfit_out fo = { 0 }, ko = { 0 };
	struct vfit_seg *seg = NULL, one;
	int nseg = 0, r = -1;

	if (m->external) {
		if (vfit_ext_extract(m->out, fit, m->align, m->position, imported, &lay, e))
			return -1;
		/* Built, as mkimage builds it; but a device with U-Boot's default refuses it. */
		if (lay.size > VFIT_SIGNATURE_MAX_SIZE)
			fprintf(stderr, "vfit: mkimage: warning: %s: external data ends at byte %llu, "
				"past %u: U-Boot HEAD loads it only with CONFIG_FIT_SIGNATURE_MAX_SIZE "
				"raised\n", m->out, (unsigned long long)lay.size,
				VFIT_SIGNATURE_MAX_SIZE);
		r = vfit_out_write(&fo, m->out, lay.seg, lay.nseg, lay.size, e);
	} else if (vfit_fdtbuf_segs(fit, fdt_totalsize(fit->buf), &seg, &nseg)) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", m->out);
	} else {
		r = vfit_out_write(&fo, m->out, seg, nseg, fdt_totalsize(fit->buf), e);
	}
	free(seg);
	vfit_ext_layout_free(&lay);
	/* The bytes copied from each payload's file are the bytes hashed from it. */
	if (!r && vfit_payloads_same(fit, e)) {
		vfit_out_discard(&fo);
		r = -1;
	}
	if (!r && dtb) {
		one = (struct vfit_seg){ 0, dtb->buf, fdt_totalsize(dtb->buf), -1, 0 };
		r = vfit_out_write(&ko, m->keydest, &one, 1, one.len, e);
		if (r)
			vfit_out_discard(&fo);
	}
	if (!r)
		r = vfit_out_commit(&fo, e);
	if (!r && dtb)
		r = vfit_out_commit(&ko, e);
	else if (dtb)
		vfit_out_discard(&ko);
	return r;
}

/* A configuration signature that holds a value: the root timestamp is under it. */
static const char *signed_conf(const void *fit)
{
	int confs = fdt_path_offset(fit, "/configurations"), conf, sub, len;

	fdt_for_each_subnode(conf, fit, confs)
		fdt_for_each_subnode(sub, fit, conf)
			if (!strncmp(fdt_get_name(fit, sub, NULL), "signature", 9) &&
			    fdt_getprop(fit, sub, "value", &len) && len > 0)
				return vfit_node_path(fit, sub);
	return NULL;
}

/*
 * -F -t without keys would change the signed timestamp and leave the old
 * signature in place, which then fails on the device.
 */
static int check_touch(const struct vfit_mkimage *m, const struct vfit_signer *s,
		       const void *fit, struct vfit_err *e)
{
	const char *sig;

	if (!m->update || !m->touch || vfit_signer_active(s))
		return 0;
	sig = signed_conf(fit);
	if (!sig)
		return 0;
	return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: -t changes the timestamp that %s signs: "
			    "give the keys (-k, -G or -N) to sign it again", m->out, sig);
}

/* The first node with '@' in its name, or NULL. */
static const char *at_node(const void *fit)
{
	int node, depth = 0, len;
	const char *n;

	for (node = fdt_next_node(fit, 0, &depth); node >= 0 && depth > 0;
	     node = fdt_next_node(fit, node, &depth)) {
		n = fdt_get_name(fit, node, &len);
		if (n && memchr(n, '@', (size_t)len))
			return vfit_node_path(fit, node);
	}
	return NULL;
}

static int has_signature_node(const void *fit)
{
	int node, depth = 0;
	const char *n;

	for (node = fdt_next_node(fit, 0, &depth); node >= 0 && depth > 0;
	     node = fdt_next_node(fit, node, &depth)) {
		n = fdt_get_name(fit, node, NULL);
		if (depth == 3 && n && !strncmp(n, "signature", 9))
			return 1;
	}
	return 0;
}

/*
 * '@' in a node name: U-Boot refuses to check any signature in such a FIT
 * (unit addresses, CVE-2021-27138), so it is built unsigned only, with a
 * warning as mkimage gives, and refused the moment a signature is made.
 */
static int check_at(const char *name, const void *fit, const struct vfit_mkimage *m,
		    struct vfit_err *e)
{
	const char *node = at_node(fit);

	if (!node)
		return 0;
	if ((m->keydir || m->keyfile || m->engine) && has_signature_node(fit))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: '@' in a node name: U-Boot "
				    "verifies no signature in such a FIT (rename the node)", name,
				    node);
	fprintf(stderr, "vfit: mkimage: warning: %s: %s: '@' in a node name: U-Boot will not "
		"verify signatures in this FIT\n", name, node);
	return 0;
}

/* Whether vfit_cipher_images() will encrypt an image: a cipher node, not yet encrypted. */
static int will_cipher(const struct vfit_mkimage *m, const void *fit)
{
	int img;

	if (!m->keydir)
		return 0;
	fdt_for_each_subnode(img, fit, fdt_path_offset(fit, "/images"))
		if (fdt_subnode_offset(fit, img, "cipher") >= 0 &&
		    !fdt_getprop(fit, img, "data-size-unciphered", NULL))
			return 1;
	return 0;
}

/* Whether an image has a dm-verity node (its hash tree is built from the data in memory). */
static int has_verity(const void *fit)
{
	int img;

	fdt_for_each_subnode(img, fit, fdt_path_offset(fit, "/images"))
		if (fdt_subnode_offset(fit, img, "dm-verity") >= 0)
			return 1;
	return 0;
}

int vfit_mkimage_run(struct vfit_mkimage *m, struct vfit_err *e)
{
	struct vfit_fdtbuf fit = { 0 }, dtb = { 0 }, *keydtb = NULL;
	struct vfit_signer *s = NULL;
	size_t packed, dtb_file = 0, dtb_total = 0;
	/* Errors in the tree name the source the user wrote. */
	const char *name = m->its ? m->its : m->out;
	uint32_t ts, *tsp = NULL;
	int r = -1, imported;

	m->signed_conf[0] = m->key_node[0] = 0;
	/*
	 * Big blocks always mapped (glibc raises the threshold after freeing
	 * one): realloc() of the FIT's buffer then remaps it, never copying
	 * the rooms of the payloads left in their files (host/core/fdtbuf.c).
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	/*
	 * mkimage edits the -K DTB in place: a read-only one is refused, never
	 * replaced.  (It renames a new FIT over the old one, as vfit does.)
	 */
	if (m->keydest && vfit_check_writable(m->keydest, e))
		return -1;
	if (load_source(m, &fit, &imported, e))
		return -1;
	/*
	 * mkimage packs here; the free space after it is ours to grow into
	 * (totalsize is the buffer's; finish_sizes() zeroes what is written).
	 */
	packed = vfit_fdt_used(fit.buf);
	if (vfit_fit_precheck(name, fit.buf, VFIT_FIT_ALLOW_AT, e) || check_at(name, fit.buf, m, e))
		goto out;
	s = vfit_signer_new(m);
	if (!s) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "out of memory");
		goto out;
	}
	/*
	 * Payloads stay in their files (host/core/fdtbuf.c) unless encryption or a
	 * dm-verity tree needs the bytes in memory.
	 */
	if (fit.npl && (will_cipher(m, fit.buf) || has_verity(fit.buf)) &&
	    vfit_payloads_fill(&fit, e))
		goto out;
	if (check_touch(m, s, fit.buf, e) || vfit_verity_images(name, &fit, m->external, e))
		goto out;
	/* mkimage opens (and grows) the -K DTB even when it signs nothing. */
	if (m->keydest) {
		if (load_keydest(m->keydest, &dtb, &dtb_file, &dtb_total, e))
			goto out;
		keydtb = &dtb;
	}
	/*
	 * The timestamp is written with the hash values, so the tree is
	 * rebuilt once; but encryption writes its properties after it, as
	 * mkimage does, so a FIT with images to encrypt gets it now.
	 */
	if (m->its || m->auto_fit || m->touch) {
		if (vfit_timestamp(&ts, e))
			goto out;
		tsp = &ts;
		if (will_cipher(m, fit.buf)) {
			if (vfit_fdt_setprop_u32(&fit, 0, "timestamp", ts)) {
				vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot set the timestamp", name);
				goto out;
			}
			tsp = NULL;
		}
	}
	if (vfit_preload_mkimage_key(m->keydir, keydtb, e) ||
	    vfit_cipher_images(name, &fit, m->keydir, keydtb, e) ||
	    vfit_fit_hash_images(name, &fit, tsp, s, keydtb, e) ||
	    vfit_fit_sign_confs(name, &fit, m->external, s, keydtb, e))
		goto out;
	if (finish_sizes(&fit, packed, keydtb, dtb_total, dtb_file)) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", name);
		goto out;
	}
	if (write_outputs(m, &fit, imported, keydtb, e))
		goto out;
	snprintf(m->signed_conf, sizeof(m->signed_conf), "%s", vfit_signer_last_conf(s));
	snprintf(m->key_node, sizeof(m->key_node), "%s", vfit_signer_last_key(s));
	r = 0;
out:
	vfit_signer_free(s);
	vfit_fdtbuf_free(&fit);
	vfit_fdtbuf_free(&dtb);
	return r;
}
