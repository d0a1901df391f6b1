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
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "mkimage_int.h"

#define DEFAULT_DTC_OPTS "-I dts -O dtb -p 500"
#define DTB_SLACK (64 * 1024)

static int load_source(struct vfit_mkimage *m, struct vfit_fdtbuf *fit, struct vfit_err *e)
{
	char *data;
	size_t len;

	if (m->auto_fit)
		return vfit_its_auto(m, fit, e);
	if (m->its)
		return vfit_its_compile(m->its, m->dtc_opts ? m->dtc_opts : DEFAULT_DTC_OPTS, fit,
					e);
	if (vfit_file_read(m->out, 0, &data, &len, e))
		return -1;
	return vfit_ext_import(m->out, data, len, fit, e);
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

static int write_outputs(struct vfit_mkimage *m, struct vfit_fdtbuf *fit, struct vfit_fdtbuf *dtb,
			 struct vfit_err *e)
{
	struct vfit_ext_layout lay = { .nseg = 0 };
	struct vfit_out fo = { 0 }, ko = { 0 };
	struct vfit_seg one;
	int r = -1;

	if (m->external) {
		if (vfit_ext_extract(m->out, fit->buf, m->align, m->position, &lay, e))
			return -1;
		r = vfit_out_write(&fo, m->out, lay.seg, lay.nseg, lay.size, e);
	} else {
		one.off = 0;
		one.p = fit->buf;
		one.len = fdt_totalsize(fit->buf);
		r = vfit_out_write(&fo, m->out, &one, 1, one.len, e);
	}
	if (!r && dtb) {
		one.off = 0;
		one.p = dtb->buf;
		one.len = fdt_totalsize(dtb->buf);
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
	vfit_ext_layout_free(&lay);
	return r;
}

int vfit_mkimage_run(struct vfit_mkimage *m, struct vfit_err *e)
{
	struct vfit_fdtbuf fit = { 0 }, dtb = { 0 }, *keydtb = NULL;
	struct vfit_signer *s = NULL;
	size_t packed, dtb_file = 0, dtb_total = 0;
	/* Errors in the tree name the source the user wrote. */
	const char *name = m->its ? m->its : m->out;
	uint32_t ts;
	int r = -1;

	m->signed_conf[0] = m->key_node[0] = 0;
	if (load_source(m, &fit, e))
		return -1;
	/* mkimage packs here; the free space after it is ours to grow into. */
	packed = vfit_fdt_used(fit.buf);
	if (vfit_fdtbuf_set_size(&fit, fit.cap) || vfit_fit_precheck(name, fit.buf, e))
		goto out;
	s = vfit_signer_new(m);
	if (!s) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "out of memory");
		goto out;
	}
	/* mkimage opens (and grows) the -K DTB even when it signs nothing. */
	if (m->keydest) {
		if (load_keydest(m->keydest, &dtb, &dtb_file, &dtb_total, e))
			goto out;
		keydtb = &dtb;
	}
	if (m->its || m->auto_fit || m->touch) {
		if (vfit_timestamp(&ts, e))
			goto out;
		if (vfit_fdt_setprop_u32(&fit, 0, "timestamp", ts)) {
			vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot set the timestamp", name);
			goto out;
		}
	}
	if (vfit_fit_hash_images(name, &fit, s, keydtb, e) ||
	    vfit_fit_sign_confs(name, &fit, s, keydtb, e))
		goto out;
	if (finish_sizes(&fit, packed, keydtb, dtb_total, dtb_file)) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", name);
		goto out;
	}
	if (write_outputs(m, &fit, keydtb, e))
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
