/* SPDX-License-Identifier: BSD-3-Clause */
/* The stage's TPM (tpm.c): trust state, the OS's requests, measured handover. */
#ifndef PORT_TPM_H
#define PORT_TPM_H

#include <stdbool.h>

/*
 * Opens the TPM QEMU's DTB declares and its trust state (stage_trust);
 * false when the DTB declares none (disk mode, said on the console).
 * Halts, naming the reason, when a declared TPM cannot be trusted.
 */
bool stage_tpm_open(const void *qemu_dtb);
/* Applies the update the OS installed (a trial offer on the disk), if any. */
void stage_tpm_offer(void);
/* Copies the TPM's state blob to the disk's state partition, for the OS. */
void stage_tpm_mirror(void);
/*
 * Measures into PCR 1 QEMU's DTB (unless the FIT brought the fdt, which the
 * flow measured) and the command line, announces the event log in dtb
 * (opened for changes): linux,sml-base/size and /reserved-memory.  NULL
 * or why not; halts when a measurement fails.
 */
const char *stage_tpm_handover(void *dtb, bool fit_fdt, const char *bootargs);
/* Disables the platform hierarchy; halts when that fails.  Last step before Linux. */
void stage_tpm_lock(void);

#endif
