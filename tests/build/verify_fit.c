/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * verify_fit FIT CTL: prints vfit_verify()'s result code, as a firmware
 * would call it.  Built against the library with whatever knobs a test
 * gives it (cli/verify_minimal.sh, build/cross.sh).
 */
#include <stdio.h>
#include <stdlib.h>

#include "vfit/fit.h"

/* The whole file (up to 1 MiB) in a malloc'd buffer: 8-byte aligned, as libfdt wants. */
static void *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	void *b = malloc(1 << 20);

	if (!f || !b)
		exit(2);
	*n = fread(b, 1, 1 << 20, f);
	fclose(f);
	return b;
}

int main(int argc, char **argv)
{
	static struct vfit_verify_result res;
	size_t fl, cl;
	void *fit, *ctl;

	if (argc != 3)
		return 2;
	fit = slurp(argv[1], &fl);
	ctl = slurp(argv[2], &cl);
	printf("%d\n", vfit_verify(fit, fl, ctl, cl, NULL, 0, &res));
	return 0;
}
