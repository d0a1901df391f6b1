/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Host simulator of a device for the boot flow (host/boot/boot_sim.c): the
 * platform ops of include/vfit/boot.h over a device directory.
 *
 *   DIR/rom.dtb              read-only ROM control DTB (root keys, key-recovery)
 *   DIR/slot-a/stageN.fit    slot A chain, N = 1 (verified with ROM keys) .. 4
 *   DIR/slot-b/stageN.fit    slot B chain
 *   DIR/recovery.fit         recovery FIT (verified with key-recovery only)
 *   DIR/sdcard/keys.dtb      user key store (optional)
 *   DIR/dev-mode             developer-mode switch: open when it reads "open"
 *   DIR/ram                  RAM regions, one "BASE:SIZE" a line (optional:
 *                            default one region VFIT_SIM_RAM_BASE:VFIT_SIM_RAM_SIZE)
 *   DIR/state                boot state blob (written by the flow)
 *   DIR/counters             rollback counter file store (vfit_ctr_file_*)
 *
 * Test hook: VFIT_BOOT_CRASH_AFTER=N makes the process _exit(99) right
 * after its N-th durable step (a temporary file written and fsync'd, a
 * rename made durable, a removal, a counter advanced): a power cut.
 */
#ifndef VFIT_BOOT_SIM_H
#define VFIT_BOOT_SIM_H

#include "vfit/boot.h"
#include "vfit-host/counters.h"

/* Default RAM (bus addresses), as a device directory without DIR/ram has it. */
#define VFIT_SIM_RAM_BASE 0x80000000u
#define VFIT_SIM_RAM_SIZE 0x10000000u     /* 256 MiB */
/*
 * The layout is derived from the last region: its top 2 MiB are the
 * loader region, the rest of its upper half the FIT staging area (the
 * default: staging 0x88000000, 126 MiB; loader 0x8fe00000).  A region is
 * 8 MiB to 2 GiB, a multiple of 4 MiB, at a 4 KiB-aligned base.
 */
#define VFIT_SIM_LOADER_SIZE 0x00200000u
#define VFIT_SIM_RAM_MIN 0x00800000u
#define VFIT_SIM_RAM_MAX 0x80000000u

struct vfit_boot_sim {
	char dir[3840];                /* device directory, kept shorter than PATH_MAX */
	struct vfit_boot_ops ops;
	struct vfit_boot_region ram[VFIT_BOOT_MAX_RAM];
	struct vfit_boot_layout layout;
	struct vfit_ctr_store *ctr;    /* NULL: no counter store */
	int crash_after;               /* 0: never */
	int steps;                     /* durable steps done */
	int ctr_error;                 /* a counter op failed (message printed) */
	/* --trust: state, counters and measurements in a TPM's NV trust state, as the stage has them. */
	struct vfit_sim_trust *trust;
};

/*
 * Opens the device at dir: maps the RAM regions, and opens the counter
 * store DIR/counters.  With prefault the RAM is populated at once, so
 * timings measure the flow rather than the host's first-touch page faults
 * (a device's RAM has none); it costs the whole simulated RAM in memory.
 * Events are printed on stdout with vfit_boot_format_event().  Returns 0,
 * or -1 with e set.
 */
int vfit_boot_sim_open(struct vfit_boot_sim *s, const char *dir, bool prefault,
		       struct vfit_err *e);
void vfit_boot_sim_close(struct vfit_boot_sim *s);

/* Who talks to the TPM in a --trust command. */
enum vfit_sim_role {
	VFIT_SIM_POWER_ON,             /* the stage at a power-on: the OS's request served */
	VFIT_SIM_FACTORY,              /* the factory: both NV indices defined, nothing else */
	VFIT_SIM_OS,                   /* the running OS: reads, asks through the request index */
};

/*
 * vfit_boot_sim_open() with the stage's TPM trust state
 * (include/vfit/boot_tpm.h, docs/trust-state.md) instead of DIR/state and
 * the counter store: swtpm's UNIX sockets
 * sockdir/data and sockdir/ctrl (swtpm socket --server type=unixio,path=D/data
 * --ctrl type=unixio,path=D/ctrl --flags not-need-init).  POWER_ON: the
 * TPM is power-cycled, started and its NV indices checked as the stage
 * checks them, and the OS's pending request acted on; FACTORY: the
 * indices defined instead; OS: no power cycle, the trust state read with
 * the index's own (empty) password, state writes going to DIR/state (the
 * disk's copy the OS keeps), no counter moved.  A DIR/rom.dtb must
 * require the TPM (/config vfit,tpm), as a ROM without that property
 * trusts none.  0, or -1 with e set (status 1: the TPM cannot be trusted,
 * named); vfit_boot_sim_close() in every case.
 */
int vfit_boot_sim_trust(struct vfit_boot_sim *s, const char *dir, const char *sockdir,
			enum vfit_sim_role role, bool prefault, struct vfit_err *e);
/*
 * The OS asks (role OS): to confirm the chain that booted last, or to try
 * the slot it installed an update into.  0, or -1 with e set.
 */
int vfit_boot_sim_ask_confirm(struct vfit_boot_sim *s, struct vfit_err *e);
int vfit_boot_sim_ask_install(struct vfit_boot_sim *s, unsigned int slot, struct vfit_err *e);
/* What the stage does last before the OS: platform authorization given up.  0 or -1. */
int vfit_boot_sim_trust_lock(struct vfit_boot_sim *s, struct vfit_err *e);

/*
 * Parses "BASE:SIZE" (C integer syntax, e.g. 0x40000000:0x40000000) into
 * ram[*n] after checking it against the limits above and the regions
 * already in ram[0..*n); increments *n.  0, or -1 with e set.
 */
int vfit_boot_sim_ram_add(struct vfit_boot_region ram[VFIT_BOOT_MAX_RAM], unsigned int *n,
			  const char *spec, struct vfit_err *e);
/* The layout the simulator derives from ram[0..n) (see above). */
void vfit_boot_sim_layout(const struct vfit_boot_region *ram, unsigned int n,
			  struct vfit_boot_layout *l);
/* Host pointer of the simulated RAM range [addr, addr+size), NULL if it is not RAM. */
const uint8_t *vfit_boot_sim_ram(const struct vfit_boot_sim *s, uint64_t addr, uint64_t size);

/* Atomic file replace (temp, fsync, rename, fsync dir), counted as durable steps. */
int vfit_boot_sim_write_file(struct vfit_boot_sim *s, const char *path, const void *buf,
			     size_t len);
/* Path of a storage object inside the device directory. */
void vfit_boot_sim_path(const struct vfit_boot_sim *s, char *out, size_t cap,
			enum vfit_boot_obj obj, unsigned int slot, unsigned int stage);

#endif
