/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cpu_time FILE COMMAND: runs `sh -c COMMAND` and appends to FILE one line
 * "WALL CPU" in microseconds: the wall time and the CPU time (user + system)
 * of the command and every process it waited for (dtc, cp, ...), from
 * wait4().  On a shared machine the CPU time depends far less on what else
 * runs than the wall time does; bench/alternate.inc's alternate_cpu uses it.
 * Exits with the command's status.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long usec(struct timeval t)
{
	return (long long)t.tv_sec * 1000000 + t.tv_usec;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int st;
	pid_t pid;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: cpu_time FILE COMMAND\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0)
		return 2;
	if (!pid) {
		execl("/bin/sh", "sh", "-c", argv[2], (char *)NULL);
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) != pid)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	f = fopen(argv[1], "a");
	if (!f)
		return 2;
	fprintf(f, "%lld %lld\n",
		(long long)(t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000,
		usec(ru.ru_utime) + usec(ru.ru_stime));
	if (fclose(f))
		return 2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 2;
}
