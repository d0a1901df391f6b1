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
#include "vfit-host/io.h"
#include "vfit-host/tpm_dev.h"


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

/*
 * The ROM decides where the trust state is (vfit_trust_required()), never
 * the command line: a device whose ROM requires a TPM is never booted from
 * DIR/state, and one whose ROM does not is never booted from a TPM.  A
 * device directory without rom.dtb (status of a bare TPM) is not checked.
 */
static int rom_check(const struct vfit_boot_sim *s, bool tpm, struct vfit_err *e)
{
	static uint64_t rom[VFIT_BOOT_DTB_MAX / 8];
	char path[PATH_MAX];
	enum vfit_boot_why w;
	size_t len;
	bool required;

	snprintf(path, sizeof(path), "%s/rom.dtb", s->dir);
	if (vfit_read_small(path, rom, sizeof(rom), &len) || vfit_control_check(rom, len, NULL))
		return 0;       /* none, or one the flow refuses itself, naming it */
	w = vfit_trust_required(rom, &required);
	if (w)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s", path, vfit_boot_why_to_string(w));
	if (required && !tpm)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: the ROM requires the trust state in a "
				    "TPM (/config vfit,tpm): use --trust", path);
	if (!required && tpm)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: the ROM trusts no TPM (no /config "
				    "vfit,tpm = \"required\"): --trust refused", path);
	return 0;
}

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
	if (rom_check(s, no_ctr, e) || read_ram(s, e) || map_ram(s, prefault, e))
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
	struct vfit_tpm_transport real;
	struct vfit_boot_sim *sim;
	struct vfit_tpm tpm;
	struct vfit_trust t;
	struct vfit_tpm_log log;
	uint8_t log_mem[0x10000];
};

/*
 * The power-cut hook at the TPM: every NV_Write is a durable step before
 * it is sent and another once the TPM answered, so VFIT_BOOT_CRASH_AFTER
 * cuts just before or just after each write of either index.
 */
static enum vfit_tpm_result cut_xfer(void *ctx, const uint8_t *cmd, size_t cmd_len,
				     uint8_t *rsp, size_t rsp_cap, size_t *rsp_len)
{
	struct vfit_sim_trust *st = ctx;
	/* TPM_CC_NV_Write */
	bool nv_write = cmd_len >= 10 && !memcmp(cmd + 6, "\x00\x00\x01\x37", 4);
	enum vfit_tpm_result r;

	if (nv_write)
		step(st->sim);
	r = st->real.xfer(st->real.ctx, cmd, cmd_len, rsp, rsp_cap, rsp_len);
	if (nv_write)
		step(st->sim);
	return r;
}

static struct vfit_trust *trust_of(void *plat)
{
	return &((struct vfit_boot_sim *)plat)->trust->t;
}

static enum vfit_io trust_state_read(void *plat, void *buf, size_t cap, size_t *len)
{
	return vfit_trust_state_read(trust_of(plat), buf, cap, len);
}

static enum vfit_io trust_state_write(void *plat, const void *buf, size_t len)
{
	return vfit_trust_state_write(trust_of(plat), buf, len);
}

static enum vfit_io trust_counter_read(void *plat, const char *name, uint64_t *value)
{
	return vfit_trust_counter_read(trust_of(plat), name, value);
}

static enum vfit_io trust_counter_advance(void *plat, const char *name, uint64_t value)
{
	return vfit_trust_counter_advance(trust_of(plat), name, value);
}

static enum vfit_io trust_commit(void *plat, bool keep)
{
	return vfit_trust_commit(trust_of(plat), keep);
}

static enum vfit_io trust_measure(void *plat, unsigned int pcr, uint32_t type,
				  const struct vfit_digest_set *d, const void *event, size_t len)
{
	return vfit_trust_measure(trust_of(plat), pcr, type, d, event, len);
}

/* A hash for each active PCR bank. */
static uint32_t trust_measure_hashes(void *plat)
{
	return trust_of(plat)->hashes;
}

/* The OS's pending request, acted on and cleared before the boot (as the stage does). */
static int serve(struct vfit_boot_sim *s, struct vfit_err *e)
{
	static struct vfit_boot_scratch scratch;
	static struct vfit_boot_event ev[64];
	static struct vfit_boot_report rep;
	enum vfit_boot_why w;

	vfit_boot_report_init(&rep, ev, sizeof(ev) / sizeof(ev[0]));
	w = vfit_trust_serve(&s->trust->t, &s->ops, &s->layout, &scratch, &rep);
	fflush(stdout);
	return w ? vfit_trust_err(e, NULL, &s->trust->t, w) : 0;
}

int vfit_boot_sim_trust(struct vfit_boot_sim *s, const char *dir, const char *sockdir,
			enum vfit_sim_role role, bool prefault, struct vfit_err *e)
{
	struct vfit_boot_ops *o = &s->ops;
	struct vfit_tpm_transport tr = { cut_xfer, NULL };
	struct vfit_sim_trust *st;
	char data[PATH_MAX], ctrl[PATH_MAX];
	enum vfit_boot_why w;

	if (sim_open(s, dir, true, prefault, e))
		return -1;
	st = calloc(1, sizeof(*st));
	if (!st)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "out of memory");
	s->trust = st;
	st->sim = s;
	tr.ctx = st;
	snprintf(data, sizeof(data), "%s/data", sockdir);
	snprintf(ctrl, sizeof(ctrl), "%s/ctrl", sockdir);
	if (vfit_tpm_sock_open(&st->sock, data, ctrl))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot connect to swtpm: %s", data,
				    strerror(errno));
	/* A power-on: the platform hierarchy is the firmware's again. */
	if (role != VFIT_SIM_OS && vfit_tpm_sock_power_cycle(&st->sock))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: swtpm power cycle failed", ctrl);
	vfit_tpm_sock_transport(&st->sock, &st->real);
	vfit_tpm_init(&st->tpm, &tr);
	if (role == VFIT_SIM_FACTORY) {
		enum vfit_tpm_result r = vfit_tpm_startup_clear(&st->tpm);

		if (r && r != VFIT_TPM_ERR_INITIALIZED)
			return vfit_err_set(e, VFIT_EXIT_REJECT, "TPM: Startup: %s",
					    vfit_tpm_result_to_string(r));
		w = vfit_trust_define(&st->t, &st->tpm);
		return w ? vfit_trust_err(e, NULL, &st->t, w) : 0;
	}
	o->counter_advance = NULL;
	o->state_read = trust_state_read;
	o->counter_read = trust_counter_read;
	if (role == VFIT_SIM_OS) {
		/* The OS keeps its copy of the state in DIR/state and moves no counter. */
		w = vfit_trust_attach(&st->t, &st->tpm);
		return w ? vfit_trust_err(e, NULL, &st->t, w) : 0;
	}
	w = vfit_trust_open(&st->t, &st->tpm, &st->log, st->log_mem, sizeof(st->log_mem));
	if (w)
		return vfit_trust_err(e, NULL, &st->t, w);
	o->state_write = trust_state_write;
	o->counter_advance = trust_counter_advance;
	o->commit = trust_commit;
	o->measure = trust_measure;
	o->measure_hashes = trust_measure_hashes;
	return serve(s, e);
}

int vfit_boot_sim_trust_lock(struct vfit_boot_sim *s, struct vfit_err *e)
{
	enum vfit_boot_why w = vfit_trust_lock(&s->trust->t);

	return w ? vfit_trust_err(e, NULL, &s->trust->t, w) : 0;
}

/* The OS's request at the TPM state's sequence number, printed as vfit disk prints it. */
static int ask(struct vfit_boot_sim *s, uint8_t confirm, uint8_t install, struct vfit_err *e)
{
	struct vfit_trust *t = &s->trust->t;
	struct vfit_boot_request rq = { 0, confirm, install };
	struct vfit_boot_state st;
	uint8_t buf[VFIT_BOOT_STATE_SIZE];
	enum vfit_boot_why w;
	size_t len;

	if (vfit_trust_state_read(t, buf, sizeof(buf), &len) ||
	    vfit_boot_state_decode(buf, len, &st))
		vfit_boot_state_default(&st);
	rq.seq = st.seq;
	if (install == VFIT_BOOT_NONE) {
		w = vfit_boot_state_confirmable(&st);
		if (w == VFIT_WHY_BOOTED_BAD)
			return vfit_err_set(e, VFIT_EXIT_REJECT, "mark-good: slot %c is marked bad",
					    'A' + st.booted);
		if (w)
			return vfit_err_set(e, VFIT_EXIT_REJECT, "mark-good: %s",
					    vfit_boot_why_to_string(w));
		rq.confirm = st.booted;
	}
	w = vfit_trust_ask(t, &rq, NULL, 0);
	if (w)
		return vfit_trust_err(e, NULL, t, w);
	if (install == VFIT_BOOT_NONE)
		printf("mark-good: %s (booted at state %u) is confirmed at the next boot\n",
		       vfit_boot_chain_to_string((enum vfit_boot_chain)st.booted), st.seq);
	else
		printf("update: the device is asked through the TPM to try slot %c\n", 'A' + install);
	return 0;
}

int vfit_boot_sim_ask_confirm(struct vfit_boot_sim *s, struct vfit_err *e)
{
	return ask(s, VFIT_BOOT_NONE, VFIT_BOOT_NONE, e);
}

int vfit_boot_sim_ask_install(struct vfit_boot_sim *s, unsigned int slot, struct vfit_err *e)
{
	return ask(s, VFIT_BOOT_NONE, (uint8_t)slot, e);
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
