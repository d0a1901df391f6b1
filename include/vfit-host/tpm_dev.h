/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/tpm's transport for a running OS (host/disk/tpm_dev.c): a Linux TPM
 * character device (/dev/tpm0, /dev/tpmrm0), or, for tests, a directory
 * holding swtpm's data socket as `data` (swtpm socket --server
 * type=unixio,path=DIR/data).  What `vfit disk` uses to ask the device
 * through the TPM (docs/trust-state.md).
 */
#ifndef VFIT_HOST_TPM_DEV_H
#define VFIT_HOST_TPM_DEV_H

#include "vfit/tpm.h"
#include "vfit-host/err.h"

struct vfit_tpm_dev {
	int fd;
};

/* Opens path; 0, or -1 with e set ("PATH: ..."). */
int vfit_tpm_dev_open(struct vfit_tpm_dev *d, const char *path, struct vfit_err *e);
void vfit_tpm_dev_transport(struct vfit_tpm_dev *d, struct vfit_tpm_transport *tr);
void vfit_tpm_dev_close(struct vfit_tpm_dev *d);

#endif
