/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `vfit disk`: host side of the vfit boot disk (format: vfit/disk.h).
 * Every command checks all its input first and replaces the image
 * atomically (a sparse copy, changed, renamed over), so a failed command
 * leaves the disk as it was.
 */
#ifndef VFIT_HOST_DISK_H
#define VFIT_HOST_DISK_H

#include <stdint.h>
#include <stdio.h>

#include "vfit-host/err.h"

/* New disk: GPT with vfit-a, vfit-b (slot_bytes each), vfit-recovery, vfit-state, vfit-counters. */
int vfit_disk_create(const char *path, uint64_t slot_bytes, uint64_t recovery_bytes,
		     struct vfit_err *e);

/* Replaces chain ("a", "b" or "recovery") with the FIT files fits[0..n) (n 0: empties it). */
int vfit_disk_write(const char *path, const char *chain, char *const fits[], unsigned int n,
		    struct vfit_err *e);

/* Sets rollback counter name to value (any value: this is the factory's tool). */
int vfit_disk_counter(const char *path, const char *name, uint64_t value, struct vfit_err *e);

/*
 * Field update as the OS does it: vfit_boot_update() over the disk, with
 * the ROM control DTB rom (the keys the device trusts) and the FIT files
 * fits[0..n) (1..VFIT_BOOT_MAX_STAGES).  Prints the flow's console text;
 * the disk changes only when the update is done (exit 1: refused).  tpm
 * (NULL: none): a TPM device or swtpm socket directory (vfit-host/tpm_dev.h)
 * whose trust state and counters the update is checked against, and
 * through whose request index the device is then asked to try the slot.
 */
int vfit_disk_update(const char *path, const char *rom, const char *tpm, char *const fits[],
		     unsigned int n, struct vfit_err *e);

/*
 * The OS confirms the chain that booted last (a slot, or recovery): writes
 * the confirmation request the device honours at its next boot
 * (vfit/disk.h), or with tpm asks through the TPM's request index.
 */
int vfit_disk_mark_good(const char *path, const char *tpm, struct vfit_err *e);

/* Lists partitions, chains, state and counters; fails (1) on any corrupt structure. */
int vfit_disk_info(FILE *f, const char *path, struct vfit_err *e);

#endif
