/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdio.h>

#include "vfit-host/err.h"

int vfit_err_set(struct vfit_err *e, int status, const char *fmt, ...)
{
	va_list ap;

	if (!e || e->status)
		return -1;
	e->status = status;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int vfit_err_print(const struct vfit_err *e, const char *cmd)
{
	if (cmd)
		fprintf(stderr, "vfit: %s: %s\n", cmd, e->msg);
	else
		fprintf(stderr, "vfit: %s\n", e->msg);
	return e->status ? e->status : VFIT_EXIT_USAGE;
}
