/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The verified boot flow (`vfit boot`): chain of trust from a read-only
 * control DTB, A/B slots with boot attempts and fallback, recovery,
 * user-installed keys behind a developer-mode switch, anti-rollback
 * counters and field updates.
 *
 * The flow is device code: it never allocates, keeps no global state, and
 * reaches the platform only through struct vfit_boot_ops (as libavb's
 * AvbOps and MCUboot's ports do).  The caller owns struct vfit_boot, which
 * holds every buffer the flow needs besides the platform's RAM.
 */
#ifndef VFIT_BOOT_H
#define VFIT_BOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfit/fit.h"

#define VFIT_BOOT_SLOTS 2
/* Chain length: stage 1 (verified with the ROM keys) ... the kernel stage. */
#define VFIT_BOOT_MAX_STAGES 4
/* Reasons kept for the halt report, and their length. */
#define VFIT_BOOT_MAX_REASONS 16
#define VFIT_BOOT_REASON_LEN 160
/* Load ranges reserved during one boot (loader, FIT staging area, loaded images). */
#define VFIT_BOOT_MAX_RANGES (4 + VFIT_BOOT_MAX_STAGES * (1 + VFIT_MAX_IMAGES))
/* Rollback counter names: 1..31 characters of [A-Za-z0-9._-] (as the host stores). */
#define VFIT_BOOT_COUNTER_NAME 32
/* Attempts a freshly updated slot gets before it is declared bad. */
#define VFIT_BOOT_TRIES 3
/* Size of the serialized state blob. */
#define VFIT_BOOT_STATE_SIZE 64

/* Storage objects the flow asks the platform for. */
enum vfit_boot_obj {
	VFIT_BOOT_OBJ_ROM = 1,   /* read-only control DTB with the root keys */
	VFIT_BOOT_OBJ_STAGE,     /* chain stage `stage` (1-based) of slot `slot` */
	VFIT_BOOT_OBJ_RECOVERY,  /* recovery FIT */
	VFIT_BOOT_OBJ_USER_KEYS, /* user key store: a DTB with /signature key nodes */
};

/* Return values of the storage and state ops. */
#define VFIT_BOOT_IO_OK 0
#define VFIT_BOOT_IO_ABSENT (-1)  /* no such object (empty slot, no SD card) */
#define VFIT_BOOT_IO_BIG (-2)     /* object larger than the space offered */
#define VFIT_BOOT_IO_ERROR (-3)   /* the medium failed */

enum vfit_boot_comp {
	VFIT_BOOT_COMP_GZIP = 1,
	VFIT_BOOT_COMP_LZ4,       /* LZ4 frame format, as the kernel's lz4 images */
};

/* Phases timed per stage (when the platform has a clock). */
enum vfit_boot_phase {
	VFIT_BOOT_T_READ = 0,     /* storage -> RAM */
	VFIT_BOOT_T_VERIFY,       /* format, signatures and image hashes */
	VFIT_BOOT_T_LOAD,         /* copy or decompress to load addresses */
	VFIT_BOOT_T_PHASES,
};

struct vfit_boot_ops {
	void *plat;
	/*
	 * Puts storage object (obj, slot, stage) into dst[0..cap) -- dst is in
	 * the platform's RAM, page-aligned -- and sets *len.  slot and stage
	 * are 0 for objects that have none.
	 */
	int (*read)(void *plat, enum vfit_boot_obj obj, unsigned int slot, unsigned int stage,
		    void *dst, size_t cap, size_t *len);
	/*
	 * Replaces a chain stage of a slot atomically (old or new contents
	 * after a power cut, never a mix); len 0 removes it.  Used by update.
	 */
	int (*write)(void *plat, unsigned int slot, unsigned int stage, const void *src,
		     size_t len);
	/* State blob: read (ABSENT when never written) and atomic replace. */
	int (*state_read)(void *plat, void *buf, size_t cap, size_t *len);
	int (*state_write)(void *plat, const void *buf, size_t len);
	/*
	 * Monotonic rollback counters by name.  read: a counter never
	 * advanced reads 0; advance: sets it to value (the flow only asks for
	 * values above the current one).  Both NULL: the platform has no
	 * counter store, rollback indexes are only reported.
	 */
	int (*counter_read)(void *plat, const char *name, uint64_t *value);
	int (*counter_advance)(void *plat, const char *name, uint64_t value);
	/* The developer-mode switch: true when open. */
	bool (*dev_mode)(void *plat);
	/* One console line, without its newline. */
	void (*print)(void *plat, const char *line);
	/* Decompresses src into dst[0..cap); -1 on bad data or overflow. */
	int (*decompress)(void *plat, enum vfit_boot_comp comp, const void *src, size_t len,
			  void *dst, size_t cap, size_t *out_len);
	/* Monotonic clock in ns for the timings; NULL: no timings. */
	uint64_t (*now_ns)(void *plat);

	/*
	 * Simulated RAM: bus addresses [ram_base, ram_base + ram_size) are
	 * ram[0..ram_size).  The loader region (the running bootloader, its
	 * stack and the flow's copies of key DTBs) and the FIT staging area
	 * lie inside RAM; images may be loaded anywhere else.
	 */
	uint8_t *ram;
	uint64_t ram_base, ram_size;
	uint64_t loader_addr, loader_size;
	uint64_t fit_addr, fit_size;
};

/* Slot status in the state blob. */
enum vfit_boot_slot_status {
	VFIT_SLOT_GOOD = 1,       /* confirmed (or factory-installed) */
	VFIT_SLOT_TRYING = 2,     /* on trial: `tries` boots left until confirmed */
	VFIT_SLOT_BAD = 3,        /* failed verification or ran out of attempts */
};

#define VFIT_BOOT_NONE 0xff   /* no slot */

struct vfit_boot_state {
	uint32_t seq;             /* bumped on every write */
	uint8_t active;           /* slot tried first */
	uint8_t booted;           /* slot of the last boot, VFIT_BOOT_NONE if none */
	uint8_t status[VFIT_BOOT_SLOTS];
	uint8_t tries[VFIT_BOOT_SLOTS];
};

/* Outcome of vfit_boot_run(). */
enum vfit_boot_outcome {
	VFIT_BOOT_KERNEL = 0,     /* a verified kernel is ready to start */
	VFIT_BOOT_RECOVERY,       /* only the recovery FIT verified: recovery is ready */
	VFIT_BOOT_HALT,           /* nothing verified */
	VFIT_BOOT_FAILED,         /* platform failure (RAM layout, state medium) */
};

/* A range of RAM in use, with what it holds. */
struct vfit_boot_range {
	uint64_t addr, size;
	const char *what;         /* "loader", "FIT", "kernel", "fdt", ... */
};

struct vfit_boot_counter {
	char name[VFIT_BOOT_COUNTER_NAME];
	uint32_t index;           /* rollback index of the verified configuration */
	bool has_counter;         /* the platform returned a value */
	uint64_t counter;         /* stored value before this boot */
};

struct vfit_boot {
	const struct vfit_boot_ops *ops;
	bool quiet;                          /* console lines suppressed (reasons kept) */
	struct vfit_boot_state state;
	struct vfit_verify_result res;       /* scratch for each verification */

	/* Why things failed, for the halt report. */
	unsigned int nreasons;
	char reason[VFIT_BOOT_MAX_REASONS][VFIT_BOOT_REASON_LEN];

	/* RAM bookkeeping of the boot in progress. */
	unsigned int nranges;
	struct vfit_boot_range range[VFIT_BOOT_MAX_RANGES];
	uint64_t fit_next;                   /* next free staging address */

	/* Rollback indexes of the chain verified last. */
	unsigned int ncounters;
	struct vfit_boot_counter counter[VFIT_BOOT_MAX_STAGES];

	/* Result of the last successful run. */
	unsigned int slot;                   /* VFIT_BOOT_NONE for recovery */
	unsigned int nstages;
	uint64_t entry;
	bool has_fdt, has_ramdisk;
	uint64_t fdt_addr, fdt_size, ramdisk_addr, ramdisk_size;
	uint64_t kernel_addr, kernel_size;

	/* Time per stage and phase in ns (index 0..MAX_STAGES-1; recovery last). */
	uint64_t t[VFIT_BOOT_MAX_STAGES + 1][VFIT_BOOT_T_PHASES];
	uint64_t bytes_verified;             /* FIT bytes hashed, for reports */
};

/* Prepares b for one command; ops must outlive b. */
void vfit_boot_init(struct vfit_boot *b, const struct vfit_boot_ops *ops);

/*
 * One power-on: selects a slot, verifies its chain stage by stage, loads
 * the final stage's images and prints the U-Boot-like console log.
 */
enum vfit_boot_outcome vfit_boot_run(struct vfit_boot *b);

/*
 * The OS confirms the slot it booted: ends its trial and advances the
 * rollback counters to the indexes of its (re-verified) chain.
 * Returns 0, 1 when there is nothing to confirm or the chain no longer
 * verifies, 2 on a platform failure.
 */
int vfit_boot_mark_good(struct vfit_boot *b);

/*
 * Field update: fit[0..n) replace consecutive chain stages of the running
 * slot, starting at the first stage whose keys verify fit[0].  The
 * complete new chain is verified with the keys the device trusts now,
 * written to the other slot, read back and verified again, and only then
 * set to be tried next.  Returns 0, 1 when refused, 2 on a platform failure.
 */
int vfit_boot_update(struct vfit_boot *b, const void *const fit[], const size_t len[],
		     unsigned int n);

/* State blob (de)serialization: magic, version, fields, SHA-256. */
void vfit_boot_state_default(struct vfit_boot_state *s);
void vfit_boot_state_encode(const struct vfit_boot_state *s, uint8_t out[VFIT_BOOT_STATE_SIZE]);
/* 0, or -1 when the blob is not a valid state (bad size, magic, version, checksum, field). */
int vfit_boot_state_decode(const uint8_t *in, size_t len, struct vfit_boot_state *s);

/*
 * Whether name[0..len) (no NUL) is a rollback counter name: 1 to
 * VFIT_BOOT_COUNTER_NAME - 1 characters of [A-Za-z0-9._-].
 */
bool vfit_counter_name_valid(const char *name, size_t len);

/* "good", "trying", "bad" (or "unknown"). */
const char *vfit_boot_slot_status_name(unsigned int status);

#endif
