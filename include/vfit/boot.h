/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The verified boot flow as a component of a bootloader: chain of trust
 * from a read-only control DTB, A/B slots with boot attempts and fallback,
 * recovery, user-installed keys behind a developer-mode switch,
 * anti-rollback counters and field updates.
 *
 * The flow is device code: it never allocates, keeps no global state, and
 * reaches the platform only through struct vfit_boot_ops (as libavb's
 * AvbOps and MCUboot's ports do).  A command takes
 *   inputs   the ops and the RAM layout (struct vfit_boot_layout),
 *   scratch  struct vfit_boot_scratch: the verifier's result and the
 *            flow's copies of the key DTBs, owned by the caller,
 *   output   struct vfit_boot_report: what to start (kernel, fdt,
 *            ramdisk, entry) and typed events -- which slot, stage, key,
 *            why a slot fell back or the device halted -- in an event
 *            array the caller sizes.
 * It prints nothing.  A port that wants U-Boot-like console text installs
 * the optional `event` op and hands each event to vfit_boot_format_event().
 */
#ifndef VFIT_BOOT_H
#define VFIT_BOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfit/counter.h"
#include "vfit/decomp.h"
#include "vfit/fit.h"

/*
 * Two slots, A and B: fixed, not a knob.  The state blob, the update
 * ("the slot that is not running") and the fallback order are A/B.
 */
#define VFIT_BOOT_SLOTS 2
/* Chain length: stage 1 (verified with the ROM keys) ... the kernel stage. */
#define VFIT_BOOT_MAX_STAGES 4
/* RAM regions a layout may name. */
#define VFIT_BOOT_MAX_RAM 8
/* Ranges reserved during one boot: loader, FIT staging area, every image placed. */
#define VFIT_BOOT_MAX_RANGES (2 + VFIT_BOOT_MAX_STAGES * (1 + VFIT_MAX_IMAGES))
/* Rollback counter names: 1..31 characters of [A-Za-z0-9._-] (vfit/counter.h). */
#define VFIT_BOOT_COUNTER_NAME VFIT_COUNTER_NAME
/* Attempts a freshly updated slot gets before it is declared bad. */
#define VFIT_BOOT_TRIES 3
/* Size of the serialized state blob (version 3: chain digest, failed flags). */
#define VFIT_BOOT_STATE_SIZE 96
/* SHA-256: the chain digest, the measurements. */
#define VFIT_BOOT_DIGEST 32
/* Largest ROM control DTB and user key store; largest key view or stage control DTB. */
#define VFIT_BOOT_DTB_MAX 0x10000u
#define VFIT_BOOT_VIEW_MAX 0x8000u
/* Strings copied into events: node paths and names, cut to fit (NUL included). */
#define VFIT_BOOT_PATH_LEN 128
#define VFIT_BOOT_NAME_LEN 32

#define VFIT_BOOT_NONE 0xff   /* no slot */

/* ---- platform ------------------------------------------------------------ */

/* Result of every storage, state and counter op. */
enum vfit_io {
	VFIT_IO_OK = 0,
	VFIT_IO_ABSENT,           /* no such object (empty slot, no SD card, never written) */
	VFIT_IO_TOO_BIG,          /* object larger than the space offered */
	VFIT_IO_ERROR,            /* the medium failed */
};

/* Storage objects the flow asks the platform for. */
enum vfit_boot_obj {
	VFIT_BOOT_OBJ_ROM = 1,   /* read-only control DTB with the root keys */
	VFIT_BOOT_OBJ_STAGE,     /* chain stage `stage` (1-based) of slot `slot` */
	VFIT_BOOT_OBJ_RECOVERY,  /* recovery FIT */
	VFIT_BOOT_OBJ_USER_KEYS, /* user key store: a DTB with /signature key nodes */
};

struct vfit_boot_event;

/*
 * What a board provides.  Mandatory: read, state_read, state_write.  The
 * rest may be NULL, with the meaning given at each.
 */
struct vfit_boot_ops {
	void *plat;               /* passed back to every op */
	/*
	 * Copies storage object (obj, slot, stage) into dst[0..cap) -- the
	 * FIT staging area, or the scratch space for key DTBs; 8-byte
	 * aligned -- and sets *len; TOO_BIG when it does not fit.  slot and
	 * stage are 0 for objects that have none.  A copy, not a mapping: the
	 * flow verifies these bytes and then loads from them, so storage
	 * written meanwhile must not change them.
	 */
	enum vfit_io (*read)(void *plat, enum vfit_boot_obj obj, unsigned int slot,
			     unsigned int stage, void *dst, size_t cap, size_t *len);
	/*
	 * Replaces chain stage `stage` of slot `slot` atomically (old or new
	 * contents after a power cut, never a mix); len 0 removes it.  Only
	 * update uses it; NULL: updates fail with VFIT_BOOT_ERROR.
	 */
	enum vfit_io (*write)(void *plat, unsigned int slot, unsigned int stage, const void *src,
			      size_t len);
	/* State blob: read (ABSENT when never written) and atomic replace. */
	enum vfit_io (*state_read)(void *plat, void *buf, size_t cap, size_t *len);
	enum vfit_io (*state_write)(void *plat, const void *buf, size_t len);
	/*
	 * Monotonic rollback counters by name.  read: a counter never
	 * advanced reads 0; advance: sets it to value (the flow only asks for
	 * values above the current one).  Both NULL: no counter store,
	 * rollback indexes are only reported.
	 */
	enum vfit_io (*counter_read)(void *plat, const char *name, uint64_t *value);
	enum vfit_io (*counter_advance)(void *plat, const char *name, uint64_t value);
	/* The developer-mode switch: true when open.  NULL: always closed. */
	bool (*dev_mode)(void *plat);
	/*
	 * Decompresses src into dst[0..cap) and sets *out_len, with the
	 * results of vfit_decompress() (a board may simply call it, or its
	 * own engine): the flow asks only for VFIT_COMP_GZIP and
	 * VFIT_COMP_LZ4.  NULL: compressed kernels are refused.
	 */
	enum vfit_decomp_result (*decompress)(void *plat, enum vfit_comp comp, const void *src,
					      size_t len, void *dst, size_t cap, size_t *out_len);
	/* Monotonic clock in ns, for report->timings.  NULL: no timings. */
	uint64_t (*now_ns)(void *plat);
	/*
	 * Called with every event as it happens (the console's hook; see
	 * vfit_boot_format_event()).  ev and what it points to are valid
	 * during the call only.  NULL: events are only recorded.
	 */
	void (*event)(void *plat, const struct vfit_boot_event *ev);
	/*
	 * A store whose state_write and counter_advance only stage their change
	 * (state_read and counter_read see it) makes every staged change durable
	 * here at once -- the old or the new state after a power cut, never a
	 * mix -- or, with keep false, drops them.  The flow calls it at the end
	 * of every command and in update before the target's first byte
	 * changes; a boot whose commit fails halts before anything runs.  NULL:
	 * every write is durable when it returns.
	 */
	enum vfit_io (*commit)(void *plat, bool keep);
	/*
	 * Measured boot: extends PCR pcr with d, the digests of what the flow
	 * starts, and logs event type `type` with event[0..len).  d holds
	 * SHA-256 (an image's is its verified sha256 hash node) and the hashes
	 * measure_hashes asks for (an image's from the verifier's same pass).
	 * Called only once a chain verified and loaded in full, before START;
	 * a failure stops the boot (VFIT_WHY_MEASURE).  NULL: nothing measured.
	 */
	enum vfit_io (*measure)(void *plat, unsigned int pcr, uint32_t type,
				const struct vfit_digest_set *d, const void *event, size_t len);
	/*
	 * The hashes measure needs besides SHA-256, one for each PCR bank
	 * (VFIT_HASH_BIT of SHA-1, SHA-384, SHA-512).  NULL: SHA-256 alone.
	 */
	uint32_t (*measure_hashes)(void *plat);
};

/*
 * A region of RAM: bus addresses [base, base + size), which the flow
 * reaches at host[0..size).  A bare-metal port maps them 1:1
 * (host = (uint8_t *)(uintptr_t)base); a simulator passes its buffer.
 */
struct vfit_boot_region {
	uint64_t base, size;
	uint8_t *host;
};

/*
 * The platform's RAM map.  Images may be loaded anywhere inside the RAM
 * regions except the loader region (the running bootloader: its code,
 * stack and data -- put the vfit_boot_scratch there) and the FIT staging
 * area, where each stage's FIT is read and verified.  Each of the two lies
 * inside one region; the staging area's host address is 8-byte aligned.
 */
struct vfit_boot_layout {
	const struct vfit_boot_region *ram;
	unsigned int nram;        /* 1..VFIT_BOOT_MAX_RAM, disjoint */
	uint64_t loader_addr, loader_size;
	uint64_t fit_addr, fit_size;
};

/* ---- state blob ------------------------------------------------------------ */

/* Slot status in the state blob. */
enum vfit_boot_slot_status {
	VFIT_SLOT_GOOD = 1,       /* confirmed (or factory-installed) */
	VFIT_SLOT_TRYING = 2,     /* on trial: `tries` boots left until confirmed */
	VFIT_SLOT_BAD = 3,        /* failed verification or ran out of attempts */
};

struct vfit_boot_state {
	uint32_t seq;             /* bumped whenever the state changes (not at every boot) */
	uint8_t active;           /* slot tried first */
	/* Chain of the last boot: slot 0 or 1, VFIT_CHAIN_RECOVERY, or VFIT_BOOT_NONE. */
	uint8_t booted;
	uint8_t status[VFIT_BOOT_SLOTS];
	uint8_t tries[VFIT_BOOT_SLOTS];
	/*
	 * A bad slot whose chain failed verification (not one that ran out of
	 * attempts or an update's target): tried again when no other slot can
	 * boot, so a disk that failed once and was put right boots normally.
	 */
	uint8_t failed[VFIT_BOOT_SLOTS];
	/*
	 * Digest of the chain of the last boot (stages, configurations,
	 * images, keys, rollback indexes; zeros when none): mark-good
	 * confirms only that chain, so a slot rewritten after it booted is
	 * not confirmed in its place.
	 */
	uint8_t chain[VFIT_BOOT_DIGEST];
};

/* Why a state blob is not trusted. */
enum vfit_state_check {
	VFIT_STATE_OK = 0,
	VFIT_STATE_SIZE,          /* not VFIT_BOOT_STATE_SIZE bytes */
	VFIT_STATE_MAGIC,         /* not "VFBS" */
	VFIT_STATE_VERSION,       /* unknown version */
	VFIT_STATE_CHECKSUM,      /* SHA-256 mismatch */
	VFIT_STATE_FIELD,         /* checksummed, but a field is impossible */
};

void vfit_boot_state_default(struct vfit_boot_state *s);
void vfit_boot_state_encode(const struct vfit_boot_state *s, uint8_t out[VFIT_BOOT_STATE_SIZE]);
/*
 * Decodes in[0..len) into *s: returns VFIT_STATE_OK, or why the blob is not
 * trusted (*s is then unchanged).
 */
VFIT_MUST_CHECK
enum vfit_state_check vfit_boot_state_decode(const uint8_t *in, size_t len,
					     struct vfit_boot_state *s);

/* ---- results and events ------------------------------------------------------ */

/* Outcome of vfit_boot(). */
enum vfit_boot_outcome {
	VFIT_BOOT_KERNEL = 0,     /* a verified kernel is ready to start */
	VFIT_BOOT_RECOVERY,       /* only the recovery FIT verified: recovery is ready */
	VFIT_BOOT_HALT,           /* nothing verified */
	VFIT_BOOT_FAILED,         /* platform failure (layout, missing op, key views) */
};

/* Result of vfit_boot_mark_good() and vfit_boot_update(). */
enum vfit_boot_result {
	VFIT_BOOT_DONE = 0,
	VFIT_BOOT_REFUSED,        /* nothing to do, or not allowed: report->why says why */
	VFIT_BOOT_ERROR,          /* platform failure: a write or counter op failed */
};

/*
 * Why a slot fell back, the device halted or a command was refused (FAIL
 * events and report->why).  Values are stable; new ones are appended.
 */
enum vfit_boot_why {
	VFIT_WHY_NONE = 0,
	VFIT_WHY_LAYOUT,          /* the RAM layout or a mandatory op is unusable */
	VFIT_WHY_ROM,             /* ROM control DTB missing or malformed */
	VFIT_WHY_MARKED_BAD,      /* slot marked bad by an earlier boot */
	VFIT_WHY_NO_ATTEMPTS,     /* slot on trial with no attempts left */
	VFIT_WHY_TRIAL_UNCOUNTED, /* the trial could not be counted (state write failed) */
	VFIT_WHY_NO_FIT,          /* no FIT stored */
	VFIT_WHY_FIT_TOO_BIG,     /* FIT larger than the staging area */
	VFIT_WHY_READ_ERROR,      /* the medium failed */
	VFIT_WHY_VERIFY,          /* the verifier refused the FIT (verdicts) */
	VFIT_WHY_ROLLBACK_NAME,   /* rollback-counter malformed */
	VFIT_WHY_ROLLBACK_FORMAT, /* rollback-index not one 32-bit cell */
	VFIT_WHY_ROLLBACK_UNSIGNED, /* rollback data no verified signature covers */
	VFIT_WHY_COUNTER_UNREADABLE, /* the counter store failed */
	VFIT_WHY_ROLLBACK,        /* rollback index below its counter */
	VFIT_WHY_NO_HANDOVER,     /* neither a kernel nor a firmware and an fdt */
	VFIT_WHY_CONTROL_DTB,     /* the stage's fdt is not a usable control DTB */
	VFIT_WHY_NO_LOAD,         /* image without a load address */
	VFIT_WHY_PLACEMENT_UNSIGNED, /* load/entry/compression no verified signature covers */
	VFIT_WHY_ENTRY_OUTSIDE,   /* entry point outside the loaded kernel */
	VFIT_WHY_OUTSIDE_RAM,     /* load range outside RAM */
	VFIT_WHY_OVERLAP,         /* load range overlaps a reserved one */
	VFIT_WHY_TOO_MANY_RANGES, /* more images than VFIT_BOOT_MAX_RANGES */
	VFIT_WHY_NO_ROOM,         /* load address of a compressed kernel outside RAM or in use */
	VFIT_WHY_COMPRESSION,     /* compression not supported for this image */
	VFIT_WHY_DECOMPRESS,      /* data does not decompress into the free room */
	VFIT_WHY_CHAIN_TOO_LONG,  /* no kernel within VFIT_BOOT_MAX_STAGES */
	VFIT_WHY_NO_RECOVERY_KEY, /* no key-recovery in the ROM control DTB */
	VFIT_WHY_NO_KERNEL,       /* the recovery configuration names no kernel */
	VFIT_WHY_NOTHING_VERIFIED, /* halt: no slot and no recovery */
	VFIT_WHY_NOT_BOOTED,      /* mark-good: nothing booted yet */
	VFIT_WHY_BOOTED_BAD,      /* mark-good: the booted slot is marked bad */
	VFIT_WHY_NO_LONGER_VERIFIES, /* mark-good: the booted chain does not verify now */
	VFIT_WHY_UPDATE_COUNT,    /* update: not 1..VFIT_BOOT_MAX_STAGES FITs */
	VFIT_WHY_UPDATE_TRIAL,    /* update: the running slot is not confirmed good */
	VFIT_WHY_UPDATE_NO_POSITION, /* update: the new chain verifies at no stage position */
	VFIT_WHY_UPDATE_UNVERIFIED, /* update: the new chain does not verify */
	VFIT_WHY_UPDATE_READBACK, /* update: the written slot does not verify */
	VFIT_WHY_STATE_WRITE,     /* the state blob could not be written */
	VFIT_WHY_WRITE,           /* update: a stage could not be written */
	VFIT_WHY_COUNTER_ADVANCE, /* a counter could not be advanced */
	VFIT_WHY_CHAIN_CHANGED,   /* mark-good: the slot's chain is not the one that booted */
	VFIT_WHY_MEASURE,         /* a measurement (PCR extend, event log) failed */
	/* The TPM trust store (include/vfit/boot_tpm.h): */
	VFIT_WHY_TPM_ABSENT,      /* the platform declares a TPM, none answers */
	VFIT_WHY_TPM_TIMEOUT,     /* the TPM did not answer in time */
	VFIT_WHY_TPM_GARBAGE,     /* the TPM's response is malformed */
	VFIT_WHY_TPM_ERROR,       /* the TPM refused a command (response code) */
	VFIT_WHY_TPM_BANKS,       /* an active PCR bank this build cannot hash (sm3_256) */
	VFIT_WHY_NV_MISSING,      /* the trust-state NV index is not defined */
	VFIT_WHY_NV_ATTRIBUTES,   /* it is defined with other attributes, size or nameAlg */
	VFIT_WHY_NV_CONTENT,      /* it holds no valid trust state */
	VFIT_WHY_NV_WRITE,        /* the trust state could not be written */
	VFIT_WHY_TPM_LOCK,        /* the platform hierarchy could not be disabled */
	/* Encrypted images (include/vfit/cipher.h): */
	VFIT_WHY_CIPHER_KEY,      /* cipher node or its key in the verifying control DTB unusable */
	VFIT_WHY_DECRYPT,         /* ciphertext length does not fit data-size-unciphered */
	VFIT_WHY_CIPHER_COMPRESSED, /* encrypted and compressed: not decrypted (no heap) */
	/* Pre-load signatures (include/vfit/preload.h): */
	VFIT_WHY_PRELOAD,         /* pre-load header or key node refused (what: field, value: result) */
	/* The trust state's second pass (docs/trust-state.md): */
	VFIT_WHY_COUNTER_FULL,    /* mark-good: no room for another counter (name): nothing changed */
	VFIT_WHY_REQUEST_STALE,   /* the OS's request was made at another state (value: its seq) */
	VFIT_WHY_REQUEST_MALFORMED, /* the OS's request index holds no valid request: ignored */
	VFIT_WHY_REQ_MISSING,     /* the OS's request NV index is not defined */
	VFIT_WHY_REQ_ATTRIBUTES,  /* it is defined with other attributes, size or nameAlg */
	VFIT_WHY_TPM_REQUIRED,    /* the ROM requires a TPM the platform does not describe */
	VFIT_WHY_ROM_TPM,         /* the ROM's TPM requirement (/config vfit,tpm) malformed */
};

/*
 * Whether the OS may ask to confirm what s says booted last (a slot, or
 * recovery): returns VFIT_WHY_NONE, VFIT_WHY_NOT_BOOTED (nothing booted
 * yet) or VFIT_WHY_BOOTED_BAD (that slot is marked bad).  The flow's
 * mark-good and the OS's tools ask the same question here.
 */
enum vfit_boot_why vfit_boot_state_confirmable(const struct vfit_boot_state *s);

/* Which chain an event is about. */
enum vfit_boot_chain {
	VFIT_CHAIN_A = 0,         /* equals the slot number */
	VFIT_CHAIN_B = 1,
	VFIT_CHAIN_RECOVERY,
	VFIT_CHAIN_NEW,           /* update: the chain about to be installed */
	VFIT_CHAIN_NONE,
};

/* Key sets a FIT is verified with. */
enum vfit_boot_keys {
	VFIT_KEYS_STAGE = 1,      /* the ROM keys (stage 1), else the previous stage's fdt */
	VFIT_KEYS_USER,           /* the user key store (developer mode) */
	VFIT_KEYS_RECOVERY,       /* key-recovery alone */
};

/* The user key store, as the developer-mode switch found it. */
enum vfit_boot_store {
	VFIT_STORE_ABSENT = 1,
	VFIT_STORE_UNUSABLE,      /* unreadable or malformed: ignored */
	VFIT_STORE_PRESENT,       /* readable, not consulted: the switch is closed */
	VFIT_STORE_EMPTY,         /* switch open, but no keys */
	VFIT_STORE_TRUSTED,       /* switch open: its keys are trusted */
};

enum vfit_boot_event_kind {
	VFIT_EV_STATE = 1,        /* state read: state_check (OK, or why the default is used), io */
	VFIT_EV_DEV_MODE,         /* the switch (flag DEV) and the user key store (store) */
	VFIT_EV_SLOTS,            /* slot order of this boot: state */
	VFIT_EV_TRY,              /* chain: a slot is tried */
	VFIT_EV_STAGE,            /* chain, stage: FIT staged at addr (size bytes), to be verified */
	VFIT_EV_KEYS,             /* keys trusted: keys, origin/name (fdt), ctl */
	VFIT_EV_VERIFY,           /* one verification: keys, v, origin/name; res */
	VFIT_EV_USER_TRY,         /* the built-in keys refused it: the user keys are tried */
	VFIT_EV_USER_OK,          /* accepted through a user key */
	VFIT_EV_ROLLBACK,         /* rollback index `value` >= counter `limit` (flag COUNTER) for name */
	VFIT_EV_ROLLBACK_SKIPPED, /* rollback data of a user-accepted stage ignored */
	VFIT_EV_LOADING,          /* images of the FIT at addr about to be loaded: what */
	VFIT_EV_LOAD,             /* image what/name to addr (other: compression) */
	VFIT_EV_TRIAL,            /* chain on trial: value attempts left after this boot */
	VFIT_EV_MARKED_BAD,       /* chain marked bad; io != OK: the state write failed */
	VFIT_EV_FAIL,             /* why (+ the fields it names): kept for the halt listing */
	VFIT_EV_NO_SLOT,          /* no slot verified: recovery is tried */
	VFIT_EV_START,            /* chain ready: entry addr, fdt addr2 (FDT), ramdisk value (RAMDISK) */
	VFIT_EV_REASONS,          /* why (NOTHING_VERIFIED or UPDATE_NO_POSITION): REASON events follow */
	VFIT_EV_REASON,           /* a recorded FAIL event repeated in such a listing (not recorded) */
	VFIT_EV_COUNTER,          /* counter name advanced from limit to value */
	VFIT_EV_NO_ADVANCE,       /* mark-good: no counter moves, stage accepted through a user key */
	VFIT_EV_CONFIRMED,        /* mark-good: chain confirmed good */
	VFIT_EV_REPAIR,           /* update: no good slot, chain repaired in place */
	VFIT_EV_POSITION,         /* update: value FITs replace stages from `stage` of chain */
	VFIT_EV_WRITING,          /* update: chain being written */
	VFIT_EV_OFFERED,          /* update: chain on trial, value attempts; limit: the fallback chain */
	VFIT_EV_MEASURED,         /* stage: what/name measured into PCR value (other: "key" for a key) */
	VFIT_EV_REQUEST,          /* the OS's request made at state value: confirm chain, install limit */
	VFIT_EV_RETRY,            /* chain marked bad for a failed verification tried again */
};

/* Event flags. */
#define VFIT_EVF_DEV 0x01         /* DEV_MODE: the switch is open */
#define VFIT_EVF_USER_ORIGIN 0x04 /* KEYS/VERIFY: the keys' fdt was accepted through a user key */
#define VFIT_EVF_USER_TRIED 0x08  /* FAIL VERIFY: the user keys were tried too (verdict user) */
#define VFIT_EVF_COUNTER 0x10     /* ROLLBACK: the platform has a counter store */
#define VFIT_EVF_FDT 0x20         /* START: an fdt is handed over */
#define VFIT_EVF_RAMDISK 0x40     /* START: a ramdisk is handed over */

/* One verification's failure (or success), copied out of the verifier result. */
struct vfit_boot_verdict {
	enum vfit_result result;
	uint8_t in_control;       /* node is in the key DTB, not in the FIT */
	uint8_t has_conf;         /* conf names the configuration it was about */
	char node[VFIT_BOOT_PATH_LEN];  /* failing node's path, "" if none */
	char prop[VFIT_BOOT_NAME_LEN];  /* failing property, "" if none */
	char conf[VFIT_BOOT_NAME_LEN];
	char key[VFIT_BOOT_NAME_LEN];   /* required key that verified nothing / key that verified */
};

/*
 * One step of a command.  Which fields mean something depends on kind
 * (listed at enum vfit_boot_event_kind) and, for FAIL, on why:
 *   VERIFY            v (and user with flag USER_TRIED), keys, origin/name as for KEYS
 *   ROLLBACK          name (counter), value (index), limit (counter)
 *   COUNTER_UNREADABLE  name (counter), io
 *   NO_HANDOVER       v.conf
 *   CONTROL_DTB, NO_LOAD  what (image role), name (image)
 *   OUTSIDE_RAM, NO_ROOM  what, [addr, addr + size)
 *   OVERLAP           what [addr, addr + size) overlaps other [addr2, addr2 + size2)
 *   COMPRESSION, DECOMPRESS  what, name, other (compression), value (KiB free)
 *   CIPHER_KEY        what, name, other (the property at fault, "" if none)
 *   DECRYPT, CIPHER_COMPRESSED  what, name
 *   ENTRY_OUTSIDE     value (entry) outside what/name [addr, addr + size)
 *   PLACEMENT_UNSIGNED  v.conf
 *   CHAIN_TOO_LONG    value (VFIT_BOOT_MAX_STAGES)
 * Strings are copies, cut at their buffer's end.
 */
struct vfit_boot_event {
	uint8_t kind;             /* enum vfit_boot_event_kind */
	uint8_t why;              /* enum vfit_boot_why (FAIL, REASON, REASONS) */
	uint8_t chain;            /* enum vfit_boot_chain */
	uint8_t stage;            /* 1..VFIT_BOOT_MAX_STAGES; 0: the chain as a whole */
	uint8_t keys;             /* enum vfit_boot_keys (KEYS, VERIFY) */
	uint8_t store;            /* enum vfit_boot_store (DEV_MODE) */
	uint8_t origin;           /* stage whose fdt brought the keys; 0: the ROM */
	uint8_t flags;            /* VFIT_EVF_* */
	uint8_t state_check;      /* enum vfit_state_check (STATE) */
	enum vfit_io io;          /* STATE, MARKED_BAD; FAIL of a read or a counter */
	struct vfit_boot_state state;  /* STATE, SLOTS */
	uint64_t addr, size, addr2, size2, value, limit;
	char what[VFIT_BOOT_NAME_LEN];   /* image role or range owner: "kernel", "loader" */
	char name[VFIT_BOOT_NAME_LEN];   /* image, counter or (KEYS, VERIFY) origin fdt name */
	char other[VFIT_BOOT_NAME_LEN];  /* the other range's owner, or a compression */
	struct vfit_boot_verdict v;      /* VERIFY: this verification; FAIL VERIFY: stage keys */
	struct vfit_boot_verdict user;   /* FAIL VERIFY with USER_TRIED: the user keys */
	/* Only during the event op (NULL in the report): */
	const struct vfit_verify_result *res;  /* VERIFY: the verifier's full result */
	const void *ctl;                       /* KEYS: the control FDT with the keys */
};

/* Phases timed per stage (when the platform has a clock). */
enum vfit_boot_phase {
	VFIT_BOOT_T_READ = 0,     /* storage -> RAM */
	VFIT_BOOT_T_VERIFY,       /* format, signatures and image hashes */
	VFIT_BOOT_T_LOAD,         /* copy or decompress to load addresses */
	VFIT_BOOT_T_PHASES,
};

/* Optional output: time per stage (index 0..MAX_STAGES-1; recovery last). */
struct vfit_boot_timings {
	uint64_t t[VFIT_BOOT_MAX_STAGES + 1][VFIT_BOOT_T_PHASES];
	uint64_t bytes_verified;  /* FIT bytes verified */
};

/* A loaded image handed to the kernel. */
struct vfit_boot_blob {
	bool present;
	uint64_t addr, size;
};

/*
 * The output of a command.  Set it up with vfit_boot_report_init(); it is
 * cleared (events kept in the caller's array) by every command.
 */
struct vfit_boot_report {
	enum vfit_boot_why why;   /* why the command halted, was refused or failed */
	/* vfit_boot() with KERNEL or RECOVERY: what to start. */
	unsigned int slot;        /* VFIT_BOOT_NONE for recovery */
	unsigned int nstages;
	uint64_t entry;
	struct vfit_boot_blob kernel, fdt, ramdisk;
	/* Every event in order, as far as cap allows (the rest only counted). */
	struct vfit_boot_event *ev;
	unsigned int cap, n, dropped;
	struct vfit_boot_timings *timings;   /* optional (NULL: not measured) */
};

/* The rollback index of a verified stage, and the counter it is checked against. */
struct vfit_boot_counter {
	char name[VFIT_BOOT_COUNTER_NAME];
	uint32_t index;
};

/*
 * Scratch space of a command, owned by the caller and kept out of RAM the
 * flow may load images into (put it in the loader region).  Its contents
 * are private to the flow.
 */
struct vfit_boot_scratch {
	struct vfit_verify_result res;
	struct vfit_boot_state state;
	unsigned int nranges;
	struct { uint64_t addr, size; const char *what; } range[VFIT_BOOT_MAX_RANGES];
	uint64_t fit_next;
	unsigned int nstages, ncounters;
	bool tainted;             /* a stage of the last chain came through a user key */
	/* What each stage of the last chain brought, measured once it verified in full. */
	struct vfit_boot_measure {
		unsigned int nimg;
		struct {
			char prop[VFIT_BOOT_NAME_LEN], name[VFIT_BOOT_NAME_LEN];
			uint8_t sha256[VFIT_BOOT_DIGEST];
			struct vfit_digest_set more;   /* the measure_hashes besides SHA-256 */
		} img[VFIT_MAX_IMAGES];
		char key[VFIT_BOOT_NAME_LEN];       /* the key that verified the configuration */
		uint8_t key_sha256[VFIT_BOOT_DIGEST];
		struct vfit_digest_set key_more;
		char conf[VFIT_BOOT_NAME_LEN];
	} meas[VFIT_BOOT_MAX_STAGES];
	/*
	 * Measured boot: the verifier's crypto backend with each SHA-256 it
	 * takes teed into the other banks' hashes, piece by piece in the same
	 * pass, and what came out of each (boot_measure.c).
	 */
	struct vfit_boot_tee {
		struct vfit_crypto cr;          /* first: the ops find the rest from self */
		struct vfit_boot_tee_state *st; /* writable: the verifier sees cr as const */
	} tee;
	struct vfit_boot_tee_state {
		const struct vfit_crypto *base;
		uint32_t more;                  /* the hashes besides SHA-256 */
		struct vfit_hash_ctx *ctx;      /* the SHA-256 being teed, or NULL */
		struct vfit_hash_set set;
		unsigned int n;
		struct {
			uint8_t sha256[VFIT_BOOT_DIGEST];
			struct vfit_digest_set more;
		} seen[VFIT_MAX_IMAGES + 4];
	} tee_state;
	/* What decides what each stage runs (boot_record.c), and the chain's digest of them. */
	uint8_t stage_digest[VFIT_BOOT_MAX_STAGES][VFIT_BOOT_DIGEST];
	uint8_t chain[VFIT_BOOT_DIGEST];   /* digest of the last chain walked in full */
	struct vfit_boot_counter counter[VFIT_BOOT_MAX_STAGES];
	/* Key DTBs, 8-byte aligned for libfdt. */
	uint64_t rom[VFIT_BOOT_DTB_MAX / 8], user[VFIT_BOOT_DTB_MAX / 8];
	uint64_t view_rom[VFIT_BOOT_VIEW_MAX / 8], view_user[VFIT_BOOT_VIEW_MAX / 8];
	uint64_t view_rec[VFIT_BOOT_VIEW_MAX / 8], next[VFIT_BOOT_VIEW_MAX / 8];
};

/* ---- commands ---------------------------------------------------------------- */

/* Prepares r to record up to cap events in ev[] (ev may be NULL with cap 0). */
void vfit_boot_report_init(struct vfit_boot_report *r, struct vfit_boot_event *ev,
			   unsigned int cap);

/* Stamped with the ABI knobs (vfit/config.h): struct vfit_boot_scratch follows them. */
#define vfit_boot VFIT_ABI(vfit_boot)
#define vfit_boot_mark_good VFIT_ABI(vfit_boot_mark_good)
#define vfit_boot_update VFIT_ABI(vfit_boot_update)
#define vfit_boot_apply_request VFIT_ABI(vfit_boot_apply_request)
#define vfit_boot_recover VFIT_ABI(vfit_boot_recover)

/*
 * One power-on: selects a slot, verifies its chain stage by stage, loads
 * the final stage's images, and says what to start in *report.  Returns
 * VFIT_BOOT_KERNEL (start report's kernel), VFIT_BOOT_RECOVERY (start the
 * recovery FIT's), VFIT_BOOT_HALT (nothing verified) or VFIT_BOOT_FAILED
 * (the platform failed); report->why says why it did not boot a slot.
 */
VFIT_MUST_CHECK
enum vfit_boot_outcome vfit_boot(const struct vfit_boot_ops *ops,
				 const struct vfit_boot_layout *layout,
				 struct vfit_boot_scratch *scratch, struct vfit_boot_report *report);

/*
 * Recovery alone, as vfit_boot() tries it once no slot verified: the
 * recovery FIT (read(VFIT_BOOT_OBJ_RECOVERY) -- a port may fetch it from
 * elsewhere, such as the network), verified with the ROM's key-recovery
 * alone, its rollback index against the counters, recorded as the chain
 * booted, measured and started.
 * Returns VFIT_BOOT_RECOVERY, VFIT_BOOT_HALT or VFIT_BOOT_FAILED.
 */
VFIT_MUST_CHECK
enum vfit_boot_outcome vfit_boot_recover(const struct vfit_boot_ops *ops,
					 const struct vfit_boot_layout *layout,
					 struct vfit_boot_scratch *scratch,
					 struct vfit_boot_report *report);

/*
 * The OS confirms the chain it booted (a slot, or recovery): ends a slot's
 * trial and advances the rollback counters to the indexes of its
 * (re-verified) chain -- unless a stage of it was accepted through a user
 * key (then no counter moves).  Counters move before the state, and a
 * counter that cannot be stored refuses (COUNTER_FULL) before anything
 * changed.  Returns VFIT_BOOT_DONE, VFIT_BOOT_REFUSED (report->why says
 * why) or VFIT_BOOT_ERROR (a state or counter op failed).
 */
VFIT_MUST_CHECK
enum vfit_boot_result vfit_boot_mark_good(const struct vfit_boot_ops *ops,
					  const struct vfit_boot_layout *layout,
					  struct vfit_boot_scratch *scratch,
					  struct vfit_boot_report *report);

/*
 * Field update: fit[0..n) replace consecutive chain stages of the running
 * slot, starting at the first stage whose keys verify fit[0].  The
 * complete new chain is verified with the keys the device trusts now,
 * written to the other slot, read back and verified again, and only then
 * set to be tried next.  Returns VFIT_BOOT_DONE once it will be tried,
 * VFIT_BOOT_REFUSED (report->why says why) or VFIT_BOOT_ERROR (a write
 * failed).
 */
VFIT_MUST_CHECK
enum vfit_boot_result vfit_boot_update(const struct vfit_boot_ops *ops,
				       const struct vfit_boot_layout *layout,
				       struct vfit_boot_scratch *scratch,
				       struct vfit_boot_report *report, const void *const fit[],
				       const size_t len[], unsigned int n);

/*
 * What the OS asked for since the last power-on, read by the port from
 * where only a running OS writes (with a TPM: its request NV index,
 * include/vfit/boot_tpm.h), and so hostile input: every field is checked
 * against the state before it is acted on.
 */
struct vfit_boot_request {
	uint32_t seq;             /* the state's sequence number the OS read */
	uint8_t confirm;          /* chain to confirm: slot 0/1, VFIT_CHAIN_RECOVERY, VFIT_BOOT_NONE */
	uint8_t install;          /* slot the OS installed an update into, or VFIT_BOOT_NONE */
};

/*
 * Acts on the OS's request at power-on, before vfit_boot(), as one
 * change of the state: only while the state is still at rq->seq
 * (REQUEST_STALE otherwise), the confirmation as vfit_boot_mark_good()
 * does it (only the chain that booted last), then the installed slot
 * offered for VFIT_BOOT_TRIES attempts, whatever state the other slot is
 * in (recovery's update brings a device without a good slot back).
 * Returns VFIT_BOOT_DONE, VFIT_BOOT_REFUSED (report->why; nothing changed)
 * or VFIT_BOOT_ERROR (the store failed).
 */
VFIT_MUST_CHECK
enum vfit_boot_result vfit_boot_apply_request(const struct vfit_boot_ops *ops,
					      const struct vfit_boot_layout *layout,
					      struct vfit_boot_scratch *scratch,
					      struct vfit_boot_report *report,
					      const struct vfit_boot_request *rq);

/* ---- names and the console ------------------------------------------------- */

/*
 * Names for logs: each returns the name of its enum's value, and
 * "unknown ..." for a value past the list (never NULL).
 */
const char *vfit_boot_outcome_to_string(enum vfit_boot_outcome o);   /* returns "kernel", ... */
const char *vfit_boot_result_to_string(enum vfit_boot_result r);     /* returns "done", ... */
const char *vfit_boot_why_to_string(enum vfit_boot_why w);           /* returns "marked bad", ... */
const char *vfit_io_to_string(enum vfit_io io);                      /* returns "absent", ... */
const char *vfit_state_check_to_string(enum vfit_state_check c);     /* returns "bad magic", ... */
const char *vfit_boot_event_kind_to_string(enum vfit_boot_event_kind k); /* returns "verify", ... */
const char *vfit_boot_chain_to_string(enum vfit_boot_chain c);       /* returns "slot A", ... */
const char *vfit_boot_keys_to_string(enum vfit_boot_keys k);         /* returns "user keys", ... */
const char *vfit_boot_store_to_string(enum vfit_boot_store s);       /* returns "trusted", ... */
const char *vfit_boot_obj_to_string(enum vfit_boot_obj o);           /* returns "stage", ... */
const char *vfit_boot_phase_to_string(enum vfit_boot_phase p);       /* returns "verify", ... */
/* Returns "good", "trying", "bad" (or "unknown"). */
const char *vfit_boot_slot_status_name(unsigned int status);

/*
 * The U-Boot-like console text of one event: calls print once per line
 * (no newline; none for events that print nothing).  Optional: a port
 * that prints nothing does not link it.
 */
typedef void vfit_boot_print_fn(void *ctx, const char *line);
void vfit_boot_format_event(const struct vfit_boot_event *ev, vfit_boot_print_fn *print,
			    void *ctx);

#endif
