/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Placing verified images in RAM.  Every byte written during a boot is
 * first reserved here: the range must lie inside one RAM region and must
 * not touch the loader region, the FIT staging area (all of it: a later
 * stage's FIT is read there, over whatever an image left in its way), or
 * any image placed before it in this boot -- including the earlier stages'
 * firmware and control DTBs, which are "running".  That is the fence the
 * 2018 bootm bugs lacked (CVE-2018-18439/18440: a FIT or image loaded over
 * U-Boot itself).  Only images that verified reach this file.
 */
#include <string.h>

#include <libfdt.h>

#include "vfit/decomp.h"
#include "boot_int.h"
#include "vfit/cipher.h"

/* The region holding [addr, addr+size), or NULL. */
static const struct vfit_boot_region *region(const struct vfit_boot_layout *l, uint64_t addr,
					     uint64_t size)
{
	unsigned int i;

	for (i = 0; i < l->nram; i++)
		if (vfit_boot_within(addr, size, l->ram[i].base, l->ram[i].size))
			return &l->ram[i];
	return NULL;
}

static bool disjoint(uint64_t a, uint64_t as, uint64_t b, uint64_t bs)
{
	return a - b >= bs && b - a >= as;
}

bool vfit_boot_layout_ok_(const struct vfit_boot_layout *l)
{
	const struct vfit_boot_region *fit;
	unsigned int i, j;

	if (!l || !l->ram || !l->nram || l->nram > VFIT_BOOT_MAX_RAM)
		return false;
	for (i = 0; i < l->nram; i++) {
		if (!l->ram[i].host || !l->ram[i].size ||
		    l->ram[i].base + l->ram[i].size - 1 < l->ram[i].base)
			return false;
		for (j = 0; j < i; j++)
			if (!disjoint(l->ram[i].base, l->ram[i].size, l->ram[j].base, l->ram[j].size))
				return false;
	}
	fit = region(l, l->fit_addr, l->fit_size);
	/* libfdt reads the staged FITs in place: 8-byte alignment. */
	return fit && l->fit_size && region(l, l->loader_addr, l->loader_size) &&
	       !((uintptr_t)(fit->host + (l->fit_addr - fit->base)) % 8) &&
	       disjoint(l->fit_addr, l->fit_size, l->loader_addr, l->loader_size);
}

uint8_t *vfit_boot_host_(const struct vfit_run *r, uint64_t addr, uint64_t size)
{
	const struct vfit_boot_region *g = region(r->lay, addr, size);

	return g ? g->host + (size_t)(addr - g->base) : NULL;
}

void vfit_boot_ranges_reset_(struct vfit_run *r)
{
	struct vfit_boot_scratch *s = r->s;

	s->range[0].addr = r->lay->loader_addr;
	s->range[0].size = r->lay->loader_size;
	s->range[0].what = "loader";
	s->range[1].addr = r->lay->fit_addr;
	s->range[1].size = r->lay->fit_size;
	s->range[1].what = "FIT staging area";
	s->nranges = 2;
	s->fit_next = r->lay->fit_addr;
}

static void why_range(struct vfit_boot_event *why, const char *what, uint64_t addr,
		      uint64_t size)
{
	vfit_ev_str_(why->what, sizeof(why->what), what);
	why->addr = addr;
	why->size = size;
}

bool vfit_boot_reserve_(struct vfit_run *r, uint64_t addr, uint64_t size, const char *what,
		       struct vfit_boot_event *why)
{
	struct vfit_boot_scratch *s = r->s;
	unsigned int i;

	if (!size)
		return true;
	why_range(why, what, addr, size);
	if (!region(r->lay, addr, size)) {
		why->why = VFIT_WHY_OUTSIDE_RAM;
		return false;
	}
	for (i = 0; i < s->nranges; i++) {
		if (!disjoint(addr, size, s->range[i].addr, s->range[i].size)) {
			why->why = VFIT_WHY_OVERLAP;
			vfit_ev_str_(why->other, sizeof(why->other), s->range[i].what);
			why->addr2 = s->range[i].addr;
			why->size2 = s->range[i].size;
			return false;
		}
	}
	if (s->nranges >= VFIT_BOOT_MAX_RANGES) {
		why->why = VFIT_WHY_TOO_MANY_RANGES;
		return false;
	}
	s->range[s->nranges].addr = addr;
	s->range[s->nranges].size = size;
	s->range[s->nranges].what = what;
	s->nranges++;
	return true;
}

/* Free bytes from addr up to the next reserved range or its region's end (0: taken). */
static uint64_t room_at(const struct vfit_run *r, uint64_t addr)
{
	const struct vfit_boot_region *g = region(r->lay, addr, 1);
	const struct vfit_boot_scratch *s = r->s;
	uint64_t end;
	unsigned int i;

	if (!g)
		return 0;
	end = g->base + (g->size - 1);
	for (i = 0; i < s->nranges; i++) {
		if (addr >= s->range[i].addr && addr - s->range[i].addr < s->range[i].size)
			return 0;
		if (s->range[i].addr > addr && s->range[i].addr - 1 < end)
			end = s->range[i].addr - 1;
	}
	return end - addr + 1;
}

/* Which image a reason is about. */
static void why_image(struct vfit_boot_event *why, const struct vfit_image *img,
		      enum vfit_boot_why w)
{
	why->why = (uint8_t)w;
	vfit_ev_str_(why->what, sizeof(why->what), img->prop);
	vfit_ev_str_(why->name, sizeof(why->name), img->name);
	vfit_ev_str_(why->other, sizeof(why->other), img->compression);
}

/*
 * A compressed kernel: the output size is unknown until decompressed, so
 * the decompressor gets exactly the free room at the load address and
 * can never write past it; the range is reserved with the real size.
 */
static bool decompress(struct vfit_run *r, const struct vfit_image *img,
		       enum vfit_comp kind, struct vfit_boot_event *why, uint64_t *size)
{
	const struct vfit_boot_ops *o = r->ops;
	uint64_t room = room_at(r, img->load);
	size_t out = 0;

	if (!room) {
		why_range(why, img->prop, img->load, 1);
		why->why = VFIT_WHY_NO_ROOM;
		return false;
	}
	if (room > SIZE_MAX)
		room = SIZE_MAX;
	if (!o->decompress || o->decompress(o->plat, kind, img->data, img->size,
					    vfit_boot_host_(r, img->load, room), (size_t)room,
					    &out) != VFIT_DECOMP_OK) {
		why_image(why, img, VFIT_WHY_DECOMPRESS);
		why->value = room >> 10;
		return false;
	}
	*size = out;
	return vfit_boot_reserve_(r, img->load, out, img->prop, why);
}

/*
 * An image's cipher node (*encrypted false when it has none) with its key
 * from r->keys, the control FDT whose keys just verified this stage: the
 * key is as trusted as the keys that accepted the FIT.
 */
static bool cipher_of(const struct vfit_run *r, const struct vfit_image *img,
		      struct vfit_cipher *ci, bool *encrypted, struct vfit_boot_event *why)
{
	const void *fit = img->data - img->offset;  /* offset: data - fit */
	struct vfit_diag d = { -1, NULL, VFIT_LIMIT_NONE };
	enum vfit_result res = vfit_cipher_find(fit, img->node, r->keys, ci, &d);

	*encrypted = res != VFIT_ERR_MISSING || fdt_subnode_offset(fit, img->node, "cipher") >= 0;
	if (!*encrypted || !res)
		return true;
	why_image(why, img, VFIT_WHY_CIPHER_KEY);
	vfit_ev_str_(why->other, sizeof(why->other), d.prop ? d.prop : "");
	return false;
}

/*
 * An encrypted image: decrypted into exactly its plaintext's room at its
 * load address, reserved first.  Only images that verified reach here, so
 * no byte of a ciphertext whose hash or signature failed is ever decrypted.
 */
static bool decrypt(struct vfit_run *r, const struct vfit_image *img,
		    const struct vfit_cipher *ci, struct vfit_boot_event *why, uint64_t *size)
{
	uint8_t *dst;

	*size = ci->plain_len;
	if (!vfit_boot_reserve_(r, img->load, ci->plain_len, img->prop, why))
		return false;
	dst = vfit_boot_host_(r, img->load, ci->plain_len);
	if (!dst || vfit_cipher_decrypt(ci, img->data, img->size, dst, ci->plain_len)) {
		why_image(why, img, VFIT_WHY_DECRYPT);
		return false;
	}
	return true;
}

bool vfit_boot_load_one_(struct vfit_run *r, const struct vfit_image *img,
			struct vfit_boot_event *why, uint64_t *size)
{
	struct vfit_boot_event *ev;
	enum vfit_comp kind = vfit_comp_kind(img->compression);
	struct vfit_cipher ci;
	bool encrypted;
	uint8_t *dst;

	if (!cipher_of(r, img, &ci, &encrypted, why))
		return false;
	ev = vfit_ev_new_(r, VFIT_EV_LOAD, why->chain, why->stage);
	vfit_ev_str_(ev->what, sizeof(ev->what), img->prop);
	vfit_ev_str_(ev->name, sizeof(ev->name), img->name);
	ev->addr = img->load;
	if (kind != VFIT_COMP_NONE) {
		if (encrypted) {
			why_image(why, img, VFIT_WHY_CIPHER_COMPRESSED);
			return false;
		}
		/* Only what lib/decomp's table names: another name is refused, not guessed at. */
		if (strcmp(img->prop, "kernel") || (kind != VFIT_COMP_GZIP && kind != VFIT_COMP_LZ4)) {
			why_image(why, img, VFIT_WHY_COMPRESSION);
			return false;
		}
		vfit_ev_str_(ev->other, sizeof(ev->other), img->compression);
		vfit_ev_emit_(r, ev);
		return decompress(r, img, kind, why, size);
	}
	vfit_ev_emit_(r, ev);
	if (encrypted)
		return decrypt(r, img, &ci, why, size);
	*size = img->size;
	if (!vfit_boot_reserve_(r, img->load, img->size, img->prop, why))
		return false;
	dst = vfit_boot_host_(r, img->load, img->size);
	if (dst)
		memcpy(dst, img->data, img->size);
	return true;
}

const struct vfit_image *vfit_boot_image_(const struct vfit_verify_result *res, const char *prop)
{
	unsigned int i;

	for (i = 0; i < res->nimages; i++)
		if (!strcmp(res->image[i].prop, prop) && res->image[i].index == 0)
			return &res->image[i];
	return NULL;
}

bool vfit_boot_entry_inside_(const struct vfit_image *img, uint64_t size)
{
	uint64_t entry = img->has_entry ? img->entry : img->load;

	return entry >= img->load && entry - img->load < size;
}

/*
 * An fdt or ramdisk handed over: where it was loaded, with the size placed
 * there (an encrypted image's plaintext, data-size-unciphered, not the
 * ciphertext's, which is rounded up to the cipher's block), else where it
 * lies in the FIT (never encrypted: vfit_boot_load_images_ refuses that).
 */
static void hand(struct vfit_boot_blob *b, const struct vfit_image *img, uint64_t fit_addr,
		 const struct vfit_image *placed, const uint64_t *size, unsigned int n)
{
	unsigned int i;

	b->present = img != NULL;
	if (!img)
		return;
	b->addr = img->has_load ? img->load : fit_addr + img->offset;
	b->size = img->size;
	for (i = 0; i < n; i++)
		if (placed[i].node == img->node) {
			b->size = size[i];
			return;
		}
}

bool vfit_boot_load_images_(struct vfit_run *r, uint64_t fit_addr, struct vfit_boot_event *why)
{
	const struct vfit_verify_result *res = &r->s->res;
	const struct vfit_image *img, *k = vfit_boot_image_(res, "kernel");
	struct vfit_boot_report *rep = r->rep;
	uint64_t size[VFIT_MAX_IMAGES];
	unsigned int i, j;

	rep->kernel.size = 0;
	for (i = 0; i < res->nimages; i++) {
		img = &res->image[i];
		size[i] = img->size;
		for (j = 0; j < i; j++)
			if (res->image[j].node == img->node)
				break;
		/*
		 * Each image once; images without a load address stay in the FIT,
		 * except encrypted ones: there they are ciphertext, and they are
		 * decrypted only into a room of their own.
		 */
		if (j < i)
			continue;
		if (!img->has_load &&
		    fdt_subnode_offset(img->data - img->offset, img->node, "cipher") >= 0) {
			why_image(why, img, VFIT_WHY_NO_LOAD);
			return false;
		}
		if (!img->has_load)
			continue;
		if (!vfit_boot_load_one_(r, img, why, &size[i]))
			return false;
		if (img->node == k->node)
			rep->kernel.size = size[i];
	}
	/* The entry point must lie in the bytes just verified and placed. */
	if (!vfit_boot_entry_inside_(k, rep->kernel.size)) {
		why->why = VFIT_WHY_ENTRY_OUTSIDE;
		vfit_ev_str_(why->what, sizeof(why->what), k->prop);
		vfit_ev_str_(why->name, sizeof(why->name), k->name);
		why->addr = k->load;
		why->size = rep->kernel.size;
		why->value = k->has_entry ? k->entry : k->load;
		return false;
	}
	rep->kernel.present = true;
	rep->kernel.addr = k->load;
	rep->entry = k->has_entry ? k->entry : k->load;
	hand(&rep->fdt, vfit_boot_image_(res, "fdt"), fit_addr, res->image, size, res->nimages);
	hand(&rep->ramdisk, vfit_boot_image_(res, "ramdisk"), fit_addr, res->image, size,
	     res->nimages);
	return true;
}
