/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A transport of lib/tpm (include/vfit/tpm.h) to swtpm over its UNIX
 * sockets: the data channel carries raw TPM 2.0 commands and responses,
 * the control channel powers the TPM (CMD_INIT, as QEMU does at reset).
 * The same transport drives a TPM character device (/dev/tpm0), opened by
 * vfit_tpm_dev_open (vfit-host/tpm_dev.h).
 * Start swtpm with
 *   swtpm socket --tpm2 --server type=unixio,path=DATA --ctrl type=unixio,path=CTRL \
 *         --flags not-need-init --tpmstate dir=STATE
 * and send TPM2_Startup(CLEAR) yourself (vfit_tpm_startup_clear).
 */
#ifndef VFIT_HOST_TPM_SOCK_H
#define VFIT_HOST_TPM_SOCK_H

#include <stdbool.h>

#include "vfit/tpm.h"

struct vfit_tpm_sock {
	int data_fd;
	bool device;                    /* data_fd is a TPM character device */
	char data_path[108];            /* sun_path's size */
	char ctrl_path[108];            /* "" when there is no control channel */
	unsigned timeout_ms;            /* per response; 0 means 10 s */
};

/* Connects to the data channel; ctrl_path may be NULL.  0, or -1 with errno. */
int vfit_tpm_sock_open(struct vfit_tpm_sock *s, const char *data_path, const char *ctrl_path);
/*
 * The transport for vfit_tpm_init: xfer over the data channel.  A failed
 * exchange (closed socket, timeout, a response larger than the buffer)
 * closes the channel: every later one is VFIT_TPM_ERR_TRANSPORT.
 */
void vfit_tpm_sock_transport(struct vfit_tpm_sock *s, struct vfit_tpm_transport *tr);
/*
 * A power cycle through the control channel (CMD_INIT): the TPM loses its
 * volatile state (PCRs, hierarchy enables, STCLEAR locks) and needs a
 * TPM2_Startup again.  0, or -1.
 */
int vfit_tpm_sock_power_cycle(struct vfit_tpm_sock *s);
void vfit_tpm_sock_close(struct vfit_tpm_sock *s);

#endif
