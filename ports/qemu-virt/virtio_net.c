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
static uint16_t rx_seen, tx_seen, tx_next;
static int held = -1;
static int up;

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
	rx_seen = tx_seen = tx_next = 0;
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

int vnet_send(const uint8_t *frame, size_t len)
{
	uint64_t until = clock_ns() + 1000000000ull;
	uint16_t slot;

	if (!up || len > FRAME_MAX)
		return -1;
	/* Every slot in flight: wait (bounded) for the device to take one. */
	while ((uint16_t)(tx_next - *(volatile uint16_t *)&txq.used_idx) >= VQ_SIZE)
		if (clock_ns() > until)
			return -1;
	slot = tx_next % VQ_SIZE;
	memset(txbuf[slot], 0, hdr);
	memcpy(txbuf[slot] + hdr, frame, len);
	txq.d[slot].len = (uint32_t)(hdr + len);
	tx_next++;
	virtio_post(&dev, TXQ, &txq, slot);
	return 0;
}

const uint8_t *vnet_recv(uint64_t deadline, size_t *len)
{
	uint32_t id, n;

	if (!up)
		return NULL;
	if (held >= 0) {
		virtio_post(&dev, RXQ, &rxq, (uint16_t)held);
		held = -1;
	}
	for (;;) {
		/* Acknowledged before looking: a frame arriving after the look keeps the line up. */
		virtio_irq_ack(&dev);
		if (*(volatile uint16_t *)&rxq.used_idx != rx_seen) {
			dsb();
			id = rxq.used_ring[rx_seen % VQ_SIZE].id;
			n = rxq.used_ring[rx_seen % VQ_SIZE].len;
			rx_seen++;
			if (id >= VQ_SIZE)
				continue;
			if (n <= hdr || n > BUF) {
				virtio_post(&dev, RXQ, &rxq, (uint16_t)id);
				continue;
			}
			held = (int)id;
			*len = n - hdr;
			return rxbuf[id] + hdr;
		}
		if (clock_ns() >= deadline)
			return NULL;
		clock_wake_at(deadline);
		wfi();
		clock_wake_off();
	}
}

void vnet_stop(void)
{
	if (up)
		virtio_reset(&dev);
	up = 0;
}
