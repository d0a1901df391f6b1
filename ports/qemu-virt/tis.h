/* SPDX-License-Identifier: BSD-3-Clause */
/* The TPM's TIS MMIO interface, locality 0 (tis.c): lib/tpm's transport on QEMU virt. */
#ifndef PORT_TIS_H
#define PORT_TIS_H

#include <stdint.h>

#include "vfit/tpm.h"

struct tis {
	uintptr_t base;
	int node;                 /* the TPM node in the DTB it was found in */
};

enum tis_find {
	TIS_NONE = 0,             /* the DTB declares no TPM */
	TIS_FOUND,
	TIS_BAD_NODE,             /* a TPM node whose reg cannot be used */
};

/* The TPM the DTB declares (compatible "tcg,tpm-tis-mmio"). */
enum tis_find tis_find(const void *fdt, struct tis *t);
/* Claims locality 0: OK, NO_TPM (nothing answers at base) or TIMEOUT. */
enum vfit_tpm_result tis_open(struct tis *t);
void tis_transport(struct tis *t, struct vfit_tpm_transport *tr);

#endif
