/* SPDX-License-Identifier: BSD-3-Clause */
/* vfit verify's read of a FIT (host/verify/fit_sparse.c): the big payloads left in the file. */
#ifndef VFIT_HOST_VERIFY_H
#define VFIT_HOST_VERIFY_H

#include <stddef.h>

#include "vfit/vfit.h"
#include "vfit-host/err.h"

/*
 * A FIT read for vfit_verify() with its big payloads (embedded `data` of
 * 1 MiB or more, external data) left in the file: *p and *len are the
 * file as one buffer whose payload pages are not readable;
 * vfit_sparse_verify() verifies it, hashing those bytes straight from the
 * file -- a second error (status 2) if the file changed meanwhile.  Same
 * contract as vfit_file_map() otherwise.
 */
struct vfit_sparse;
int vfit_sparse_open(const char *path, struct vfit_sparse **s, const void **p, size_t *len,
		     struct vfit_err *e);
int vfit_sparse_verify(struct vfit_sparse *s, const void *ctl, size_t ctl_len, const char *conf,
		       unsigned int flags, struct vfit_verify_result *res, struct vfit_err *e);
void vfit_sparse_close(struct vfit_sparse *s);

#endif
