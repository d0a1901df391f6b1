/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An interrupted mkimage, dumpimage or mkenvimage (SIGINT, SIGTERM,
 * SIGHUP) leaves nothing behind (issue 29 item 9): no hidden temporary
 * `.NAME.XXXXXX` beside its output, no private copy of the .its that
 * mkimage gives dtc, and the old output as it was.
 *
 * Each run is a child process that must die of the signal, sent at a
 * fixed point from inside: this program defines rename() and waitpid(),
 * so the host code linked into it calls these, which send the signal
 * when armed.  At the rename() every temporary output is written
 * (mkimage with -K has two); at the waitpid() dtc has compiled the
 * private copy of the .its, which still exists.  Before the signal
 * handler existed, every case below left its temporary files.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libfdt.h>

#include "check.h"
#include "vfit-host/host.h"
#include "vfit-host/tools.h"

/* Where the signal comes from (0: nowhere), and which. */
enum at { NOWHERE, AT_RENAME, AT_WAITPID };
static enum at armed;
static int armed_sig;

static void fire(enum at here)
{
	if (armed == here)
		kill(getpid(), armed_sig);
}

int rename(const char *from, const char *to)
{
	static int (*real)(const char *, const char *);

	fire(AT_RENAME);
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "rename");
	return real(from, to);
}

pid_t waitpid(pid_t pid, int *status, int options)
{
	static pid_t (*real)(pid_t, int *, int);

	fire(AT_WAITPID);
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "waitpid");
	return real(pid, status, options);
}

static char dir[512], tmpdir[600];

static void put_file(const char *name, const void *p, size_t n)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	REQUIRE(f && fwrite(p, 1, n, f) == n && !fclose(f), "write %s", path);
}

/* Whether name in dir holds exactly the len bytes at want. */
static int holds(const char *name, const void *want, size_t len)
{
	char path[PATH_MAX], got[256];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		return 0;
	n = fread(got, 1, sizeof(got), f);
	fclose(f);
	return n == len && !memcmp(got, want, n);
}

/* The names in d other than . and .., and what put_file() made (keep[]); 0 if none. */
static int leftovers(const char *d, const char *const *keep, char *first, size_t size)
{
	DIR *h = opendir(d);
	struct dirent *de;
	int n = 0, k, known;

	while (h && (de = readdir(h))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		for (known = 0, k = 0; keep && keep[k]; k++)
			known |= !strcmp(de->d_name, keep[k]);
		if (!known && !n++)
			snprintf(first, size, "%s", de->d_name);
	}
	if (h)
		closedir(h);
	return n;
}

/* Runs fn in a child armed at `at` with sig; whether the child died of sig. */
static int interrupted(int (*fn)(void), enum at at, int sig)
{
	int st = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	REQUIRE(pid >= 0, "fork");
	if (!pid) {
		int devnull = open("/dev/null", O_WRONLY);

		/* The runs' own lines are not this program's output. */
		dup2(devnull, 1);
		dup2(devnull, 2);
		armed = at;
		armed_sig = sig;
		_exit(fn() ? 3 : 4);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFSIGNALED(st) && WTERMSIG(st) == sig;
}

/* ---- the three tools ----------------------------------------------------- */

static int run_mkimage(void)
{
	struct vfit_mkimage m = { 0 };
	struct vfit_err e = { 0 };
	char its[PATH_MAX], out[PATH_MAX], ctl[PATH_MAX], keys[PATH_MAX];

	snprintf(its, sizeof(its), "%s/fit.its", dir);
	snprintf(out, sizeof(out), "%s/out.fit", dir);
	snprintf(ctl, sizeof(ctl), "%s/ctl.dtb", dir);
	snprintf(keys, sizeof(keys), "%s/keys", dir);
	m.its = its;
	m.out = out;
	m.keydir = keys;
	m.keydest = ctl;
	m.position = -1;
	return vfit_mkimage_run(&m, &e);
}

static int run_dumpimage(void)
{
	struct vfit_dump d = { 0 };
	struct vfit_err e = { 0 };
	char img[PATH_MAX], out[PATH_MAX];
	FILE *quiet = fopen("/dev/null", "w");
	int r;

	snprintf(img, sizeof(img), "%s/small.fit", dir);
	snprintf(out, sizeof(out), "%s/out.bin", dir);
	d.image = img;
	d.type = "flat_dt";
	d.pos = 0;
	d.out = out;
	r = quiet ? vfit_dumpimage(&d, quiet, &e) : -1;
	if (quiet)
		fclose(quiet);
	return r;
}

static int run_mkenvimage(void)
{
	struct vfit_envimage p = { 4096, 0, 0, 0xff };
	struct vfit_err e = { 0 };
	char in[PATH_MAX], out[PATH_MAX];

	snprintf(in, sizeof(in), "%s/env.txt", dir);
	snprintf(out, sizeof(out), "%s/out.env", dir);
	return vfit_envimage_file(&p, in, out, &e);
}

/* ---- inputs --------------------------------------------------------------- */

static const char *const made[] = {
	"fit.its", "kernel.bin", "small.fit", "env.txt", "ctl.dtb", "keys", "out.fit",
	"out.bin", "out.env", "tmp", NULL,
};

static void inputs(void)
{
	static const char its[] =
		"/dts-v1/;\n/ {\n\tdescription = \"interrupted\";\n\t#address-cells = <1>;\n"
		"\timages { kernel { data = /incbin/(\"kernel.bin\"); type = \"kernel\";\n"
		"\t\tarch = \"arm64\"; os = \"linux\"; compression = \"none\"; load = <0>; entry = <0>;\n"
		"\t\thash-1 { algo = \"sha256\"; }; }; };\n"
		"\tconfigurations { default = \"c\"; c { kernel = \"kernel\";\n"
		"\t\tsignature-1 { algo = \"sha256,rsa2048\"; key-name-hint = \"dev\"; }; }; };\n};\n";
	struct vfit_mkimage m = { 0 };
	struct vfit_err e = { 0 };
	char path[PATH_MAX], small[PATH_MAX];
	uint8_t *k = calloc(1, 2u << 20);

	REQUIRE(k != NULL, "calloc");
	/* 2 MiB: big enough for mkimage's /incbin/ bypass and its private copy. */
	put_file("kernel.bin", k, 2u << 20);
	free(k);
	put_file("fit.its", its, strlen(its));
	put_file("env.txt", "bootcmd=boot\n", 13);
	snprintf(path, sizeof(path), "%s/keys", dir);
	REQUIRE(!mkdir(path, 0700) && !vfit_keygen(path, "dev", 2048, 0, &e), "keygen: %s", e.msg);
	snprintf(path, sizeof(path), "%s/fit.its", dir);
	snprintf(small, sizeof(small), "%s/small.fit", dir);
	m.its = path;
	m.out = small;
	m.position = -1;
	REQUIRE(!vfit_mkimage_run(&m, &e), "mkimage: %s", e.msg);
}

/* The old outputs: bytes no run would write, and a control DTB without keys. */
static char ctl[128];

static void old_outputs(void)
{
	FDT(fdt_create_empty_tree(ctl, sizeof(ctl)));
	put_file("out.fit", "old fit", 7);
	put_file("ctl.dtb", ctl, sizeof(ctl));
	put_file("out.bin", "old bin", 7);
	put_file("out.env", "old env", 7);
}

static int old(void)
{
	return holds("out.fit", "old fit", 7) && holds("ctl.dtb", ctl, sizeof(ctl)) &&
	       holds("out.bin", "old bin", 7) && holds("out.env", "old env", 7);
}

static void one(const char *what, int (*fn)(void), enum at at, int sig)
{
	char first[256] = "";

	old_outputs();
	CHECK(interrupted(fn, at, sig), "%s, signal %d: the run did not die of it", what, sig);
	CHECK(!leftovers(dir, made, first, sizeof(first)), "%s, signal %d: %s left beside the "
	      "output", what, sig, first);
	CHECK(!leftovers(tmpdir, NULL, first, sizeof(first)), "%s, signal %d: %s left in TMPDIR",
	      what, sig, first);
	CHECK(old(), "%s, signal %d: an old output changed", what, sig);
}

static void cleanup(const char *d)
{
	DIR *h = opendir(d);
	struct dirent *de;
	char path[PATH_MAX];

	while (h && (de = readdir(h))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", d, de->d_name);
		if (unlink(path))
			cleanup(path);
	}
	if (h)
		closedir(h);
	rmdir(d);
}

int main(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	size_t i;

	snprintf(dir, sizeof(dir), "%s/vfit-interrupt.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	REQUIRE(mkdtemp(dir), "mkdtemp %s", dir);
	snprintf(tmpdir, sizeof(tmpdir), "%s/tmp", dir);
	REQUIRE(!mkdir(tmpdir, 0700), "mkdir %s", tmpdir);
	inputs();
	/* mkimage's private copy for dtc goes to TMPDIR: a directory of its own here. */
	setenv("TMPDIR", tmpdir, 1);
	setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		one("mkimage -K, both outputs written", run_mkimage, AT_RENAME, sigs[i]);
		one("mkimage, dtc done with the private copy", run_mkimage, AT_WAITPID, sigs[i]);
		one("dumpimage -p", run_dumpimage, AT_RENAME, sigs[i]);
		one("mkenvimage", run_mkenvimage, AT_RENAME, sigs[i]);
	}
	/* Unarmed, each run still works: the handler changes nothing else. */
	old_outputs();
	CHECK(!run_mkimage() && !run_dumpimage() && !run_mkenvimage(), "the runs, uninterrupted");
	CHECK(!holds("out.fit", "old fit", 7) && !holds("ctl.dtb", ctl, sizeof(ctl)) &&
	      !holds("out.bin", "old bin", 7) && !holds("out.env", "old env", 7),
	      "uninterrupted runs replaced their outputs");
	cleanup(dir);
	return check_done();
}
