/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/net against a DHCP and TFTP server written here (frames built and
 * checksummed by this file's own code, RFC 1071 the plain way), on a fake
 * device whose clock jumps to the client's deadline when nothing is
 * queued: a whole fetch, with and without options; every field of every
 * frame the server sends wrong in turn (a bad copy sent before the good
 * one: the copy is dropped for exactly that reason and changes nothing);
 * every way a fetch must end (no server, NAKs, no file, no route, no
 * ARP, a stalled transfer, ERROR, tsize and data beyond the room, short
 * files, unacceptable option acknowledgements, a flood, a slow drip); the
 * client's own frames checked by the server; block numbers rolling over;
 * and the frames QEMU's slirp sent in a real fetch (tests/vectors/net).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vfit/net.h"

#define CLIENT_IP 0x0a00020fu   /* 10.0.2.15 */
#define SERVER_IP 0x0a000202u   /* 10.0.2.2 */
#define MASK24 0xffffff00u
#define QN 8
#define FMAX 1600

static const uint8_t cmac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
static const uint8_t smac[6] = { 0x52, 0x55, 0x0a, 0x00, 0x02, 0x02 };
static const uint8_t bmac[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

enum kind { K_NONE, K_OFFER, K_ACK, K_ARP, K_OACK, K_DATA1, K_DATA2, K_LAST };

struct mut;

struct srv {
	/* what the server does */
	uint32_t ip, yiaddr, mask, router, siaddr, server_id;
	bool no_mask, no_router, dhcp_silent, arp_silent, oack, tsize, no_end;
	const char *file_field, *opt66, *opt67;
	const char *extra;              /* more options in OFFER and ACK, verbatim */
	size_t extra_len;
	const char *oack_raw;           /* the OACK's options verbatim ("a\0b\0...") */
	size_t oack_raw_len;
	uint16_t oack_blksize, tid, bs;
	uint64_t tsize_value;
	int naks;                       /* NAKs before the ACK (-1: always) */
	uint32_t stall_after;           /* no block after this one (0: never) */
	uint32_t drop_ack_of;           /* the first ACK of this block is lost */
	uint16_t rrq_error;             /* answers the RRQ with this ERROR code (0: none) */
	const char *rrq_error_msg;
	const uint8_t *file;
	size_t file_len;
	/* one injection: a mutated copy of the first frame of this kind, queued before it */
	const struct mut *mut;
	bool injected;
	/* what the server saw */
	unsigned int arp_replies;       /* the client's, each checked */
	unsigned int discovers, requests, arps, rrqs, acks, errors, bad_client, dup_acks;
	uint16_t error_code;
	uint32_t sent_block;            /* last block sent (32-bit count) */
	bool done;
	uint8_t rrq[600];
	size_t rrq_len;
	uint32_t client_xid;
	uint16_t client_port;
	/* the wire */
	uint8_t q[QN][FMAX], *cur;      /* the frame handed out: an exact-size heap block */
	size_t qlen[QN];
	unsigned int qh, qt;
	uint64_t now, step_ns;
	unsigned int steps_bound, steps_transfer;
	uint8_t flood[64];              /* when set: recv returns this forever */
	size_t flood_len;
	/* a capture played back: the server's frames after each of the client's */
	const uint8_t *cap_frame[64];
	size_t cap_len[64], cap_n, cap_next;
};

/* ---- frames, built here ------------------------------------------------ */

static void p16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8), p[1] = (uint8_t)v; }
static void p32(uint8_t *p, uint32_t v) { p16(p, v >> 16), p16(p + 2, v); }
static uint16_t g16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t g32(const uint8_t *p) { return (uint32_t)g16(p) << 16 | g16(p + 2); }

/* RFC 1071, one 16-bit word at a time. */
static uint32_t csum_add(uint32_t acc, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		acc += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		acc += (uint32_t)p[n - 1] << 8;
	return acc;
}

static uint16_t csum_fold(uint32_t acc)
{
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint16_t)acc;
}

enum { FIX_IP = 1, FIX_UDP = 2 };

/* Recomputes the IPv4 header checksum and/or the UDP checksum of frame f (as far as it parses). */
static void fix(uint8_t *f, size_t n, int what)
{
	size_t hl, total;
	uint8_t ph[12];
	uint32_t acc;
	uint16_t c;

	if (n < 34 || g16(f + 12) != 0x0800)
		return;
	hl = (f[14] & 15) * 4u;
	total = g16(f + 16);
	if (what & FIX_IP && 14 + hl <= n) {
		p16(f + 24, 0);
		p16(f + 24, (uint16_t)~csum_fold(csum_add(0, f + 14, hl)));
	}
	if (what & FIX_UDP && total >= hl + 8 && 14 + total <= n) {
		uint8_t *u = f + 14 + hl;
		size_t ul = total - hl;

		memcpy(ph, f + 26, 8);
		ph[8] = 0;
		ph[9] = 17;
		p16(ph + 10, (uint16_t)ul);
		p16(u + 6, 0);
		acc = csum_add(csum_add(0, ph, 12), u, ul);
		c = (uint16_t)~csum_fold(acc);
		p16(u + 6, c ? c : 0xffff);
	}
}

/* An IPv4/UDP frame from the server carrying pl[0..len); returns its length. */
static size_t udp_frame(uint8_t *f, const uint8_t *dmac, uint32_t src, uint32_t dst, uint16_t sport,
			uint16_t dport, const uint8_t *pl, size_t len)
{
	memcpy(f, dmac, 6);
	memcpy(f + 6, smac, 6);
	p16(f + 12, 0x0800);
	memset(f + 14, 0, 20);
	f[14] = 0x45;
	p16(f + 16, (uint16_t)(28 + len));
	p16(f + 18, 0x1234);
	f[22] = 64;
	f[23] = 17;
	p32(f + 26, src);
	p32(f + 30, dst);
	p16(f + 34, sport);
	p16(f + 36, dport);
	p16(f + 38, (uint16_t)(8 + len));
	memcpy(f + 42, pl, len);
	fix(f, 42 + len, FIX_IP | FIX_UDP);
	return 42 + len;
}

static void mutate(const struct mut *m, uint8_t *f, size_t *n);
static enum kind mut_kind(const struct mut *m);

static void queue(struct srv *v, enum kind k, const uint8_t *f, size_t n)
{
	if (v->mut && mut_kind(v->mut) == k && !v->injected) {
		v->injected = true;
		REQUIRE(v->qt - v->qh < QN, "queue full");
		memcpy(v->q[v->qt % QN], f, n);
		v->qlen[v->qt % QN] = n;
		mutate(v->mut, v->q[v->qt % QN], &v->qlen[v->qt % QN]);
		REQUIRE(v->qlen[v->qt % QN] != n || memcmp(v->q[v->qt % QN], f, n), "the copy differs");
		v->qt++;
	}
	REQUIRE(v->qt - v->qh < QN, "queue full");
	memcpy(v->q[v->qt % QN], f, n);
	v->qlen[v->qt % QN] = n;
	v->qt++;
}

static uint8_t *opt(uint8_t *o, uint8_t code, const void *val, size_t len)
{
	*o++ = code;
	*o++ = (uint8_t)len;
	memcpy(o, val, len);
	return o + len;
}

static uint8_t *opt32(uint8_t *o, uint8_t code, uint32_t v)
{
	uint8_t b[4];

	p32(b, v);
	return opt(o, code, b, 4);
}

/* An OFFER, ACK or NAK to the client's transaction. */
static void dhcp_reply(struct srv *v, uint8_t type)
{
	uint8_t b[548], f[FMAX], *o;
	size_t n;

	memset(b, 0, sizeof(b));
	b[0] = 2;
	b[1] = 1;
	b[2] = 6;
	p32(b + 4, v->client_xid);
	if (type != 6) {
		p32(b + 16, v->yiaddr);
		p32(b + 20, v->siaddr);
	}
	memcpy(b + 28, cmac, 6);
	if (v->file_field && type != 6)
		memcpy(b + 108, v->file_field, strlen(v->file_field));
	p32(b + 236, 0x63825363u);
	o = b + 240;
	o = opt(o, 53, &type, 1);
	if (v->server_id)
		o = opt32(o, 54, v->server_id);
	if (type != 6) {
		if (!v->no_mask)
			o = opt32(o, 1, v->mask);
		if (!v->no_router)
			o = opt32(o, 3, v->router);
		o = opt32(o, 51, 86400);
		if (v->opt66)
			o = opt(o, 66, v->opt66, strlen(v->opt66));
		if (v->opt67)
			o = opt(o, 67, v->opt67, strlen(v->opt67));
		if (v->extra)
			memcpy(o, v->extra, v->extra_len);
		o += v->extra_len;
	}
	if (!v->no_end)
		*o++ = 255;
	n = (size_t)(o - b) < 300 ? 300 : (size_t)(o - b);
	queue(v, type == 2 ? K_OFFER : K_ACK, f,
	      udp_frame(f, bmac, v->ip, 0xffffffffu, 67, 68, b, n));
}

static void send_block(struct srv *v, uint32_t n)
{
	uint8_t pl[4 + 65536], f[FMAX + 65536];
	size_t off = (size_t)(n - 1) * v->bs, len;

	len = off >= v->file_len ? 0 : v->file_len - off < v->bs ? v->file_len - off : v->bs;
	p16(pl, 3);
	p16(pl + 2, (uint16_t)n);
	memcpy(pl + 4, v->file + off, len);
	v->sent_block = n;
	if (len < v->bs)
		v->done = true;
	queue(v, n == 1 ? K_DATA1 : n == 2 ? K_DATA2 : v->done ? K_LAST : K_NONE, f,
	      udp_frame(f, cmac, v->ip, CLIENT_IP, v->tid, v->client_port, pl, 4 + len));
}

static void oack(struct srv *v)
{
	uint8_t pl[256], f[FMAX];
	size_t n = 2;

	p16(pl, 6);
	if (v->oack_raw) {
		memcpy(pl + 2, v->oack_raw, v->oack_raw_len);
		n += v->oack_raw_len;
	} else {
		n += (size_t)sprintf((char *)pl + n, "blksize") + 1;
		n += (size_t)sprintf((char *)pl + n, "%u", v->oack_blksize) + 1;
		if (v->tsize) {
			n += (size_t)sprintf((char *)pl + n, "tsize") + 1;
			n += (size_t)sprintf((char *)pl + n, "%llu", (unsigned long long)v->tsize_value) + 1;
		}
	}
	queue(v, K_OACK, f, udp_frame(f, cmac, v->ip, CLIENT_IP, v->tid, v->client_port, pl, n));
}

static void tftp_error(struct srv *v, uint16_t code, const char *msg)
{
	uint8_t pl[256], f[FMAX];

	p16(pl, 5);
	p16(pl + 2, code);
	strcpy((char *)pl + 4, msg);
	queue(v, K_NONE, f,
	      udp_frame(f, cmac, v->ip, CLIENT_IP, v->tid, v->client_port, pl, 5 + strlen(msg)));
}

/* ---- the server: reacts to each frame the client sends ---------------------- */

/* The client's frame must be well-formed: addresses, lengths, both checksums. */
static bool client_frame_ok(const uint8_t *f, size_t n)
{
	size_t hl, total;
	uint8_t ph[12];

	if (n < 60 || n > 1514 || memcmp(f + 6, cmac, 6))
		return false;
	if (g16(f + 12) == 0x0806)
		return g16(f + 14) == 1 && g16(f + 16) == 0x0800 && f[18] == 6 && f[19] == 4 &&
		       !memcmp(f + 22, cmac, 6);
	if (g16(f + 12) != 0x0800 || f[14] != 0x45 || csum_fold(csum_add(0, f + 14, 20)) != 0xffff)
		return false;
	/* Unicast goes to the MAC the server's ARP reply gave. */
	if (g32(f + 30) != 0xffffffffu && memcmp(f, smac, 6))
		return false;
	hl = 20;
	total = g16(f + 16);
	if (14 + total > n || f[23] != 17 || g16(f + 38) != total - hl)
		return false;
	memcpy(ph, f + 26, 8);
	ph[8] = 0;
	ph[9] = 17;
	p16(ph + 10, (uint16_t)(total - hl));
	return csum_fold(csum_add(csum_add(0, ph, 12), f + 34, total - hl)) == 0xffff;
}

/* Option code of the client's message b[0..n), or NULL; *len its length. */
static const uint8_t *dhcp_opt(const uint8_t *b, size_t n, uint8_t code, size_t *len)
{
	size_t i = 240;

	while (i + 2 < n && b[i] != 255) {
		if (b[i] == 0) {
			i++;
			continue;
		}
		if (b[i] == code && i + 2 + b[i + 1] <= n) {
			*len = b[i + 1];
			return b + i + 2;
		}
		i += 2u + b[i + 1];
	}
	return NULL;
}

/*
 * The client's DISCOVER or REQUEST: a BOOTP request of 300 bytes from
 * 0.0.0.0:68 to broadcast:67 with the broadcast flag, our hardware address,
 * the cookie; a REQUEST names the offered address and the server.
 */
static uint8_t dhcp_check(struct srv *v, const uint8_t *f)
{
	const uint8_t *b = f + 42, *o;
	size_t n = g16(f + 38) - 8u, len = 0;
	uint8_t type;

	o = dhcp_opt(b, n, 53, &len);
	type = o && len == 1 ? o[0] : 0;
	if (n != 300 || b[0] != 1 || b[1] != 1 || b[2] != 6 || g16(b + 10) != 0x8000 ||
	    memcmp(b + 28, cmac, 6) || g32(b + 236) != 0x63825363u || g32(f + 26) ||
	    g32(f + 30) != 0xffffffffu || g16(f + 34) != 68 || memcmp(f, bmac, 6) ||
	    (type != 1 && type != 3))
		v->bad_client++;
	if (type == 3 && (!(o = dhcp_opt(b, n, 50, &len)) || len != 4 || g32(o) != v->yiaddr ||
			  !(o = dhcp_opt(b, n, 54, &len)) || len != 4 || g32(o) != v->server_id))
		v->bad_client++;
	return type;
}

static void react(struct srv *v, const uint8_t *f, size_t n)
{
	const uint8_t *pl = f + 42;
	uint16_t dport, op;
	uint8_t arp[60];

	if (!client_frame_ok(f, n)) {
		v->bad_client++;
		return;
	}
	if (g16(f + 12) == 0x0806) {
		if (g16(f + 20) == 2) {
			/* Our address asked for: the client's MAC and address, to us. */
			if (memcmp(f, smac, 6) || memcmp(f + 22, cmac, 6) || g32(f + 28) != CLIENT_IP ||
			    memcmp(f + 32, smac, 6) || g32(f + 38) != v->ip)
				v->bad_client++;
			v->arp_replies++;
			return;
		}
		v->arps++;
		if (v->arp_silent || g16(f + 20) != 1)
			return;
		memset(arp, 0, sizeof(arp));
		memcpy(arp, cmac, 6);
		memcpy(arp + 6, smac, 6);
		p16(arp + 12, 0x0806);
		p16(arp + 14, 1);
		p16(arp + 16, 0x0800);
		arp[18] = 6;
		arp[19] = 4;
		p16(arp + 20, 2);
		memcpy(arp + 22, smac, 6);
		memcpy(arp + 28, f + 38, 4);     /* the address asked for */
		memcpy(arp + 32, cmac, 6);
		memcpy(arp + 38, f + 28, 4);
		queue(v, K_ARP, arp, sizeof(arp));
		return;
	}
	dport = g16(f + 36);
	if (dport == 67) {
		v->client_xid = g32(pl + 4);
		if (v->dhcp_silent)
			return;
		if (dhcp_check(v, f) == 1) {
			v->discovers++;
			dhcp_reply(v, 2);
		} else {
			v->requests++;
			if (v->naks < 0 || v->naks-- > 0)
				dhcp_reply(v, 6);
			else
				dhcp_reply(v, 5);
		}
		return;
	}
	op = g16(pl);
	if (dport == 69 && op == 1) {
		v->rrqs++;
		v->client_port = g16(f + 34);
		v->rrq_len = g16(f + 38) - 10u;
		memcpy(v->rrq, pl + 2, v->rrq_len);
		if (v->rrq_error)
			tftp_error(v, v->rrq_error, v->rrq_error_msg);
		else if (v->oack)
			oack(v);
		else
			send_block(v, 1);
		return;
	}
	if (op == 5) {
		v->errors++;
		v->error_code = g16(pl + 2);
		return;
	}
	if (op != 4 || dport != v->tid)
		return;
	v->acks++;
	if (g16(pl + 2) != (uint16_t)v->sent_block) {
		v->dup_acks++;
		return;
	}
	if (v->drop_ack_of && v->sent_block == v->drop_ack_of) {
		v->drop_ack_of = 0;
		return;
	}
	if (v->done || (v->stall_after && v->sent_block >= v->stall_after))
		return;
	send_block(v, v->sent_block + 1);
}

/*
 * The capture's next client frame stands for this one; the server's frames
 * after it are queued, fixed up for this session as slirp would have sent
 * them: the client's transaction id and port, the checksums again.
 */
static void replay(struct srv *v, const uint8_t *f, size_t n)
{
	uint8_t g[FMAX];
	const uint8_t *c;
	size_t len;

	if (!client_frame_ok(f, n))
		v->bad_client++;
	if (g16(f + 12) == 0x0800 && g16(f + 36) == 67)
		v->client_xid = g32(f + 46);
	if (g16(f + 12) == 0x0800 && g16(f + 36) == 69)
		v->client_port = g16(f + 34);
	while (v->cap_next < v->cap_n && !memcmp(v->cap_frame[v->cap_next] + 6, cmac, 6))
		v->cap_next++;
	for (; v->cap_next < v->cap_n; v->cap_next++) {
		c = v->cap_frame[v->cap_next];
		len = v->cap_len[v->cap_next];
		if (!memcmp(c + 6, cmac, 6))
			break;
		memcpy(g, c, len);
		if (g16(g + 12) == 0x0800 && g16(g + 34) == 67)
			p32(g + 46, v->client_xid);
		else if (g16(g + 12) == 0x0800)
			p16(g + 36, v->client_port);
		fix(g, len, FIX_UDP);
		queue(v, K_NONE, g, len);
	}
	v->cap_next++;
}

static enum vfit_net_result dev_send(void *plat, const uint8_t *f, size_t n)
{
	struct srv *v = plat;

	if (v->cap_n)
		replay(v, f, n);
	else
		react(v, f, n);
	return VFIT_NET_OK;
}

static const uint8_t *dev_recv(void *plat, uint64_t deadline, size_t *len)
{
	struct srv *v = plat;

	if (v->flood_len) {
		v->now += v->step_ns;
		*len = v->flood_len;
		return v->flood;
	}
	if (v->qh == v->qt) {
		if (v->now < deadline)
			v->now = deadline;
		return NULL;
	}
	v->now += v->step_ns;
	free(v->cur);
	v->cur = malloc(v->qlen[v->qh % QN] ? v->qlen[v->qh % QN] : 1);
	REQUIRE(v->cur, "memory");
	memcpy(v->cur, v->q[v->qh % QN], v->qlen[v->qh % QN]);
	*len = v->qlen[v->qh % QN];
	v->qh++;
	return v->cur;
}

static uint64_t dev_now(void *plat)
{
	return ((struct srv *)plat)->now;
}

static void dev_step(void *plat, enum vfit_net_step step, const struct vfit_net_session *s)
{
	struct srv *v = plat;

	(void)s;
	if (step == VFIT_NET_STEP_BOUND)
		v->steps_bound++;
	else
		v->steps_transfer++;
}

static uint8_t file_data[600000];

/* slirp's defaults: 10.0.2.15/24, everything at 10.0.2.2, the file in the file field. */
static void srv_init(struct srv *v, size_t file_len)
{
	memset(v, 0, sizeof(*v));
	v->ip = v->siaddr = v->server_id = v->router = SERVER_IP;
	v->yiaddr = CLIENT_IP;
	v->mask = MASK24;
	v->file_field = "recovery.fit";
	v->oack = true;
	v->tsize = true;
	v->oack_blksize = 1428;
	v->bs = 1428;
	v->tid = 69;
	v->file = file_data;
	v->file_len = file_len;
	v->tsize_value = file_len;
	v->step_ns = 1000;
}

static struct vfit_net_session sess;
static uint8_t buf[600000 + 64];

/* One fetch into buf[0..cap) (guard bytes after it); the result, *len the size. */
static enum vfit_net_result run(struct srv *v, const struct vfit_net_config *cfg, size_t cap,
				size_t *len)
{
	struct vfit_net_dev dev = { v, { 0 }, dev_send, dev_recv, dev_now, dev_step };
	enum vfit_net_result r;

	memcpy(dev.mac, cmac, 6);
	memset(buf, 0xa5, sizeof(buf));
	r = vfit_net_fetch(&dev, cfg, &sess, buf, cap, len);
	free(v->cur);
	v->cur = NULL;
	CHECK(buf[cap] == 0xa5 && buf[cap + 63] == 0xa5, "no byte written past the room");
	CHECK(!v->bad_client, "every frame the client sent is well-formed (%u not)", v->bad_client);
	return r;
}

static unsigned int drops_total(void)
{
	unsigned int i, n = 0;

	for (i = 1; i < VFIT_NET_DROPS; i++)
		n += sess.drops[i];
	return n;
}

static bool got_file(const struct srv *v, size_t len)
{
	return len == v->file_len && !memcmp(buf, v->file, len);
}

/* ---- whole fetches ------------------------------------------------------ */

static void test_plain(void)
{
	struct srv v;
	size_t len;
	enum vfit_net_result r;
	static const char want_rrq[] = "recovery.fit\0octet\0blksize\0001468\0tsize\0000";

	/* A server that takes no options: RFC 1350's 512-byte blocks. */
	srv_init(&v, 3 * 512 + 100);
	v.oack = false;
	v.bs = 512;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK, "plain TFTP: %s", vfit_net_result_to_string(r));
	CHECK(got_file(&v, len), "plain TFTP: the file, in order");
	CHECK(sess.blksize == 512 && !sess.has_tsize && sess.blocks == 4, "plain TFTP: 4 blocks of 512");
	CHECK(v.discovers == 1 && v.requests == 1 && v.arps == 1 && v.rrqs == 1 && v.acks == 4,
	      "one DISCOVER, REQUEST, ARP, RRQ and one ACK per block");
	CHECK(v.rrq_len == sizeof(want_rrq) && !memcmp(v.rrq, want_rrq, sizeof(want_rrq)),
	      "RRQ: file, octet, blksize 1468, tsize 0");
	CHECK(sess.lease.ip == CLIENT_IP && sess.lease.mask == MASK24 &&
	      sess.lease.router == SERVER_IP && sess.lease.tftp_server == SERVER_IP &&
	      !strcmp(sess.lease.file, "recovery.fit"), "the lease");
	CHECK(v.steps_bound == 1 && v.steps_transfer == 1, "each step told once");
	CHECK(!drops_total() && !sess.resends, "nothing dropped, nothing sent again");

	/* Options: the server lowers blksize to 1428 and sends tsize; an exact multiple ends on an empty block. */
	srv_init(&v, 7 * 1428);
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && got_file(&v, len), "blksize 1428 + tsize: %s",
	      vfit_net_result_to_string(r));
	CHECK(sess.blksize == 1428 && sess.has_tsize && sess.tsize == 7 * 1428 && sess.blocks == 8,
	      "7 full blocks and an empty one");

	/* The room exactly the file: fits. */
	srv_init(&v, 5000);
	r = run(&v, NULL, 5000, &len);
	CHECK(r == VFIT_NET_OK && got_file(&v, len), "a file exactly the room's size");

	/* An empty file. */
	srv_init(&v, 0);
	r = run(&v, NULL, 100, &len);
	CHECK(r == VFIT_NET_OK && len == 0, "an empty file: %s", vfit_net_result_to_string(r));

	/* The server's own port as transfer id (RFC 1350), not 69. */
	srv_init(&v, 4000);
	v.tid = 3456;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && got_file(&v, len) && v.acks == 4, "the server's TID 3456: ACK 0 to 3");
}

/* 65537 blocks of 8 bytes: the block number rolls over from 65535 to 0. */
static void test_rollover(void)
{
	struct vfit_net_config cfg = { 0 };
	struct srv v;
	size_t len;
	enum vfit_net_result r;

	cfg.blksize = 8;
	srv_init(&v, 8u * 65536 + 3);
	v.oack_blksize = 8;
	v.bs = 8;
	r = run(&v, &cfg, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && got_file(&v, len), "65537 blocks across the rollover: %s",
	      vfit_net_result_to_string(r));
	CHECK(sess.blocks == 65537, "every block taken once (%u)", sess.blocks);
}

static void test_dhcp_names(void)
{
	struct vfit_net_config cfg = { 0 };
	struct srv v;
	size_t len;
	enum vfit_net_result r;

	/* Option 67 before the file field; option 66 (dotted) before siaddr. */
	srv_init(&v, 2000);
	v.opt67 = "boot/rec.fit";
	v.opt66 = "10.0.2.3";
	v.ip = 0x0a000203u;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && !strcmp(sess.lease.file, "boot/rec.fit") &&
	      sess.lease.tftp_server == 0x0a000203u, "options 66 and 67 first: %s",
	      vfit_net_result_to_string(r));

	/* Option 67 with a trailing NUL (some servers count it). */
	srv_init(&v, 2000);
	v.opt67 = "x.fit";
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && !strcmp(sess.lease.file, "x.fit"), "option 67");

	/* A host name in option 66 cannot be looked up: siaddr serves. */
	srv_init(&v, 2000);
	v.opt66 = "tftp.example";
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && sess.lease.tftp_server == SERVER_IP, "option 66 a name: siaddr");

	/* Leading zeros are no dotted address (octal to some): a name, so siaddr. */
	srv_init(&v, 2000);
	v.opt66 = "010.0.2.3";
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && sess.lease.tftp_server == SERVER_IP, "option 66 with a leading zero");

	/* A router option of 8 bytes is two routers (the first serves); of 5, no option at all. */
	srv_init(&v, 2000);
	v.no_router = true;
	v.extra = "\x03\x08\x0a\x00\x02\x02\x0a\x00\x02\x03";
	v.extra_len = 10;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && sess.lease.router == SERVER_IP, "two routers: %s",
	      vfit_net_result_to_string(r));
	srv_init(&v, 2000);
	v.no_router = true;
	v.extra = "\x03\x05\x0a\x00\x02\x02\x00";
	v.extra_len = 7;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_NO_DHCP && sess.drops[VFIT_NET_DROP_DHCP_OPTION] == 4,
	      "a router of 5 bytes: every OFFER refused: %s", vfit_net_result_to_string(r));

	/* No siaddr: the server identifier. */
	srv_init(&v, 2000);
	v.siaddr = 0;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && sess.lease.tftp_server == SERVER_IP, "no siaddr: option 54");

	/* DHCP names no file: the configured one; without it, the fetch ends. */
	srv_init(&v, 2000);
	v.file_field = NULL;
	cfg.file = "configured.fit";
	r = run(&v, &cfg, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && !strcmp(sess.lease.file, "configured.fit") &&
	      !memcmp(v.rrq, "configured.fit", 15), "the configured name when DHCP names none");
	srv_init(&v, 2000);
	v.file_field = "dhcp.fit";
	r = run(&v, &cfg, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && !strcmp(sess.lease.file, "dhcp.fit"), "DHCP's name first");
	srv_init(&v, 2000);
	v.file_field = NULL;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_NO_FILE && !v.arps, "no file name: ends before ARP");

	/* Off-link server: through the router; without one, no route. */
	srv_init(&v, 2000);
	v.opt66 = "192.168.7.7";
	v.ip = 0xc0a80707u;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && v.arps == 1, "off-link server through the router: %s",
	      vfit_net_result_to_string(r));
	srv_init(&v, 2000);
	v.opt66 = "192.168.7.7";
	v.no_router = true;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_NO_ROUTE && !v.arps, "off-link server, no router");
	srv_init(&v, 2000);
	v.router = 0x0a000302u;
	v.opt66 = "192.168.7.7";
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_NO_ROUTE, "a router off our subnet");
	srv_init(&v, 2000);
	v.siaddr = CLIENT_IP;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_NO_ROUTE, "a TFTP server at our own address");
}

/* Each way a fetch ends other than with the file, and in how long (the fake clock). */
static void test_ends(void)
{
	struct vfit_net_config cfg = { 0 };
	struct srv v;
	size_t len;
	enum vfit_net_result r;

	srv_init(&v, 2000);
	v.dhcp_silent = true;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_NO_DHCP && v.client_xid && sess.resends == 3,
	      "no DHCP server: 4 DISCOVERs: %s", vfit_net_result_to_string(r));
	CHECK(v.now == 11000000000ull, "waits 1 + 2 + 4 + 4 s (%llu ns)", (unsigned long long)v.now);

	cfg.timeout_ms = 100;
	cfg.timeout_max_ms = 150;
	cfg.tries = 2;
	srv_init(&v, 2000);
	v.dhcp_silent = true;
	r = run(&v, &cfg, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_NO_DHCP && v.now == 250000000ull, "configured waits: 100 + 150 ms");

	srv_init(&v, 2000);
	v.naks = 1;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && v.discovers == 2, "a NAK starts over: %s",
	      vfit_net_result_to_string(r));
	srv_init(&v, 2000);
	v.naks = -1;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_DHCP_NAK && v.discovers == 4, "NAKs every time: bounded");

	srv_init(&v, 2000);
	v.arp_silent = true;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_NO_ARP && v.arps == 4 && !v.rrqs, "no ARP answer");

	srv_init(&v, 10000);
	v.stall_after = 3;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_STALLED && v.dup_acks == 0 && v.acks == 3 + 4,
	      "stalled after block 3: its ACK sent 4 times: %s", vfit_net_result_to_string(r));

	srv_init(&v, 10000);
	v.drop_ack_of = 2;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && got_file(&v, len) && sess.resends == 1,
	      "a lost ACK is sent again: %s", vfit_net_result_to_string(r));

	/* The server answers the RRQ with an ERROR; its message is shown printable. */
	srv_init(&v, 10000);
	v.rrq_error = 1;
	v.rrq_error_msg = "File not found\x1b[2J";
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_TFTP && sess.tftp_code == 1 &&
	      !strcmp(sess.tftp_msg, "File not found?[2J"), "TFTP ERROR 1 with its message: %s '%s'",
	      vfit_net_result_to_string(r), sess.tftp_msg);
}

/* The room and the announced size: refused before or when overflowing, never written past. */
static void test_sizes(void)
{
	struct srv v;
	size_t len;
	enum vfit_net_result r;

	srv_init(&v, 10000);
	r = run(&v, NULL, 9999, &len);
	CHECK(r == VFIT_NET_ERR_TOO_BIG && v.acks == 0 && v.errors == 1 && v.error_code == 3,
	      "tsize one byte over the room: refused before any block, ERROR 3 to the server: %s",
	      vfit_net_result_to_string(r));
	CHECK(buf[0] == 0xa5, "nothing written");

	srv_init(&v, 10000);
	v.tsize = false;
	r = run(&v, NULL, 9999, &len);
	CHECK(r == VFIT_NET_ERR_TOO_BIG && v.errors == 1 && v.error_code == 3 &&
	      !memcmp(buf, file_data, 9999 - 9999 % 1428), "no tsize: refused at the block that overflows");

	srv_init(&v, 10000);
	v.tsize_value = 9000;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_SIZE && v.errors == 1 && sess.received <= 9000,
	      "more data than tsize: %s", vfit_net_result_to_string(r));

	srv_init(&v, 10000);
	v.tsize_value = 10001;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_SIZE && v.errors == 1, "less data than tsize (a truncated file)");

	srv_init(&v, 2 * 1428);
	v.tsize_value = 2 * 1428 + 1;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_SIZE, "ends on an empty block short of tsize");
}

/* Option acknowledgements the client did not ask for, or with values out of range. */
static void test_oack(void)
{
	static const struct {
		const char *what;
		const char *raw;
		size_t len;
		enum vfit_net_result want;
	} cases[] = {
#define RAW(s) s, sizeof(s) - 1
		{ "an option not asked for", RAW("windowsize\0" "4\0"), VFIT_NET_ERR_OACK },
		{ "blksize above the one asked", RAW("blksize\0" "1469\0"), VFIT_NET_ERR_OACK },
		{ "blksize below 8", RAW("blksize\0" "7\0"), VFIT_NET_ERR_OACK },
		{ "blksize twice", RAW("blksize\0" "512\0blksize\0" "512\0"), VFIT_NET_ERR_OACK },
		{ "tsize twice", RAW("tsize\0" "3000\0tsize\0" "3000\0"), VFIT_NET_ERR_OACK },
		{ "tsize not decimal", RAW("tsize\0" "12a\0"), VFIT_NET_ERR_OACK },
		{ "tsize with a sign", RAW("tsize\0+12\0"), VFIT_NET_ERR_OACK },
		{ "tsize with a leading zero", RAW("tsize\0" "012\0"), VFIT_NET_ERR_OACK },
		{ "tsize of 20 digits", RAW("tsize\0" "10000000000000000000\0"), VFIT_NET_ERR_OACK },
		{ "tsize empty", RAW("tsize\0\0"), VFIT_NET_ERR_OACK },
		{ "upper-case names", RAW("BLKSIZE\0" "1000\0TSize\0" "3000\0"), VFIT_NET_OK },
		{ "tsize alone (blksize 512)", RAW("tsize\0" "3000\0"), VFIT_NET_OK },
#undef RAW
	};
	struct srv v;
	size_t i, len;
	enum vfit_net_result r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		srv_init(&v, 3000);
		v.oack_raw = cases[i].raw;
		v.oack_raw_len = cases[i].len;
		v.bs = strstr(cases[i].what, "upper") ? 1000 : 512;
		r = run(&v, NULL, sizeof(buf) - 64, &len);
		CHECK(r == cases[i].want, "OACK, %s: %s", cases[i].what, vfit_net_result_to_string(r));
		if (cases[i].want == VFIT_NET_ERR_OACK)
			CHECK(v.errors == 1 && v.error_code == 8 && !v.acks, "OACK, %s: ERROR 8, no ACK",
			      cases[i].what);
		else
			CHECK(got_file(&v, len), "OACK, %s: the file", cases[i].what);
	}
}

/* A flood of frames that are all dropped, and a server that sends one block per wait. */
static void test_bounded(void)
{
	struct vfit_net_config cfg = { 0 };
	struct srv v;
	size_t len;
	enum vfit_net_result r;

	srv_init(&v, 2000);
	memset(v.flood, 0x11, sizeof(v.flood));
	v.flood_len = sizeof(v.flood);
	v.step_ns = 1000000;
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_NO_DHCP && sess.drops[VFIT_NET_DROP_MAC] > 10000,
	      "a flood of frames: DHCP still times out: %s", vfit_net_result_to_string(r));

	cfg.limit_ms = 5000;
	srv_init(&v, 20 * 1428);
	v.step_ns = 900000000;          /* each block 0.9 s after its ACK: progress, slowly */
	r = run(&v, &cfg, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_ERR_TIME && v.now <= 5000000000ull + 900000000ull,
	      "a slow drip ends at the limit: %s", vfit_net_result_to_string(r));
}

static void test_params(void)
{
	struct vfit_net_config cfg = { 0 };
	struct srv v;
	size_t len;
	struct vfit_net_dev dev = { &v, { 0 }, dev_send, dev_recv, dev_now, NULL };
	char longname[200];

	srv_init(&v, 10);
	CHECK(vfit_net_fetch(&dev, &cfg, &sess, NULL, 10, &len) == VFIT_NET_ERR_PARAM, "no buffer");
	dev.recv = NULL;
	CHECK(vfit_net_fetch(&dev, &cfg, &sess, buf, 10, &len) == VFIT_NET_ERR_PARAM, "no recv");
	dev.recv = dev_recv;
	cfg.blksize = 7;
	CHECK(vfit_net_fetch(&dev, &cfg, &sess, buf, 10, &len) == VFIT_NET_ERR_PARAM, "blksize 7");
	cfg.blksize = VFIT_NET_BLKSIZE + 1;
	CHECK(vfit_net_fetch(&dev, &cfg, &sess, buf, 10, &len) == VFIT_NET_ERR_PARAM, "blksize 1469");
	cfg.blksize = 0;
	cfg.file = "with space.fit";
	CHECK(vfit_net_fetch(&dev, &cfg, &sess, buf, 10, &len) == VFIT_NET_ERR_PARAM, "a space");
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	cfg.file = longname;
	CHECK(vfit_net_fetch(&dev, &cfg, &sess, buf, 10, &len) == VFIT_NET_ERR_PARAM, "199 chars");
	longname[128] = 0;
	CHECK(vfit_net_fetch(&dev, &cfg, &sess, buf, 10, &len) == VFIT_NET_ERR_PARAM, "128 chars");
	CHECK(!v.discovers && !v.qt, "nothing sent for a bad configuration");
	CHECK(!strcmp(vfit_net_result_to_string(VFIT_NET_ERR_TIME), "the fetch took longer than its limit") &&
	      !strcmp(vfit_net_result_to_string((enum vfit_net_result)99), "unknown result") &&
	      !strcmp(vfit_net_drop_to_string(VFIT_NET_DROP_UDP_CHECKSUM), "UDP checksum") &&
	      !strcmp(vfit_net_drop_to_string(VFIT_NET_DROPS), "unknown drop"), "names");
}


/* ---- each field wrong in turn ------------------------------------------------ */

enum op {
	SET,            /* width bytes at the offset := value */
	XOR,            /* the byte at the offset ^= value */
	ADD16,          /* the 16-bit field at the offset += value */
	FRAME_LEN,      /* the frame cut to value bytes */
	PAD,            /* value zero bytes after the frame (Ethernet padding) */
	PAYLOAD,        /* the UDP payload replaced by bytes[0..len), lengths fixed */
	GROW,           /* value bytes added to the UDP payload, lengths fixed */
	CUT,            /* the UDP payload cut to value bytes, lengths fixed */
	DHCP_ADD,       /* bytes[0..len) as options before the end option */
	DHCP_NO_END,    /* the end option gone (padding to the end) */
	DHCP_TAIL,      /* bytes[0..len) in place of the end option, the message cut after them */
	FILL,           /* value bytes of 'a' from the offset */
	ZERO,           /* value zero bytes from the offset */
	DATA,           /* the payload a DATA of block `width` with value bytes */
	ARP_REQ,        /* the ARP reply made a request for address value */
	OVERLOAD,       /* option 52 = value (1: file, 2: sname; 0: 1) added, bytes at the field's start */
	IP_OPTS,        /* four bytes of IPv4 options (NOP NOP NOP EOL): header length 24 */
};
enum sec { S_ETH = 0, S_IP = 14, S_UDP = 34, S_PL = 42 };

struct mut {
	const char *what;
	enum kind kind;
	enum op op;
	enum sec sec;
	int off, width;
	uint32_t value;
	const char *bytes;
	size_t len;
	int fixes;
	enum vfit_net_drop want;
	int off2;                       /* and, when not 0, the 4 bytes at sec + off2 := value2 */
	uint32_t value2;
};

static enum kind mut_kind(const struct mut *m)
{
	return m->kind;
}

/* Where the DHCP message in frame f has its end option (options walked, not searched). */
static size_t end_opt(const uint8_t *f)
{
	size_t i = 42 + 240;

	while (f[i] != 255)
		i += f[i] ? 2u + f[i + 1] : 1u;
	return i;
}

/* The UDP payload resized to len (IPv4 total and UDP length follow). */
static void payload_len(uint8_t *f, size_t *n, size_t len)
{
	p16(f + 16, (uint16_t)(28 + len));
	p16(f + 38, (uint16_t)(8 + len));
	*n = 42 + len;
}

static void mutate(const struct mut *m, uint8_t *f, size_t *n)
{
	uint8_t *p = f + m->sec + m->off;
	size_t i, pl = *n - 42;

	switch (m->op) {
	case SET:
		if (m->width == 1)
			*p = (uint8_t)m->value;
		else if (m->width == 2)
			p16(p, m->value);
		else
			p32(p, m->value);
		break;
	case XOR:
		*p ^= (uint8_t)m->value;
		break;
	case ADD16:
		p16(p, g16(p) + m->value);
		break;
	case FRAME_LEN:
		*n = m->value;
		break;
	case PAD:
		memset(f + *n, 0, m->value);
		*n += m->value;
		break;
	case PAYLOAD:
		memcpy(f + 42, m->bytes, m->len);
		payload_len(f, n, m->len);
		break;
	case GROW:
		memset(f + *n, 'g', m->value);
		payload_len(f, n, pl + m->value);
		break;
	case CUT:
		payload_len(f, n, m->value);
		break;
	case DHCP_ADD:
		i = end_opt(f);
		memcpy(f + i, m->bytes, m->len);
		f[i + m->len] = 255;
		break;
	case DHCP_TAIL:
		i = end_opt(f);
		memcpy(f + i, m->bytes, m->len);
		payload_len(f, n, i + m->len - 42);
		break;
	case DHCP_NO_END:
		f[end_opt(f)] = 0;
		break;
	case FILL:
	case ZERO:
		memset(p, m->op == FILL ? 'a' : 0, m->value);
		break;
	case OVERLOAD:
		i = end_opt(f);
		f[i] = 52;
		f[i + 1] = 1;
		f[i + 2] = (uint8_t)(m->value ? m->value : 1);
		f[i + 3] = 255;
		memset(f + 42 + (m->value == 2 ? 44 : 108), 0, m->value == 2 ? 64 : 128);
		memcpy(f + 42 + (m->value == 2 ? 44 : 108), m->bytes, m->len);
		break;
	case ARP_REQ:
		p16(f + 20, 1);
		p32(f + 38, m->value);
		break;
	case DATA:
		p16(f + 42, 3);
		p16(f + 44, (uint16_t)m->width);
		memset(f + 46, 'd', m->value);
		payload_len(f, n, 4 + m->value);
		break;
	case IP_OPTS:
		memmove(f + 38, f + 34, *n - 34);
		memcpy(f + 34, "\x01\x01\x01\x00", 4);
		f[14] = 0x46;
		p16(f + 16, g16(f + 16) + 4);
		*n += 4;
		break;
	}
	if (m->off2)
		p32(f + m->sec + m->off2, m->value2);
	fix(f, *n, m->fixes);
}

#define B(s) s, sizeof(s) - 1
#define IPF FIX_IP
#define ALL (FIX_IP | FIX_UDP)
static const struct mut muts[] = {
	/* Ethernet, on the OFFER */
	{ "a frame of 13 bytes", K_OFFER, FRAME_LEN, S_ETH, 0, 0, 13, NULL, 0, 0, VFIT_NET_DROP_LENGTH, 0, 0 },
	{ "a frame of 1515 bytes", K_OFFER, PAD, S_ETH, 0, 0, 1515 - 342, NULL, 0, 0, VFIT_NET_DROP_LENGTH, 0, 0 },
	{ "to another MAC", K_OFFER, SET, S_ETH, 0, 1, 0x02, NULL, 0, 0, VFIT_NET_DROP_MAC, 0, 0 },
	{ "to a multicast MAC", K_OFFER, SET, S_ETH, 5, 1, 0xfe, NULL, 0, 0, VFIT_NET_DROP_MAC, 0, 0 },
	{ "ethertype IPv6", K_OFFER, SET, S_ETH, 12, 2, 0x86dd, NULL, 0, 0, VFIT_NET_DROP_ETHERTYPE, 0, 0 },
	{ "a VLAN tag", K_OFFER, SET, S_ETH, 12, 2, 0x8100, NULL, 0, 0, VFIT_NET_DROP_ETHERTYPE, 0, 0 },
	/* IPv4 */
	{ "IP version 6", K_OFFER, SET, S_IP, 0, 1, 0x65, NULL, 0, IPF, VFIT_NET_DROP_IP_HEADER, 0, 0 },
	{ "IP header length 16", K_OFFER, SET, S_IP, 0, 1, 0x44, NULL, 0, IPF, VFIT_NET_DROP_IP_HEADER, 0, 0 },
	{ "IP header of 20 bytes in a 33-byte frame", K_OFFER, FRAME_LEN, S_ETH, 0, 0, 33, NULL, 0, 0, VFIT_NET_DROP_LENGTH, 0, 0 },
	{ "IP total length past the frame", K_OFFER, ADD16, S_IP, 2, 2, 1, NULL, 0, IPF, VFIT_NET_DROP_IP_HEADER, 0, 0 },
	{ "IP total length under the header", K_OFFER, SET, S_IP, 2, 2, 19, NULL, 0, IPF, VFIT_NET_DROP_IP_HEADER, 0, 0 },
	{ "IP header checksum", K_OFFER, XOR, S_IP, 10, 1, 0x40, NULL, 0, 0, VFIT_NET_DROP_IP_CHECKSUM, 0, 0 },
	{ "IP TTL changed, checksum not", K_OFFER, XOR, S_IP, 8, 1, 0x01, NULL, 0, 0, VFIT_NET_DROP_IP_CHECKSUM, 0, 0 },
	{ "IP reserved flag", K_OFFER, SET, S_IP, 6, 2, 0x8000, NULL, 0, IPF, VFIT_NET_DROP_IP_HEADER, 0, 0 },
	{ "IP more fragments", K_OFFER, SET, S_IP, 6, 2, 0x2000, NULL, 0, IPF, VFIT_NET_DROP_IP_FRAGMENT, 0, 0 },
	{ "IP fragment offset", K_OFFER, SET, S_IP, 6, 2, 0x0001, NULL, 0, IPF, VFIT_NET_DROP_IP_FRAGMENT, 0, 0 },
	{ "TCP", K_OFFER, SET, S_IP, 9, 1, 6, NULL, 0, IPF, VFIT_NET_DROP_IP_PROTOCOL, 0, 0 },
	{ "IP source 0.0.0.0", K_OFFER, SET, S_IP, 12, 4, 0, NULL, 0, ALL, VFIT_NET_DROP_IP_ADDRESS, 0, 0 },
	{ "IP source 0.1.2.3", K_OFFER, SET, S_IP, 12, 4, 0x00010203, NULL, 0, ALL, VFIT_NET_DROP_IP_ADDRESS, 0, 0 },
	{ "IP source 127.0.0.1", K_OFFER, SET, S_IP, 12, 4, 0x7f000001, NULL, 0, ALL, VFIT_NET_DROP_IP_ADDRESS, 0, 0 },
	{ "IP source multicast", K_OFFER, SET, S_IP, 12, 4, 0xe0000001, NULL, 0, ALL, VFIT_NET_DROP_IP_ADDRESS, 0, 0 },
	{ "IP source broadcast", K_OFFER, SET, S_IP, 12, 4, 0xffffffff, NULL, 0, ALL, VFIT_NET_DROP_IP_ADDRESS, 0, 0 },
	{ "IP to a host before we have an address", K_OFFER, SET, S_IP, 16, 4, CLIENT_IP, NULL, 0, ALL, VFIT_NET_DROP_IP_ADDRESS, 0, 0 },
	{ "IP to 0.0.0.0 before we have an address", K_OFFER, SET, S_IP, 16, 4, 0, NULL, 0, ALL, VFIT_NET_DROP_IP_ADDRESS, 0, 0 },
	/* UDP */
	{ "UDP length one more", K_OFFER, ADD16, S_UDP, 4, 2, 1, NULL, 0, 0, VFIT_NET_DROP_UDP_LENGTH, 0, 0 },
	{ "UDP length one less", K_OFFER, ADD16, S_UDP, 4, 2, 0xffff, NULL, 0, 0, VFIT_NET_DROP_UDP_LENGTH, 0, 0 },
	{ "UDP length 7", K_OFFER, SET, S_UDP, 4, 2, 7, NULL, 0, 0, VFIT_NET_DROP_UDP_LENGTH, 0, 0 },
	{ "UDP checksum", K_OFFER, XOR, S_UDP, 7, 1, 0x01, NULL, 0, 0, VFIT_NET_DROP_UDP_CHECKSUM, 0, 0 },
	{ "a payload byte, checksum stale", K_OFFER, XOR, S_PL, 250, 1, 0x10, NULL, 0, 0, VFIT_NET_DROP_UDP_CHECKSUM, 0, 0 },
	{ "UDP to port 69", K_OFFER, SET, S_UDP, 2, 2, 69, NULL, 0, ALL, VFIT_NET_DROP_PORT, 0, 0 },
	{ "DHCP from port 68", K_OFFER, SET, S_UDP, 0, 2, 68, NULL, 0, ALL, VFIT_NET_DROP_PORT, 0, 0 },
	/* BOOTP header */
	{ "BOOTP op 1", K_OFFER, SET, S_PL, 0, 1, 1, NULL, 0, ALL, VFIT_NET_DROP_DHCP, 0, 0 },
	{ "BOOTP htype 6", K_OFFER, SET, S_PL, 1, 1, 6, NULL, 0, ALL, VFIT_NET_DROP_DHCP, 0, 0 },
	{ "BOOTP hlen 8", K_OFFER, SET, S_PL, 2, 1, 8, NULL, 0, ALL, VFIT_NET_DROP_DHCP, 0, 0 },
	{ "BOOTP magic cookie", K_OFFER, XOR, S_PL, 239, 1, 0x01, NULL, 0, ALL, VFIT_NET_DROP_DHCP, 0, 0 },
	{ "BOOTP of 239 bytes", K_OFFER, CUT, S_ETH, 0, 0, 239, NULL, 0, ALL, VFIT_NET_DROP_DHCP, 0, 0 },
	{ "yiaddr 0.0.0.0", K_OFFER, SET, S_PL, 16, 4, 0, NULL, 0, ALL, VFIT_NET_DROP_DHCP, 0, 0 },
	{ "yiaddr the subnet's broadcast", K_OFFER, SET, S_PL, 16, 4, 0x0a0002ff, NULL, 0, ALL, VFIT_NET_DROP_DHCP, 0, 0 },
	{ "yiaddr the subnet itself", K_OFFER, SET, S_PL, 16, 4, 0x0a000200, NULL, 0, ALL, VFIT_NET_DROP_DHCP, 0, 0 },
	{ "yiaddr multicast", K_OFFER, SET, S_PL, 16, 4, 0xe0000005, NULL, 0, ALL, VFIT_NET_DROP_DHCP, 0, 0 },
	{ "siaddr multicast", K_OFFER, SET, S_PL, 20, 4, 0xe0000005, NULL, 0, ALL, VFIT_NET_DROP_DHCP, 0, 0 },
	{ "file field without its NUL", K_OFFER, FILL, S_PL, 108, 0, 128, NULL, 0, ALL, VFIT_NET_DROP_DHCP, 0, 0 },
	{ "file field with a space", K_OFFER, SET, S_PL, 110, 1, ' ', NULL, 0, ALL, VFIT_NET_DROP_DHCP, 0, 0 },
	{ "file field with a control byte", K_OFFER, SET, S_PL, 110, 1, 0x1b, NULL, 0, ALL, VFIT_NET_DROP_DHCP, 0, 0 },
	{ "file field with a high byte", K_OFFER, SET, S_PL, 110, 1, 0xc3, NULL, 0, ALL, VFIT_NET_DROP_DHCP, 0, 0 },
	{ "another transaction id", K_OFFER, XOR, S_PL, 7, 1, 0x01, NULL, 0, ALL, VFIT_NET_DROP_DHCP_XID, 0, 0 },
	{ "another client's hardware address", K_OFFER, XOR, S_PL, 33, 1, 0x01, NULL, 0, ALL, VFIT_NET_DROP_DHCP_XID, 0, 0 },
	/* options: 53 at 240, 54 at 243, 1 at 249, 3 at 255, 51 at 261, end at 267 */
	{ "no end option", K_OFFER, DHCP_NO_END, S_ETH, 0, 0, 0, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "an option longer than the message", K_OFFER, SET, S_PL, 241, 1, 200, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "a message cut after an option's code", K_OFFER, CUT, S_ETH, 0, 0, 262, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "a message cut after an option's length", K_OFFER, CUT, S_ETH, 0, 0, 263, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "a message cut inside an option's value", K_OFFER, CUT, S_ETH, 0, 0, 266, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "a file option running past the message", K_OFFER, DHCP_TAIL, S_ETH, 0, 0, 0, B("\x43\x0a" "ab"), ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "a TFTP server option running past the message", K_OFFER, DHCP_TAIL, S_ETH, 0, 0, 0, B("\x42\x09" "10.0"), ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "message type twice", K_OFFER, DHCP_ADD, S_ETH, 0, 0, 0, B("\x35\x01\x02"), ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "message type of length 2", K_OFFER, SET, S_PL, 241, 1, 2, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "message type 0", K_OFFER, SET, S_PL, 242, 1, 0, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "message type 9", K_OFFER, SET, S_PL, 242, 1, 9, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "no message type (BOOTP)", K_OFFER, SET, S_PL, 240, 1, 250, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "no server identifier", K_OFFER, SET, S_PL, 243, 1, 250, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "server identifier 0.0.0.0", K_OFFER, SET, S_PL, 245, 4, 0, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "server identifier of 3 bytes", K_OFFER, SET, S_PL, 244, 1, 3, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "server identifier twice", K_OFFER, DHCP_ADD, S_ETH, 0, 0, 0, B("\x36\x04\x0a\x00\x02\x02"), ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "a mask with a hole", K_OFFER, SET, S_PL, 251, 4, 0xff00ff00, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "a mask of 0", K_OFFER, SET, S_PL, 251, 4, 0, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "a router of 5 bytes", K_OFFER, SET, S_PL, 256, 1, 5, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "a router 0.0.0.0", K_OFFER, SET, S_PL, 257, 4, 0, NULL, 0, ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "a file option with a space", K_OFFER, DHCP_ADD, S_ETH, 0, 0, 0, B("\x43\x05" "a b.f"), ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "a file option of NULs", K_OFFER, DHCP_ADD, S_ETH, 0, 0, 0, B("\x43\x02\x00\x00"), ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "a TFTP server option multicast", K_OFFER, DHCP_ADD, S_ETH, 0, 0, 0, B("\x42\x09" "224.0.0.1"), ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "a TFTP server option of NULs", K_OFFER, DHCP_ADD, S_ETH, 0, 0, 0, B("\x42\x01\x00"), ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "overload 4", K_OFFER, DHCP_ADD, S_ETH, 0, 0, 0, B("\x34\x01\x04"), ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "overload: a file field without an end option", K_OFFER, DHCP_ADD, S_ETH, 0, 0, 0, B("\x34\x01\x01"), ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "overload: overload again inside the file field", K_OFFER, OVERLOAD, S_ETH, 0, 0, 0, B("\x34\x01\x01\xff"), ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "overload: the sname field without an end option", K_OFFER, OVERLOAD, S_ETH, 0, 0, 2, B("\x00"), ALL, VFIT_NET_DROP_DHCP_OPTION, 0, 0 },
	{ "an ACK while waiting for an OFFER", K_OFFER, SET, S_PL, 242, 1, 5, NULL, 0, ALL, VFIT_NET_DROP_UNEXPECTED, 0, 0 },
	{ "a NAK (no address) while waiting for an OFFER", K_OFFER, SET, S_PL, 242, 1, 6, NULL, 0, ALL, VFIT_NET_DROP_UNEXPECTED, 16, 0 },
	/* on the ACK */
	{ "ACK from another server", K_ACK, SET, S_PL, 245, 4, 0x0a000203, NULL, 0, ALL, VFIT_NET_DROP_UNEXPECTED, 0, 0 },
	{ "ACK of another address", K_ACK, SET, S_PL, 16, 4, 0x0a000210, NULL, 0, ALL, VFIT_NET_DROP_UNEXPECTED, 0, 0 },
	{ "an OFFER while waiting for the ACK", K_ACK, SET, S_PL, 242, 1, 2, NULL, 0, ALL, VFIT_NET_DROP_UNEXPECTED, 0, 0 },
	{ "ACK of another transaction", K_ACK, XOR, S_PL, 4, 1, 0x80, NULL, 0, ALL, VFIT_NET_DROP_DHCP_XID, 0, 0 },
	{ "ACK with IP options (taken; the real one then comes late)", K_ACK, IP_OPTS, S_ETH, 0, 0, 0, NULL, 0, IPF, VFIT_NET_DROP_UNEXPECTED, 0, 0 },
	{ "ACK with its options overloaded into the file field (taken)", K_ACK, OVERLOAD, S_ETH, 0, 0, 1, B("\x43\x05" "o.fit" "\xff"), ALL, VFIT_NET_DROP_UNEXPECTED, 0, 0 },
	/* ARP reply of the next hop */
	{ "ARP of 27 bytes", K_ARP, FRAME_LEN, S_ETH, 0, 0, 41, NULL, 0, 0, VFIT_NET_DROP_LENGTH, 0, 0 },
	{ "ARP hardware type 6", K_ARP, SET, S_IP, 0, 2, 6, NULL, 0, 0, VFIT_NET_DROP_ARP, 0, 0 },
	{ "ARP protocol IPv6", K_ARP, SET, S_IP, 2, 2, 0x86dd, NULL, 0, 0, VFIT_NET_DROP_ARP, 0, 0 },
	{ "ARP hardware length 8", K_ARP, SET, S_IP, 4, 1, 8, NULL, 0, 0, VFIT_NET_DROP_ARP, 0, 0 },
	{ "ARP protocol length 6", K_ARP, SET, S_IP, 5, 1, 6, NULL, 0, 0, VFIT_NET_DROP_ARP, 0, 0 },
	{ "ARP opcode 3", K_ARP, SET, S_IP, 6, 2, 3, NULL, 0, 0, VFIT_NET_DROP_ARP, 0, 0 },
	{ "ARP sender MAC multicast", K_ARP, SET, S_IP, 8, 1, 0x01, NULL, 0, 0, VFIT_NET_DROP_ARP, 0, 0 },
	{ "ARP sender MAC zero", K_ARP, ZERO, S_IP, 8, 0, 6, NULL, 0, 0, VFIT_NET_DROP_ARP, 0, 0 },
	{ "ARP sender address 0.0.0.0", K_ARP, SET, S_IP, 14, 4, 0, NULL, 0, 0, VFIT_NET_DROP_ARP, 0, 0 },
	{ "ARP from another address and MAC", K_ARP, SET, S_IP, 14, 4, 0x0a000209, NULL, 0, 0, VFIT_NET_DROP_UNEXPECTED, 8, 0x02000009 },
	{ "ARP to another address", K_ARP, SET, S_IP, 24, 4, 0x0a000210, NULL, 0, 0, VFIT_NET_DROP_UNEXPECTED, 0, 0 },
	{ "ARP a request for another address", K_ARP, ARP_REQ, S_IP, 0, 0, 0x0a000210, NULL, 0, 0, VFIT_NET_DROP_UNEXPECTED, 0, 0 },
	{ "ARP a request for ours (answered)", K_ARP, ARP_REQ, S_IP, 0, 0, CLIENT_IP, NULL, 0, 0, VFIT_NET_DROP_NONE, 0, 0 },
	/* the server's first answer */
	{ "OACK from another host", K_OACK, SET, S_IP, 12, 4, 0x0a000203, NULL, 0, ALL, VFIT_NET_DROP_IP_ADDRESS, 0, 0 },
	{ "OACK to broadcast", K_OACK, SET, S_IP, 16, 4, 0xffffffff, NULL, 0, ALL, VFIT_NET_DROP_IP_ADDRESS, 0, 0 },
	{ "OACK to another host", K_OACK, SET, S_IP, 16, 4, 0x0a000210, NULL, 0, ALL, VFIT_NET_DROP_IP_ADDRESS, 0, 0 },
	{ "OACK from port 0", K_OACK, SET, S_UDP, 0, 2, 0, NULL, 0, ALL, VFIT_NET_DROP_PORT, 0, 0 },
	{ "OACK to another port", K_OACK, ADD16, S_UDP, 2, 2, 1, NULL, 0, ALL, VFIT_NET_DROP_PORT, 0, 0 },
	{ "OACK not NUL-terminated", K_OACK, GROW, S_ETH, 0, 0, 1, NULL, 0, ALL, VFIT_NET_DROP_TFTP, 0, 0 },
	{ "OACK: a name without a value", K_OACK, PAYLOAD, S_ETH, 0, 0, 0, B("\x00\x06tsize\0"), ALL, VFIT_NET_DROP_TFTP, 0, 0 },
	{ "OACK: an empty name", K_OACK, PAYLOAD, S_ETH, 0, 0, 0, B("\x00\x06\0" "5\0"), ALL, VFIT_NET_DROP_TFTP, 0, 0 },
	{ "OACK with nothing", K_OACK, PAYLOAD, S_ETH, 0, 0, 0, B("\x00\x06"), ALL, VFIT_NET_DROP_TFTP, 0, 0 },
	{ "TFTP of 3 bytes", K_OACK, PAYLOAD, S_ETH, 0, 0, 0, B("\x00\x03\x00"), ALL, VFIT_NET_DROP_TFTP, 0, 0 },
	{ "TFTP opcode 9", K_OACK, SET, S_PL, 0, 2, 9, NULL, 0, ALL, VFIT_NET_DROP_TFTP, 0, 0 },
	{ "TFTP RRQ", K_OACK, SET, S_PL, 0, 2, 1, NULL, 0, ALL, VFIT_NET_DROP_TFTP, 0, 0 },
	{ "TFTP ACK", K_OACK, SET, S_PL, 0, 2, 4, NULL, 0, ALL, VFIT_NET_DROP_TFTP, 0, 0 },
	{ "ERROR without its NUL", K_OACK, PAYLOAD, S_ETH, 0, 0, 0, B("\x00\x05\x00\x01no"), ALL, VFIT_NET_DROP_TFTP, 0, 0 },
	{ "DATA 1 of 513 bytes instead of the OACK", K_OACK, DATA, S_ETH, 0, 1, 513, NULL, 0, ALL, VFIT_NET_DROP_TFTP, 0, 0 },
	{ "DATA 2 of 512 bytes instead of the OACK", K_OACK, DATA, S_ETH, 0, 2, 512, NULL, 0, ALL, VFIT_NET_DROP_TFTP_BLOCK, 0, 0 },
	/* blocks */
	{ "DATA from another port", K_DATA2, SET, S_UDP, 0, 2, 1069, NULL, 0, ALL, VFIT_NET_DROP_TFTP_TID, 0, 0 },
	{ "DATA from another host", K_DATA2, SET, S_IP, 12, 4, 0x0a000203, NULL, 0, ALL, VFIT_NET_DROP_IP_ADDRESS, 0, 0 },
	{ "DATA to another port", K_DATA2, ADD16, S_UDP, 2, 2, 1, NULL, 0, ALL, VFIT_NET_DROP_PORT, 0, 0 },
	{ "block 1 again", K_DATA2, SET, S_PL, 2, 2, 1, NULL, 0, ALL, VFIT_NET_DROP_TFTP_BLOCK, 0, 0 },
	{ "block 3 early", K_DATA2, SET, S_PL, 2, 2, 3, NULL, 0, ALL, VFIT_NET_DROP_TFTP_BLOCK, 0, 0 },
	{ "block 0", K_DATA2, SET, S_PL, 2, 2, 0, NULL, 0, ALL, VFIT_NET_DROP_TFTP_BLOCK, 0, 0 },
	{ "block 65535", K_DATA2, SET, S_PL, 2, 2, 0xffff, NULL, 0, ALL, VFIT_NET_DROP_TFTP_BLOCK, 0, 0 },
	{ "a block one byte over blksize", K_DATA2, GROW, S_ETH, 0, 0, 1, NULL, 0, ALL, VFIT_NET_DROP_TFTP, 0, 0 },
	{ "an OACK during the transfer", K_DATA2, PAYLOAD, S_ETH, 0, 0, 0, B("\x00\x06" "blksize\0" "1428\0"), ALL, VFIT_NET_DROP_TFTP, 0, 0 },
	{ "a block with an IP checksum error", K_DATA2, XOR, S_IP, 11, 1, 0x01, NULL, 0, 0, VFIT_NET_DROP_IP_CHECKSUM, 0, 0 },
	{ "a block with a UDP checksum error", K_DATA2, XOR, S_PL, 700, 1, 0x01, NULL, 0, 0, VFIT_NET_DROP_UDP_CHECKSUM, 0, 0 },
	{ "a block fragment", K_DATA2, SET, S_IP, 6, 2, 0x2000, NULL, 0, IPF, VFIT_NET_DROP_IP_FRAGMENT, 0, 0 },
	{ "a block with a bad TTL-less fragment offset", K_DATA2, SET, S_IP, 6, 2, 0x1fff, NULL, 0, IPF, VFIT_NET_DROP_IP_FRAGMENT, 0, 0 },
	/* taken as they are: the good copy that follows is then a duplicate */
	{ "a block with IP options", K_DATA2, IP_OPTS, S_ETH, 0, 0, 0, NULL, 0, IPF, VFIT_NET_DROP_TFTP_BLOCK, 0, 0 },
	{ "a block with no UDP checksum", K_DATA2, SET, S_UDP, 6, 2, 0, NULL, 0, IPF, VFIT_NET_DROP_TFTP_BLOCK, 0, 0 },
	{ "a block with Ethernet padding", K_DATA2, PAD, S_ETH, 0, 0, 20, NULL, 0, 0, VFIT_NET_DROP_TFTP_BLOCK, 0, 0 },
	{ "an OFFER with IP options", K_OFFER, IP_OPTS, S_ETH, 0, 0, 0, NULL, 0, IPF, VFIT_NET_DROP_UNEXPECTED, 0, 0 },
};
#undef B

static void test_fields(void)
{
	struct srv v;
	size_t i, len;
	enum vfit_net_result r;

	for (i = 0; i < sizeof(muts) / sizeof(muts[0]); i++) {
		const struct mut *m = &muts[i];

		srv_init(&v, 3000);
		v.mut = m;
		r = run(&v, NULL, sizeof(buf) - 64, &len);
		REQUIRE(v.injected, "%s: injected", m->what);
		CHECK(r == VFIT_NET_OK && got_file(&v, len), "%s: the fetch goes on: %s", m->what,
		      vfit_net_result_to_string(r));
		CHECK(sess.lease.ip == CLIENT_IP && sess.lease.dhcp_server == SERVER_IP &&
		      sess.lease.tftp_server == SERVER_IP, "%s: the lease of the good frames", m->what);
		if (m->op == OVERLOAD && m->want == VFIT_NET_DROP_UNEXPECTED)
			CHECK(!strcmp(sess.lease.file, "o.fit") && !memcmp(v.rrq, "o.fit", 6),
			      "%s: the file option read from the file field", m->what);
		if (m->want == VFIT_NET_DROP_NONE) {
			CHECK(!drops_total() && v.arp_replies == 1, "%s: nothing dropped, one ARP reply",
			      m->what);
			continue;
		}
		CHECK(sess.drops[m->want] == 1 && drops_total() == 1,
		      "%s: dropped as '%s' (last drop '%s', %u drops)", m->what,
		      vfit_net_drop_to_string(m->want), vfit_net_drop_to_string(sess.last_drop),
		      drops_total());
	}
}


/* ---- frames QEMU's slirp sent (tests/vectors/net, -object filter-dump) ---------------- */

/* The frames of a little-endian pcap into v's capture; returns the file's bytes (to free after). */
static uint8_t *load_pcap(struct srv *v, const char *name)
{
	char path[512];
	size_t len, o;
	uint8_t *d;

	snprintf(path, sizeof(path), "%s/net/%s", check_vectors_dir(), name);
	d = (uint8_t *)check_read_file(path, &len);
	REQUIRE(len >= 24 && d[0] == 0xd4 && d[1] == 0xc3 && d[2] == 0xb2 && d[3] == 0xa1 && d[20] == 1,
		"%s: a little-endian Ethernet pcap", path);
	for (o = 24; o + 16 <= len && v->cap_n < 64; v->cap_n++) {
		size_t incl = d[o + 8] | d[o + 9] << 8 | (size_t)d[o + 10] << 16;

		REQUIRE(o + 16 + incl <= len && incl <= FMAX, "%s: record %zu", path, v->cap_n);
		v->cap_frame[v->cap_n] = d + o + 16;
		v->cap_len[v->cap_n] = incl;
		o += 16 + incl;
	}
	return d;
}

static void test_captured(void)
{
	uint8_t want[4096], *pcap;
	size_t i, n = 0, len;
	struct srv v;
	enum vfit_net_result r;

	/* A 3000-byte file: slirp's OFFER and ACK, its ARP reply, OACK (blksize 1428, tsize), 3 blocks. */
	srv_init(&v, 0);
	pcap = load_pcap(&v, "slirp-fetch.pcap");
	for (i = 0; i < v.cap_n; i++)
		if (memcmp(v.cap_frame[i] + 6, cmac, 6) && g16(v.cap_frame[i] + 12) == 0x0800 &&
		    g16(v.cap_frame[i] + 42) == 3 && n + v.cap_len[i] - 46 <= sizeof(want)) {
			memcpy(want + n, v.cap_frame[i] + 46, v.cap_len[i] - 46);
			n += v.cap_len[i] - 46;
		}
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	CHECK(r == VFIT_NET_OK && n == 3000 && len == n && !memcmp(buf, want, n),
	      "slirp's frames: the 3000-byte file: %s", vfit_net_result_to_string(r));
	CHECK(sess.lease.ip == CLIENT_IP && sess.lease.mask == MASK24 &&
	      sess.lease.router == SERVER_IP && sess.lease.dhcp_server == SERVER_IP &&
	      sess.lease.tftp_server == SERVER_IP && !strcmp(sess.lease.file, "small.fit"),
	      "slirp's lease: 10.0.2.15/24, everything at 10.0.2.2, the file field's name");
	CHECK(sess.blksize == 1428 && sess.has_tsize && sess.tsize == 3000 && !drops_total(),
	      "slirp's OACK: blksize 1428, tsize 3000; nothing dropped");
	free(pcap);

	/* A file slirp does not have: its ERROR 1. */
	srv_init(&v, 0);
	pcap = load_pcap(&v, "slirp-error.pcap");
	r = run(&v, NULL, sizeof(buf) - 64, &len);
	free(pcap);
	CHECK(r == VFIT_NET_ERR_TFTP && sess.tftp_code == 1 && !strcmp(sess.tftp_msg, "File not found") &&
	      !strcmp(sess.lease.file, "nothere.fit"), "slirp's ERROR: %s", vfit_net_result_to_string(r));
}

/* ---- the main ----------------------------------------------------------- */

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(file_data); i++)
		file_data[i] = (uint8_t)(i * 7 + (i >> 9));
	test_plain();
	test_rollover();
	test_dhcp_names();
	test_ends();
	test_sizes();
	test_oack();
	test_bounded();
	test_params();
	test_fields();
	test_captured();
	return check_done();
}
