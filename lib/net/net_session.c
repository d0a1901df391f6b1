/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A fetch's requests: each phase has one (DISCOVER, REQUEST, the ARP
 * request, RRQ, the ACK of the last block), sent again when its wait runs
 * out -- the wait doubling up to a cap, a fixed number of times -- and the
 * phase's failure once the tries are spent; the first end of the fetch
 * wins.  Below DHCP and TFTP, which make the requests, and the loop
 * (net_fetch.c), which watches the clock.
 */
#include "net_int.h"

#define MS 1000000u

void vfit_net_end_(struct vfit_net_session *s, enum vfit_net_result r)
{
	if (!s->done) {
		s->done = 1;
		s->result = (uint8_t)r;
	}
}

void vfit_net_step_(struct vfit_net_session *s, enum vfit_net_step step)
{
	if (s->dev->step)
		s->dev->step(s->dev->plat, step, s);
}

void vfit_net_send_(struct vfit_net_session *s, const uint8_t *f, size_t len)
{
	if (s->dev->send(s->dev->plat, f, len))
		vfit_net_end_(s, VFIT_NET_ERR_SEND);
}

static void arm(struct vfit_net_session *s)
{
	s->deadline = s->dev->now_ns(s->dev->plat) + (uint64_t)s->wait_ms * MS;
}

void vfit_net_request_(struct vfit_net_session *s, size_t len)
{
	s->tx_len = len;
	s->tries_left = s->tries - 1;
	s->wait_ms = s->wait_first_ms;
	vfit_net_send_(s, s->tx, len);
	arm(s);
}

void vfit_net_resend_(struct vfit_net_session *s)
{
	static const uint8_t fails[] = {
		[NET_PH_DISCOVER] = VFIT_NET_ERR_NO_DHCP, [NET_PH_REQUEST] = VFIT_NET_ERR_NO_DHCP,
		[NET_PH_ARP] = VFIT_NET_ERR_NO_ARP, [NET_PH_READ] = VFIT_NET_ERR_STALLED,
		[NET_PH_DATA] = VFIT_NET_ERR_STALLED,
	};

	if (!s->tries_left) {
		vfit_net_end_(s, (enum vfit_net_result)fails[s->phase]);
		return;
	}
	s->tries_left--;
	s->resends++;
	s->wait_ms = s->wait_ms > s->wait_max_ms / 2 ? s->wait_max_ms : 2 * s->wait_ms;
	vfit_net_send_(s, s->tx, s->tx_len);
	arm(s);
}

void vfit_net_arp_start_(struct vfit_net_session *s)
{
	const struct vfit_net_lease *l = &s->lease;
	bool server_here = l->mask ? !((l->tftp_server ^ l->ip) & l->mask) : !l->router;
	bool router_here = l->router && l->router != l->ip &&
			   (!l->mask || !((l->router ^ l->ip) & l->mask));

	if (!server_here && !router_here) {
		vfit_net_end_(s, VFIT_NET_ERR_NO_ROUTE);
		return;
	}
	s->hop = server_here ? l->tftp_server : l->router;
	s->phase = NET_PH_ARP;
	vfit_net_request_(s, vfit_net_arp_frame_(s, s->tx, 1, vfit_net_bcast_mac_, s->hop));
}

