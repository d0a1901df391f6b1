/* SPDX-License-Identifier: BSD-3-Clause */
/* Host errors and exit statuses (host/core/err.c): every libvfit-host call reports through them. */
#ifndef VFIT_HOST_ERR_H
#define VFIT_HOST_ERR_H

/*
 * Host errors carry the exit status the CLI contract asks for
 * (1: bad input / verification failure, 2: usage or I/O) and one line of
 * text that names the file, node and property.
 */
struct vfit_err {
	int status;
	char msg[512];
};

/* Sets e (first error wins) and returns -1, so callers can `return vfit_err_set(...)`. */
int vfit_err_set(struct vfit_err *e, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define VFIT_EXIT_REJECT 1
#define VFIT_EXIT_USAGE 2

/*
 * Prints e as the one error line "vfit: [CMD: ]MESSAGE" on stderr and
 * returns its exit status: VFIT_EXIT_USAGE if nothing set one, so a
 * failure can never exit 0.
 */
int vfit_err_print(const struct vfit_err *e, const char *cmd);

#endif
