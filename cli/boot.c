/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit boot: the boot flow of lib/boot on a simulated device
 * (host/boot/boot_sim.c), its typed results mapped to exit statuses.  See
 * man/vfit-boot.1.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "vfit/boot_tpm.h"
#include "vfit-host/sim.h"

static const char *const default_counters[] = { "bootloader", "kernel", "recovery" };

/* One command per process: its scratch space and report (events and timings). */
static struct vfit_boot_scratch scratch;
static struct vfit_boot_event events[256];
static struct vfit_boot_timings times;
static struct vfit_boot_report report;

static int usage(FILE *f, int status)
{
	fprintf(f,
		"usage: vfit boot --device DIR [--trust SOCKDIR] [--timings] [--dump OUTDIR] [boot]\n"
		"       vfit boot --device DIR [--trust SOCKDIR] mark-good\n"
		"       vfit boot --device DIR [--trust SOCKDIR] update FIT [FIT...]\n"
		"       vfit boot --device DIR [--trust SOCKDIR] status\n"
		"       vfit boot --device DIR --trust SOCKDIR provision\n"
		"       vfit boot --device DIR dev-mode open|closed\n"
		"       vfit boot --device DIR init --rom DTB [--recovery FIT] [--user-keys DTB]\n"
		"                                   [--ram BASE:SIZE]... FIT...\n"
		"exit status: 0 a verified kernel would start (or the command succeeded),\n"
		"             1 halted, booted recovery only, or refused; 2 usage or I/O error\n");
	return status;
}

/* A non-empty regular file, mapped read-only (vfit_file_map()); NULL with e set. */
static const void *map_file(const char *path, size_t *len, struct vfit_err *e)
{
	const void *p;

	if (vfit_file_map(path, &p, len, e))
		return NULL;
	if (!p)
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: empty file", path);
	return p;
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The per-stage breakdown, and for scale the time SHA-256 alone takes over
 * the same FIT files (mapped fresh, hashed once).
 */
static void print_timings(const struct vfit_boot_report *r, const struct vfit_boot_sim *s,
			  uint64_t total)
{
	static const char *const phase[] = { "read", "verify", "load" };
	const struct vfit_boot_timings *t = r->timings;
	struct vfit_sha256_ctx c;
	struct vfit_err e = { 0 };
	uint8_t out[32];
	char path[PATH_MAX];
	uint64_t t0, sha = 0, bytes = 0;
	unsigned int i, p;
	size_t len;
	const void *fit;

	printf("Timings (ms):      %8s %8s %8s\n", phase[0], phase[1], phase[2]);
	for (i = 0; i <= VFIT_BOOT_MAX_STAGES; i++) {
		if (!t->t[i][0] && !t->t[i][1] && !t->t[i][2])
			continue;
		if (i < VFIT_BOOT_MAX_STAGES)
			printf("  stage %u         ", i + 1);
		else
			printf("  recovery        ");
		for (p = 0; p < VFIT_BOOT_T_PHASES; p++)
			printf(" %8.3f", ms(t->t[i][p]));
		printf("\n");
	}
	printf("  flow total       %8.3f ms for %llu FIT bytes verified\n", ms(total),
	       (unsigned long long)t->bytes_verified);
	if (r->slot == VFIT_BOOT_NONE)
		return;
	for (i = 1; i <= r->nstages; i++) {
		vfit_boot_sim_path(s, path, sizeof(path), VFIT_BOOT_OBJ_STAGE, r->slot, i);
		fit = map_file(path, &len, &e);
		if (!fit)
			return;
		/* Pages in first: this is the hash alone, as the flow's verify phase sees it. */
		madvise((void *)(uintptr_t)fit, len, MADV_WILLNEED);
		for (size_t off = 0; off < len; off += 4096)
			((volatile const uint8_t *)fit)[off];
		t0 = clock_ns();
		vfit_sha256_init(&c);
		vfit_sha256_update(&c, fit, len);
		vfit_sha256_final(&c, out);
		sha += clock_ns() - t0;
		bytes += len;
		vfit_file_unmap(fit, len);
	}
	printf("  sha256 alone     %8.3f ms over the %llu bytes of the booted chain (flow/sha256 %.2fx)\n",
	       ms(sha), (unsigned long long)bytes, sha ? (double)total / (double)sha : 0.0);
}

static int dump_range(const struct vfit_boot_sim *s, const char *dir, const char *name,
		      const struct vfit_boot_blob *b)
{
	const uint8_t *p = vfit_boot_sim_ram(s, b->addr, b->size);
	char path[PATH_MAX];
	FILE *f;
	int rc;

	if (!b->present)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = p ? fopen(path, "wb") : NULL;
	if (!f)
		return -1;
	rc = fwrite(p, 1, b->size, f) == b->size ? 0 : -1;
	return fclose(f) || rc ? -1 : 0;
}

/* Writes what the kernel would be handed: kernel.bin, fdt.dtb, ramdisk.bin. */
static int dump(const struct vfit_boot_sim *s, const struct vfit_boot_report *r, const char *dir)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	if (dump_range(s, dir, "kernel.bin", &r->kernel) ||
	    dump_range(s, dir, "fdt.dtb", &r->fdt) ||
	    dump_range(s, dir, "ramdisk.bin", &r->ramdisk))
		return -1;
	return 0;
}

static int run_boot(struct vfit_boot_sim *s, bool timed, const char *dump_dir)
{
	enum vfit_boot_outcome r;
	uint64_t t0;

	vfit_boot_report_init(&report, events, sizeof(events) / sizeof(events[0]));
	report.timings = timed ? &times : NULL;
	t0 = clock_ns();
	r = vfit_boot(&s->ops, &s->layout, &scratch, &report);
	t0 = clock_ns() - t0;
	fflush(stdout);
	if (timed)
		print_timings(&report, s, t0);
	if (dump_dir && (r == VFIT_BOOT_KERNEL || r == VFIT_BOOT_RECOVERY) &&
	    dump(s, &report, dump_dir)) {
		fprintf(stderr, "vfit: boot: %s: cannot write the loaded images\n", dump_dir);
		return 2;
	}
	switch (r) {
	case VFIT_BOOT_KERNEL:
		return 0;
	case VFIT_BOOT_RECOVERY:
		fprintf(stderr, "vfit: boot: booted RECOVERY: no slot verified\n");
		return 1;
	case VFIT_BOOT_HALT:
		/* As the stage says it: a chain verified, but what booted could not be recorded. */
		fprintf(stderr, "vfit: boot: halted: %s\n",
			report.why == VFIT_WHY_STATE_WRITE || report.why == VFIT_WHY_TRIAL_UNCOUNTED ?
			"the boot record could not be written" : "nothing verified");
		return s->ctr_error == VFIT_EXIT_USAGE ? 2 : 1;
	default:
		fprintf(stderr, "vfit: boot: %s: platform failure (%s)\n", s->dir,
			vfit_boot_why_to_string(report.why));
		return 2;
	}
}

/* Exit status of mark-good and update. */
static int status_of(enum vfit_boot_result r)
{
	return r == VFIT_BOOT_DONE ? 0 : r == VFIT_BOOT_REFUSED ? 1 : 2;
}

static int run_update(struct vfit_boot_sim *s, int argc, char **argv)
{
	const void *fit[VFIT_BOOT_MAX_STAGES];
	size_t len[VFIT_BOOT_MAX_STAGES];
	struct vfit_err e = { 0 };
	int i, n = argc, rc;

	if (n < 1 || n > VFIT_BOOT_MAX_STAGES)
		return usage(stderr, 2);
	for (i = 0; i < n; i++) {
		fit[i] = map_file(argv[i], &len[i], &e);
		if (!fit[i]) {
			fprintf(stderr, "vfit: boot: %s\n", e.msg);
			while (i--)
				vfit_file_unmap(fit[i], len[i]);
			return 2;
		}
	}
	vfit_boot_report_init(&report, events, sizeof(events) / sizeof(events[0]));
	rc = status_of(vfit_boot_update(&s->ops, &s->layout, &scratch, &report, fit, len,
					(unsigned int)n));
	for (i = 0; i < n; i++)
		vfit_file_unmap(fit[i], len[i]);
	if (rc)
		fprintf(stderr, "vfit: boot: update %s\n", rc == 1 ? "refused" : "failed (I/O)");
	return rc;
}

static int run_status(struct vfit_boot_sim *s)
{
	uint8_t buf[VFIT_BOOT_STATE_SIZE + 1];
	struct vfit_boot_state st;
	size_t len = 0, i;
	uint64_t v;
	enum vfit_io io = s->ops.state_read(s, buf, sizeof(buf), &len);

	vfit_boot_state_default(&st);
	if (io == VFIT_IO_ABSENT)
		printf("state: none (default)\n");
	else if (io || vfit_boot_state_decode(buf, len, &st))
		printf("state: corrupted (default used)\n");
	for (i = 0; i < VFIT_BOOT_SLOTS; i++) {
		printf("slot %c: %s", 'A' + (int)i, vfit_boot_slot_status_name(st.status[i]));
		if (st.status[i] == VFIT_SLOT_TRYING)
			printf(" (%u attempts left)", st.tries[i]);
		printf("%s\n", st.active == i ? ", tried first" : "");
	}
	if (st.booted == VFIT_BOOT_NONE)
		printf("booted: none\n");
	else
		printf("booted: slot %c\n", 'A' + st.booted);
	printf("developer mode: %s\n", s->ops.dev_mode(s) ? "open" : "closed");
	for (i = 0; i < s->layout.nram; i++)
		printf("ram: 0x%llx:0x%llx\n", (unsigned long long)s->ram[i].base,
		       (unsigned long long)s->ram[i].size);
	printf("staging: 0x%llx (%llu MiB), loader: 0x%llx (%llu MiB)\n",
	       (unsigned long long)s->layout.fit_addr, (unsigned long long)(s->layout.fit_size >> 20),
	       (unsigned long long)s->layout.loader_addr,
	       (unsigned long long)(s->layout.loader_size >> 20));
	if (s->trust)
		printf("counters: tpm trust state, NV index 0x%08x\n", VFIT_TRUST_INDEX);
	else
		printf("counters: %s\n", vfit_ctr_describe(s->ctr));
	for (i = 0; i < sizeof(default_counters) / sizeof(default_counters[0]); i++) {
		struct vfit_err e = { 0 };

		if (s->trust) {
			if (s->ops.counter_read(s, default_counters[i], &v))
				printf("  %s: unreadable\n", default_counters[i]);
			else
				printf("  %s: %llu\n", default_counters[i], (unsigned long long)v);
		} else if (vfit_ctr_read(s->ctr, default_counters[i], &v, &e))
			printf("  %s: %s\n", default_counters[i], e.msg);
		else
			printf("  %s: %llu\n", default_counters[i], (unsigned long long)v);
	}
	return 0;
}

/* ---- commands without a simulator ------------------------------------- */

static int copy_in(struct vfit_boot_sim *s, const char *src, const char *dst)
{
	struct vfit_err e = { 0 };
	size_t len;
	const void *p = map_file(src, &len, &e);
	int rc;

	if (!p) {
		fprintf(stderr, "vfit: boot: %s\n", e.msg);
		return -1;
	}
	rc = vfit_boot_sim_write_file(s, dst, p, len);
	vfit_file_unmap(p, len);
	if (rc)
		fprintf(stderr, "vfit: boot: %s: cannot write\n", dst);
	return rc;
}

/* Whether src is a readable regular file: init checks every input before it writes. */
static int readable(const char *src)
{
	struct vfit_err e = { 0 };
	size_t len;
	const void *p = src ? map_file(src, &len, &e) : NULL;

	if (src && !p) {
		fprintf(stderr, "vfit: boot: %s\n", e.msg);
		return 0;
	}
	vfit_file_unmap(p, len);
	return 1;
}

/*
 * A key DTB the flow will read (ROM keys, user keys): one the verifier
 * refuses would halt every boot, so init refuses it (status 1; 2 when
 * unreadable).
 */
static int control_dtb(const char *src)
{
	struct vfit_err e = { 0 };
	size_t len;
	const void *p = map_file(src, &len, &e);
	enum vfit_result r;

	if (!p) {
		fprintf(stderr, "vfit: boot: %s\n", e.msg);
		return 2;
	}
	r = vfit_control_check(p, len, NULL);
	vfit_file_unmap(p, len);
	if (r)
		fprintf(stderr, "vfit: boot: %s: not a control DTB: %s\n", src,
			vfit_result_to_string(r));
	return r ? 1 : 0;
}

/* DIR/ram: the device's RAM regions, one BASE:SIZE a line. */
static int write_ram(struct vfit_boot_sim *s, const struct vfit_boot_region *ram,
		     unsigned int n)
{
	char path[PATH_MAX], text[VFIT_BOOT_MAX_RAM * 40];
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "0x%llx:0x%llx\n",
					(unsigned long long)ram[i].base,
					(unsigned long long)ram[i].size);
	snprintf(path, sizeof(path), "%s/ram", s->dir);
	if (vfit_boot_sim_write_file(s, path, text, len)) {
		fprintf(stderr, "vfit: boot: %s: cannot write\n", path);
		return -1;
	}
	return 0;
}

static int cmd_init(const char *dir, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rom", required_argument, NULL, 'r' },
		{ "recovery", required_argument, NULL, 'R' },
		{ "user-keys", required_argument, NULL, 'u' },
		{ "ram", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	static struct vfit_boot_sim s;
	const char *rom = NULL, *rec = NULL, *user = NULL;
	struct vfit_boot_region ram[VFIT_BOOT_MAX_RAM];
	unsigned int nram = 0;
	struct vfit_err e = { 0 };
	char path[PATH_MAX];
	int c, i, slot;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:", opts, NULL)) != -1) {
		if (c == 'r')
			rom = optarg;
		else if (c == 'R')
			rec = optarg;
		else if (c == 'u')
			user = optarg;
		else if (c == 'm' && vfit_boot_sim_ram_add(ram, &nram, optarg, &e))
			return vfit_err_print(&e, "boot");
		else if (c != 'm')
			return usage(stderr, cli_bad_option(false, "boot init", c, argv));
	}
	if (!rom || optind >= argc || argc - optind > VFIT_BOOT_MAX_STAGES)
		return usage(stderr, 2);
	memset(&s, 0, sizeof(s));
	snprintf(s.dir, sizeof(s.dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/rom.dtb", dir);
	if (!access(path, F_OK)) {
		fprintf(stderr, "vfit: boot: %s: device already initialised\n", dir);
		return 2;
	}
	/*
	 * rom.dtb marks an initialised device, so it is written last, and
	 * nothing is written before every input proved readable: a failed
	 * init can simply be run again.
	 */
	for (i = optind; i < argc; i++)
		if (!readable(argv[i]))
			return 2;
	if (!readable(rom) || !readable(rec) || !readable(user))
		return 2;
	if ((c = control_dtb(rom)) || (user && (c = control_dtb(user))))
		return c;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "vfit: boot: %s: %s\n", dir, strerror(errno));
		return 2;
	}
	for (slot = 0; slot < VFIT_BOOT_SLOTS; slot++) {
		snprintf(path, sizeof(path), "%s/slot-%c", dir, 'a' + slot);
		if (mkdir(path, 0755) && errno != EEXIST)
			return 2;
		for (i = optind; i < argc; i++) {
			vfit_boot_sim_path(&s, path, sizeof(path), VFIT_BOOT_OBJ_STAGE,
					   (unsigned int)slot, (unsigned int)(i - optind + 1));
			if (copy_in(&s, argv[i], path))
				return 2;
		}
	}
	vfit_boot_sim_path(&s, path, sizeof(path), VFIT_BOOT_OBJ_RECOVERY, 0, 0);
	if (rec && copy_in(&s, rec, path))
		return 2;
	if (user) {
		snprintf(path, sizeof(path), "%s/sdcard", dir);
		if (mkdir(path, 0755) && errno != EEXIST)
			return 2;
		vfit_boot_sim_path(&s, path, sizeof(path), VFIT_BOOT_OBJ_USER_KEYS, 0, 0);
		if (copy_in(&s, user, path))
			return 2;
	}
	snprintf(path, sizeof(path), "%s/dev-mode", dir);
	if (vfit_boot_sim_write_file(&s, path, "closed\n", 7))
		return 2;
	if (nram && write_ram(&s, ram, nram))
		return 2;
	snprintf(path, sizeof(path), "%s/counters", dir);
	if (vfit_ctr_file_provision(path, &e))
		return vfit_err_print(&e, "boot");
	vfit_boot_sim_path(&s, path, sizeof(path), VFIT_BOOT_OBJ_ROM, 0, 0);
	if (copy_in(&s, rom, path))
		return 2;
	printf("init: %s: ROM keys, slots A and B with %d stage(s)%s%s%s\n", dir, argc - optind,
	       rec ? ", recovery" : "", user ? ", user key store" : "",
	       nram ? ", its own RAM map" : "");
	return 0;
}

/*
 * The flow runs on an initialised device: a directory holding rom.dtb
 * (init writes it last).  Anything else is a usage error that says how
 * to make one, before the simulator reads any of it.
 */
static int is_device(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/rom.dtb", dir);
	if (!stat(path, &st) && S_ISREG(st.st_mode))
		return 1;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		fprintf(stderr, "vfit: boot: %s: %s\n", dir,
			errno == ENOENT ? "no such device directory" : "not a device directory");
	else
		fprintf(stderr, "vfit: boot: %s: not a device: no rom.dtb (vfit boot --device %s "
			"init --rom DTB FIT... makes one)\n", dir, dir);
	return 0;
}

static int cmd_dev_mode(const char *dir, int argc, char **argv)
{
	static struct vfit_boot_sim s;
	char path[PATH_MAX];
	bool open_ = argc == 2 && !strcmp(argv[1], "open");

	if (argc != 2 || (!open_ && strcmp(argv[1], "closed")))
		return usage(stderr, 2);
	if (!is_device(dir))
		return 2;
	memset(&s, 0, sizeof(s));
	snprintf(path, sizeof(path), "%s/dev-mode", dir);
	if (vfit_boot_sim_write_file(&s, path, open_ ? "open\n" : "closed\n", open_ ? 5 : 7)) {
		fprintf(stderr, "vfit: boot: %s: cannot write\n", path);
		return 2;
	}
	printf("developer mode: %s\n", argv[1]);
	return 0;
}

int cmd_boot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "timings", no_argument, NULL, 't' },
		{ "dump", required_argument, NULL, 'D' },
		{ "trust", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct vfit_boot_sim s;
	const char *dir = NULL, *dump_dir = NULL, *trust = NULL, *cmd = "boot";
	struct vfit_err e = { 0 };
	bool timings = false;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir = optarg; break;
		case 't': timings = true; break;
		case 'D': dump_dir = optarg; break;
		case 'S': trust = optarg; break;
		case 'h': return usage(stdout, 0);
		default: return usage(stderr, cli_bad_option(false, "boot", c, argv));
		}
	}
	if (!dir) {
		fprintf(stderr, "vfit: boot: --device DIR is needed\n");
		return usage(stderr, 2);
	}
	argc -= optind;
	argv += optind;
	if (argc)
		cmd = argv[0];
	if (!strcmp(cmd, "init"))
		return cmd_init(dir, argc, argv);
	if (!strcmp(cmd, "dev-mode"))
		return cmd_dev_mode(dir, argc, argv);
	if (!strcmp(cmd, "provision") && (!trust || argc > 1))
		return usage(stderr, 2);
	if (strcmp(cmd, "boot") && strcmp(cmd, "mark-good") && strcmp(cmd, "update") &&
	    strcmp(cmd, "status") && strcmp(cmd, "provision"))
		return usage(stderr, 2);
	if ((!strcmp(cmd, "boot") || !strcmp(cmd, "mark-good") || !strcmp(cmd, "status")) &&
	    argc > 1)
		return usage(stderr, 2);
	/* A TPM's trust state can be read, or defined, with no device beside it. */
	if (!(trust && (!strcmp(cmd, "provision") || !strcmp(cmd, "status"))) && !is_device(dir))
		return 2;
	/* --timings: measure the flow, not the simulator's page faults. */
	if (trust) {
		/* boot is the stage at a power-on, mark-good/update/status the running OS. */
		enum vfit_sim_role role = !strcmp(cmd, "provision") ? VFIT_SIM_FACTORY :
					  !strcmp(cmd, "boot") ? VFIT_SIM_POWER_ON : VFIT_SIM_OS;

		if (vfit_boot_sim_trust(&s, dir, trust, role, timings, &e)) {
			vfit_boot_sim_close(&s);
			return vfit_err_print(&e, "boot");
		}
	} else if (vfit_boot_sim_open(&s, dir, timings, &e)) {
		return vfit_err_print(&e, "boot");
	}
	if (!strcmp(cmd, "provision")) {
		printf("provision: trust-state NV index 0x%08x defined (platform authorization)\n",
		       VFIT_TRUST_INDEX);
		rc = 0;
	} else if (!strcmp(cmd, "boot")) {
		rc = run_boot(&s, timings, dump_dir);
		/* As the stage before it starts an OS (the kernel's, or recovery's). */
		if (trust && report.kernel.present && vfit_boot_sim_trust_lock(&s, &e))
			rc = vfit_err_print(&e, "boot");
	} else if (!strcmp(cmd, "status")) {
		rc = run_status(&s);
	} else if (!strcmp(cmd, "update")) {
		rc = run_update(&s, argc - 1, argv + 1);
		if (!rc && trust && vfit_boot_sim_ask_install(&s, scratch.state.active, &e))
			rc = vfit_err_print(&e, "boot");
	} else if (trust) {
		rc = vfit_boot_sim_ask_confirm(&s, &e) ? vfit_err_print(&e, "boot") : 0;
	} else {
		vfit_boot_report_init(&report, events, sizeof(events) / sizeof(events[0]));
		rc = status_of(vfit_boot_mark_good(&s.ops, &s.layout, &scratch, &report));
	}
	vfit_boot_sim_close(&s);
	return rc;
}
