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

#include "vfit/boot_tpm.h"
#include "vfit-host/tpm_sock.h"
#include "vfit-host/err.h"

/*
 * Opens path as the transport s (vfit-host/tpm_sock.h: vfit_tpm_sock_transport,
 * vfit_tpm_sock_close): a character device, or a directory with swtpm's
 * socket `data`.  Returns 0, or -1 with e set ("PATH: ...", status 2).
 */
int vfit_tpm_dev_open(struct vfit_tpm_sock *s, const char *path, struct vfit_err *e);

/*
 * Why the trust state cannot be used (w, and what t noted: the command, the
 * layer's result, the TPM's code), as `vfit disk` and `vfit boot --trust`
 * say it: "[PREFIX: ]TPM: <why> (<command>: <result> <code>)".  Status 2 when
 * the TPM was not reached (transport, timeout: an I/O error), else 1.
 * Returns -1 (vfit_err_set()).
 */
int vfit_trust_err(struct vfit_err *e, const char *prefix, const struct vfit_trust *t,
		   enum vfit_boot_why w);

#endif
