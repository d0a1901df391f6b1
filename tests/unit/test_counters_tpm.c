/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TPM backend of the rollback counters against a real swtpm that this test
 * starts on a free loopback port in a temp dir and always stops (it also
 * dies with us through PR_SET_PDEATHSIG, and a watchdog alarm bounds a
 * hang).  The "OS side" is tpm2-tools with owner/platform authorization but
 * without the counters' authValue.  Power cuts happen at a given TPM
 * command, through a relay between the client and swtpm (cut_advance):
 * nothing here depends on how fast the machine is.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vfit/hash.h"
#include "vfit-host/counters.h"
#include "check.h"

static char dir[128], state[160], auth_path[160], out_path[160];
static char tcti[64];
static pid_t swtpm_pid = -1;

/*
 * Binds a port P and P+1 on 127.0.0.1 (a TCTI's server and control
 * channels): returns P with both sockets in fd, or -1.
 */
static int bind_pair(int fd[2])
{
	int tries;

	for (tries = 0; tries < 50; tries++) {
		struct sockaddr_in a = { .sin_family = AF_INET };
		socklen_t al = sizeof(a);
		int port = -1;

		fd[0] = socket(AF_INET, SOCK_STREAM, 0);
		fd[1] = socket(AF_INET, SOCK_STREAM, 0);
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (fd[0] >= 0 && fd[1] >= 0 && !bind(fd[0], (struct sockaddr *)&a, sizeof(a)) &&
		    !getsockname(fd[0], (struct sockaddr *)&a, &al) && ntohs(a.sin_port) < 65535) {
			a.sin_port = htons(ntohs(a.sin_port) + 1);
			if (!bind(fd[1], (struct sockaddr *)&a, sizeof(a)))
				port = ntohs(a.sin_port) - 1;
		}
		if (port > 0)
			return port;
		close(fd[0]);
		close(fd[1]);
	}
	return -1;
}

/* A port P with P and P+1 free on 127.0.0.1. */
static int free_port_pair(void)
{
	int fd[2], port = bind_pair(fd);

	if (port > 0) {
		close(fd[0]);
		close(fd[1]);
	}
	return port;
}

static int port_of_tcti;         /* swtpm's server port, while it runs */

static int port_answers(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int s = socket(AF_INET, SOCK_STREAM, 0), r;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	r = s >= 0 && !connect(s, (struct sockaddr *)&a, sizeof(a));
	close(s);
	return r;
}

static void swtpm_stop(int sig)
{
	int st;

	if (swtpm_pid <= 0)
		return;
	kill(swtpm_pid, sig);
	waitpid(swtpm_pid, &st, 0);
	swtpm_pid = -1;
}

static void cleanup_at_exit(void)
{
	char cmd[256];

	swtpm_stop(SIGTERM);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("cannot remove %s\n", dir);
}

/*
 * Starts swtpm on state/ and a fresh port; sets tcti.  0, -1, or -2 when
 * there is no swtpm binary.  Ready means the port answers: waited for
 * without a time limit (the watchdog alarm ends a hang).
 */
static int swtpm_start(void)
{
	int attempt;

	for (attempt = 0; attempt < 5; attempt++) {
		int port = free_port_pair(), st;
		char srv[64], ctl[64], sd[256], log[256];
		pid_t pid;

		if (port < 0)
			return -1;
		snprintf(srv, sizeof(srv), "type=tcp,port=%d,bindaddr=127.0.0.1", port);
		snprintf(ctl, sizeof(ctl), "type=tcp,port=%d,bindaddr=127.0.0.1", port + 1);
		snprintf(sd, sizeof(sd), "dir=%s", state);
		snprintf(log, sizeof(log), "%s/swtpm.log", dir);
		pid = fork();
		if (pid < 0)
			return -1;
		if (pid == 0) {
			int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
			}
			execlp("swtpm", "swtpm", "socket", "--tpm2", "--server", srv, "--ctrl", ctl,
			       "--tpmstate", sd, "--flags", "not-need-init,startup-clear", (char *)NULL);
			_exit(127);
		}
		swtpm_pid = pid;
		for (;;) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			if (waitpid(pid, &st, WNOHANG) == pid) {
				swtpm_pid = -1;
				if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
					return -2;      /* no swtpm binary */
				break;                  /* port taken meanwhile: retry */
			}
			if (port_answers(port)) {
				snprintf(tcti, sizeof(tcti), "swtpm:host=127.0.0.1,port=%d", port);
				port_of_tcti = port;
				return 0;
			}
			nanosleep(&ts, NULL);
		}
	}
	return -1;
}

/*
 * Runs a tpm2-tools command as the OS side, output in out_path (and in
 * buf), with a 120 s alarm against a hang.  Returns its exit status, or -1
 * if it died.
 */
static int os_tool(char *buf, size_t cap, const char *tool, ...)
{
	const char *argv[16];
	va_list ap;
	int n = 0, st;
	pid_t pid;

	argv[n++] = tool;
	va_start(ap, tool);
	while (n < 15 && (argv[n] = va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	argv[n] = NULL;
	pid = fork();
	if (pid == 0) {
		int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		setenv("TPM2TOOLS_TCTI", tcti, 1);
		/* The library quiets tpm2-tss in this process; the tools should speak. */
		setenv("TSS2_LOG", "all+error", 1);
		alarm(120);
		{
			char *av[16];

			memcpy(av, argv, sizeof(av));
			execvp(tool, av);
		}
		_exit(127);
	}
	waitpid(pid, &st, 0);
	buf[0] = '\0';
	{
		FILE *f = fopen(out_path, "r");
		size_t len = f ? fread(buf, 1, cap - 1, f) : 0;

		buf[len] = '\0';
		if (f)
			fclose(f);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void hex(const uint8_t *p, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

/* Raw 8-byte big-endian value at offset off of an NV index, read by the OS side. */
static int os_read_u64(uint32_t idx, int off, uint64_t *v)
{
	char h[16], sz[8], of[8], b[2048], file[256];
	uint8_t raw[8];
	FILE *f;
	int i;

	snprintf(h, sizeof(h), "0x%08x", idx);
	snprintf(sz, sizeof(sz), "8");
	snprintf(of, sizeof(of), "%d", off);
	snprintf(file, sizeof(file), "%s/nvread.bin", dir);
	if (os_tool(b, sizeof(b), "tpm2_nvread", "-C", "o", "-s", sz, "--offset", of, "-o", file, h,
		    (char *)NULL))
		return -1;
	f = fopen(file, "rb");
	if (!f)
		return -1;
	i = fread(raw, 1, 8, f) == 8 ? 0 : -1;
	fclose(f);
	*v = 0;
	for (int k = 0; k < 8; k++)
		*v = *v << 8 | raw[k];
	return i;
}

/*
 * An OS-side command that must be refused by the TPM with response code rc
 * (tpm2-tools prints it as 0x149 or, through tpm2-tss, as 0x00000149).
 */
static void expect_tpm_refusal(const char *what, uint32_t rc, const char *tool, ...)
{
	const char *argv[12];
	char b[4096], s1[16], s2[16];
	const char *hit;
	va_list ap;
	int n = 0, st;

	va_start(ap, tool);
	while (n < 11 && (argv[n] = va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	for (; n < 11; n++)
		argv[n] = NULL;
	st = os_tool(b, sizeof(b), tool, argv[0], argv[1], argv[2], argv[3], argv[4], argv[5],
		     argv[6], argv[7], argv[8], argv[9], argv[10], (char *)NULL);
	snprintf(s1, sizeof(s1), "(0x%x)", rc);
	snprintf(s2, sizeof(s2), "(0x%08x)", rc);
	hit = strstr(b, s1) ? strstr(b, s1) : strstr(b, s2);
	CHECK(st > 0 && st != 127 && hit != NULL, "OS side %s: exit %d, want TPM error 0x%x:\n%s",
	      what, st, rc, b);
	if (hit) {
		const char *start = hit, *end = strchr(hit, '\n');

		while (start > b && start[-1] != '\n')
			start--;
		printf("  refused: %s -> %.*s\n", what, end ? (int)(end - start) : 200, start);
	}
}

static void be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/*
 * TPM2_NV_UndefineSpace(hierarchy, idx) with an empty password, sent raw
 * with tpm2_send so no client-side check gets in the way: the TPM's own
 * answer.  Returns the response code, or 0xffffffff if nothing came back.
 */
static uint32_t raw_undefine(uint32_t hierarchy, uint32_t idx)
{
	uint8_t cmd[31] = { 0x80, 0x02 }, rsp[64];
	char cf[256], rf[256], b[2048];
	size_t n = 0;
	FILE *f;

	be32(cmd + 2, sizeof(cmd));
	be32(cmd + 6, 0x00000122);              /* TPM_CC_NV_UndefineSpace */
	be32(cmd + 10, hierarchy);
	be32(cmd + 14, idx);
	be32(cmd + 18, 9);                      /* authorization area size */
	be32(cmd + 22, 0x40000009);             /* TPM_RS_PW, empty nonce, empty password */
	cmd[28] = 0x01;                         /* continueSession */
	snprintf(cf, sizeof(cf), "%s/cmd.bin", dir);
	snprintf(rf, sizeof(rf), "%s/rsp.bin", dir);
	f = fopen(cf, "wb");
	if (!f || fwrite(cmd, 1, sizeof(cmd), f) != sizeof(cmd))
		return 0xffffffff;
	fclose(f);
	unlink(rf);
	if (os_tool(b, sizeof(b), "tpm2_send", "-o", rf, cf, (char *)NULL))
		return 0xffffffff;
	f = fopen(rf, "rb");
	if (f) {
		n = fread(rsp, 1, sizeof(rsp), f);
		fclose(f);
	}
	if (n < 10)
		return 0xffffffff;
	return (uint32_t)rsp[6] << 24 | (uint32_t)rsp[7] << 16 | (uint32_t)rsp[8] << 8 | rsp[9];
}

static void expect_undefine_refused(const char *what, uint32_t hierarchy, uint32_t idx,
				    uint32_t want)
{
	uint32_t rc = raw_undefine(hierarchy, idx);

	CHECK(rc == want, "raw NV_UndefineSpace of %s: rc 0x%x, want 0x%x", what, rc, want);
	printf("  refused: raw TPM2_NV_UndefineSpace of %s -> 0x%03x\n", what, rc);
}

/* ---- power cuts at a given TPM command ------------------------------- */

#define TPM_CC_NV_INCREMENT 0x00000134
#define RELAY_CONNS 16

static int connect_port(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int s = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s >= 0 && connect(s, (struct sockaddr *)&a, sizeof(a))) {
		close(s);
		s = -1;
	}
	return s;
}

static int read_full(int fd, uint8_t *b, size_t n)
{
	while (n) {
		ssize_t r = read(fd, b, n);

		if (r <= 0)
			return -1;
		b += r;
		n -= (size_t)r;
	}
	return 0;
}

static int write_full(int fd, const uint8_t *b, size_t n)
{
	while (n) {
		ssize_t r = write(fd, b, n);

		if (r <= 0)
			return -1;
		b += r;
		n -= (size_t)r;
	}
	return 0;
}

/* One TPM command or response: a 10-byte header whose bytes 2..5 are the size. */
static int read_msg(int fd, uint8_t *b, size_t cap, size_t *len)
{
	uint32_t n;

	if (read_full(fd, b, 10))
		return -1;
	n = (uint32_t)b[2] << 24 | (uint32_t)b[3] << 16 | (uint32_t)b[4] << 8 | b[5];
	if (n < 10 || n > cap || read_full(fd, b + 10, n - 10))
		return -1;
	*len = n;
	return 0;
}

struct relay {
	int lfd[2];                     /* our server and control ports */
	int down[RELAY_CONNS], up[RELAY_CONNS], data[RELAY_CONNS];
	int n;
};

static void relay_close(struct relay *r, int i)
{
	close(r->down[i]);
	close(r->up[i]);
	r->n--;
	r->down[i] = r->down[r->n];
	r->up[i] = r->up[r->n];
	r->data[i] = r->data[r->n];
}

static void relay_accept(struct relay *r, int data)
{
	int d = accept(r->lfd[data ? 0 : 1], NULL, NULL);
	int u = connect_port(port_of_tcti + (data ? 0 : 1));

	if (d < 0 || u < 0 || r->n == RELAY_CONNS) {
		close(d);
		close(u);
		return;
	}
	r->down[r->n] = d;
	r->up[r->n] = u;
	r->data[r->n] = data;
	r->n++;
}

/*
 * Forwards one command on a data connection and its answer.  Returns 1 at
 * the cut: the n-th NV_Increment reached swtpm (after: and swtpm answered
 * it), its answer not forwarded; 0 otherwise, -1 when the connection ended.
 */
static int relay_command(struct relay *r, int i, unsigned *seen, unsigned n, int after)
{
	uint8_t b[8192];
	size_t len;
	int inc;

	if (read_msg(r->down[i], b, sizeof(b), &len))
		return -1;
	inc = b[6] == 0 && b[7] == 0 && b[8] == 0x01 && b[9] == 0x34;
	if (inc && ++*seen == n && !after)
		return 1;
	if (write_full(r->up[i], b, len) || read_msg(r->up[i], b, sizeof(b), &len))
		return -1;
	if (inc && *seen == n)
		return 1;
	return write_full(r->down[i], b, len) ? -1 : 0;
}

/* Control channel bytes, passed through as they come. */
static int relay_bytes(int from, int to)
{
	uint8_t b[4096];
	ssize_t k = read(from, b, sizeof(b));

	return k <= 0 || write_full(to, b, (size_t)k) ? -1 : 0;
}

/*
 * Runs the relay until the cut (1) or until the client is gone (0): done
 * is the read end of a pipe whose write end only the client holds.
 */
static int relay_run(struct relay *r, int done, unsigned n, int after)
{
	unsigned seen = 0;

	for (;;) {
		struct pollfd p[3 + 2 * RELAY_CONNS];
		int i, k = 3, cut;

		p[0] = (struct pollfd){ .fd = done, .events = POLLIN };
		p[1] = (struct pollfd){ .fd = r->lfd[0], .events = POLLIN };
		p[2] = (struct pollfd){ .fd = r->lfd[1], .events = POLLIN };
		for (i = 0; i < r->n; i++) {
			p[k++] = (struct pollfd){ .fd = r->down[i], .events = POLLIN };
			p[k++] = (struct pollfd){ .fd = r->data[i] ? -1 : r->up[i], .events = POLLIN };
		}
		if (poll(p, (nfds_t)k, -1) < 0) {
			if (errno == EINTR)
				continue;
			return 0;
		}
		if (p[0].revents)
			return 0;
		for (i = r->n - 1; i >= 0; i--) {
			short dn = p[3 + 2 * i].revents, upr = p[4 + 2 * i].revents;

			if (!dn && !upr)
				continue;
			if (r->data[i]) {
				cut = relay_command(r, i, &seen, n, after);
				if (cut == 1)
					return 1;
			} else {
				cut = (dn && relay_bytes(r->down[i], r->up[i])) ||
				      (upr && relay_bytes(r->up[i], r->down[i])) ? -1 : 0;
			}
			if (cut < 0)
				relay_close(r, i);
		}
		if (p[1].revents)
			relay_accept(r, 1);
		if (p[2].revents)
			relay_accept(r, 0);
	}
}

/*
 * Power cut in the middle of an advance of `name` to `target`, at its n-th
 * TPM2_NV_Increment: after swtpm answered it (the increment is durable, as
 * the counter is not TPMA_NV_ORDERLY) or before swtpm saw it.  swtpm is
 * killed there, so the client never gets that answer.  Returns the
 * client's exit status (-1 if the cut never came).
 */
static int cut_advance(const char *name, uint64_t target, unsigned n, int after)
{
	struct relay r = { .n = 0 };
	int pfd[2], port, st, cut;
	pid_t pid;

	port = bind_pair(r.lfd);
	if (port < 0 || listen(r.lfd[0], 4) || listen(r.lfd[1], 4) || pipe(pfd))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct vfit_err ce = { 0 };
		struct vfit_ctr_store *cs;
		char t[64];

		close(pfd[0]);
		close(r.lfd[0]);
		close(r.lfd[1]);
		snprintf(t, sizeof(t), "swtpm:host=127.0.0.1,port=%d", port);
		cs = vfit_ctr_tpm_open(t, auth_path, &ce);
		if (cs)
			vfit_ctr_advance(cs, name, target, NULL, NULL, &ce);
		_exit(ce.status);       /* no atexit: swtpm belongs to the parent */
	}
	close(pfd[1]);
	cut = pid > 0 ? relay_run(&r, pfd[0], n, after) : 0;
	swtpm_stop(SIGKILL);
	while (r.n)
		relay_close(&r, 0);
	close(r.lfd[0]);
	close(r.lfd[1]);
	close(pfd[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	CHECK(cut, "the advance of %s to %llu ended before its NV_Increment #%u", name,
	      (unsigned long long)target, n);
	return st;
}

static struct vfit_ctr_store *open_store(struct vfit_err *e)
{
	*e = (struct vfit_err){ 0 };
	return vfit_ctr_tpm_open(tcti, auth_path, e);
}

static uint64_t read_or(struct vfit_ctr_store *s, const char *name, uint64_t dflt)
{
	struct vfit_err e = { 0 };
	uint64_t v;

	if (!s || vfit_ctr_read(s, name, &v, &e)) {
		printf("  read %s: %s\n", name, e.msg);
		return dflt;
	}
	return v;
}

static void test_unreachable(void)
{
	int port = free_port_pair();
	struct vfit_err e = { 0 };
	char t[64], dummy[256];
	struct vfit_ctr_store *s;
	FILE *f;

	snprintf(dummy, sizeof(dummy), "%s/dummy-auth", dir);
	f = fopen(dummy, "wb");
	if (f) {
		fwrite("0123456789abcdef0123456789abcdef", 1, VFIT_CTR_AUTH_SIZE, f);
		fclose(f);
	}

	snprintf(t, sizeof(t), "swtpm:host=127.0.0.1,port=%d", port);
	s = vfit_ctr_tpm_open(t, dummy, &e);
	CHECK(s == NULL && e.status == 2 && strstr(e.msg, "cannot reach the TPM") &&
	      strstr(e.msg, t), "nothing listening: %d %s", e.status, e.msg);
	printf("  no TPM: %s\n", e.msg);
	vfit_ctr_close(s);
	e = (struct vfit_err){ 0 };
	CHECK(vfit_ctr_tpm_provision(t, auth_path, (const char *const[]){ "kernel" }, 1, &e) == -1 &&
	      e.status == 2, "provision, nothing listening: %d %s", e.status, e.msg);
	e = (struct vfit_err){ 0 };
	s = vfit_ctr_tpm_open("no-such-tcti", dummy, &e);
	CHECK(s == NULL && e.status == 2 && strstr(e.msg, "no-such-tcti"), "bad TCTI: %d %s",
	      e.status, e.msg);
	vfit_ctr_close(s);
}

int main(void)
{
	const char *const names[] = { "bootloader", "kernel" };
	uint32_t kidx = vfit_ctr_tpm_index("kernel");
	char kh[16], kb[16], b[4096], authhex[2 * VFIT_CTR_AUTH_SIZE + 8], file[256];
	struct vfit_err e = { 0 };
	struct vfit_ctr_store *s;
	uint64_t v = 0, o = 0, n = 0, raw = 0, base = 0, prior = 0;
	uint8_t auth[VFIT_CTR_AUTH_SIZE + 1];
	FILE *f;

	alarm(600);     /* watchdog against a hang: swtpm dies with us through PDEATHSIG */
	snprintf(dir, sizeof(dir), "%s/vfit-tpm.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	REQUIRE(mkdtemp(dir), "mkdtemp %s", dir);
	snprintf(state, sizeof(state), "%s/state", dir);
	snprintf(auth_path, sizeof(auth_path), "%s/auth", dir);
	snprintf(out_path, sizeof(out_path), "%s/tool.out", dir);
	snprintf(kh, sizeof(kh), "0x%08x", kidx);
	snprintf(kb, sizeof(kb), "0x%08x", kidx + 1);
	mkdir(state, 0700);
	atexit(cleanup_at_exit);

	/* Before any TPM: a clear error, status 2, no fallback. */
	test_unreachable();
	CHECK(access(auth_path, F_OK) != 0, "a failed provisioning created the auth file");

	switch (swtpm_start()) {
	case 0:
		break;
	case -2:
		SKIP("tool", "swtpm is not installed (scripts/deps installs it)");
		return check_done();
	default:
		CHECK(0, "cannot start swtpm");
		return check_done();
	}
	printf("  swtpm at %s, state in %s\n", tcti, state);

	/*
	 * The OS side uses a counter of its own and deletes it: the TPM keeps
	 * the highest value of deleted counters and starts new counters above
	 * it, so ours will not start at 0 raw.
	 */
	CHECK(os_tool(b, sizeof(b), "tpm2_nvdefine", "0x01800100", "-C", "o", "-s", "8", "-a",
		      "ownerread|ownerwrite|nt=counter", (char *)NULL) == 0, "os nvdefine: %s", b);
	for (int i = 0; i < 5; i++)
		os_tool(b, sizeof(b), "tpm2_nvincrement", "-C", "o", "0x01800100", (char *)NULL);
	CHECK(os_read_u64(0x01800100, 0, &prior) == 0 && prior >= 5, "os counter %llu",
	      (unsigned long long)prior);
	CHECK(os_tool(b, sizeof(b), "tpm2_nvundefine", "-C", "o", "0x01800100", (char *)NULL) == 0,
	      "os nvundefine: %s", b);

	/* Provisioning. */
	CHECK(vfit_ctr_tpm_open(tcti, auth_path, &e) == NULL && e.status == 2,
	      "open without an auth file: %s", e.msg);
	e = (struct vfit_err){ 0 };
	CHECK(vfit_ctr_tpm_provision(tcti, auth_path, names, 2, &e) == 0, "provision: %s", e.msg);
	f = fopen(auth_path, "rb");
	CHECK(f && fread(auth, 1, sizeof(auth), f) == VFIT_CTR_AUTH_SIZE, "auth file size");
	if (f)
		fclose(f);
	hex(auth, VFIT_CTR_AUTH_SIZE, authhex + 4);
	memcpy(authhex, "hex:", 4);

	s = open_store(&e);
	CHECK(s != NULL, "open: %s", e.msg);
	CHECK(read_or(s, "kernel", 99) == 0 && read_or(s, "bootloader", 99) == 0,
	      "fresh counters read 0");
	/* The raw counter started at the TPM's highest value, the baseline records it. */
	CHECK(os_read_u64(kidx, 0, &raw) == 0 && os_read_u64(kidx + 1, 8, &base) == 0 &&
	      raw == base && raw > prior, "raw %llu baseline %llu prior %llu",
	      (unsigned long long)raw, (unsigned long long)base, (unsigned long long)prior);
	printf("  kernel counter %s: raw %llu = baseline (OS counter had reached %llu)\n", kh,
	      (unsigned long long)raw, (unsigned long long)prior);
	e = (struct vfit_err){ 0 };
	CHECK(s && vfit_ctr_read(s, "unprovisioned", &v, &e) == -1 && e.status == 1 &&
	      strstr(e.msg, "not provisioned"), "unprovisioned name: %d %s", e.status, e.msg);

	/* Advance 0 -> 1 -> 2; lower and equal are no-ops. */
	e = (struct vfit_err){ 0 };
	CHECK(s && vfit_ctr_advance(s, "kernel", 1, &o, &n, &e) == 0 && o == 0 && n == 1,
	      "advance 0->1: %s", e.msg);
	CHECK(s && vfit_ctr_advance(s, "kernel", 2, &o, &n, &e) == 0 && o == 1 && n == 2,
	      "advance 1->2: %s", e.msg);
	CHECK(s && vfit_ctr_advance(s, "kernel", 1, &o, &n, &e) == 0 && o == 2 && n == 2,
	      "advance to 1 is a no-op: %s", e.msg);
	CHECK(s && vfit_ctr_advance(s, "kernel", 2, &o, &n, &e) == 0 && o == 2 && n == 2,
	      "advance to 2 is a no-op: %s", e.msg);
	CHECK(read_or(s, "kernel", 99) == 2 && read_or(s, "bootloader", 99) == 0, "after advance");
	CHECK(os_read_u64(kidx, 0, &raw) == 0 && raw == base + 2, "raw after advance %llu",
	      (unsigned long long)raw);
	e = (struct vfit_err){ 0 };
	CHECK(s && vfit_ctr_advance(s, "kernel", 2 + VFIT_CTR_TPM_MAX_STEP + 1, &o, &n, &e) == -1 &&
	      e.status == 1 && read_or(s, "kernel", 99) == 2, "too large a step: %s", e.msg);
	e = (struct vfit_err){ 0 };
	CHECK(s && vfit_ctr_advance(s, "kernel", UINT64_MAX, &o, &n, &e) == -1 && e.status == 1,
	      "advance to 2^64-1: %s", e.msg);
	vfit_ctr_close(s);

	/* The OS side, with owner and platform authorization but not the auth. */
	expect_tpm_refusal("nvincrement with owner auth", 0x149, "tpm2_nvincrement", "-C", "o", kh,
			   (char *)NULL);
	expect_tpm_refusal("nvincrement with platform auth", 0x149, "tpm2_nvincrement", "-C", "p",
			   kh, (char *)NULL);
	expect_tpm_refusal("nvincrement with a wrong index auth", 0x9a2, "tpm2_nvincrement", "-P",
			   "wrong", kh, (char *)NULL);
	snprintf(file, sizeof(file), "%s/zero8", dir);
	f = fopen(file, "wb");
	if (f) {
		fwrite("\0\0\0\0\0\0\0\0", 1, 8, f);
		fclose(f);
	}
	expect_tpm_refusal("nvwrite of zero into the counter", 0x149, "tpm2_nvwrite", "-C", "o",
			   "-i", file, kh, (char *)NULL);
	/* TPM_RC_ATTRIBUTES on handle 2 (the index): TPMA_NV_POLICY_DELETE is set. */
	expect_undefine_refused("the counter with owner auth", 0x40000001, kidx, 0x282);
	expect_undefine_refused("the counter with platform auth", 0x4000000c, kidx, 0x282);
	expect_undefine_refused("the baseline with owner auth", 0x40000001, kidx + 1, 0x282);
	expect_undefine_refused("the baseline with platform auth", 0x4000000c, kidx + 1, 0x282);
	expect_tpm_refusal("nvwrite of the baseline (owner)", 0x148, "tpm2_nvwrite", "-C", "o",
			   "-i", file, "--offset", "8", kb, (char *)NULL);
	/* The only deletion path left, UndefineSpaceSpecial, needs an unreachable policy. */
	{
		char ctx[256];

		snprintf(ctx, sizeof(ctx), "%s/policy-session.ctx", dir);
		CHECK(os_tool(b, sizeof(b), "tpm2_startauthsession", "--policy-session", "-S", ctx,
			      (char *)NULL) == 0, "policy session: %s", b);
		expect_tpm_refusal("nvundefine --with-policydelete (platform)", 0x99d,
				   "tpm2_nvundefine", "-C", "p", "--with-policydelete", "-S", ctx, kh,
				   (char *)NULL);
		os_tool(b, sizeof(b), "tpm2_flushcontext", ctx, (char *)NULL);
	}
	/* Even the holder of the auth cannot rewrite the locked baseline. */
	expect_tpm_refusal("nvwrite of the baseline with the auth", 0x148, "tpm2_nvwrite", "-P",
			   authhex, "-i", file, "--offset", "8", kb, (char *)NULL);
	s = open_store(&e);
	CHECK(read_or(s, "kernel", 99) == 2, "counter unchanged by the OS side");
	vfit_ctr_close(s);

	/* An index the OS defines at a counter's handles is not accepted. */
	{
		uint32_t fidx = vfit_ctr_tpm_index("forged");
		char fh[16], fb[16];

		snprintf(fh, sizeof(fh), "0x%08x", fidx);
		snprintf(fb, sizeof(fb), "0x%08x", fidx + 1);
		CHECK(os_tool(b, sizeof(b), "tpm2_nvdefine", fh, "-C", "o", "-s", "8", "-a",
			      "ownerread|ownerwrite|authread|authwrite|no_da|nt=counter", "-p",
			      authhex, (char *)NULL) == 0 &&
		      os_tool(b, sizeof(b), "tpm2_nvdefine", fb, "-C", "o", "-s", "48", "-a",
			      "ownerread|ownerwrite|authread|authwrite|no_da", "-p", authhex,
			      (char *)NULL) == 0, "os defines forged indexes: %s", b);
		s = open_store(&e);
		e = (struct vfit_err){ 0 };
		CHECK(s && vfit_ctr_read(s, "forged", &v, &e) == -1 && e.status == 1 &&
		      strstr(e.msg, "refusing"), "forged index: %d %s", e.status, e.msg);
		printf("  forged: %s\n", e.msg);
		e = (struct vfit_err){ 0 };
		CHECK(vfit_ctr_tpm_provision(tcti, auth_path, (const char *const[]){ "forged" }, 1,
					     &e) == -1 && e.status == 1,
		      "provisioning over forged indexes: %s", e.msg);
		vfit_ctr_close(s);
	}

	/* A different auth does not open the counters. */
	{
		char other[256];

		snprintf(other, sizeof(other), "%s/other-auth", dir);
		f = fopen(other, "wb");
		if (f) {
			fwrite(auth, 1, VFIT_CTR_AUTH_SIZE, f);
			fclose(f);
		}
		f = fopen(other, "r+b");
		if (f) {
			fputc(auth[0] ^ 1, f);
			fclose(f);
		}
		e = (struct vfit_err){ 0 };
		s = vfit_ctr_tpm_open(tcti, other, &e);
		CHECK(s && vfit_ctr_read(s, "kernel", &v, &e) == -1 && e.status == 1 &&
		      strstr(e.msg, "0x9a2"), "wrong auth: %d %s", e.status, e.msg);
		vfit_ctr_close(s);
	}

	/*
	 * Provisioning interrupted right after defining a counter: the next
	 * provisioning run takes it from there.  (The definition is replayed
	 * with tpm2-tools and platform authorization, as the factory had it.)
	 */
	{
		uint32_t pidx = vfit_ctr_tpm_index("partial");
		char ph[16], pol[256];
		uint8_t d[32];

		snprintf(ph, sizeof(ph), "0x%08x", pidx);
		snprintf(pol, sizeof(pol), "%s/policy", dir);
		vfit_hash(VFIT_HASH_SHA256, "vfit rollback counter: never deleted", 36, d);
		f = fopen(pol, "wb");
		if (f) {
			fwrite(d, 1, sizeof(d), f);
			fclose(f);
		}
		CHECK(os_tool(b, sizeof(b), "tpm2_nvdefine", ph, "-C", "p", "-s", "8", "-L", pol,
			      "-p", authhex, "-a",
			      "platformcreate|policydelete|authwrite|authread|ownerread|ppread|no_da|"
			      "nt=counter", (char *)NULL) == 0, "partial nvdefine: %s", b);
		e = (struct vfit_err){ 0 };
		CHECK(vfit_ctr_tpm_provision(tcti, auth_path, (const char *const[]){ "partial" }, 1,
					     &e) == 0, "resume provisioning: %s", e.msg);
		s = open_store(&e);
		CHECK(read_or(s, "partial", 99) == 0, "resumed counter reads 0");
		vfit_ctr_close(s);
	}

	/* Provisioning again is idempotent and can add names. */
	e = (struct vfit_err){ 0 };
	CHECK(vfit_ctr_tpm_provision(tcti, auth_path, (const char *const[]){ "kernel", "extra" }, 2,
				     &e) == 0, "re-provision: %s", e.msg);
	s = open_store(&e);
	CHECK(read_or(s, "kernel", 99) == 2 && read_or(s, "extra", 99) == 0, "after re-provision");
	CHECK(s && vfit_ctr_advance(s, "kernel", 3, &o, &n, &e) == 0 && n == 3, "2->3: %s", e.msg);

	/* Power cut right after an increment: kill -9, restart on the same state. */
	swtpm_stop(SIGKILL);
	e = (struct vfit_err){ 0 };
	CHECK(s && vfit_ctr_read(s, "kernel", &v, &e) == -1 && e.status == 2,
	      "read with the TPM gone: %d %s", e.status, e.msg);
	vfit_ctr_close(s);
	e = (struct vfit_err){ 0 };
	s = vfit_ctr_tpm_open(tcti, auth_path, &e);
	CHECK(s == NULL && e.status == 2 && strstr(e.msg, "cannot reach the TPM"),
	      "open with swtpm killed: %d %s", e.status, e.msg);
	vfit_ctr_close(s);
	if (swtpm_start()) {
		CHECK(0, "cannot restart swtpm");
		return check_done();
	}
	s = open_store(&e);
	CHECK(read_or(s, "kernel", 99) == 3 && read_or(s, "bootloader", 99) == 0 &&
	      read_or(s, "extra", 99) == 0, "values after the power cut");
	{
		struct timespec t0, t1;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		CHECK(s && vfit_ctr_advance(s, "bootloader", 50, &o, &n, &e) == 0 && o == 0 &&
		      n == 50, "bootloader 0->50: %s", e.msg);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("  50 increments: %.1f ms\n",
		       (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
	}
	vfit_ctr_close(s);

	/*
	 * Power cut in the middle of an advance: the counter holds a value
	 * between the old and the target one, exactly the increments the TPM
	 * completed, and the next advance goes on.  Once after the TPM answered
	 * the 5th increment, once before the 4th reached it.
	 */
	{
		static const struct { unsigned n; int after; uint64_t from, want; } cuts[] = {
			{ 5, 1, 0, 5 },
			{ 4, 0, 7, 10 },
		};
		size_t i;
		int st;

		for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
			st = cut_advance("extra", 1000, cuts[i].n, cuts[i].after);
			CHECK(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 2,
			      "advance cut off: status %d", st);
			if (swtpm_start()) {
				CHECK(0, "cannot restart swtpm");
				return check_done();
			}
			s = open_store(&e);
			v = read_or(s, "extra", 0);
			CHECK(v == cuts[i].want, "cut %s increment %u of %llu->1000: counter %llu, "
			      "want %llu", cuts[i].after ? "after" : "before", cuts[i].n,
			      (unsigned long long)cuts[i].from, (unsigned long long)v,
			      (unsigned long long)cuts[i].want);
			printf("  power cut %s NV_Increment #%u of %llu->1000: counter at %llu\n",
			       cuts[i].after ? "after" : "before", cuts[i].n,
			       (unsigned long long)cuts[i].from, (unsigned long long)v);
			e = (struct vfit_err){ 0 };
			CHECK(s && vfit_ctr_advance(s, "extra", v + 2, &o, &n, &e) == 0 && o == v &&
			      n == v + 2, "advance goes on: %s", e.msg);
			CHECK(read_or(s, "kernel", 99) == 3 && read_or(s, "bootloader", 99) == 50,
			      "other counters after the cut");
			vfit_ctr_close(s);
		}
	}
	return check_done();     /* cleanup_at_exit stops swtpm and removes dir */
}
