/* SPDX-License-Identifier: BSD-3-Clause */
/* The TPM of a running OS, opened for lib/tpm (include/vfit-host/tpm_dev.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "vfit-host/tpm_dev.h"

int vfit_tpm_dev_open(struct vfit_tpm_sock *s, const char *path, struct vfit_err *e)
{
	char data[sizeof(s->data_path)];
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->data_fd = -1;
	if (stat(path, &st))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		if ((size_t)snprintf(data, sizeof(data), "%s/data", path) >= sizeof(data))
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: path too long", path);
		if (vfit_tpm_sock_open(s, data, NULL))
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot connect to swtpm: %s",
					    data, strerror(errno));
		return 0;
	}
	if (!S_ISCHR(st.st_mode))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: neither a TPM device nor a directory "
				    "with swtpm's data socket", path);
	s->device = true;
	s->data_fd = open(path, O_RDWR | O_CLOEXEC);
	if (s->data_fd < 0)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
	return 0;
}

int vfit_trust_err(struct vfit_err *e, const char *prefix, const struct vfit_trust *t,
		   enum vfit_boot_why w)
{
	bool unreached = t->tr == VFIT_TPM_ERR_TRANSPORT || t->tr == VFIT_TPM_ERR_TIMEOUT;

	return vfit_err_set(e, unreached ? VFIT_EXIT_USAGE : VFIT_EXIT_REJECT,
			    "%s%sTPM: %s (%s%s%s%s%s)", prefix ? prefix : "", prefix ? ": " : "",
			    vfit_boot_why_to_string(w), t->what ? t->what : "", t->tr ? ": " : "",
			    t->tr ? vfit_tpm_result_to_string(t->tr) : "", t->rc ? " " : "",
			    t->rc ? vfit_tpm_rc_to_string(t->rc) : "");
}
