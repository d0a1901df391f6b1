/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Placing verified images in RAM.  Every byte written during a boot is
 * first reserved here: the range must lie inside RAM and must not touch
 * the loader region, the FIT staging area (all of it: a later stage's FIT
 * is read there, over whatever an image left in its way), or any image placed
 * before it in this boot -- including the earlier stages' firmware and
 * control DTBs, which are "running".  That is the fence the 2018 bootm
 * bugs lacked (CVE-2018-18439/18440: a FIT or image loaded over U-Boot
 * itself).  Only images that verified reach this file.
 */
#include <string.h>

#include "boot_int.h"

void vfit_boot_ranges_reset(struct vfit_boot *b)
{
	const struct vfit_boot_ops *o = b->ops;

	b->range[0].addr = o->loader_addr;
	b->range[0].size = o->loader_size;
	b->range[0].what = "loader";
	b->range[1].addr = o->fit_addr;
	b->range[1].size = o->fit_size;
	b->range[1].what = "FIT staging area";
	b->nranges = 2;
	b->fit_next = o->fit_addr;
}

uint8_t *vfit_boot_ram(const struct vfit_boot *b, uint64_t addr)
{
	return b->ops->ram + (size_t)(addr - b->ops->ram_base);
}

static void why_range(struct vfit_line *why, const char *what, uint64_t addr, uint64_t size)
{
	vfit_line_str(why, what);
	vfit_line_str(why, " [");
	vfit_line_hex(why, addr);
	vfit_line_str(why, "..");
	vfit_line_hex(why, addr + size);
	vfit_line_str(why, ")");
}

static bool in_ram(const struct vfit_boot *b, uint64_t addr, uint64_t size)
{
	return vfit_boot_within(addr, size, b->ops->ram_base, b->ops->ram_size);
}

bool vfit_boot_reserve(struct vfit_boot *b, uint64_t addr, uint64_t size, const char *what,
		       struct vfit_line *why)
{
	const struct vfit_boot_range *r;
	unsigned int i;

	if (!size)
		return true;
	if (!in_ram(b, addr, size)) {
		why_range(why, what, addr, size);
		vfit_line_str(why, " is outside RAM");
		return false;
	}
	for (i = 0; i < b->nranges; i++) {
		r = &b->range[i];
		if (addr < r->addr + r->size && r->addr < addr + size) {
			why_range(why, what, addr, size);
			vfit_line_str(why, " overlaps ");
			why_range(why, r->what, r->addr, r->size);
			return false;
		}
	}
	if (b->nranges >= VFIT_BOOT_MAX_RANGES) {
		vfit_line_str(why, "too many images to place");
		return false;
	}
	b->range[b->nranges].addr = addr;
	b->range[b->nranges].size = size;
	b->range[b->nranges].what = what;
	b->nranges++;
	return true;
}

/* Free bytes from addr up to the next reserved range or the end of RAM (0: addr is taken). */
static uint64_t room_at(const struct vfit_boot *b, uint64_t addr)
{
	const struct vfit_boot_ops *o = b->ops;
	uint64_t end = o->ram_base + o->ram_size;
	unsigned int i;

	if (!in_ram(b, addr, 1))
		return 0;
	for (i = 0; i < b->nranges; i++) {
		const struct vfit_boot_range *r = &b->range[i];

		if (addr >= r->addr && addr - r->addr < r->size)
			return 0;
		if (r->addr > addr && r->addr < end)
			end = r->addr;
	}
	return end - addr;
}

/* "<prop> '<name>'": which image a reason is about. */
static void why_image(struct vfit_line *why, const struct vfit_image *img)
{
	vfit_line_str(why, img->prop);
	vfit_line_str(why, " '");
	vfit_line_str(why, img->name);
	vfit_line_str(why, "'");
}

static bool comp_kind(const char *c, enum vfit_boot_comp *kind)
{
	if (!c || !strcmp(c, "none"))
		return false;
	*kind = !strcmp(c, "gzip") ? VFIT_BOOT_COMP_GZIP : VFIT_BOOT_COMP_LZ4;
	return true;
}

/*
 * A compressed kernel: the output size is unknown until decompressed, so
 * the decompressor gets exactly the free room at the load address and
 * can never write past it; the range is reserved with the real size.
 */
static bool decompress(struct vfit_boot *b, const struct vfit_image *img,
		       enum vfit_boot_comp kind, struct vfit_line *why, uint64_t *size)
{
	const struct vfit_boot_ops *o = b->ops;
	uint64_t room = room_at(b, img->load);
	size_t out = 0;

	if (!room) {
		why_range(why, img->prop, img->load, 1);
		vfit_line_str(why, " is outside RAM or in use");
		return false;
	}
	if (!o->decompress || o->decompress(o->plat, kind, img->data, img->size,
					    vfit_boot_ram(b, img->load), (size_t)room, &out)) {
		why_image(why, img);
		vfit_line_str(why, ": ");
		vfit_line_str(why, img->compression);
		vfit_line_str(why, " data does not decompress into the ");
		vfit_line_u32(why, (uint32_t)(room >> 10));
		vfit_line_str(why, " KiB free at its load address");
		return false;
	}
	*size = out;
	return vfit_boot_reserve(b, img->load, out, img->prop, why);
}

bool vfit_boot_load_one(struct vfit_boot *b, const struct vfit_image *img,
			struct vfit_line *why, uint64_t *size)
{
	enum vfit_boot_comp kind;
	struct vfit_line l;

	vfit_line_init(&l);
	vfit_line_str(&l, "   Loading ");
	vfit_line_str(&l, img->prop);
	vfit_line_str(&l, " '");
	vfit_line_str(&l, img->name);
	vfit_line_str(&l, "' to ");
	vfit_line_hex(&l, img->load);
	if (comp_kind(img->compression, &kind)) {
		if (strcmp(img->prop, "kernel") ||
		    (strcmp(img->compression, "gzip") && strcmp(img->compression, "lz4"))) {
			why_image(why, img);
			vfit_line_str(why, ": compression '");
			vfit_line_str(why, img->compression);
			vfit_line_str(why, "' is not supported for this image");
			return false;
		}
		vfit_line_str(&l, " (");
		vfit_line_str(&l, img->compression);
		vfit_line_str(&l, ")");
		vfit_line_print(b, &l);
		return decompress(b, img, kind, why, size);
	}
	vfit_line_print(b, &l);
	*size = img->size;
	if (!vfit_boot_reserve(b, img->load, img->size, img->prop, why))
		return false;
	memcpy(vfit_boot_ram(b, img->load), img->data, img->size);
	return true;
}

const struct vfit_image *vfit_boot_image(const struct vfit_verify_result *res, const char *prop)
{
	unsigned int i;

	for (i = 0; i < res->nimages; i++)
		if (!strcmp(res->image[i].prop, prop) && res->image[i].index == 0)
			return &res->image[i];
	return NULL;
}

/* An image left where it lies in the FIT: its bus address in the staging area. */
static uint64_t in_place(const struct vfit_image *img, uint64_t fit_addr)
{
	return fit_addr + img->offset;
}

bool vfit_boot_load_images(struct vfit_boot *b, uint64_t fit_addr, struct vfit_line *why)
{
	const struct vfit_verify_result *res = &b->res;
	const struct vfit_image *img, *k = vfit_boot_image(res, "kernel");
	unsigned int i, j;
	uint64_t size;

	if (!k || !k->has_load) {
		vfit_line_str(why, "kernel '");
		vfit_line_str(why, k ? k->name : "");
		vfit_line_str(why, "' has no load address");
		return false;
	}
	for (i = 0; i < res->nimages; i++) {
		img = &res->image[i];
		for (j = 0; j < i; j++)
			if (res->image[j].node == img->node)
				break;
		/* Each image once; images without a load address stay in the FIT. */
		if (j < i || !img->has_load)
			continue;
		if (!vfit_boot_load_one(b, img, why, &size))
			return false;
		if (img->node == k->node)
			b->kernel_size = size;
	}
	b->kernel_addr = k->load;
	b->entry = k->has_entry ? k->entry : k->load;
	img = vfit_boot_image(res, "fdt");
	b->has_fdt = img != NULL;
	if (img) {
		b->fdt_addr = img->has_load ? img->load : in_place(img, fit_addr);
		b->fdt_size = img->size;
	}
	img = vfit_boot_image(res, "ramdisk");
	b->has_ramdisk = img != NULL;
	if (img) {
		b->ramdisk_addr = img->has_load ? img->load : in_place(img, fit_addr);
		b->ramdisk_size = img->size;
	}
	return true;
}
