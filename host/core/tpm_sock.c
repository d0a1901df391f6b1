/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/tpm's transport over a descriptor: swtpm's sockets or a TPM device (vfit-host/tpm_sock.h). */
#include "vfit-host/tpm_sock.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define SWTPM_CMD_INIT 0x00000002u      /* swtpm's control channel (ptm_init) */

static int connect_unix(const char *path)
{
	struct sockaddr_un a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(a.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(a.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int send_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* A TPM character device takes a command in one write() or not at all. */
static int send_cmd(const struct vfit_tpm_sock *s, const uint8_t *p, size_t n)
{
	if (s->device)
		return write(s->data_fd, p, n) == (ssize_t)n ? 0 : -1;
	return send_all(s->data_fd, p, n);
}

/* n bytes within timeout_ms: 0, -1 on error or EOF, -2 on timeout. */
static int recv_all(int fd, uint8_t *p, size_t n, unsigned timeout_ms)
{
	while (n) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		int r = poll(&pf, 1, (int)timeout_ms);
		ssize_t k;

		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			return -2;
		if (r < 0)
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

/* After a failure the stream is out of step with the TPM: the channel is closed for good. */
static enum vfit_tpm_result broken(struct vfit_tpm_sock *s, enum vfit_tpm_result r)
{
	close(s->data_fd);
	s->data_fd = -1;
	return r;
}

static enum vfit_tpm_result sock_xfer(void *ctx, const uint8_t *cmd, size_t cmd_len,
				      uint8_t *rsp, size_t rsp_cap, size_t *rsp_len)
{
	struct vfit_tpm_sock *s = ctx;
	unsigned t = s->timeout_ms ? s->timeout_ms : 10000;
	uint32_t size;
	int r;

	*rsp_len = 0;
	if (s->data_fd < 0 || rsp_cap < 10)
		return VFIT_TPM_ERR_TRANSPORT;
	if (send_cmd(s, cmd, cmd_len))
		return broken(s, VFIT_TPM_ERR_TRANSPORT);
	/* The header says how much follows: read exactly that, never more than rsp_cap. */
	r = recv_all(s->data_fd, rsp, 10, t);
	if (r)
		return broken(s, r == -2 ? VFIT_TPM_ERR_TIMEOUT : VFIT_TPM_ERR_TRANSPORT);
	size = (uint32_t)rsp[2] << 24 | (uint32_t)rsp[3] << 16 | (uint32_t)rsp[4] << 8 | rsp[5];
	if (size < 10 || size > rsp_cap)
		return broken(s, VFIT_TPM_ERR_TRANSPORT);
	r = recv_all(s->data_fd, rsp + 10, size - 10, t);
	if (r)
		return broken(s, r == -2 ? VFIT_TPM_ERR_TIMEOUT : VFIT_TPM_ERR_TRANSPORT);
	*rsp_len = size;
	return VFIT_TPM_OK;
}

int vfit_tpm_sock_open(struct vfit_tpm_sock *s, const char *data_path, const char *ctrl_path)
{
	memset(s, 0, sizeof(*s));
	s->data_fd = -1;
	if (strlen(data_path) >= sizeof(s->data_path) ||
	    (ctrl_path && strlen(ctrl_path) >= sizeof(s->ctrl_path))) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(s->data_path, data_path);
	if (ctrl_path)
		strcpy(s->ctrl_path, ctrl_path);
	s->data_fd = connect_unix(data_path);
	return s->data_fd < 0 ? -1 : 0;
}

void vfit_tpm_sock_transport(struct vfit_tpm_sock *s, struct vfit_tpm_transport *tr)
{
	tr->xfer = sock_xfer;
	tr->ctx = s;
}

int vfit_tpm_sock_power_cycle(struct vfit_tpm_sock *s)
{
	uint8_t cmd[8] = { 0, 0, 0, SWTPM_CMD_INIT, 0, 0, 0, 0 };      /* init flags 0 */
	uint8_t res[4];
	int fd, r;

	if (!s->ctrl_path[0]) {
		errno = EINVAL;
		return -1;
	}
	fd = connect_unix(s->ctrl_path);
	if (fd < 0)
		return -1;
	r = send_all(fd, cmd, sizeof(cmd)) || recv_all(fd, res, sizeof(res), 10000) ? -1 : 0;
	close(fd);
	/* The result is a TPM_RESULT: 0 is success. */
	if (r == 0 && (res[0] | res[1] | res[2] | res[3])) {
		errno = EIO;
		r = -1;
	}
	return r;
}

void vfit_tpm_sock_close(struct vfit_tpm_sock *s)
{
	if (s->data_fd >= 0)
		close(s->data_fd);
	s->data_fd = -1;
}
