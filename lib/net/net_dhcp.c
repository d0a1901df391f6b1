/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The DHCP client (RFC 2131): DISCOVER, the first acceptable OFFER,
 * REQUEST of that address from that server, its ACK (a NAK starts over,
 * a bounded number of times).  Replies must carry our transaction id and
 * hardware address, the magic cookie, a message type and a server
 * identifier; their options (RFC 2132) end with an end option inside
 * their area, each option we read appears once with a length and value
 * that make sense, and option overload (52) is honoured.  From the ACK:
 * the address, mask, router, the TFTP server (option 66 when it is a
 * dotted address, else siaddr, else the server identifier) and the file
 * (option 67, else the file field, else the configured name).
 */
#include <string.h>

#include "../byteorder.h"
#include "net_int.h"

#define BOOTP_MIN 300           /* BOOTP's message size, which some servers insist on */
#define BOOTP_FIXED 236
#define OPTS (BOOTP_FIXED + 4)  /* after the magic cookie */
#define COOKIE 0x63825363u
#define BOOTP_SNAME 44
#define BOOTP_FILE 108

enum { DISCOVER = 1, OFFER = 2, REQUEST = 3, ACK = 5, NAK = 6 };

/* Options read, one bit each: a second occurrence refuses the message. */
enum { O_MASK, O_ROUTER, O_OVERLOAD, O_TYPE, O_SERVER, O_TFTP, O_FILE };

struct dhcp {
	uint8_t type, overload;
	uint32_t seen, yiaddr, siaddr, server, mask, router, tftp;
	const uint8_t *file;
	size_t file_len;
};

bool vfit_net_name_ok_(const uint8_t *name, size_t len)
{
	size_t i;

	if (!len || len >= VFIT_NET_FILE_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (name[i] < 0x21 || name[i] > 0x7e)
			return false;
	return true;
}

/* A name value: trailing NULs dropped (some servers count one), the rest a name. */
static bool name_value(const uint8_t *v, size_t len, const uint8_t **name, size_t *nlen)
{
	while (len && !v[len - 1])
		len--;
	*name = v;
	*nlen = len;
	return vfit_net_name_ok_(v, len);
}

/* "a.b.c.d", decimal without leading zeros; false for anything else (a host name). */
static bool dotted(const uint8_t *v, size_t len, uint32_t *a)
{
	uint32_t part = 0, parts = 0, digits = 0;
	size_t i;

	*a = 0;
	for (i = 0; i <= len; i++) {
		if (i < len && v[i] >= '0' && v[i] <= '9') {
			if ((digits && !part) || ++digits > 3)
				return false;
			part = part * 10 + (uint32_t)(v[i] - '0');
			continue;
		}
		if ((i < len && v[i] != '.') || !digits || part > 255 || ++parts > 4)
			return false;
		*a = *a << 8 | part;
		part = digits = 0;
	}
	return parts == 4;
}

static bool mask_ok(uint32_t m)
{
	uint32_t host = ~m;

	return m && !(host & (host + 1));
}

static bool option(struct dhcp *m, uint8_t code, const uint8_t *v, size_t len)
{
	static const uint8_t codes[] = { 1, 3, 52, 53, 54, 66, 67 };
	const uint8_t *name;
	size_t bit, nlen;
	uint32_t a;

	for (bit = 0; bit < sizeof(codes) && codes[bit] != code; bit++)
		;
	if (bit == sizeof(codes))
		return true;            /* not read: skipped */
	if (m->seen & 1u << bit)
		return false;
	m->seen |= 1u << bit;
	switch (bit) {
	case O_MASK:
		m->mask = len == 4 ? ld_be32(v) : 0;
		return mask_ok(m->mask);
	case O_ROUTER:
		m->router = len >= 4 && !(len % 4) ? ld_be32(v) : 0;
		return vfit_net_host_ok_(m->router);
	case O_OVERLOAD:
		/* Only in the options field: a second one, in file or sname, is a duplicate. */
		m->overload = len == 1 ? v[0] : 0;
		return m->overload >= 1 && m->overload <= 3;
	case O_TYPE:
		m->type = len == 1 ? v[0] : 0;
		return m->type >= 1 && m->type <= 8;
	case O_SERVER:
		m->server = len == 4 ? ld_be32(v) : 0;
		return vfit_net_host_ok_(m->server);
	case O_TFTP:
		/* A host name cannot be looked up here: siaddr or the server id serve then. */
		while (len && !v[len - 1])
			len--;
		if (dotted(v, len, &a)) {
			m->tftp = a;
			return vfit_net_host_ok_(a);
		}
		return len > 0;
	default:
		if (!name_value(v, len, &name, &nlen))
			return false;
		m->file = name;
		m->file_len = nlen;
		return true;
	}
}

/* One options area: tag, length, value ... up to an end option inside it. */
static enum vfit_net_drop options(struct dhcp *m, const uint8_t *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		if (p[i] == 0) {
			i++;
			continue;
		}
		if (p[i] == 255)
			return VFIT_NET_DROP_NONE;
		if (n - i < 2 || n - i - 2 < p[i + 1] ||
		    !option(m, p[i], p + i + 2, p[i + 1]))
			return VFIT_NET_DROP_DHCP_OPTION;
		i += 2u + p[i + 1];
	}
	return VFIT_NET_DROP_DHCP_OPTION;
}

static enum vfit_net_drop parse(const struct vfit_net_session *s, const uint8_t *p, size_t n,
				struct dhcp *m)
{
	enum vfit_net_drop d;
	size_t i;

	memset(m, 0, sizeof(*m));
	if (n < OPTS || p[0] != 2 || p[1] != 1 || p[2] != 6 || ld_be32(p + BOOTP_FIXED) != COOKIE)
		return VFIT_NET_DROP_DHCP;
	if (ld_be32(p + 4) != s->xid || memcmp(p + 28, s->dev->mac, 6))
		return VFIT_NET_DROP_DHCP_XID;
	d = options(m, p + OPTS, n - OPTS);
	if (!d && (m->overload & 1))
		d = options(m, p + BOOTP_FILE, 128);
	if (!d && (m->overload & 2))
		d = options(m, p + BOOTP_SNAME, 64);
	if (d)
		return d;
	/* A BOOTP reply (no message type) or one without a server id is no DHCP reply. */
	if (!m->type || !m->server)
		return VFIT_NET_DROP_DHCP_OPTION;
	m->yiaddr = ld_be32(p + 16);
	m->siaddr = ld_be32(p + 20);
	if (m->siaddr && !vfit_net_host_ok_(m->siaddr))
		return VFIT_NET_DROP_DHCP;
	if (m->type != NAK && (!vfit_net_host_ok_(m->yiaddr) ||
			       (m->mask && m->mask < 0xfffffffeu &&
				((m->yiaddr & ~m->mask) == 0 || (m->yiaddr | m->mask) == NET_BCAST))))
		return VFIT_NET_DROP_DHCP;
	if (m->overload & 1)
		return VFIT_NET_DROP_NONE;
	/* The file field: empty, or a name ending in a NUL inside it (name_ok refuses 128). */
	for (i = 0; i < 128 && p[BOOTP_FILE + i]; i++)
		;
	if (i && !vfit_net_name_ok_(p + BOOTP_FILE, i))
		return VFIT_NET_DROP_DHCP;
	if (!m->file && i) {
		m->file = p + BOOTP_FILE;
		m->file_len = i;
	}
	return VFIT_NET_DROP_NONE;
}

/* DISCOVER or REQUEST into s->tx, broadcast, with the broadcast flag (we have no address). */
static void send_msg(struct vfit_net_session *s, uint8_t type)
{
	static const uint8_t params[] = { 55, 5, 1, 3, 54, 66, 67 };
	uint8_t *b = s->tx + NET_HDRS, *o = b + OPTS;

	memset(b, 0, BOOTP_MIN);
	b[0] = 1;
	b[1] = 1;
	b[2] = 6;
	st_be32(b + 4, s->xid);
	st_be16(b + 10, 0x8000);
	memcpy(b + 28, s->dev->mac, 6);
	st_be32(b + BOOTP_FIXED, COOKIE);
	*o++ = 53;
	*o++ = 1;
	*o++ = type;
	memcpy(o, params, sizeof(params));
	o += sizeof(params);
	*o++ = 57;                      /* the largest message we take: an IPv4 MTU */
	*o++ = 2;
	st_be16(o, 1500);
	o += 2;
	if (type == REQUEST) {
		*o++ = 50;
		*o++ = 4;
		st_be32(o, s->offer_ip);
		o += 4;
		*o++ = 54;
		*o++ = 4;
		st_be32(o, s->offer_server);
		o += 4;
	}
	*o = 255;
	vfit_net_request_(s, vfit_net_udp_frame_(s, s->tx, vfit_net_bcast_mac_, NET_BCAST, NET_PORT_BOOTPC,
						  NET_PORT_BOOTPS, BOOTP_MIN));
}

void vfit_net_dhcp_start_(struct vfit_net_session *s)
{
	s->phase = NET_PH_DISCOVER;
	send_msg(s, DISCOVER);
}

/* The lease, the server and the file from the ACK; then ARP for the next hop. */
static void bound(struct vfit_net_session *s, const struct dhcp *m)
{
	struct vfit_net_lease *l = &s->lease;
	size_t n;

	l->ip = m->yiaddr;
	l->mask = m->mask;
	l->router = m->router;
	l->dhcp_server = m->server;
	l->tftp_server = m->tftp ? m->tftp : m->siaddr ? m->siaddr : m->server;
	if (m->file) {
		memcpy(l->file, m->file, m->file_len);
		l->file[m->file_len] = 0;
	} else if (s->cfg_file) {
		n = strlen(s->cfg_file);
		memcpy(l->file, s->cfg_file, n + 1);
	}
	vfit_net_step_(s, VFIT_NET_STEP_BOUND);
	if (!l->file[0])
		vfit_net_end_(s, VFIT_NET_ERR_NO_FILE);
	else if (l->tftp_server == l->ip)
		vfit_net_end_(s, VFIT_NET_ERR_NO_ROUTE);
	else
		vfit_net_arp_start_(s);
}

enum vfit_net_drop vfit_net_dhcp_in_(struct vfit_net_session *s, const struct vfit_net_pkt_ *p)
{
	enum vfit_net_drop d;
	struct dhcp m;

	if (p->sport != NET_PORT_BOOTPS)
		return VFIT_NET_DROP_PORT;
	if (s->phase > NET_PH_REQUEST)
		return VFIT_NET_DROP_UNEXPECTED;
	d = parse(s, p->data, p->len, &m);
	if (d)
		return d;
	if (s->phase == NET_PH_DISCOVER) {
		if (m.type != OFFER)
			return VFIT_NET_DROP_UNEXPECTED;
		s->offer_ip = m.yiaddr;
		s->offer_server = m.server;
		s->phase = NET_PH_REQUEST;
		send_msg(s, REQUEST);
		return VFIT_NET_DROP_NONE;
	}
	if (m.server != s->offer_server || (m.type != ACK && m.type != NAK) ||
	    (m.type == ACK && m.yiaddr != s->offer_ip))
		return VFIT_NET_DROP_UNEXPECTED;
	if (m.type == ACK) {
		bound(s, &m);
	} else if (++s->naks >= s->tries) {
		vfit_net_end_(s, VFIT_NET_ERR_DHCP_NAK);
	} else {
		/* Start over in a new transaction: the server took the offer back. */
		s->xid++;
		vfit_net_dhcp_start_(s);
	}
	return VFIT_NET_DROP_NONE;
}
