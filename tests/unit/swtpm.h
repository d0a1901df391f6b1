/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A private swtpm for a test: state in DIR/NAME, data and control channels
 * on UNIX sockets DIR/NAME.data and DIR/NAME.ctrl, output in DIR/NAME.log,
 * TPM2_Startup left to the test (--flags not-need-init).  swtpm dies with
 * the test (PR_SET_PDEATHSIG) and is waited for when ready, not slept for.
 */
#ifndef VFIT_TEST_SWTPM_H
#define VFIT_TEST_SWTPM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "vfit-host/tpm_sock.h"

struct swtpm {
	pid_t pid;              /* -1 when not running */
};

/*
 * Starts swtpm and connects s to it.  banks: NULL for libtpms' defaults
 * (sha1, sha256, sha384, sha512 on swtpm 0.7), else swtpm_setup's
 * --pcr-banks list (e.g. "sha256") provisioned first.  Returns 0, -1, or
 * 127 when swtpm or swtpm_setup is not installed (a `tool` skip).
 */
int swtpm_spawn(struct swtpm *w, const char *dir, const char *name, const char *banks,
		struct vfit_tpm_sock *s);
/* SIGTERM and wait; nothing when not running. */
void swtpm_end(struct swtpm *w);

/*
 * A test's start-up: a fresh directory "$TMPDIR/PREFIX-XXXXXX" (/tmp without TMPDIR) into dir
 * (size bytes), removed with w's swtpm stopped at exit, and swtpm_spawn()
 * there.  Returns true when swtpm runs; false when the test cannot go on,
 * with a `tool` skip counted (swtpm not installed) or a failure.  Once
 * per program.
 */
bool swtpm_start(struct swtpm *w, char *dir, size_t size, const char *prefix, const char *name,
		 const char *banks, struct vfit_tpm_sock *s);

#endif
