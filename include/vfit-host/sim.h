/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Host simulator of a device for the boot flow (host/boot_sim.c): the
 * platform ops of include/vfit/boot.h over a device directory.
 *
 *   DIR/rom.dtb              read-only ROM control DTB (root keys, key-recovery)
 *   DIR/slot-a/stageN.fit    slot A chain, N = 1 (verified with ROM keys) .. 4
 *   DIR/slot-b/stageN.fit    slot B chain
 *   DIR/recovery.fit         recovery FIT (verified with key-recovery only)
 *   DIR/sdcard/keys.dtb      user key store (optional)
 *   DIR/dev-mode             developer-mode switch: open when it reads "open"
 *   DIR/state                boot state blob (written by the flow)
 *   DIR/counters             rollback counter file store (vfit_ctr_file_*)
 *   DIR/tpm-auth             authValue of the TPM counters (with --tpm)
 *
 * Test hook: VFIT_BOOT_CRASH_AFTER=N makes the process _exit(99) right
 * after its N-th durable step (a temporary file written and fsync'd, a
 * rename made durable, a removal, a counter advanced): a power cut.
 */
#ifndef VFIT_BOOT_SIM_H
#define VFIT_BOOT_SIM_H

#include "vfit/boot.h"
#include "vfit-host/counters.h"

/* Simulated RAM map (bus addresses). */
#define VFIT_SIM_RAM_BASE 0x80000000u
#define VFIT_SIM_RAM_SIZE 0x10000000u     /* 256 MiB */
#define VFIT_SIM_FIT_ADDR 0x88000000u     /* FIT staging area, 126 MiB */
#define VFIT_SIM_FIT_SIZE 0x07e00000u
#define VFIT_SIM_LOADER_ADDR 0x8fe00000u  /* loader region: the top 2 MiB */
#define VFIT_SIM_LOADER_SIZE 0x00200000u

struct vfit_boot_sim {
	char dir[3840];                /* device directory, kept shorter than PATH_MAX */
	struct vfit_boot_ops ops;
	struct vfit_ctr_store *ctr;    /* NULL: no counter store */
	int crash_after;               /* 0: never */
	int steps;                     /* durable steps done */
	int ctr_error;                 /* a counter op failed (message printed) */
};

/*
 * Opens the device at dir: maps the RAM, and opens the counter store --
 * the TPM through tcti when given, else DIR/counters.  With prefault the
 * RAM is populated at once, so timings measure the flow rather than the
 * host's first-touch page faults (a device's RAM has none); it costs
 * 256 MiB of memory.  Returns 0, or -1 with e set.
 */
int vfit_boot_sim_open(struct vfit_boot_sim *s, const char *dir, const char *tcti,
		       bool prefault, struct vfit_err *e);
void vfit_boot_sim_close(struct vfit_boot_sim *s);

/* Atomic file replace (temp, fsync, rename, fsync dir), counted as durable steps. */
int vfit_boot_sim_write_file(struct vfit_boot_sim *s, const char *path, const void *buf,
			     size_t len);
/* Path of a storage object inside the device directory. */
void vfit_boot_sim_path(const struct vfit_boot_sim *s, char *out, size_t cap,
			enum vfit_boot_obj obj, unsigned int slot, unsigned int stage);

#endif
