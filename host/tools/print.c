/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The two value formats every listing shares (mkimage -l, dumpimage,
 * vfit info): a time as ctime() prints it and a size in three units.
 * They live apart from list.c so that legacy.c, which list.c calls, does
 * not call back into list.c.
 */
#include <stdio.h>
#include <time.h>

#include "tools_int.h"

void vfit_print_time(FILE *f, const char *label, uint32_t t)
{
	time_t tt = (time_t)t;
	char buf[64];
	struct tm tm;

	if (!localtime_r(&tt, &tm) || !strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", &tm))
		snprintf(buf, sizeof(buf), "%u", t);
	fprintf(f, "%s%s\n", label, buf);
}

void vfit_print_size(FILE *f, uint32_t size)
{
	fprintf(f, "%u Bytes = %.2f KiB = %.2f MiB\n", size, (double)size / 1.024e3,
		(double)size / 1.048576e6);
}
