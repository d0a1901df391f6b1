/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * virtio-net over the virtio-mmio transport (virtio.c), polled: queue 0
 * receives into VQ_SIZE buffers the device fills by DMA, queue 1 sends
 * from as many.  The only feature taken is the MAC address: no checksum
 * offload (lib/net verifies every checksum itself), no segmentation, no
 * mergeable buffers, so each buffer holds one whole frame after the
 * virtio-net header (10 bytes in the legacy interface, 12 in virtio 1.x).
 * A received frame is handed to the caller where the device wrote it and
 * given back to the device at the next call: no copy here.  Waits sleep
 * in WFI, woken by the device's interrupt or the timer's (clock.c).
 */
#include <string.h>

#include "arch.h"
#include "port.h"
#include "virtio.h"
#include "virtio_net.h"

#define NET_ID 1u
#define F_MAC (1u << 5)
#define BUF 1536u
#define FRAME_MAX 1514u
#define RXQ 0u
#define TXQ 1u

static struct vq rxq, txq;
static uint8_t rxbuf[VQ_SIZE][BUF] __attribute__((aligned(64)));
static uint8_t txbuf[VQ_SIZE][BUF] __attribute__((aligned(64)));
static struct virtio_dev dev;
static size_t hdr;
static uint16_t rx_seen, tx_seen;
/* Bit i: buffer i is the device's (posted, not yet returned): what it hands back must be. */
static uint32_t rx_dev, tx_dev;
static int held = -1;
static int up;

_Static_assert(VQ_SIZE <= 32, "one bit per buffer");
#define ALL (VQ_SIZE == 32 ? 0xffffffffu : (1u << VQ_SIZE) - 1)

int vnet_init(uint8_t mac[6])
{
	uint32_t i, w0, w1;

	if (up)
		vnet_stop();
	if (virtio_find(NET_ID, F_MAC, &dev))
		return -1;
	memset(&rxq, 0, sizeof(rxq));
	memset(&txq, 0, sizeof(txq));
	if (virtio_queue(&dev, RXQ, &rxq) || virtio_queue(&dev, TXQ, &txq) || !(dev.features & F_MAC)) {
		virtio_fail(&dev);
		return -1;
	}
	hdr = dev.version == 2 ? 12 : 10;
	for (i = 0; i < VQ_SIZE; i++) {
		rxq.d[i] = (struct vq_desc){ (uintptr_t)rxbuf[i], BUF, VQ_D_WRITE, 0 };
		rxq.avail_ring[i] = (uint16_t)i;
		txq.d[i] = (struct vq_desc){ (uintptr_t)txbuf[i], 0, 0, 0 };
	}
	/* Every receive buffer the device's from the start. */
	rxq.avail_idx = VQ_SIZE;
	/* Sent buffers are reclaimed when a slot is needed: no interrupt for them. */
	txq.avail_flags = VQ_AVAIL_NO_INTERRUPT;
	rx_seen = tx_seen = 0;
	rx_dev = ALL;
	tx_dev = 0;
	held = -1;
	w0 = virtio_config(&dev, 0);
	w1 = virtio_config(&dev, 4);
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)((i < 4 ? w0 >> 8 * i : w1 >> 8 * (i - 4)) & 0xff);
	dsb();
	virtio_ready(&dev);
	virtio_notify(&dev, RXQ);
	up = 1;
	return 0;
}

/* Sent buffers the device has returned, by id: it may complete them in any order. */
static void tx_reclaim(void)
{
	uint32_t id;

	while (*(volatile uint16_t *)&txq.used_idx != tx_seen) {
		dsb();
		id = txq.used_ring[tx_seen++ % VQ_SIZE].id;
		if (id < VQ_SIZE)
			tx_dev &= ~(1u << id);
	}
}

int vnet_send(const uint8_t *frame, size_t len)
{
	uint64_t until = clock_ns() + 1000000000ull;
	uint16_t slot;

	if (!up || len > FRAME_MAX)
		return -1;
	/* Every buffer in flight: wait (bounded) for the device to return one. */
	for (tx_reclaim(); tx_dev == ALL; tx_reclaim())
		if (clock_ns() > until)
			return -1;
	for (slot = 0; tx_dev >> slot & 1; slot++)
		;
	memset(txbuf[slot], 0, hdr);
	memcpy(txbuf[slot] + hdr, frame, len);
	txq.d[slot].len = (uint32_t)(hdr + len);
	tx_dev |= 1u << slot;
	virtio_post(&dev, TXQ, &txq, slot);
	return 0;
}

/* Receive buffer id back to the device. */
static void rx_post(uint32_t id)
{
	rx_dev |= 1u << id;
	virtio_post(&dev, RXQ, &rxq, (uint16_t)id);
}

const uint8_t *vnet_recv(uint64_t deadline, size_t *len)
{
	uint32_t id, n;

	if (!up)
		return NULL;
	if (held >= 0) {
		rx_post((uint32_t)held);
		held = -1;
	}
	/* Every pass ends at the deadline test, whatever the device returns. */
	for (;;) {
		/* Acknowledged before looking: a frame arriving after the look keeps the line up. */
		virtio_irq_ack(&dev);
		if (*(volatile uint16_t *)&rxq.used_idx != rx_seen) {
			dsb();
			id = rxq.used_ring[rx_seen % VQ_SIZE].id;
			n = rxq.used_ring[rx_seen % VQ_SIZE].len;
			rx_seen++;
			/* Only a buffer the device holds comes back, once. */
			if (id < VQ_SIZE && rx_dev >> id & 1) {
				rx_dev &= ~(1u << id);
				if (n > hdr && n <= BUF) {
					held = (int)id;
					*len = n - hdr;
					return rxbuf[id] + hdr;
				}
				rx_post(id);
			}
		} else {
			clock_wake_at(deadline);
			wfi();
			clock_wake_off();
		}
		if (clock_ns() >= deadline)
			return NULL;
	}
}

void vnet_stop(void)
{
	if (up)
		virtio_reset(&dev);
	up = 0;
}
