/* SPDX-License-Identifier: BSD-3-Clause */
/* A private swtpm for a test (swtpm.h). */
#include "swtpm.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

/* Starts argv with its output appended to log: its pid, or -1.  127 is its exit code if not installed. */
static pid_t run(char *const argv[], const char *log)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static int exit_code(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int swtpm_spawn(struct swtpm *w, const char *dir, const char *name, const char *banks,
		struct vfit_tpm_sock *s)
{
	char st[256], sd[264], srv[288], ctl[288], data[256], ctrl[256], log[256], bank_list[64];
	char *setup[] = { "swtpm_setup", "--tpm2", "--tpmstate", st, "--pcr-banks", bank_list,
			  "--overwrite", NULL };
	char *sw[] = { "swtpm", "socket", "--tpm2", "--server", srv, "--ctrl", ctl, "--tpmstate",
		       sd, "--flags", "not-need-init", NULL };
	pid_t pid;
	int i, code;

	w->pid = -1;
	if (strlen(dir) + strlen(name) > 90)    /* the sockets' paths fit sun_path */
		return -1;
	snprintf(st, sizeof(st), "%s/%s", dir, name);
	snprintf(sd, sizeof(sd), "dir=%s", st);
	snprintf(data, sizeof(data), "%s/%s.data", dir, name);
	snprintf(ctrl, sizeof(ctrl), "%s/%s.ctrl", dir, name);
	snprintf(log, sizeof(log), "%s/%s.log", dir, name);
	snprintf(srv, sizeof(srv), "type=unixio,path=%s", data);
	snprintf(ctl, sizeof(ctl), "type=unixio,path=%s", ctrl);
	snprintf(bank_list, sizeof(bank_list), "%s", banks ? banks : "");
	if (mkdir(st, 0700))
		return -1;
	if (banks) {
		pid = run(setup, log);
		if (pid < 0 || waitpid(pid, &code, 0) != pid)
			return -1;
		code = exit_code(code);
		if (code)
			return code == 127 ? 127 : -1;
	}
	pid = run(sw, log);
	if (pid < 0)
		return -1;
	w->pid = pid;
	for (i = 0; i < 1000; i++) {            /* a bound on a hang: 10 s */
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		if (waitpid(pid, &code, WNOHANG) == pid) {
			w->pid = -1;
			return exit_code(code) == 127 ? 127 : -1;
		}
		if (!vfit_tpm_sock_open(s, data, ctrl))
			return 0;
		nanosleep(&ts, NULL);
	}
	return -1;
}

void swtpm_end(struct swtpm *w)
{
	int st;

	if (w->pid <= 0)
		return;
	kill(w->pid, SIGTERM);
	waitpid(w->pid, &st, 0);
	w->pid = -1;
}

/* What swtpm_start() set up, for the exit handler. */
static struct swtpm *started;
static const char *started_dir;

static void stop_at_exit(void)
{
	char cmd[128];

	swtpm_end(started);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", started_dir);
	if (system(cmd))
		printf("cannot remove %s\n", started_dir);
}

bool swtpm_start(struct swtpm *w, char *dir, size_t size, const char *prefix, const char *name,
		 const char *banks, struct vfit_tpm_sock *s)
{
	snprintf(dir, size, "%s/%s-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", prefix);
	REQUIRE(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	started = w;
	started_dir = dir;
	atexit(stop_at_exit);
	switch (swtpm_spawn(w, dir, name, banks, s)) {
	case 0:
		return true;
	case 127:
		SKIP("tool", "swtpm is not installed (scripts/deps installs it)");
		return false;
	default:
		CHECK(0, "cannot start swtpm");
		return false;
	}
}
