/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: lib/net's whole fetch (vfit_net_fetch()) on frames an
 * attacker on the network sends.  Input: one byte c (the room for the
 * file: 64 * c bytes, an exact-size heap block, so ASan sees any write
 * past it), then records of [flags][length: 2 bytes, big-endian][frame],
 * handed out one per receive in order; the clock moves 1 ms a frame, and
 * once the records are spent every wait runs out, so the fetch always
 * ends.  A random frame would never get past the checksums and the
 * transaction id, so the flags let a record be fixed up as a real server's
 * would be, against this session:
 *   1  the IPv4 header checksum      2  the UDP checksum (last)
 *   4  the DHCP transaction id       8  the UDP destination port: our TFTP port
 *  16  the destination MAC: ours
 * The seeds (tests/fuzz/net_seeds.sh) are the frames QEMU's slirp sent in
 * real fetches (the captures in tests/vectors/net), every fix-up on.  What a fetch
 * ends with must make sense: never more than the room received, and a
 * fetch that succeeded ended at the announced tsize.
 */
#include <stdlib.h>
#include <string.h>

#include "vfit/net.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct wire {
	const uint8_t *in;
	size_t left;
	uint64_t now;
	struct vfit_net_session *s;
	uint8_t frame[VFIT_NET_FRAME_MAX + 64];
};

static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* RFC 1071, a word at a time: independent of lib/net's own sum. */
static uint16_t csum(uint32_t acc, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		acc += get16(p + i);
	if (n & 1)
		acc += (uint32_t)p[n - 1] << 8;
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint16_t)~acc;
}

static void fixup(const struct wire *w, uint8_t *f, size_t n, uint8_t flags)
{
	size_t hl, total;
	uint8_t *u;
	uint32_t ph;

	if (flags & 16 && n >= 6)
		memcpy(f, mac, 6);
	if (n < 34 || get16(f + 12) != 0x0800)
		return;
	hl = (size_t)(f[14] & 15) * 4;
	total = get16(f + 16);
	if (hl < 20 || 14 + hl > n)
		return;
	u = f + 14 + hl;
	if (total >= hl + 8 && 14 + total <= n) {
		if (flags & 4 && total >= hl + 8 + 8)
			memcpy(u + 8 + 4, (const uint8_t[]){ (uint8_t)(w->s->xid >> 24),
						      (uint8_t)(w->s->xid >> 16),
						      (uint8_t)(w->s->xid >> 8), (uint8_t)w->s->xid }, 4);
		if (flags & 8 && get16(u + 2) != 68)
			put16(u + 2, w->s->port);
		if (flags & 2) {
			put16(u + 6, 0);
			ph = get16(f + 26) + get16(f + 28) + get16(f + 30) + get16(f + 32) + 17 +
			     (uint32_t)(total - hl);
			put16(u + 6, csum(ph, u, total - hl) ? csum(ph, u, total - hl) : 0xffff);
		}
	}
	if (flags & 1) {
		put16(f + 24, 0);
		put16(f + 24, csum(0, f + 14, hl));
	}
}

static enum vfit_net_result dev_send(void *plat, const uint8_t *frame, size_t len)
{
	(void)plat;
	if (len < 60 || len > VFIT_NET_FRAME_MAX || memcmp(frame + 6, mac, 6))
		abort();
	return VFIT_NET_OK;
}

static const uint8_t *dev_recv(void *plat, uint64_t deadline, size_t *len)
{
	struct wire *w = plat;
	size_t n;
	uint8_t flags;

	if (w->left < 3) {
		if (w->now < deadline)
			w->now = deadline;
		return NULL;
	}
	flags = w->in[0];
	n = get16(w->in + 1);
	w->in += 3;
	w->left -= 3;
	if (n > w->left)
		n = w->left;
	if (n > sizeof(w->frame))
		n = sizeof(w->frame);
	memcpy(w->frame, w->in, n);
	w->in += n;
	w->left -= n;
	fixup(w, w->frame, n, flags);
	w->now += 1000000;
	*len = n;
	return w->frame;
}

static uint64_t dev_now(void *plat)
{
	return ((struct wire *)plat)->now;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vfit_net_session s;
	struct vfit_net_dev dev = { NULL, { 0 }, dev_send, dev_recv, dev_now, NULL };
	struct vfit_net_config cfg = { 0 };
	struct wire w;
	enum vfit_net_result r;
	size_t cap, len;
	uint8_t *dst;

	if (size < 1)
		return 0;
	cap = (size_t)data[0] * 64;
	dst = malloc(cap ? cap : 1);
	if (!dst)
		abort();
	memset(&w, 0, sizeof(w));
	w.in = data + 1;
	w.left = size - 1;
	w.s = &s;
	dev.plat = &w;
	memcpy(dev.mac, mac, 6);
	cfg.seed = 1;
	cfg.file = "fallback.fit";
	r = vfit_net_fetch(&dev, &cfg, &s, dst, cap, &len);
	if (s.received > cap || len != s.received ||
	    (r == VFIT_NET_OK && s.has_tsize && s.received != s.tsize) ||
	    w.now > 300000000000ull + 4000000000ull)
		abort();
	free(dst);
	return 0;
}
