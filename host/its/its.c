/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An .its compiled as mkimage compiles it: large /incbin/ payloads through
 * the bypass that skips dtc for them (host/its/incbin.c), and any source the
 * bypass cannot vouch for by dtc on the source as is (host/its/dtc.c).  Kept
 * apart from both so that the bypass uses dtc.c and this file uses the
 * two, with no file calling back into one that calls it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vfit-host/io.h"
#include "vfit-host/its.h"
#include "its_int.h"

/*
 * Copies dtc's diagnostics to stderr; 1 if dtc could not open a file the
 * source names, whose name and reason ("NAME": REASON) go to what.
 */
static int forward_stderr(FILE *errf, char *what, size_t size)
{
	char line[1024], *p;
	int missing = 0;

	rewind(errf);
	while (fgets(line, sizeof(line), errf)) {
		fputs(line, stderr);
		p = strstr(line, "Couldn't open \"");
		if (p && !missing) {
			missing = 1;
			snprintf(what, size, "%.*s", (int)strcspn(p + 14, "\n"), p + 14);
		}
	}
	return missing;
}

int vfit_its_compile(const char *its, const char *dtc_opts, int defer, struct vfit_fdtbuf *out,
		     struct vfit_err *e)
{
	struct vfit_err dtc_e = { 0 };
	struct vfit_dtc_cmd cmd = { 0 };
	FILE *errf;
	char *src, *data;
	size_t len;
	char what[512];
	int r, missing;

	if (vfit_file_read(its, 0, &src, &len, e))
		return -1;
	r = memchr(src, 0, len) ? 1 : vfit_incbin_compile(its, src, len, dtc_opts, defer, out, e);
	free(src);
	if (r <= 0)
		return r;
	errf = tmpfile();
	if (!errf)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: tmpfile: %s", its, strerror(errno));
	if (vfit_dtc_cmd_make(&cmd, dtc_opts, NULL, its, e)) {
		fclose(errf);
		return -1;
	}
	r = vfit_dtc_run(its, &cmd, fileno(errf), &data, &len, &dtc_e);
	vfit_dtc_cmd_free(&cmd);
	missing = forward_stderr(errf, what, sizeof(what));
	fclose(errf);
	/* A missing input is an I/O error (exit 2), as for every other input file. */
	if (r && missing && dtc_e.status == VFIT_EXIT_REJECT)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: dtc cannot open a file it names "
				    "(/incbin/ or /include/): %s", its, what);
	if (r)
		return vfit_err_set(e, dtc_e.status, "%s", dtc_e.msg);
	return vfit_fdtbuf_adopt(out, data, len, len + VFIT_FIT_SLACK, its, e);
}
