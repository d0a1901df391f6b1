/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The boot flow's platform on a host: storage, state, switch and counters
 * are files of a device directory (layout in include/vfit-host/sim.h),
 * each RAM region is one anonymous mapping, and FITs are read (copied)
 * into the staging area.  A copy, not a mapping of the file: the flow verifies the
 * bytes in RAM and then loads from them, so they must be a snapshot that
 * storage written later cannot change (a MAP_PRIVATE mapping shows later
 * writes to the file in every page not yet copied, and faults with SIGBUS
 * when the file shrinks).  Every write is atomic: temporary file, fsync,
 * rename, fsync of the directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vfit/boot_tpm.h"
#include "vfit/decomp.h"
#include "vfit-host/sim.h"
#include "vfit-host/tpm_sock.h"
#include "../mkimage_int.h"


static void step(struct vfit_boot_sim *s)
{
	s->steps++;
	if (s->crash_after && s->steps == s->crash_after) {
		fflush(stdout);
		_exit(99);
	}
}

void vfit_boot_sim_path(const struct vfit_boot_sim *s, char *out, size_t cap,
			enum vfit_boot_obj obj, unsigned int slot, unsigned int stage)
{
	switch (obj) {
	case VFIT_BOOT_OBJ_ROM:
		snprintf(out, cap, "%s/rom.dtb", s->dir);
		break;
	case VFIT_BOOT_OBJ_STAGE:
		snprintf(out, cap, "%s/slot-%c/stage%u.fit", s->dir, slot ? 'b' : 'a', stage);
		break;
	case VFIT_BOOT_OBJ_RECOVERY:
		snprintf(out, cap, "%s/recovery.fit", s->dir);
		break;
	case VFIT_BOOT_OBJ_USER_KEYS:
		snprintf(out, cap, "%s/sdcard/keys.dtb", s->dir);
		break;
	}
}

static void durable(void *arg)
{
	step(arg);
}

int vfit_boot_sim_write_file(struct vfit_boot_sim *s, const char *path, const void *buf,
			     size_t len)
{
	/* The device directory is attacker-controlled storage: never follow a planted tmp. */
	struct vfit_out o = { .mode = 0644, .fixed_tmp = 1, .durable = durable, .arg = s };
	struct vfit_err e = { 0 };

	return vfit_out_file(&o, path, buf, len, &e);
}

static int remove_file(struct vfit_boot_sim *s, const char *path)
{
	if (unlink(path)) {
		return errno == ENOENT ? 0 : -1;
	}
	if (vfit_sync_dir(path))
		return -1;
	step(s);
	return 0;
}

/* ---- ops --------------------------------------------------------------- */

/*
 * Opens a regular file of the device for reading.  O_NONBLOCK because the
 * directory is storage the attacker controls: a FIFO put there would
 * otherwise block open() until a writer appears, hanging the boot.
 * Returns the fd (and its status in *st), or -1 with errno (ENOENT:
 * absent; EINVAL: not a regular file).
 */
static int open_regular(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, st) || !S_ISREG(st->st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

static enum vfit_io sim_read(void *plat, enum vfit_boot_obj obj, unsigned int slot,
			     unsigned int stage, void *dst, size_t cap, size_t *len)
{
	struct vfit_boot_sim *s = plat;
	char path[PATH_MAX];
	struct stat st;
	enum vfit_io io = VFIT_IO_OK;
	int fd;

	vfit_boot_sim_path(s, path, sizeof(path), obj, slot, stage);
	fd = open_regular(path, &st);
	if (fd < 0)
		return errno == ENOENT ? VFIT_IO_ABSENT : VFIT_IO_ERROR;
	if ((uint64_t)st.st_size > cap) {
		io = VFIT_IO_TOO_BIG;
	} else {
		*len = (size_t)st.st_size;
		if (vfit_read_full(fd, dst, *len, 0))
			io = VFIT_IO_ERROR;
	}
	close(fd);
	return io;
}

static enum vfit_io sim_write(void *plat, unsigned int slot, unsigned int stage,
			      const void *src, size_t len)
{
	struct vfit_boot_sim *s = plat;
	char path[PATH_MAX], dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/slot-%c", s->dir, slot ? 'b' : 'a');
	if (mkdir(dir, 0755) && errno != EEXIST)
		return VFIT_IO_ERROR;
	vfit_boot_sim_path(s, path, sizeof(path), VFIT_BOOT_OBJ_STAGE, slot, stage);
	if (!len)
		return remove_file(s, path) ? VFIT_IO_ERROR : VFIT_IO_OK;
	return vfit_boot_sim_write_file(s, path, src, len) ? VFIT_IO_ERROR : VFIT_IO_OK;
}

static enum vfit_io sim_state_read(void *plat, void *buf, size_t cap, size_t *len)
{
	struct vfit_boot_sim *s = plat;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/state", s->dir);
	if (vfit_read_small(path, buf, cap, len))
		return errno == ENOENT ? VFIT_IO_ABSENT : VFIT_IO_ERROR;
	return VFIT_IO_OK;
}

static enum vfit_io sim_state_write(void *plat, const void *buf, size_t len)
{
	struct vfit_boot_sim *s = plat;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/state", s->dir);
	return vfit_boot_sim_write_file(s, path, buf, len) ? VFIT_IO_ERROR : VFIT_IO_OK;
}

/* A counter store failure: reported now, and kept as the command's exit status. */
static enum vfit_io ctr_fail(struct vfit_boot_sim *s, const struct vfit_err *e)
{
	s->ctr_error = vfit_err_print(e, "boot");
	return VFIT_IO_ERROR;
}

static enum vfit_io sim_counter_read(void *plat, const char *name, uint64_t *value)
{
	struct vfit_boot_sim *s = plat;
	struct vfit_err e = { 0 };

	return vfit_ctr_read(s->ctr, name, value, &e) ? ctr_fail(s, &e) : VFIT_IO_OK;
}

static enum vfit_io sim_counter_advance(void *plat, const char *name, uint64_t value)
{
	struct vfit_boot_sim *s = plat;
	struct vfit_err e = { 0 };

	if (vfit_ctr_advance(s->ctr, name, value, NULL, NULL, &e))
		return ctr_fail(s, &e);
	step(s);
	return VFIT_IO_OK;
}

static bool sim_dev_mode(void *plat)
{
	struct vfit_boot_sim *s = plat;
	char path[PATH_MAX], buf[4];
	size_t n;

	snprintf(path, sizeof(path), "%s/dev-mode", s->dir);
	return !vfit_read_small(path, buf, sizeof(buf), &n) && n == sizeof(buf) &&
	       !memcmp(buf, "open", 4);
}

static void sim_line(void *ctx, const char *line)
{
	(void)ctx;
	puts(line);
}

/* The console: every event as vfit_boot_format_event() words it. */
static void sim_event(void *plat, const struct vfit_boot_event *ev)
{
	vfit_boot_format_event(ev, sim_line, plat);
}

/* The device library's own decompressors (lib/decomp): the simulator runs what a port runs. */
static enum vfit_decomp_result sim_decompress(void *plat, enum vfit_comp comp, const void *src,
					      size_t len, void *dst, size_t cap, size_t *out)
{
	(void)plat;
	return vfit_decompress(comp, src, len, dst, cap, out);
}

static uint64_t sim_now(void *plat)
{
	struct timespec ts;

	(void)plat;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- RAM ------------------------------------------------------------------ */

/* An unsigned number in C syntax (strtoull alone would take signs and blanks too). */
static int number(const char *s, unsigned long long *v, char **end)
{
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, end, 0);
	return errno ? -1 : 0;
}

int vfit_boot_sim_ram_add(struct vfit_boot_region ram[VFIT_BOOT_MAX_RAM], unsigned int *n,
			  const char *spec, struct vfit_err *e)
{
	unsigned long long base, size;
	char *end;
	unsigned int i;

	if (number(spec, &base, &end) || *end != ':' || number(end + 1, &size, &end) || *end)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "RAM region '%s': want BASE:SIZE", spec);
	if (base % 4096 || size % 0x400000u || size < VFIT_SIM_RAM_MIN || size > VFIT_SIM_RAM_MAX ||
	    size - 1 > UINT64_MAX - base)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "RAM region '%s': base must be 4 KiB "
				    "aligned, size a multiple of 4 MiB from 8 MiB to 2 GiB", spec);
	for (i = 0; i < *n; i++)
		if (base < ram[i].base + ram[i].size && ram[i].base < base + size)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "RAM region '%s' overlaps "
					    "0x%llx:0x%llx", spec, (unsigned long long)ram[i].base,
					    (unsigned long long)ram[i].size);
	if (*n >= VFIT_BOOT_MAX_RAM)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "more than %d RAM regions",
				    VFIT_BOOT_MAX_RAM);
	ram[*n].base = base;
	ram[*n].size = size;
	ram[*n].host = NULL;
	(*n)++;
	return 0;
}

void vfit_boot_sim_layout(const struct vfit_boot_region *ram, unsigned int n,
			  struct vfit_boot_layout *l)
{
	const struct vfit_boot_region *top = &ram[n - 1];

	l->ram = ram;
	l->nram = n;
	l->loader_addr = top->base + top->size - VFIT_SIM_LOADER_SIZE;
	l->loader_size = VFIT_SIM_LOADER_SIZE;
	l->fit_addr = top->base + top->size / 2;
	l->fit_size = top->size / 2 - VFIT_SIM_LOADER_SIZE;
}

const uint8_t *vfit_boot_sim_ram(const struct vfit_boot_sim *s, uint64_t addr, uint64_t size)
{
	const struct vfit_boot_region *g;
	unsigned int i;

	for (i = 0; i < s->layout.nram; i++) {
		g = &s->ram[i];
		if (addr >= g->base && addr - g->base <= g->size && size <= g->size - (addr - g->base))
			return g->host + (addr - g->base);
	}
	return NULL;
}

/* DIR/ram, else the default region. */
static int read_ram(struct vfit_boot_sim *s, struct vfit_err *e)
{
	char path[PATH_MAX], buf[1024], *line, *save = NULL;
	unsigned int n = 0;
	size_t len;

	snprintf(path, sizeof(path), "%s/ram", s->dir);
	if (vfit_read_small(path, buf, sizeof(buf) - 1, &len)) {
		if (errno != ENOENT)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot read", path);
		s->ram[0].base = VFIT_SIM_RAM_BASE;
		s->ram[0].size = VFIT_SIM_RAM_SIZE;
		n = 1;
	} else {
		/* vfit_read_small() stops at the buffer's end: a full buffer may be cut. */
		if (len == sizeof(buf) - 1)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: too long", path);
		buf[len] = 0;
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			struct vfit_err why = { 0 };

			if (vfit_boot_sim_ram_add(s->ram, &n, line, &why))
				return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, why.msg);
		}
		if (!n)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: no RAM region", path);
	}
	vfit_boot_sim_layout(s->ram, n, &s->layout);
	return 0;
}

static void unmap_ram(struct vfit_boot_sim *s)
{
	unsigned int i;

	for (i = 0; i < s->layout.nram; i++)
		if (s->ram[i].host)
			munmap(s->ram[i].host, s->ram[i].size);
	memset(s->ram, 0, sizeof(s->ram));
	s->layout.nram = 0;
}

static int map_ram(struct vfit_boot_sim *s, bool prefault, struct vfit_err *e)
{
	unsigned int i;
	void *p;

	for (i = 0; i < s->layout.nram; i++) {
		p = mmap(NULL, s->ram[i].size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
			 MAP_NORESERVE | (prefault ? MAP_POPULATE : 0), -1, 0);
		if (p == MAP_FAILED) {
			unmap_ram(s);
			return vfit_err_set(e, VFIT_EXIT_USAGE, "cannot map %llu MiB of simulated RAM",
					    (unsigned long long)(s->ram[i].size >> 20));
		}
		s->ram[i].host = p;
	}
	return 0;
}

static int sim_open(struct vfit_boot_sim *s, const char *dir, bool no_ctr, bool prefault,
		    struct vfit_err *e);

int vfit_boot_sim_open(struct vfit_boot_sim *s, const char *dir, bool prefault,
		       struct vfit_err *e)
{
	return sim_open(s, dir, false, prefault, e);
}

static int sim_open(struct vfit_boot_sim *s, const char *dir, bool no_ctr, bool prefault,
		    struct vfit_err *e)
{
	struct vfit_boot_ops *o = &s->ops;
	char path[PATH_MAX];
	const char *crash = getenv("VFIT_BOOT_CRASH_AFTER");
	struct stat st;

	memset(s, 0, sizeof(*s));
	if (snprintf(s->dir, sizeof(s->dir), "%s", dir) >= (int)sizeof(s->dir))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: path too long", dir);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: not a device directory", dir);
	s->crash_after = crash ? atoi(crash) : 0;
	if (read_ram(s, e) || map_ram(s, prefault, e))
		return -1;
	if (no_ctr) {
		s->ctr = NULL;
	} else {
		snprintf(path, sizeof(path), "%s/counters", dir);
		s->ctr = vfit_ctr_file_open(path, e);
	}
	if (!s->ctr && !no_ctr) {
		unmap_ram(s);
		return -1;
	}
	o->plat = s;
	o->read = sim_read;
	o->write = sim_write;
	o->state_read = sim_state_read;
	o->state_write = sim_state_write;
	o->counter_read = sim_counter_read;
	o->counter_advance = sim_counter_advance;
	o->dev_mode = sim_dev_mode;
	o->decompress = sim_decompress;
	o->now_ns = sim_now;
	o->event = sim_event;
	return 0;
}

/* ---- the TPM trust state (--trust) ---------------------------------------- */

struct vfit_sim_trust {
	struct vfit_tpm_sock sock;
	struct vfit_tpm tpm;
	struct vfit_trust t;
	struct vfit_tpm_log log;
	uint8_t log_mem[0x10000];
};

static enum vfit_io trust_state_read(void *plat, void *buf, size_t cap, size_t *len)
{
	return vfit_trust_state_read(&((struct vfit_boot_sim *)plat)->trust->t, buf, cap, len);
}

static enum vfit_io trust_state_write(void *plat, const void *buf, size_t len)
{
	step(plat);
	return vfit_trust_state_write(&((struct vfit_boot_sim *)plat)->trust->t, buf, len);
}

static enum vfit_io trust_counter_read(void *plat, const char *name, uint64_t *value)
{
	return vfit_trust_counter_read(&((struct vfit_boot_sim *)plat)->trust->t, name, value);
}

static enum vfit_io trust_counter_advance(void *plat, const char *name, uint64_t value)
{
	step(plat);
	return vfit_trust_counter_advance(&((struct vfit_boot_sim *)plat)->trust->t, name, value);
}

static enum vfit_io trust_measure(void *plat, unsigned int pcr, uint32_t type,
				  const uint8_t digest[VFIT_BOOT_DIGEST], const void *event,
				  size_t len)
{
	return vfit_trust_measure(&((struct vfit_boot_sim *)plat)->trust->t, pcr, type, digest,
				  event, len);
}

static int trust_fail(const struct vfit_trust *t, enum vfit_boot_why w, struct vfit_err *e)
{
	return vfit_err_set(e, VFIT_EXIT_REJECT, "TPM: %s (%s%s%s%s%s)", vfit_boot_why_to_string(w),
			    t->what ? t->what : "", t->tr ? ": " : "",
			    t->tr ? vfit_tpm_result_to_string(t->tr) : "", t->rc ? " " : "",
			    t->rc ? vfit_tpm_rc_to_string(t->rc) : "");
}

int vfit_boot_sim_trust(struct vfit_boot_sim *s, const char *dir, const char *sockdir,
			bool define, bool prefault, struct vfit_err *e)
{
	struct vfit_boot_ops *o = &s->ops;
	struct vfit_tpm_transport tr;
	struct vfit_sim_trust *st;
	char data[PATH_MAX], ctrl[PATH_MAX];
	enum vfit_boot_why w;

	if (sim_open(s, dir, true, prefault, e))
		return -1;

	st = calloc(1, sizeof(*st));
	if (!st)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "out of memory");
	s->trust = st;
	snprintf(data, sizeof(data), "%s/data", sockdir);
	snprintf(ctrl, sizeof(ctrl), "%s/ctrl", sockdir);
	if (vfit_tpm_sock_open(&st->sock, data, ctrl))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot connect to swtpm: %s", data,
				    strerror(errno));
	/* A power-on: the platform hierarchy is the firmware's again. */
	if (vfit_tpm_sock_power_cycle(&st->sock))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: swtpm power cycle failed", ctrl);
	vfit_tpm_sock_transport(&st->sock, &tr);
	vfit_tpm_init(&st->tpm, &tr);
	if (define) {
		enum vfit_tpm_result r = vfit_tpm_startup_clear(&st->tpm);

		if (r && r != VFIT_TPM_ERR_INITIALIZED)
			return vfit_err_set(e, VFIT_EXIT_REJECT, "TPM: Startup: %s",
					    vfit_tpm_result_to_string(r));
		w = vfit_trust_define(&st->t, &st->tpm);
		return w ? trust_fail(&st->t, w, e) : 0;
	}
	w = vfit_trust_open(&st->t, &st->tpm, &st->log, st->log_mem, sizeof(st->log_mem));
	if (w)
		return trust_fail(&st->t, w, e);
	o->state_read = trust_state_read;
	o->state_write = trust_state_write;
	o->counter_read = trust_counter_read;
	o->counter_advance = trust_counter_advance;
	o->measure = trust_measure;
	return 0;
}

int vfit_boot_sim_trust_lock(struct vfit_boot_sim *s, struct vfit_err *e)
{
	enum vfit_boot_why w = vfit_trust_lock(&s->trust->t);

	return w ? trust_fail(&s->trust->t, w, e) : 0;
}

void vfit_boot_sim_close(struct vfit_boot_sim *s)
{
	if (s->trust) {
		vfit_tpm_sock_close(&s->trust->sock);
		free(s->trust);
		s->trust = NULL;
	}
	unmap_ram(s);
	if (s->ctr)
		vfit_ctr_close(s->ctr);
	memset(&s->ops, 0, sizeof(s->ops));
	s->ctr = NULL;
}
