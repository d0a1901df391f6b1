/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * File backend of the rollback counters: semantics, fail-closed on every
 * kind of damage, and atomicity under SIGKILL in the middle of writes.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vfit/hash.h"
#include "vfit-host/counters.h"
#include "check.h"

static char dir[128];
static char path[160];

static size_t slurp(const char *p, uint8_t *buf, size_t cap)
{
	FILE *f = fopen(p, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static void spit(const char *p, const uint8_t *buf, size_t n)
{
	FILE *f = fopen(p, "wb");

	if (!f || fwrite(buf, 1, n, f) != n)
		abort();
	fclose(f);
}

/* Opens path and reads name: 0 and the value, or -1 with e set. */
static int open_read(const char *name, uint64_t *v, struct vfit_err *e)
{
	struct vfit_ctr_store *s = vfit_ctr_file_open(path, e);
	int r;

	if (!s)
		return -1;
	r = vfit_ctr_read(s, name, v, e);
	vfit_ctr_close(s);
	return r;
}

/* The store must refuse to open with status 1, naming the file and what. */
static void expect_refused(const char *what, const char *needle)
{
	struct vfit_err e = { 0 };
	uint64_t v = 12345;
	int r = open_read("kernel", &v, &e);

	CHECK(r == -1 && e.status == 1, "%s: accepted (r=%d status=%d)", what, r, e.status);
	CHECK(strstr(e.msg, path) != NULL, "%s: message does not name the file: %s", what, e.msg);
	CHECK(strstr(e.msg, needle) != NULL, "%s: message lacks '%s': %s", what, needle, e.msg);
	CHECK(v == 12345, "%s: value written on failure", what);
}

static void test_basics(void)
{
	struct vfit_err e = { 0 };
	struct vfit_ctr_store *s;
	uint64_t v = 99, o, n;

	CHECK(vfit_ctr_file_provision(path, &e) == 0, "provision: %s", e.msg);
	e = (struct vfit_err){ 0 };
	CHECK(vfit_ctr_file_provision(path, &e) == -1 && e.status == 1 &&
	      strstr(e.msg, "already exists"), "second provision: %d %s", e.status, e.msg);
	e = (struct vfit_err){ 0 };
	s = vfit_ctr_file_open(path, &e);
	CHECK(s != NULL, "open: %s", e.msg);
	if (!s)
		return;
	CHECK(strstr(vfit_ctr_describe(s), path) != NULL, "describe: %s", vfit_ctr_describe(s));
	CHECK(vfit_ctr_read(s, "kernel", &v, &e) == 0 && v == 0, "fresh counter reads %llu",
	      (unsigned long long)v);
	CHECK(vfit_ctr_read(s, "bootloader", &v, &e) == 0 && v == 0, "second name");
	CHECK(vfit_ctr_advance(s, "kernel", 5, &o, &n, &e) == 0 && o == 0 && n == 5,
	      "advance 0->5: %llu %llu", (unsigned long long)o, (unsigned long long)n);
	CHECK(vfit_ctr_advance(s, "kernel", 3, &o, &n, &e) == 0 && o == 5 && n == 5,
	      "advance to lower is a no-op: %llu %llu", (unsigned long long)o, (unsigned long long)n);
	CHECK(vfit_ctr_advance(s, "kernel", 5, &o, &n, &e) == 0 && o == 5 && n == 5,
	      "advance to equal is a no-op");
	CHECK(vfit_ctr_advance(s, "bootloader", 2, NULL, NULL, &e) == 0, "advance bootloader");
	CHECK(vfit_ctr_advance(s, "kernel", 6, &o, &n, &e) == 0 && o == 5 && n == 6, "5->6");
	CHECK(vfit_ctr_read(s, "kernel", &v, &e) == 0 && v == 6, "kernel reads %llu",
	      (unsigned long long)v);
	CHECK(vfit_ctr_read(s, "bootloader", &v, &e) == 0 && v == 2, "bootloader reads %llu",
	      (unsigned long long)v);
	CHECK(vfit_ctr_advance(s, "max", UINT64_MAX, &o, &n, &e) == 0 && n == UINT64_MAX,
	      "advance to 2^64-1");
	CHECK(vfit_ctr_read(s, "max", &v, &e) == 0 && v == UINT64_MAX, "2^64-1 kept");
	CHECK(e.status == 0, "unexpected error: %s", e.msg);
	CHECK(vfit_ctr_read(s, "bad name", &v, &e) == -1 && e.status == 2 &&
	      strstr(e.msg, "invalid counter name"), "name with a space: %s", e.msg);
	e = (struct vfit_err){ 0 };
	CHECK(vfit_ctr_advance(s, "", 1, &o, &n, &e) == -1 && e.status == 2, "empty name");
	e = (struct vfit_err){ 0 };
	CHECK(vfit_ctr_read(s, "abcdefghijklmnopqrstuvwxyz789012", &v, &e) == -1,
	      "32-char name accepted");
	e = (struct vfit_err){ 0 };
	CHECK(vfit_ctr_read(s, "abcdefghijklmnopqrstuvwxyz78901", &v, &e) == 0, "31-char name: %s",
	      e.msg);
	vfit_ctr_close(s);
	/* A fresh handle sees the same values: nothing lives only in memory. */
	CHECK(open_read("kernel", &v, &e) == 0 && v == 6, "reopen: %s", e.msg);
}

/* Every single-byte corruption and every truncation is refused. */
static void test_damage(void)
{
	uint8_t good[4096], bad[4096];
	size_t len = slurp(path, good, sizeof(good)), i;
	unsigned long flips_ok = 0, cuts_ok = 0;
	struct vfit_err e;
	uint64_t v;

	CHECK(len == 16 + 3 * 40 + 32, "store size %zu", len);
	for (i = 0; i < len; i++) {
		memcpy(bad, good, len);
		bad[i] ^= 0x01 << (i % 8);
		spit(path, bad, len);
		e = (struct vfit_err){ 0 };
		flips_ok += open_read("kernel", &v, &e) == -1 && e.status == 1 &&
			    strstr(e.msg, path) && strstr(e.msg, "refusing");
	}
	CHECK(flips_ok == len, "%lu of %zu bit flips refused", flips_ok, len);
	for (i = 0; i < len; i++) {
		spit(path, good, i);
		e = (struct vfit_err){ 0 };
		cuts_ok += open_read("kernel", &v, &e) == -1 && e.status == 1 &&
			   strstr(e.msg, path) && strstr(e.msg, "refusing");
	}
	CHECK(cuts_ok == len, "%lu of %zu truncations refused", cuts_ok, len);

	spit(path, good, len - 1);
	expect_refused("truncated by one", "truncated");
	spit(path, good, 0);
	expect_refused("empty", "truncated");

	memcpy(bad, good, len);
	memcpy(bad, "VFCX", 4);
	spit(path, bad, len);
	expect_refused("wrong magic", "bad magic");

	/* A naive edit: kernel's value (first entry) set back to 0, checksum kept. */
	memcpy(bad, good, len);
	memset(bad + 16 + 32, 0, 8);
	spit(path, bad, len);
	expect_refused("edited value", "checksum mismatch");

	memcpy(bad, good, len);
	bad[len - 1] ^= 0xff;
	spit(path, bad, len);
	expect_refused("bad checksum", "checksum mismatch");

	/* Consistent checksum, unknown version. */
	memcpy(bad, good, len);
	bad[7] = 2;
	vfit_hash(VFIT_HASH_SHA256, bad, len - 32, bad + len - 32);
	spit(path, bad, len);
	expect_refused("version 2", "unsupported format version");

	/* Consistent checksum, garbage after a name's terminator. */
	memcpy(bad, good, len);
	bad[16 + 31] = 'x';
	vfit_hash(VFIT_HASH_SHA256, bad, len - 32, bad + len - 32);
	spit(path, bad, len);
	expect_refused("name padding", "padding");

	memcpy(bad, good, len);
	bad[len] = 0;
	spit(path, bad, len + 1);
	expect_refused("trailing byte", "trailing");

	/* A damaged store stays damaged: advance does not "repair" it to zero. */
	memcpy(bad, good, len);
	bad[20] ^= 1;
	spit(path, bad, len);
	{
		uint8_t after[4096];

		e = (struct vfit_err){ 0 };
		CHECK(vfit_ctr_file_open(path, &e) == NULL && e.status == 1, "open of damaged store");
		CHECK(slurp(path, after, sizeof(after)) == len && !memcmp(after, bad, len),
		      "damaged store was rewritten");
	}

	unlink(path);
	expect_refused("deleted store", "missing");
	spit(path, good, len);
	e = (struct vfit_err){ 0 };
	CHECK(open_read("kernel", &v, &e) == 0 && v == 6, "restored store: %s", e.msg);
}

static void test_io_errors(void)
{
	struct vfit_err e = { 0 };
	char p[200];

	snprintf(p, sizeof(p), "%s/no/such/dir/counters", dir);
	CHECK(vfit_ctr_file_provision(p, &e) == -1 && e.status == 2 && strstr(e.msg, p),
	      "provision into a missing directory: %d %s", e.status, e.msg);
	e = (struct vfit_err){ 0 };
	CHECK(vfit_ctr_file_open(dir, &e) == NULL && e.status == 1 &&
	      strstr(e.msg, "not a regular file"), "directory as store: %d %s", e.status, e.msg);
	/* A FIFO planted as the store must be refused at once, not block the boot. */
	snprintf(p, sizeof(p), "%s/fifo", dir);
	CHECK(mkfifo(p, 0600) == 0, "mkfifo %s", p);
	e = (struct vfit_err){ 0 };
	CHECK(vfit_ctr_file_open(p, &e) == NULL && e.status == 1 &&
	      strstr(e.msg, "not a regular file"), "FIFO as store: %d %s", e.status, e.msg);
	unlink(p);
}

/* A crash before the rename leaves a temp file, full or partial: ignored. */
static void test_stray_temp(void)
{
	char tmp[256], other[256];
	uint8_t buf[4096];
	struct vfit_err e = { 0 };
	struct vfit_ctr_store *s;
	uint64_t v, o, n;
	size_t len;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	snprintf(other, sizeof(other), "%s/other", dir);
	/* A complete "new" store that never got renamed into place. */
	s = NULL;
	if (vfit_ctr_file_provision(other, &e) == 0)
		s = vfit_ctr_file_open(other, &e);
	CHECK(s && vfit_ctr_advance(s, "kernel", 99, NULL, NULL, &e) == 0, "other: %s", e.msg);
	vfit_ctr_close(s);
	len = slurp(other, buf, sizeof(buf));
	spit(tmp, buf, len);
	CHECK(open_read("kernel", &v, &e) == 0 && v == 6, "complete temp file used: %llu",
	      (unsigned long long)v);
	/* A half-written one. */
	spit(tmp, buf, len / 2);
	CHECK(open_read("kernel", &v, &e) == 0 && v == 6, "partial temp file used");
	s = vfit_ctr_file_open(path, &e);
	CHECK(s && vfit_ctr_advance(s, "kernel", 7, &o, &n, &e) == 0 && o == 6 && n == 7,
	      "advance over a stray temp file: %s", e.msg);
	vfit_ctr_close(s);
	CHECK(access(tmp, F_OK) != 0, "temp file left behind after a write");
	CHECK(open_read("kernel", &v, &e) == 0 && v == 7, "after advance: %s", e.msg);
}

/* Advances name from..to; after each advance, one byte on report (if >= 0). */
static void child_advance_loop(const char *name, uint64_t from, uint64_t to, int report)
{
	struct vfit_err e = { 0 };
	struct vfit_ctr_store *s = vfit_ctr_file_open(path, &e);
	uint64_t i;

	if (!s)
		_exit(3);
	for (i = from; i <= to; i++) {
		if (vfit_ctr_advance(s, name, i, NULL, NULL, &e))
			_exit(4);
		if (report >= 0 && write(report, "", 1) != 1)
			_exit(5);
	}
	vfit_ctr_close(s);
	_exit(0);
}

/*
 * SIGKILL a writer in the middle of its writes.  It reports each advance
 * it completed on a pipe; after k reports (k from the seeded generator,
 * 1..16) it is killed wherever it then is in its next write.  After each
 * kill the store opens and holds a value the writer wrote: at least the
 * k-th, so never less than before.  No timing: the k writes are certain on
 * any machine, where the kill lands in the next one varies.
 */
static void test_kill(int rounds)
{
	uint64_t last = 0, v = 0;
	int r, clean = 0, in_range = 0, reported = 0, killed = 0;
	struct vfit_err e;

	e = (struct vfit_err){ 0 };
	CHECK(open_read("crash", &last, &e) == 0, "crash start: %s", e.msg);
	for (r = 0; r < rounds; r++) {
		unsigned k = 1 + (unsigned)(check_rand() % 16), got = 0;
		int pfd[2], st, readable;
		char c;
		pid_t pid;

		if (!CHECK(pipe(pfd) == 0, "pipe"))
			return;
		pid = fork();
		if (pid == 0) {
			close(pfd[0]);
			child_advance_loop("crash", last + 1, last + 100000, pfd[1]);
		}
		close(pfd[1]);
		while (got < k && read(pfd[0], &c, 1) == 1)
			got++;
		reported += got == k;
		killed += kill(pid, SIGKILL) == 0;
		waitpid(pid, &st, 0);
		close(pfd[0]);
		e = (struct vfit_err){ 0 };
		v = 0;
		readable = open_read("crash", &v, &e) == 0;
		clean += readable;
		in_range += readable && v >= last + k && v <= last + 100000;
		if (!readable || v < last + k)
			printf("round %d: after %u reported writes from %llu: %llu %s\n", r, got,
			       (unsigned long long)last, (unsigned long long)v, e.msg);
		if (readable)
			last = v;
	}
	CHECK(clean == rounds, "%d of %d stores readable after SIGKILL", clean, rounds);
	CHECK(in_range == rounds, "%d of %d values at least the last reported one", in_range,
	      rounds);
	CHECK(reported == rounds, "%d of %d writers reported their writes", reported, rounds);
	CHECK(killed == rounds, "kills");
}

/* Two processes advancing different counters at once lose no update. */
static void test_concurrent(int count)
{
	pid_t a, b;
	int sa, sb;
	uint64_t va = 0, vb = 0;
	struct vfit_err e = { 0 };

	a = fork();
	if (a == 0)
		child_advance_loop("con-a", 1, (uint64_t)count, -1);
	b = fork();
	if (b == 0)
		child_advance_loop("con-b", 1, (uint64_t)count, -1);
	waitpid(a, &sa, 0);
	waitpid(b, &sb, 0);
	CHECK(WIFEXITED(sa) && !WEXITSTATUS(sa) && WIFEXITED(sb) && !WEXITSTATUS(sb),
	      "writers failed: %d %d", sa, sb);
	CHECK(open_read("con-a", &va, &e) == 0 && open_read("con-b", &vb, &e) == 0, "%s", e.msg);
	CHECK(va == (uint64_t)count && vb == (uint64_t)count, "lost updates: %llu %llu",
	      (unsigned long long)va, (unsigned long long)vb);
}

int main(void)
{
	int quick = getenv("VFIT_TEST_QUICK") != NULL;

	snprintf(dir, sizeof(dir), "%s/vfit-ctr.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	REQUIRE(mkdtemp(dir), "mkdtemp %s", dir);
	snprintf(path, sizeof(path), "%s/counters", dir);
	check_seed(1);
	test_basics();
	test_damage();
	test_io_errors();
	test_stray_temp();
	test_kill(quick ? 10 : 40);
	test_concurrent(quick ? 30 : 100);
	{
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			printf("cannot remove %s\n", dir);
	}
	return check_done();
}
