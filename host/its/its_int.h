/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the files of host/its/ only: the dtc command line, the /incbin/ bypass. */
#ifndef VFIT_ITS_INT_H
#define VFIT_ITS_INT_H

#include "vfit-host/err.h"
#include "vfit-host/fdtbuf.h"

/* Room left after a compiled FIT for hash values and signatures. */
#define VFIT_FIT_SLACK (64 * 1024)

/* A dtc command line: "dtc", [-i dir], the -D words, "-o", "-", source. */
struct vfit_dtc_cmd {
	char **argv;
	char *words;     /* storage for the split -D words */
	int depfile;     /* -D asks dtc for a dependency file (-d) */
};
int vfit_dtc_cmd_make(struct vfit_dtc_cmd *c, const char *opts, const char *incdir,
		      const char *src, struct vfit_err *e);
void vfit_dtc_cmd_free(struct vfit_dtc_cmd *c);
/* Runs dtc; the blob comes back on a pipe.  With errfd >= 0, dtc's stderr goes there. */
int vfit_dtc_run(const char *what, const struct vfit_dtc_cmd *c, int errfd, char **data,
		 size_t *len, struct vfit_err *e);
/*
 * The /incbin/ bypass for large payloads (host/its/incbin.c): 0 compiled
 * into out, 1 not applicable (compile the source as is), -1 error.
 */
int vfit_incbin_compile(const char *its, const char *src, size_t len, const char *dtc_opts,
			int defer, struct vfit_fdtbuf *out, struct vfit_err *e);

#endif
