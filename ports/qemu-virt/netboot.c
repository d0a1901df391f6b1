/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Network recovery: the recovery FIT fetched over virtio-net (DHCP, then
 * TFTP: lib/net) into the staging area the flow hands out, in place of
 * the disk's recovery partition.  The flow then does with it exactly what
 * it does with a disk recovery image: key-recovery from the ROM alone,
 * the recovery rollback counter, measured boot.  Nothing from the network
 * is trusted before that verification; DHCP and TFTP themselves are
 * unauthenticated, which is why the image must verify.
 *
 * When: the ROM's control DTB decides (/config, read from flash):
 *   vfit,net-recovery  "fallback" (the default: when no slot and no disk
 *                      recovery image verified), "first" (every boot,
 *                      before the disk, as a provisioning station would),
 *                      or "off";
 *   vfit,net-key-ms    how long the console waits for 'n', which asks for
 *                      network recovery at once (default 0: only a key
 *                      already typed counts);
 *   vfit,net-file      the file when DHCP names none;
 *   vfit,net-timeout-ms, vfit,net-tries  the waits (lib/net's defaults:
 *                      1 s doubling to 4 s, 4 tries).
 * A normal boot never touches the network device.
 */
#include <string.h>

#include <libfdt.h>

#include "vfit/net.h"
#include "arch.h"
#include "netboot.h"
#include "port.h"
#include "virtio_net.h"

extern const uint8_t rom_keys[];

#define MS 1000000u

static struct vfit_net_config cfg;
static uint32_t key_ms;
static struct vfit_net_session sess;
static const struct vfit_boot_ops *base;
static struct vfit_boot_ops net_ops;

static void ip(uint32_t a)
{
	int i;

	for (i = 24; i >= 0; i -= 8) {
		con_dec(a >> i & 0xff);
		if (i)
			con_puts(".");
	}
}

static unsigned int prefix(uint32_t mask)
{
	unsigned int n = 0;

	for (; mask & 0x80000000u; mask <<= 1)
		n++;
	return n;
}

/* A string property of /config, or NULL when absent; halts on a malformed one. */
static const char *config_str(int node, const char *name)
{
	int len;
	const char *v = node < 0 ? NULL : fdt_getprop(rom_keys, node, name, &len);

	if (v && (len < 2 || v[len - 1] || strlen(v) != (size_t)len - 1))
		port_halt("ROM /config: a string property is malformed");
	return v;
}

static uint32_t config_u32(int node, const char *name, uint32_t dflt)
{
	int len;
	const fdt32_t *v = node < 0 ? NULL : fdt_getprop(rom_keys, node, name, &len);

	if (!v)
		return dflt;
	if (len != 4)
		port_halt("ROM /config: a number property is not one cell");
	return fdt32_to_cpu(*v);
}

/* The ROM's settings into cfg and key_ms; returns its mode. */
static enum netboot config(void)
{
	int node = fdt_path_offset(rom_keys, "/config");
	const char *m = config_str(node, "vfit,net-recovery");

	cfg.file = config_str(node, "vfit,net-file");
	key_ms = config_u32(node, "vfit,net-key-ms", 0);
	cfg.timeout_ms = config_u32(node, "vfit,net-timeout-ms", 0);
	cfg.timeout_max_ms = 4 * cfg.timeout_ms;
	cfg.tries = config_u32(node, "vfit,net-tries", 0);
	if (!m || !strcmp(m, "fallback"))
		return NETBOOT_FALLBACK;
	if (!strcmp(m, "first"))
		return NETBOOT_NOW;
	if (strcmp(m, "off"))
		port_halt("ROM /config vfit,net-recovery: not fallback, first or off");
	return NETBOOT_OFF;
}

/* 'n' at the console within the window (WFI between looks, woken by the timer). */
static bool key_typed(void)
{
	uint64_t end = clock_ns() + (uint64_t)key_ms * MS, now;
	int c;

	for (;;) {
		while ((c = con_getc()) >= 0)
			if (c == 'n' || c == 'N')
				return true;
		now = clock_ns();
		if (now >= end)
			return false;
		clock_wake_at(now + 10 * MS < end ? now + 10 * MS : end);
		wfi();
		clock_wake_off();
	}
}

enum netboot netboot_when(void)
{
	enum netboot mode = config();

	if (mode == NETBOOT_OFF)
		return mode;
	if (mode == NETBOOT_FALLBACK && key_ms) {
		con_puts("vfit-stage: type n within ");
		con_dec(key_ms);
		con_puts(" ms for network recovery");
		con_nl();
	}
	if (mode == NETBOOT_FALLBACK && key_typed()) {
		con_puts("vfit-stage: network recovery asked for at the console");
		con_nl();
		return NETBOOT_NOW;
	}
	if (mode == NETBOOT_NOW) {
		con_puts("vfit-stage: network recovery first (ROM /config vfit,net-recovery)");
		con_nl();
	}
	return mode;
}

/* ---- the fetch ---------------------------------------------------------- */

static enum vfit_net_result dev_send(void *plat, const uint8_t *frame, size_t len)
{
	(void)plat;
	return vnet_send(frame, len) ? VFIT_NET_ERR_SEND : VFIT_NET_OK;
}

static const uint8_t *dev_recv(void *plat, uint64_t deadline, size_t *len)
{
	(void)plat;
	return vnet_recv(deadline, len);
}

static uint64_t dev_now(void *plat)
{
	(void)plat;
	return clock_ns();
}

static void dev_step(void *plat, enum vfit_net_step step, const struct vfit_net_session *s)
{
	const struct vfit_net_lease *l = &s->lease;

	(void)plat;
	con_puts("vfit-stage: net: ");
	if (step == VFIT_NET_STEP_BOUND) {
		con_puts("DHCP: ");
		ip(l->ip);
		con_puts("/");
		con_dec(prefix(l->mask));
		con_puts(" from ");
		ip(l->dhcp_server);
		con_puts(", TFTP server ");
		ip(l->tftp_server);
		con_puts(", file '");
		con_puts(l->file);
		con_puts("'");
	} else {
		con_puts("TFTP: blksize ");
		con_dec(s->blksize);
		con_puts(", tsize ");
		if (s->has_tsize)
			con_dec(s->tsize);
		else
			con_puts("none");
	}
	con_nl();
}

/* The one line a failed fetch ends with. */
static void failed(enum vfit_net_result r, size_t cap)
{
	con_puts("vfit-stage: network recovery failed: ");
	con_puts(vfit_net_result_to_string(r));
	if (r == VFIT_NET_ERR_TFTP) {
		con_puts(": ");
		con_dec(sess.tftp_code);
		con_puts(" '");
		con_puts(sess.tftp_msg);
		con_puts("'");
	} else if (r == VFIT_NET_ERR_TOO_BIG) {
		con_puts(" (staging area ");
		con_dec(cap);
		con_puts(" bytes");
		if (sess.has_tsize) {
			con_puts(", tsize ");
			con_dec(sess.tsize);
		}
		con_puts(")");
	} else if (r == VFIT_NET_ERR_SIZE) {
		con_puts(" (tsize ");
		con_dec(sess.tsize);
		con_puts(", ");
		con_dec(sess.received);
		con_puts(" bytes sent)");
	}
	if (sess.lease.file[0]) {
		con_puts(" [");
		con_puts(sess.lease.file);
		con_puts("]");
	}
	con_nl();
}

static void done(uint64_t ns, uint32_t inst)
{
	const char *sep = " (";
	unsigned int i, drops = 0;

	for (i = 1; i < VFIT_NET_DROPS; i++)
		drops += sess.drops[i];
	con_puts("vfit-stage: net: fetched ");
	con_dec(sess.received);
	con_puts(" bytes in ");
	con_dec(sess.blocks);
	con_puts(" blocks, ");
	con_dec(sess.frames);
	con_puts(" frames received, ");
	con_dec(sess.resends);
	con_puts(" requests sent again, ");
	con_dec(drops);
	con_puts(" frames dropped");
	for (i = 1; i < VFIT_NET_DROPS; i++)
		if (sess.drops[i]) {
			con_puts(sep);
			sep = ", ";
			con_puts(vfit_net_drop_to_string((enum vfit_net_drop)i));
			con_puts(" ");
			con_dec(sess.drops[i]);
		}
	con_puts(drops ? ")" : "");
	con_nl();
	con_puts("vfit-stage: time net-fetch ");
	con_dec(ns);
	con_puts(" ns");
	if (inst) {
		con_puts(", ");
		con_dec(inst);
		con_puts(" instructions");
	}
	con_nl();
}

static void mac(const uint8_t m[6])
{
	static const char hex[] = "0123456789abcdef";
	char b[18];
	int k;

	for (k = 0; k < 6; k++) {
		b[3 * k] = hex[m[k] >> 4];
		b[3 * k + 1] = hex[m[k] & 15];
		b[3 * k + 2] = k < 5 ? ':' : 0;
	}
	con_puts(b);
}

static enum vfit_io fetch(void *dst, size_t cap, size_t *len)
{
	struct vfit_net_dev dev = { NULL, { 0 }, dev_send, dev_recv, dev_now, dev_step };
	enum vfit_net_result r;
	uint64_t t0;
	uint32_t i0;

	if (vnet_init(dev.mac)) {
		con_puts("vfit-stage: network recovery failed: no network device");
		con_nl();
		return VFIT_IO_ABSENT;
	}
	con_puts("vfit-stage: net: virtio-net ");
	mac(dev.mac);
	con_nl();
	t0 = clock_ns();
	cfg.seed = (uint32_t)t0 ^ (uint32_t)(t0 >> 32) ^ (uint32_t)dev.mac[5] << 8 ^ dev.mac[4];
	i0 = inst_start();
	r = vfit_net_fetch(&dev, &cfg, &sess, dst, cap, len);
	i0 = inst_read() - i0;
	vnet_stop();
	if (r) {
		failed(r, cap);
		return r == VFIT_NET_ERR_TOO_BIG ? VFIT_IO_TOO_BIG : VFIT_IO_ERROR;
	}
	done(clock_ns() - t0, i0);
	return VFIT_IO_OK;
}

static enum vfit_io net_read(void *plat, enum vfit_boot_obj obj, unsigned int slot,
			     unsigned int stage, void *dst, size_t cap, size_t *len)
{
	if (obj != VFIT_BOOT_OBJ_RECOVERY)
		return base->read(plat, obj, slot, stage, dst, cap, len);
	return fetch(dst, cap, len);
}

const struct vfit_boot_ops *netboot_ops(const struct vfit_boot_ops *ops)
{
	base = ops;
	net_ops = *ops;
	net_ops.read = net_read;
	return &net_ops;
}
