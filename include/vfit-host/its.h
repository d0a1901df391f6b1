/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FIT's source (host/its/): an .its compiled as mkimage does, dtc run
 * without a shell, or the FIT `mkimage -f auto` generates.
 */
#ifndef VFIT_HOST_ITS_H
#define VFIT_HOST_ITS_H

#include "vfit-host/err.h"
#include "vfit-host/fdtbuf.h"

struct vfit_mkimage;

/*
 * The .its compiled as mkimage does (host/its/its.c), dtc run without a
 * shell.  With defer, /incbin/ image payloads of VFIT_PAYLOAD_MIN or more
 * stay in their files (out->pl); without, every byte is in out->buf.
 */
int vfit_its_compile(const char *its, const char *dtc_opts, int defer, struct vfit_fdtbuf *out,
		     struct vfit_err *e);
/* The FIT `mkimage -f auto` / `-f auto-conf` generates (host/its/fit_auto.c). */
int vfit_its_auto(const struct vfit_mkimage *m, struct vfit_fdtbuf *out, struct vfit_err *e);

#endif
