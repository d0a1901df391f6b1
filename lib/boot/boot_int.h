/* SPDX-License-Identifier: BSD-3-Clause */
/* Internals of the boot flow shared by lib/boot*.c. */
#ifndef VFIT_BOOT_INT_H
#define VFIT_BOOT_INT_H

#include "vfit/boot.h"

/* FIT staging addresses and the RAM layout are aligned to this. */
#define VFIT_BOOT_PAGE 4096u

/*
 * [a, a+as) lies inside [base, base+size).  Written without a+as or
 * base+size, either of which may wrap around 2^64 for hostile values.
 */
static inline bool vfit_boot_within(uint64_t a, uint64_t as, uint64_t base, uint64_t size)
{
	return a >= base && a - base <= size && as <= size - (a - base);
}

/*
 * Console lines are built piecewise (the library has no printf): text is
 * appended and silently truncated at the buffer's end, never overrun.
 */
struct vfit_line {
	size_t n;
	char s[VFIT_BOOT_REASON_LEN + 96];
};

void vfit_line_init(struct vfit_line *l);
void vfit_line_str(struct vfit_line *l, const char *s);
void vfit_line_u32(struct vfit_line *l, uint32_t v);
/* At least 8 hex digits, no prefix, as U-Boot prints addresses. */
void vfit_line_hex(struct vfit_line *l, uint64_t v);
void vfit_line_print(const struct vfit_boot *b, const struct vfit_line *l);
void vfit_boot_say(const struct vfit_boot *b, const char *s);
/* Keeps l as a reason for the halt report (and prints it). */
void vfit_boot_reason(struct vfit_boot *b, const struct vfit_line *l);

/*
 * Key views: small control FDTs the flow builds in the loader region from
 * the ROM DTB and the user key store (see boot_keys.c).
 */
enum vfit_keyview {
	VFIT_VIEW_BUILT_IN,   /* every ROM key except key-recovery, policy unchanged */
	VFIT_VIEW_RECOVERY,   /* key-recovery alone, required for configurations */
	VFIT_VIEW_USER,       /* user keys, each required, required-mode "any" */
};

int vfit_boot_keyview(void *buf, size_t cap, const void *src, enum vfit_keyview kind,
		      size_t *len);
/* Number of keys under /signature of a control FDT (0 if none). */
unsigned int vfit_boot_key_count(const void *ctl);
/* Prints one line per key of ctl: "   <prefix> 'name' (algo, required ...) <origin>". */
void vfit_boot_print_keys(const struct vfit_boot *b, const void *ctl, const char *prefix,
			  const char *origin);

/* RAM bookkeeping (boot_load.c). */
void vfit_boot_ranges_reset(struct vfit_boot *b);
/* Reserves [addr, addr+size) for what; false (with a reason) if out of RAM or overlapping. */
bool vfit_boot_reserve(struct vfit_boot *b, uint64_t addr, uint64_t size, const char *what,
		       struct vfit_line *why);
/* Pointer to bus address addr (must lie in RAM). */
uint8_t *vfit_boot_ram(const struct vfit_boot *b, uint64_t addr);
/* First image the configuration references through prop (index 0), or NULL. */
const struct vfit_image *vfit_boot_image(const struct vfit_verify_result *res, const char *prop);
/* Loads the verified images of the configuration in b->res (the final stage). */
bool vfit_boot_load_images(struct vfit_boot *b, uint64_t fit_addr, struct vfit_line *why);
/* Loads one verified image to its load address (non-final stages). */
bool vfit_boot_load_one(struct vfit_boot *b, const struct vfit_image *img,
			struct vfit_line *why, uint64_t *size);

/*
 * The first 256 KiB of the loader region hold the flow's copies of the
 * key DTBs (the rest stands for the loader's code, stack and data).  DTBs
 * are copied there because libfdt wants them 8-byte aligned, which an fdt
 * image inside a FIT (4-byte aligned) need not be.
 */
#define VFIT_WS_ROM 0x00000u          /* ROM control DTB, up to 64 KiB */
#define VFIT_WS_USER 0x10000u         /* user key store, up to 64 KiB */
#define VFIT_WS_VIEW_ROM 0x20000u     /* built-in key view */
#define VFIT_WS_VIEW_USER 0x28000u    /* user key view */
#define VFIT_WS_VIEW_REC 0x30000u     /* recovery key view */
#define VFIT_WS_NEXT 0x38000u         /* control DTB of the next stage */
#define VFIT_WS_DTB_MAX 0x10000u
#define VFIT_WS_VIEW_MAX 0x8000u
#define VFIT_WS_SIZE 0x40000u

/*
 * Keys of one command, built once in the loader region: the built-in view
 * and the recovery view of the ROM DTB, and the user view when the
 * developer-mode switch is open and a user key store is present.
 */
struct vfit_flow {
	const uint8_t *rom, *recovery, *user;
	size_t rom_len, recovery_len, user_len;
	bool dev;
};

/* Where the stages of a chain come from: fit[0..n) stand for stages first.., */
struct vfit_chain {
	unsigned int slot;             /* the rest from this slot's storage */
	unsigned int first, n;
	const void *const *fit;
	const size_t *len;
	const char *label;             /* "slot A", "recovery", "new chain" */
};

/* Outcome of a chain walk. */
enum vfit_walk {
	VFIT_WALK_OK = 0,
	VFIT_WALK_REJECT,              /* something did not verify (reasons recorded) */
	VFIT_WALK_IO,                  /* the medium failed: not the slot's fault */
};

/*
 * Verifies the chain stage by stage (each with the keys the previous stage
 * brought) and, with load, places each stage's images in RAM.  Records the
 * staged FITs in stage_fit/stage_len and the rollback indexes in
 * b->counter[].
 */
enum vfit_walk vfit_boot_walk(struct vfit_boot *b, const struct vfit_flow *f,
			      const struct vfit_chain *c, bool load,
			      const uint8_t *stage_fit[VFIT_BOOT_MAX_STAGES],
			      size_t stage_len[VFIT_BOOT_MAX_STAGES]);
/* The recovery FIT, verified with key-recovery alone, and loaded. */
enum vfit_walk vfit_boot_recovery(struct vfit_boot *b, const struct vfit_flow *f);
/* Advances the counters of b->counter[] that are below their verified index. */
int vfit_boot_advance(struct vfit_boot *b);

#endif
