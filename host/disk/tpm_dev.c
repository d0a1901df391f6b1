/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/tpm's transport for a running OS (include/vfit-host/tpm_dev.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "vfit-host/tpm_dev.h"

#define TIMEOUT_MS 10000        /* a TPM command's longest (PC Client PTP: 2 s, NV 120 s worst) */

static int connect_data(const char *dir)
{
	struct sockaddr_un a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	if ((size_t)snprintf(a.sun_path, sizeof(a.sun_path), "%s/data", dir) >= sizeof(a.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

int vfit_tpm_dev_open(struct vfit_tpm_dev *d, const char *path, struct vfit_err *e)
{
	struct stat st;

	d->fd = -1;
	d->sock = false;
	if (stat(path, &st))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		d->sock = true;
		d->fd = connect_data(path);
		if (d->fd < 0)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s/data: cannot connect to swtpm: %s",
					    path, strerror(errno));
		return 0;
	}
	if (!S_ISCHR(st.st_mode))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: neither a TPM device nor a directory "
				    "with swtpm's data socket", path);
	d->fd = open(path, O_RDWR | O_CLOEXEC);
	if (d->fd < 0)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
	return 0;
}

/* n bytes, each wait bounded: 0, or -1 (error, end, timeout). */
static int read_n(int fd, uint8_t *p, size_t n)
{
	while (n) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		ssize_t k;

		if (poll(&pf, 1, TIMEOUT_MS) != 1)
			return -1;
		k = read(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/*
 * The whole command in one write (a TPM device takes nothing less; a socket
 * whose swtpm went away is an error, not SIGPIPE), the response as it comes.
 */
static enum vfit_tpm_result xfer(void *ctx, const uint8_t *cmd, size_t cmd_len, uint8_t *rsp,
				 size_t rsp_cap, size_t *rsp_len)
{
	struct vfit_tpm_dev *d = ctx;
	ssize_t k;
	uint32_t size;

	if (d->fd < 0)
		return VFIT_TPM_ERR_TRANSPORT;
	k = d->sock ? send(d->fd, cmd, cmd_len, MSG_NOSIGNAL) : write(d->fd, cmd, cmd_len);
	if (k != (ssize_t)cmd_len || rsp_cap < 10 || read_n(d->fd, rsp, 10))
		return VFIT_TPM_ERR_TRANSPORT;
	size = (uint32_t)rsp[2] << 24 | (uint32_t)rsp[3] << 16 | (uint32_t)rsp[4] << 8 | rsp[5];
	if (size < 10 || size > rsp_cap || read_n(d->fd, rsp + 10, size - 10))
		return VFIT_TPM_ERR_TRANSPORT;
	*rsp_len = size;
	return VFIT_TPM_OK;
}

void vfit_tpm_dev_transport(struct vfit_tpm_dev *d, struct vfit_tpm_transport *tr)
{
	tr->xfer = xfer;
	tr->ctx = d;
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

void vfit_tpm_dev_close(struct vfit_tpm_dev *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}
