/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What signing and verifying a large FIT costs, in bytes per payload byte,
 * never in time (clocks are flaky in CI; these counts are exact):
 *
 *  - copied: memcpy/memmove calls of 64 KiB or more, from vfit's code and
 *    from libfdt's (this program defines both, so the dynamic linker binds
 *    libfdt's calls here too);
 *  - hashed: vfit_hash_update() (wrapped with --wrap by the Makefile);
 *  - read and written: read/pread and write/pwrite; copy_file_range(), the
 *    kernel copying a payload from its file into the output without it
 *    passing through this process, counts as written;
 *  - peak: the most memory held at once in blocks of 1 MiB or more
 *    (malloc, calloc, realloc, mmap).
 *
 * The floor for a FIT of one big payload is one read of it, one hash, one
 * write, no copy in memory and the output's size held at once; each run
 * of the vfit subcommands (create + sign with -K, -F re-sign, -E external
 * data and its -F, verify) is checked against that floor with a small
 * margin.  068464b's signer copied the whole FIT twice per run (once per
 * signing pass, into a second buffer) and held two copies at once.
 * Creating from an .its and verifying hold no payload in memory at all
 * (host/core/fdtbuf.c, host/verify/fit_sparse.c): resident at most 0.05
 * of it, where reading it whole into a buffer takes 1.0 (and the kernel's
 * zeroing of every page of it) -- whatever the number and order of the payloads: a
 * kernel, a DTB and a larger ramdisk after the kernel (issue 34's order)
 * cost what one payload of their size costs.
 *
 * Under ASan the allocator and the copy functions are the sanitizer's, so
 * only the hashed bytes and the outcomes are checked there.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libfdt.h>

#include "check.h"
#include "vfit/hash.h"
#include "vfit-host/host.h"
#include "../../cli/cli.h"

#if defined(__SANITIZE_ADDRESS__)
#define COST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COST_ASAN 1
#endif
#endif

#define PAYLOAD (16u << 20)
#define BIG (1u << 20)     /* blocks counted towards the peak */
#define COPY_MIN (1u << 16) /* copies counted */

struct cost {
	unsigned long long copied, hashed, read, written, peak, rss;
};

static struct cost now;
static unsigned long long held;

/* ---- hashing (--wrap=vfit_hash_update) ------------------------------- */

void __real_vfit_hash_update(struct vfit_hash_ctx *ctx, const void *data, size_t len);
void __wrap_vfit_hash_update(struct vfit_hash_ctx *ctx, const void *data, size_t len);
void __wrap_vfit_hash_update(struct vfit_hash_ctx *ctx, const void *data, size_t len)
{
	now.hashed += len;
	__real_vfit_hash_update(ctx, data, len);
}

#ifndef COST_ASAN
/* ---- big blocks: malloc and mmap ------------------------------------- */

static struct {
	void *p;
	size_t len;
} blocks[64];

static void big_add(void *p, size_t len)
{
	size_t i;

	if (!p || len < BIG)
		return;
	for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++)
		if (!blocks[i].p) {
			blocks[i].p = p;
			blocks[i].len = len;
			held += len;
			if (held > now.peak)
				now.peak = held;
			return;
		}
	abort();
}

static void big_del(void *p)
{
	size_t i;

	for (i = 0; p && i < sizeof(blocks) / sizeof(blocks[0]); i++)
		if (blocks[i].p == p) {
			held -= blocks[i].len;
			blocks[i].p = NULL;
			return;
		}
}

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t m);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

void *malloc(size_t n)
{
	void *p = __libc_malloc(n);

	big_add(p, n);
	return p;
}

void *calloc(size_t n, size_t m)
{
	void *p = __libc_calloc(n, m);

	big_add(p, n * m);
	return p;
}

void *realloc(void *old, size_t n)
{
	void *p;

	big_del(old);
	p = __libc_realloc(old, n);
	big_add(p ? p : old, p ? n : malloc_usable_size(old));
	return p;
}

void free(void *p)
{
	big_del(p);
	__libc_free(p);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);
	void *p;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "mmap");
	p = real(addr, len, prot, flags, fd, off);
	if (p != MAP_FAILED)
		big_add(p, len);
	return p;
}

int munmap(void *p, size_t len)
{
	static int (*real)(void *, size_t);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "munmap");
	big_del(p);
	return real(p, len);
}

/* ---- copies ---------------------------------------------------------- */

/* Before dlsym() has answered (it may copy itself): byte by byte, uncounted. */
static void *slow_copy(void *d, const void *s, size_t n)
{
	volatile unsigned char *dv = d;
	const unsigned char *sv = s;
	size_t i;

	if (dv < sv)
		for (i = 0; i < n; i++)
			dv[i] = sv[i];
	else
		for (i = n; i-- > 0;)
			dv[i] = sv[i];
	return d;
}

/* Both names go through libc's memmove (found once; copies until then are uncounted). */
static void *counted_copy(void *d, const void *s, size_t n)
{
	static void *(*real)(void *, const void *, size_t);
	static int looking;

	if (!real && !looking) {
		looking = 1;
		*(void **)&real = dlsym(RTLD_NEXT, "memmove");
	}
	if (!real)
		return slow_copy(d, s, n);
	if (n >= COPY_MIN)
		now.copied += n;
	return real(d, s, n);
}

void *memmove(void *d, const void *s, size_t n)
{
	return counted_copy(d, s, n);
}

void *memcpy(void *restrict d, const void *restrict s, size_t n)
{
	return counted_copy(d, s, n);
}

/* ---- file I/O -------------------------------------------------------- */

#define IO_WRAP(ret, name, field, params, args)                                 \
	ret name params                                                         \
	{                                                                       \
		static ret (*real) params;                                      \
		ret r;                                                          \
                                                                                \
		if (!real)                                                      \
			*(void **)&real = dlsym(RTLD_NEXT, #name);              \
		r = real args;                                                  \
		if (r > 0)                                                      \
			now.field += (unsigned long long)r;                     \
		return r;                                                       \
	}

IO_WRAP(ssize_t, read, read, (int fd, void *p, size_t n), (fd, p, n))
IO_WRAP(ssize_t, pread, read, (int fd, void *p, size_t n, off_t o), (fd, p, n, o))
IO_WRAP(ssize_t, pread64, read, (int fd, void *p, size_t n, off_t o), (fd, p, n, o))
IO_WRAP(ssize_t, write, written, (int fd, const void *p, size_t n), (fd, p, n))
IO_WRAP(ssize_t, pwrite, written, (int fd, const void *p, size_t n, off_t o), (fd, p, n, o))
IO_WRAP(ssize_t, pwrite64, written, (int fd, const void *p, size_t n, off_t o), (fd, p, n, o))
IO_WRAP(ssize_t, copy_file_range, written, (int in, loff_t *ip, int out, loff_t *op, size_t n,
	unsigned int f), (in, ip, out, op, n, f))
#endif

/* ---- the runs -------------------------------------------------------- */

static char dir[512];   /* $TMPDIR/vfit-cost.XXXXXX */

static void put_file(const char *name, const void *p, size_t n)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	REQUIRE(f && fwrite(p, 1, n, f) == n && !fclose(f), "write %s", path);
}

/* Inverts the byte in the middle of a file (inside the 16 MiB payload of these FITs). */
static void flip_middle(const char *name)
{
	char path[PATH_MAX];
	unsigned char c = 0;
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR);
	REQUIRE(fd >= 0 && !fstat(fd, &st) && pread(fd, &c, 1, st.st_size / 2) == 1, "%s", path);
	c = (unsigned char)~c;
	REQUIRE(pwrite(fd, &c, 1, st.st_size / 2) == 1 && !close(fd), "%s", path);
}

/* VmRSS or VmHWM of this process in bytes (0 if unreadable). */
static unsigned long long resident(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long kb = 0;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			kb = strtoull(line + strlen(key), NULL, 10);
	if (f)
		fclose(f);
	return kb * 1024;
}

/* The peak resident size starts again from the current one (Linux 4.0+). */
static void reset_peak(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");

	REQUIRE(f && fputs("5", f) >= 0 && !fclose(f), "/proc/self/clear_refs");
}

/* Runs one subcommand line (words split at spaces) in dir; its exit status. */
static int run(int (*cmd)(int, char **), const char *line, struct cost *c)
{
	char buf[512], *argv[32], *save = NULL;
	int argc = 0, r, out = dup(1), devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	unsigned long long base, rss;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *w = strtok_r(buf, " ", &save); w && argc < 31; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	/* getopt forgets the last parse only through optind = 0 and one call. */
	optind = 0;
	getopt(1, (char *[]){ "x", NULL }, "");
	fflush(stdout);
	/* The subcommands' own lines are not this program's output. */
	dup2(devnull, 1);
	close(devnull);
	memset(&now, 0, sizeof(now));
	held = 0;
	base = resident("VmRSS:");
	reset_peak();
	r = cmd(argc, argv);
	rss = resident("VmHWM:");
	now.rss = rss > base ? rss - base : 0;
	fflush(stdout);
	dup2(out, 1);
	close(out);
	*c = now;
	return r;
}

/*
 * Each count of c at most lim[i] bytes per payload byte (payload bytes in
 * all: -1: only shown), the resident peak with SLACK more for the
 * program's own pages.
 */
#define SLACK (4u << 20)
static void expect_of(const char *what, const struct cost *c, const double lim[6],
		      double payload)
{
	static const char *const names[] = { "copied", "hashed", "read", "written", "alloc",
					     "rss" };
	const unsigned long long v[] = { c->copied, c->hashed, c->read, c->written, c->peak,
					 c->rss };
	double cap;
	int i;

	printf("%-18s", what);
	for (i = 0; i < 6; i++)
		printf(" %s %.3f", names[i], (double)v[i] / payload);
	printf("\n");
	for (i = 0; i < 6; i++) {
#ifdef COST_ASAN
		if (i != 1)
			continue;
#endif
		cap = lim[i] * payload + (i == 5 ? SLACK : 0);
		if (lim[i] >= 0)
			CHECK((double)v[i] <= cap, "%s: %s %.3f bytes per payload byte, at most %.3f "
			      "allowed", what, names[i], (double)v[i] / payload, cap / payload);
	}
}

static void expect(const char *what, const struct cost *c, const double lim[6])
{
	expect_of(what, c, lim, PAYLOAD);
}

/* The ramdisk of the three-image FIT: larger than the kernel before it. */
#define RAMDISK (PAYLOAD + PAYLOAD / 2)

/*
 * The .its: images then configurations, or (confs_first) the other way
 * round; with ramdisk, a third image after the kernel and the DTB.
 */
static void put_its(const char *name, int confs_first, const char *kernel_extra, int ramdisk)
{
	static const char head[] =
		"/dts-v1/;\n/ {\n\tdescription = \"cost\";\n\t#address-cells = <1>;\n";
	static const char images[] =
		"\timages {\n\t\tkernel {\n\t\t\tdata = /incbin/(\"kernel.bin\");\n"
		"\t\t\ttype = \"kernel\"; arch = \"arm64\"; os = \"linux\"; compression = \"none\";\n"
		"\t\t\tload = <0x80000>; entry = <0x80000>;\n"
		"\t\t\thash-1 { algo = \"sha256\"; };\n%s\t\t};\n"
		"\t\tfdt-1 {\n\t\t\tdata = /incbin/(\"board.dtb\");\n"
		"\t\t\ttype = \"flat_dt\"; arch = \"arm64\"; compression = \"none\";\n"
		"\t\t\thash-1 { algo = \"sha256\"; };\n\t\t};\n%s\t};\n";
	static const char rd[] =
		"\t\tramdisk-1 {\n\t\t\tdata = /incbin/(\"ramdisk.bin\");\n"
		"\t\t\ttype = \"ramdisk\"; arch = \"arm64\"; os = \"linux\"; compression = \"none\";\n"
		"\t\t\thash-1 { algo = \"sha256\"; };\n\t\t};\n";
	static const char confs[] =
		"\tconfigurations {\n\t\tdefault = \"conf-1\";\n\t\tconf-1 {\n"
		"\t\t\tkernel = \"kernel\"; fdt = \"fdt-1\";%s\n"
		"\t\t\tsignature-1 { algo = \"sha256,rsa2048\"; key-name-hint = \"dev\";\n"
		"\t\t\t\tsign-images = \"fdt\", \"kernel\"%s; };\n\t\t};\n\t};\n";
	char its[8192], img[2048], conf[1024];

	snprintf(img, sizeof(img), images, kernel_extra, ramdisk ? rd : "");
	snprintf(conf, sizeof(conf), confs, ramdisk ? " ramdisk = \"ramdisk-1\";" : "",
		 ramdisk ? ", \"ramdisk\"" : "");
	snprintf(its, sizeof(its), "%s%s%s};\n", head, confs_first ? conf : img,
		 confs_first ? img : conf);
	put_file(name, its, strlen(its));
}

static void inputs(void)
{
	char dtb[256], keys[PATH_MAX];
	struct vfit_err e = { 0 };
	uint8_t *k = malloc(RAMDISK);

	REQUIRE(k != NULL, "malloc");
	check_rand_bytes(k, RAMDISK);
	put_file("kernel.bin", k, PAYLOAD);
	put_file("ramdisk.bin", k, RAMDISK);
	free(k);
	FDT(fdt_create_empty_tree(dtb, sizeof(dtb)));
	FDT(fdt_setprop_string(dtb, 0, "model", "board"));
	fdt_pack(dtb);
	put_file("board.dtb", dtb, fdt_totalsize(dtb));
	FDT(fdt_create_empty_tree(dtb, sizeof(dtb)));
	fdt_pack(dtb);
	put_file("ctl.dtb", dtb, fdt_totalsize(dtb));
	put_its("fit.its", 0, "", 0);
	/* The configuration signature grows the tree before the payload. */
	put_its("confs-first.its", 1, "", 0);
	/* An image signature needs the payload's digest before the tree is laid out. */
	put_its("image-sig.its", 0, "\t\t\tsignature-1 { algo = \"sha256,rsa2048\"; "
		"key-name-hint = \"dev\"; };\n", 0);
	put_its("three.its", 0, "", 1);
	snprintf(keys, sizeof(keys), "%s/keys", dir);
	REQUIRE(!mkdir(keys, 0700) && !vfit_keygen(keys, "dev", 2048, 0, &e), "keygen: %s", e.msg);
}

static void cleanup(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[PATH_MAX];

	static const char *const keyfiles[] = { "keys/dev.key", "keys/dev.crt", "keys" };
	for (size_t i = 0; i < sizeof(keyfiles) / sizeof(keyfiles[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, keyfiles[i]);
		remove(path);
	}
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

int main(void)
{
	/*
	 * copied, hashed, read, written, big blocks allocated (shown only: an
	 * index sized by the structure block is allocated, never touched),
	 * resident peak: the floor 0, 1, 1, 1, -, 1 (0 from an .its and for
	 * verify) with small margins.
	 */
	static const double verify[6] = { 0.01, 1.01, 1.01, 0.01, -1, 0.05 };
	/*
	 * From an .its, or from the FIT -F updates, each payload goes from its
	 * file to the output, never held: hashed from the file, copied by the
	 * kernel.
	 */
	static const double create_its[6] = { 0.01, 1.01, 1.01, 1.01, -1, 0.05 };
	struct cost c;
	char cwd[PATH_MAX];

	/*
	 * A fixed threshold: big blocks always mapped and returned when freed,
	 * as in a fresh vfit process (glibc raises it after a big free).
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	snprintf(dir, sizeof(dir), "%s/vfit-cost.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	REQUIRE(getcwd(cwd, sizeof(cwd)) && mkdtemp(dir), "mkdtemp %s", dir);
	REQUIRE(!chdir(dir), "chdir %s", dir);
	setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
	inputs();

	CHECK(!run(cmd_mkimage, "mkimage -q -f fit.its -k keys -K ctl.dtb -r out.fit", &c),
	      "create + sign");
	expect("create + sign -K", &c, create_its);
	CHECK(!run(cmd_mkimage, "mkimage -q -F -k keys -K ctl.dtb -r out.fit", &c), "-F re-sign");
	expect("-F re-sign -K", &c, create_its);
	CHECK(!run(cmd_verify, "verify -f out.fit -k ctl.dtb", &c), "verify");
	expect("verify", &c, verify);

	CHECK(!run(cmd_mkimage, "mkimage -q -f fit.its -k keys -E ext.fit", &c), "create -E");
	expect("create + sign -E", &c, create_its);
	CHECK(!run(cmd_mkimage, "mkimage -q -F -k keys -E ext.fit", &c), "-F -E");
	expect("-F re-sign -E", &c, create_its);
	CHECK(!run(cmd_verify, "verify -f ext.fit -k ctl.dtb", &c), "verify -E");
	expect("verify -E", &c, verify);
	/* The payload that verify hashes from the file is the file's. */
	flip_middle("out.fit");
	CHECK(run(cmd_verify, "verify -f out.fit -k ctl.dtb", &c) == 1, "a changed payload verified");
	flip_middle("ext.fit");
	CHECK(run(cmd_verify, "verify -f ext.fit -k ctl.dtb", &c) == 1,
	      "a changed external payload verified");

	/* Without -q the new FIT is listed: its tree read back, not its payload. */
	CHECK(!run(cmd_mkimage, "mkimage -f fit.its -k keys -K ctl.dtb -r list.fit", &c),
	      "create + sign, listed");
	expect("create, listed", &c, create_its);
	CHECK(!run(cmd_mkimage, "mkimage -q -f confs-first.its -k keys -K ctl.dtb -r cf.fit", &c),
	      "create, configurations first");
	expect("confs first", &c, create_its);
	CHECK(!run(cmd_verify, "verify -f cf.fit -k ctl.dtb", &c), "verify, configurations first");
	CHECK(!run(cmd_mkimage, "mkimage -q -f image-sig.its -k keys -K ctl.dtb -r is.fit", &c),
	      "create, image signature");
	expect("image signature", &c, create_its);
	CHECK(!run(cmd_verify, "verify -f is.fit -k ctl.dtb", &c), "verify, image signature");
	/* Kernel, DTB and a larger ramdisk after the kernel: as one payload of their size. */
	CHECK(!run(cmd_mkimage, "mkimage -q -f three.its -k keys -K ctl.dtb -r three.fit", &c),
	      "create, three images");
	expect_of("three images", &c, create_its, PAYLOAD + RAMDISK);
	CHECK(!run(cmd_verify, "verify -f three.fit -k ctl.dtb", &c), "verify, three images");
	CHECK(!run(cmd_mkimage, "mkimage -q -f three.its -k keys -E three-ext.fit", &c),
	      "create -E, three images");
	expect_of("three images -E", &c, create_its, PAYLOAD + RAMDISK);
	CHECK(!run(cmd_verify, "verify -f three-ext.fit -k ctl.dtb", &c),
	      "verify -E, three images");

	REQUIRE(!chdir(cwd), "chdir back");
	cleanup();
	return check_done();
}
