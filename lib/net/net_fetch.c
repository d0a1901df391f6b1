/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fetch: one loop over the device's frames and the clock.  The whole
 * fetch has a limit of its own, checked before every frame, and each
 * phase's request is sent again when its wait runs out (net_session.c), so
 * neither silence nor a flood of frames that are all dropped keeps it
 * going.  Frames go through the parsers of net_frame.c and then to ARP,
 * DHCP or TFTP by port; a dropped frame is counted by reason and changes
 * nothing else.
 */
#include <string.h>

#include "net_int.h"

#define MS 1000000u

/* A 32-bit mixer (two multiply-xorshift rounds): the seed's bits reach every bit of the id. */
static uint32_t mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	return x ^ (x >> 16);
}

/* ARP: a request for our address is answered once we have one; the next hop's reply moves on. */
static enum vfit_net_drop arp_in(struct vfit_net_session *s, const struct vfit_net_pkt_ *p)
{
	if (p->op == 1) {
		if (!s->lease.ip || p->dst != s->lease.ip)
			return VFIT_NET_DROP_UNEXPECTED;
		vfit_net_send_(s, s->reply, vfit_net_arp_frame_(s, s->reply, 2, p->sha, p->src));
		return VFIT_NET_DROP_NONE;
	}
	if (s->phase != NET_PH_ARP || p->src != s->hop || p->dst != s->lease.ip)
		return VFIT_NET_DROP_UNEXPECTED;
	memcpy(s->hop_mac, p->sha, 6);
	vfit_net_tftp_start_(s);
	return VFIT_NET_DROP_NONE;
}

static void input(struct vfit_net_session *s, const uint8_t *f, size_t n)
{
	struct vfit_net_pkt_ p;
	enum vfit_net_drop d;

	s->frames++;
	d = vfit_net_parse_(s, f, n, &p);
	if (!d) {
		if (p.arp)
			d = arp_in(s, &p);
		else if (p.dport == NET_PORT_BOOTPC)
			d = vfit_net_dhcp_in_(s, &p);
		else if (p.dport == s->port)
			d = vfit_net_tftp_in_(s, &p);
		else
			d = VFIT_NET_DROP_PORT;
	}
	if (d) {
		s->drops[d]++;
		s->last_drop = d;
	}
}

static size_t name_len(const char *name)
{
	size_t n = 0;

	while (n < VFIT_NET_FILE_MAX && name[n])
		n++;
	return n;
}

static enum vfit_net_result start(struct vfit_net_session *s, const struct vfit_net_dev *dev,
				  const struct vfit_net_config *cfg, void *dst, size_t cap)
{
	static const struct vfit_net_config none;
	uint32_t limit;

	memset(s, 0, sizeof(*s));
	if (!cfg)
		cfg = &none;
	if (!dev || !dev->send || !dev->recv || !dev->now_ns || (!dst && cap))
		return VFIT_NET_ERR_PARAM;
	if (cfg->file && !vfit_net_name_ok_((const uint8_t *)cfg->file, name_len(cfg->file)))
		return VFIT_NET_ERR_PARAM;
	s->asked = cfg->blksize ? cfg->blksize : VFIT_NET_BLKSIZE;
	if (s->asked < 8 || s->asked > VFIT_NET_BLKSIZE)
		return VFIT_NET_ERR_PARAM;
	s->dev = dev;
	s->dst = dst;
	s->cap = cap;
	s->cfg_file = cfg->file;
	s->blksize = 512;
	s->wait_first_ms = cfg->timeout_ms ? cfg->timeout_ms : 1000;
	s->wait_max_ms = cfg->timeout_max_ms ? cfg->timeout_max_ms : 4000;
	if (s->wait_max_ms < s->wait_first_ms)
		s->wait_max_ms = s->wait_first_ms;
	s->tries = cfg->tries ? cfg->tries : 4;
	limit = cfg->limit_ms ? cfg->limit_ms : 300000;
	s->xid = mix(cfg->seed ^ 0x76666974u);
	s->port = (uint16_t)(49152 + mix(s->xid) % 16384);
	s->end = dev->now_ns(dev->plat) + (uint64_t)limit * MS;
	return VFIT_NET_OK;
}

enum vfit_net_result vfit_net_fetch(const struct vfit_net_dev *dev,
				    const struct vfit_net_config *cfg,
				    struct vfit_net_session *s, void *dst, size_t cap, size_t *len)
{
	enum vfit_net_result r = start(s, dev, cfg, dst, cap);
	const uint8_t *f;
	uint64_t now;
	size_t n;

	*len = 0;
	if (r)
		return r;
	vfit_net_dhcp_start_(s);
	while (!s->done) {
		now = dev->now_ns(dev->plat);
		if (now >= s->end) {
			vfit_net_end_(s, VFIT_NET_ERR_TIME);
		} else if (now >= s->deadline) {
			vfit_net_resend_(s);
		} else {
			f = dev->recv(dev->plat, s->deadline < s->end ? s->deadline : s->end, &n);
			if (f)
				input(s, f, n);
		}
	}
	*len = (size_t)s->received;
	return (enum vfit_net_result)s->result;
}
