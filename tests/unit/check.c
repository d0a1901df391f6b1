/* SPDX-License-Identifier: BSD-3-Clause */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

/* ASan's shadow memory does not fit under qemu-user. */
#if defined(__SANITIZE_ADDRESS__)
#define CHECK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHECK_ASAN 1
#endif
#endif

static unsigned long passed, failed, skipped;
static uint64_t rand_state = 1;

int check_(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		passed++;
		return 1;
	}
	failed++;
	fprintf(stdout, "FAIL %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	return 0;
}

void check_require_(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return;
	fprintf(stdout, "FAIL %s:%d: precondition: ", file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	failed++;
	exit(check_done());
}

void check_skip(const char *cls, const char *fmt, ...)
{
	va_list ap;

	skipped++;
	printf("SKIP %s: ", cls);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

int check_done(void)
{
	printf("%lu passed, %lu failed, %lu skipped\n", passed, failed, skipped);
	fflush(stdout);
	return failed ? 1 : 0;
}

unsigned long check_seed(unsigned long dflt)
{
	const char *s = getenv("VFIT_TEST_SEED");
	unsigned long seed = dflt;
	char *end;

	if (s && *s) {
		seed = strtoul(s, &end, 0);
		if (*end) {
			printf("FAIL VFIT_TEST_SEED=%s is not a number\n", s);
			failed++;
			exit(check_done());
		}
	}
	printf("seed %lu (VFIT_TEST_SEED=%lu replays this run)\n", seed, seed);
	rand_state = seed;
	return seed;
}

/* splitmix64: every seed, including 0, gives a full-period sequence. */
uint64_t check_rand(void)
{
	uint64_t z = (rand_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void check_rand_bytes(void *p, size_t n)
{
	uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(check_rand() >> 56);
}

/* Whether VFIT_TEST_HIDE_CPU names feature in its comma-separated list. */
static int cpu_hidden(const char *feature)
{
	const char *h = getenv("VFIT_TEST_HIDE_CPU"), *p;
	size_t n = strlen(feature);

	for (p = h; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, feature, n) && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

/* Runs this program under qemu-x86_64 -cpu max with env set; exec, or fork and wait. */
static int run_emulated(char *self, char **argv, const char *env, int replace)
{
	char *av[64];
	int i, n = 0, st;
	pid_t pid;

	av[n++] = "qemu-x86_64";
	av[n++] = "-cpu";
	av[n++] = "max";
	av[n++] = self;
	for (i = 1; argv[i] && n < 63; i++)
		av[n++] = argv[i];
	av[n] = NULL;
	fflush(stdout);
	if (replace) {
		setenv(env, "qemu-x86_64 -cpu max", 1);
		execvp(av[0], av);
		unsetenv(env);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		setenv(env, "1", 1);
		execvp(av[0], av);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int check_cpu(int have, const char *feature, char **argv)
{
	const char *emulated = getenv("VFIT_TEST_EMULATED");
	char self[PATH_MAX];
	ssize_t n;
	int probe;

	if (getenv("VFIT_TEST_CPU_PROBE"))
		exit(have ? 0 : 1);
	if (emulated) {
		if (have) {
			printf("running under %s: this CPU has no %s\n", emulated, feature);
			return 1;
		}
		SKIP("hw", "%s: missing here and under %s", feature, emulated);
		return 0;
	}
	if (have && !cpu_hidden(feature))
		return 1;
#ifdef CHECK_ASAN
	SKIP("hw", "this CPU has no %s (ASan builds do not run under qemu-x86_64)", feature);
	return 0;
#endif
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		SKIP("hw", "this CPU has no %s, and /proc/self/exe is unreadable", feature);
		return 0;
	}
	self[n] = '\0';
	probe = run_emulated(self, argv, "VFIT_TEST_CPU_PROBE", 0);
	if (probe == 127 || probe < 0) {
		SKIP("hw", "this CPU has no %s, and qemu-x86_64 (qemu-user) is not installed",
		     feature);
		return 0;
	}
	if (probe != 0) {
		SKIP("hw", "neither this CPU nor qemu-x86_64 -cpu max has %s", feature);
		return 0;
	}
	run_emulated(self, argv, "VFIT_TEST_EMULATED", 1);
	SKIP("hw", "this CPU has no %s, and qemu-x86_64 did not start", feature);
	return 0;
}

const char *check_vectors_dir(void)
{
	const char *d = getenv("VFIT_VECTORS");

	return d && *d ? d : "tests/vectors";
}

char *check_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n = -1;

	if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		fclose(f);
		buf[n] = 0;
		if (len)
			*len = (size_t)n;
		return buf;
	}
	if (f)
		fclose(f);
	free(buf);
	REQUIRE(0, "cannot read %s", path);
	return NULL;
}

static int nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long check_unhex(const char *hex, size_t len, uint8_t *out, size_t cap)
{
	size_t i;

	if (len % 2 || len / 2 > cap)
		return -1;
	for (i = 0; i < len / 2; i++) {
		int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (long)(len / 2);
}
