/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FIT `mkimage -f auto` generates from -d (main image), -b (one fdt
 * and one configuration each), -i (ramdisk) and, as U-Boot HEAD adds,
 * -y/-z (TF-A BL31 and TEE loadables); `-f auto-conf` (HEAD) adds a
 * signature node to each configuration and SHA-1 hashes to the images.
 *
 * The layout is that of the mkimage that has the options used: v2023.01
 * (Debian's) names hash and signature nodes "hash-1"/"signature-1" and
 * gives a configuration without -b no loadables; HEAD names them
 * "hash"/"signature" and always lists the loadables.  So the v2023.01
 * layout unless auto-conf, -y or -z asks for HEAD's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libfdt.h>

#include "vfit-host/io.h"
#include "vfit-host/its.h"
#include "vfit-host/mkimage.h"
#include "vfit-host/names.h"
#include "its_int.h"

#define MAX_FILES 64

/*
 * The input files, sized up front.  A regular file is read later straight
 * into its place in the tree, or from VFIT_PAYLOAD_MIN on left in the file
 * (host/core/fdtbuf.c); anything else (/dev/null, a pipe) is read now, since
 * its size is only known at its end.
 */
struct auto_files {
	const char *path[MAX_FILES];
	char *buf[MAX_FILES];
	size_t len[MAX_FILES];
	int n;
	struct vfit_err *e;
};

/* What differs between the v2023.01 and HEAD trees. */
struct layout {
	int head;
	const char *hash, *sig;
};

/* File name without directory and without its last extension (mkimage's rule). */
static void base_name(char *out, size_t size, const char *path)
{
	const char *b = strrchr(path, '/'), *dot;
	size_t n;

	b = b ? b + 1 : path;
	dot = strrchr(b, '.');
	n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
	if (n >= size)
		n = size - 1;
	memcpy(out, b, n);
	out[n] = 0;
}

static int add_file(struct auto_files *f, const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return vfit_err_set(f->e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
	f->path[f->n] = path;
	f->buf[f->n] = NULL;
	if (S_ISREG(st.st_mode))
		f->len[f->n] = (size_t)st.st_size;
	else if (vfit_file_read(path, 0, &f->buf[f->n], &f->len[f->n], f->e))
		return -1;
	if (f->len[f->n++] > INT32_MAX)
		return vfit_err_set(f->e, VFIT_EXIT_USAGE, "%s: too large for a FIT", path);
	return 0;
}

static void free_files(struct auto_files *f)
{
	int i;

	for (i = 0; i < f->n; i++)
		free(f->buf[i]);
}

/* Whether file i stays in its file: then its `data` is empty until vfit_its_auto() is done. */
static int streamed(const struct auto_files *f, int i)
{
	return !f->buf[i] && f->len[i] >= VFIT_PAYLOAD_MIN;
}

/* The `data` property of file i: room made in the tree, then the file read into it. */
static int put_data(void *fdt, const struct auto_files *f, int i)
{
	void *dst;
	int r = fdt_property_placeholder(fdt, "data", streamed(f, i) ? 0 : (int)f->len[i], &dst);

	if (r || !f->len[i] || streamed(f, i))
		return r;
	if (f->buf[i]) {
		memcpy(dst, f->buf[i], f->len[i]);
		return 0;
	}
	/* A read error is in f->e already (first error wins over the caller's). */
	return vfit_read_exact(f->path[i], dst, f->len[i], f->e) ? -FDT_ERR_BADVALUE : 0;
}

static int end_node(void *fdt, int r)
{
	return r ? r : fdt_end_node(fdt);
}

/* hash-1 { crc32 }, or with -g and -o an image signature; auto-conf hashes with SHA-1. */
static int hash_or_sign(void *fdt, const struct vfit_mkimage *m, const struct layout *lay)
{
	int r;

	if (m->keyname && m->algo && !m->auto_conf) {
		r = fdt_begin_node(fdt, lay->sig);
		r = r ? r : fdt_property_string(fdt, "algo", m->algo);
		r = r ? r : fdt_property_string(fdt, "key-name-hint", m->keyname);
	} else {
		r = fdt_begin_node(fdt, lay->hash);
		r = r ? r : fdt_property_string(fdt, "algo", m->auto_conf ? "sha1" : "crc32");
	}
	return end_node(fdt, r);
}

static int main_image(void *fdt, const struct vfit_mkimage *m, const struct auto_files *f,
		      const struct layout *lay)
{
	char str[128];
	int r;

	snprintf(str, sizeof(str), "%s-1", m->type);
	r = fdt_begin_node(fdt, str);
	r = r ? r : fdt_property_string(fdt, "description", m->name ? m->name : "");
	r = r ? r : fdt_property_string(fdt, "type", m->type);
	r = r ? r : fdt_property_string(fdt, "arch", m->arch);
	r = r ? r : fdt_property_string(fdt, "os", m->os);
	r = r ? r : fdt_property_string(fdt, "compression", m->comp);
	r = r ? r : fdt_property_u32(fdt, "load", m->load);
	r = r ? r : fdt_property_u32(fdt, "entry", m->entry);
	r = r ? r : put_data(fdt, f, 0);
	r = r ? r : hash_or_sign(fdt, m, lay);
	return end_node(fdt, r);
}

/* -y and -z: a loadable with the file's base name as description, loaded at -Y/-Z. */
static int firmware(void *fdt, const struct vfit_mkimage *m, const struct auto_files *f, int i,
		    const char *type, uint32_t addr, const struct layout *lay)
{
	char node[32], base[96];
	int r;

	snprintf(node, sizeof(node), "%s-1", type);
	base_name(base, sizeof(base), f->path[i]);
	r = fdt_begin_node(fdt, node);
	r = r ? r : fdt_property_string(fdt, "type", type);
	r = r ? r : fdt_property_string(fdt, "os", m->os);
	r = r ? r : fdt_property_string(fdt, "arch", m->arch);
	r = r ? r : fdt_property_string(fdt, "description", base);
	r = r ? r : put_data(fdt, f, i);
	r = r ? r : fdt_property_u32(fdt, "load", addr);
	r = r ? r : fdt_property_u32(fdt, "entry", addr);
	r = r ? r : hash_or_sign(fdt, m, lay);
	return end_node(fdt, r);
}

/* File indexes: 0 main, then each -b, then -i, -y, -z when given. */
static int write_images(void *fdt, const struct vfit_mkimage *m, const struct auto_files *f,
			const struct layout *lay)
{
	char str[32], base[96];
	int r, i, k = 1 + m->ndtbs;

	r = fdt_begin_node(fdt, "images");
	r = r ? r : main_image(fdt, m, f, lay);
	for (i = 0; !r && i < m->ndtbs; i++) {
		snprintf(str, sizeof(str), "fdt-%d", i + 1);
		base_name(base, sizeof(base), m->dtbs[i]);
		r = fdt_begin_node(fdt, str);
		r = r ? r : fdt_property_string(fdt, "description", base);
		r = r ? r : put_data(fdt, f, 1 + i);
		r = r ? r : fdt_property_string(fdt, "type", "flat_dt");
		r = r ? r : fdt_property_string(fdt, "arch", m->arch);
		r = r ? r : fdt_property_string(fdt, "compression", "none");
		r = r ? r : hash_or_sign(fdt, m, lay);
		r = end_node(fdt, r);
	}
	if (!r && m->initrd) {
		r = fdt_begin_node(fdt, "ramdisk-1");
		r = r ? r : fdt_property_string(fdt, "type", "ramdisk");
		r = r ? r : fdt_property_string(fdt, "os", m->os);
		r = r ? r : fdt_property_string(fdt, "arch", m->arch);
		r = r ? r : put_data(fdt, f, k++);
		r = r ? r : hash_or_sign(fdt, m, lay);
		r = end_node(fdt, r);
	}
	if (!r && m->tfa)
		r = firmware(fdt, m, f, k++, "tfa-bl31", m->tfa_addr, lay);
	if (!r && m->tee)
		r = firmware(fdt, m, f, k, "tee", m->tee_addr, lay);
	return end_node(fdt, r);
}

/* "kernel-1" then the -y and -z loadables, as one stringlist. */
static int loadables(void *fdt, const char *main_img, const struct vfit_mkimage *m)
{
	char list[160];
	size_t n = strlen(main_img) + 1;

	memcpy(list, main_img, n);
	if (m->tfa) {
		memcpy(list + n, "tfa-bl31-1", 11);
		n += 11;
	}
	if (m->tee) {
		memcpy(list + n, "tee-1", 6);
		n += 6;
	}
	return fdt_property(fdt, "loadables", list, (int)n);
}

/*
 * One configuration per -b (or one without): the main image under the
 * property "kernel" (mkimage 2023.01 used the type's name, e.g.
 * "kernel_noload", which U-Boot does not understand), loadables, ramdisk,
 * fdt, and with auto-conf a signature over the defaults.
 */
static int one_conf(void *fdt, const struct vfit_mkimage *m, int i, const struct layout *lay)
{
	char str[128], main_img[96], base[96];
	int r;

	snprintf(main_img, sizeof(main_img), "%s-1", m->type);
	snprintf(str, sizeof(str), "conf-%d", i + 1);
	r = fdt_begin_node(fdt, str);
	if (!r && m->ndtbs) {
		base_name(base, sizeof(base), m->dtbs[i]);
		r = fdt_property_string(fdt, "description", base);
	}
	r = r ? r : fdt_property_string(fdt, "kernel", main_img);
	if (!r && (m->ndtbs || lay->head))
		r = loadables(fdt, main_img, m);
	if (!r && m->initrd)
		r = fdt_property_string(fdt, "ramdisk", "ramdisk-1");
	if (!r && m->ndtbs) {
		snprintf(str, sizeof(str), "fdt-%d", i + 1);
		r = fdt_property_string(fdt, "fdt", str);
	}
	if (!r && m->auto_conf) {
		r = fdt_begin_node(fdt, lay->sig);
		r = r ? r : fdt_property_string(fdt, "algo", m->algo);
		r = r ? r : fdt_property_string(fdt, "key-name-hint", m->keyname);
		r = end_node(fdt, r);
	}
	return end_node(fdt, r);
}

static int write_confs(void *fdt, const struct vfit_mkimage *m, const struct layout *lay)
{
	int r, i = 0;

	r = fdt_begin_node(fdt, "configurations");
	r = r ? r : fdt_property_string(fdt, "default", "conf-1");
	do
		r = r ? r : one_conf(fdt, m, i, lay);
	while (++i < m->ndtbs);
	return end_node(fdt, r);
}

/* -T, -A, -O, -C must be names U-Boot knows, and -g/-o come together. */
static int check_args(const struct vfit_mkimage *m, struct vfit_err *e)
{
	const struct {
		enum vfit_name_kind kind;
		const char *what;
		const char *value;
	} kinds[4] = {
		{ VFIT_NAME_TYPE, "image type (-T)", m->type },
		{ VFIT_NAME_ARCH, "architecture (-A)", m->arch },
		{ VFIT_NAME_OS, "OS (-O)", m->os },
		{ VFIT_NAME_COMP, "compression (-C)", m->comp },
	};
	int i;

	if (!m->datafile)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "-f auto needs an image file (-d)");
	for (i = 0; i < 4; i++)
		if (!vfit_name_find(kinds[i].kind, kinds[i].value))
			return vfit_err_set(e, VFIT_EXIT_USAGE, "-f auto: unknown %s '%s'",
					    kinds[i].what, kinds[i].value);
	if (m->auto_conf && (!m->keyname || !m->algo))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "-f auto-conf signs the configurations: it "
				    "needs -g KEYNAME and -o ALGO");
	if (m->keyname && !m->algo)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "-f auto with -g signs the images: it needs "
				    "-o ALGO");
	if (m->ndtbs > MAX_FILES - 4)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "-f auto: more than %d -b files",
				    MAX_FILES - 4);
	return 0;
}

static int add_files(struct auto_files *f, const struct vfit_mkimage *m, size_t *size)
{
	const char *extra[3] = { m->initrd, m->tfa, m->tee };
	int i;

	if (add_file(f, m->datafile))
		return -1;
	for (i = 0; i < m->ndtbs; i++)
		if (add_file(f, m->dtbs[i]))
			return -1;
	for (i = 0; i < 3; i++)
		if (extra[i] && add_file(f, extra[i]))
			return -1;
	for (i = 0; i < f->n; i++)
		*size += (streamed(f, i) ? 0 : f->len[i]) + 512;
	return 0;
}

/* The images' payloads left in their files, in tree order: file i is the i-th image. */
static int add_payloads(struct vfit_fdtbuf *out, const struct auto_files *f, struct vfit_err *e)
{
	int node, i = 0, fd;

	fdt_for_each_subnode(node, out->buf, fdt_path_offset(out->buf, "/images")) {
		if (i < f->n && streamed(f, i)) {
			fd = open(f->path[i], O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", f->path[i],
						    strerror(errno));
			if (vfit_fdtbuf_payload(out, node, f->path[i], fd, 0, f->len[i], e))
				return -1;
		}
		i++;
	}
	return 0;
}

int vfit_its_auto(const struct vfit_mkimage *m, struct vfit_fdtbuf *out, struct vfit_err *e)
{
	struct layout lay = { .head = m->auto_conf || m->tfa || m->tee };
	struct auto_files f = { .n = 0, .e = e };
	size_t size = 4096 + VFIT_FIT_SLACK;
	char desc[160];
	void *fdt = NULL;
	int r;

	lay.hash = lay.head ? "hash" : "hash-1";
	lay.sig = lay.head ? "signature" : "signature-1";
	if (check_args(m, e) || add_files(&f, m, &size))
		goto fail;
	fdt = malloc(size);
	if (!fdt) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "-f auto: out of memory");
		goto fail;
	}
	snprintf(desc, sizeof(desc), "%s image with one or more FDT blobs",
		 vfit_name_long(VFIT_NAME_TYPE, m->type));
	r = fdt_create(fdt, (int)size);
	r = r ? r : fdt_finish_reservemap(fdt);
	r = r ? r : fdt_begin_node(fdt, "");
	r = r ? r : fdt_property_string(fdt, "description", desc);
	r = r ? r : fdt_property_string(fdt, "creator", "vfit mkimage " VFIT_VERSION);
	r = r ? r : fdt_property_u32(fdt, "#address-cells", 1);
	r = r ? r : write_images(fdt, m, &f, &lay);
	r = r ? r : write_confs(fdt, m, &lay);
	r = end_node(fdt, r);
	r = r ? r : fdt_finish(fdt);
	if (r) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "-f auto: cannot build the tree: %s",
			     fdt_strerror(r));
		goto fail;
	}
	r = vfit_fdtbuf_adopt(out, fdt, fdt_totalsize(fdt), size, "-f auto", e) ||
	    add_payloads(out, &f, e);
	free_files(&f);
	if (r)
		vfit_fdtbuf_free(out);
	return r ? -1 : 0;
fail:
	free(fdt);
	free_files(&f);
	return -1;
}
