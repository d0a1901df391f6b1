/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * virtio-blk over the virtio-mmio transport (virtio.c).  One request at a
 * time, polled: a loader has nothing else to do.  The device writes
 * straight into the caller's buffer (RAM is identity-mapped, and under
 * QEMU device accesses are coherent), so a FIT lands in staging RAM
 * without a copy.
 */
#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "port.h"
#include "virtio.h"
#include "virtio_blk.h"

#define BLK_T_IN 0u
#define BLK_T_OUT 1u
#define BLK_S_OK 0u

/* Bytes per request: bounded, so no device limit is ever hit. */
#define MAX_BYTES (4u << 20)
/* How long one request may take: far beyond any disk's 4 MiB. */
#define REQ_NS (30ull * 1000000000u)

struct req_hdr {
	uint32_t type, reserved;
	uint64_t sector;
};

static struct vq vq;
static struct virtio_dev dev;
static struct req_hdr hdr;
static volatile uint8_t status;
static uint16_t last_used;
static int up;

int vblk_init(uint64_t *sectors)
{
	if (virtio_find(2, 0, &dev))
		return -1;
	if (virtio_queue(&dev, 0, &vq)) {
		virtio_fail(&dev);
		return -1;
	}
	virtio_ready(&dev);
	*sectors = (uint64_t)virtio_config(&dev, 0) | (uint64_t)virtio_config(&dev, 4) << 32;
	last_used = vq.used_idx;
	up = 1;
	return 0;
}

void vblk_stop(void)
{
	if (up)
		virtio_reset(&dev);
	up = 0;
}

/*
 * One request, waited for until REQ_NS.  The device must complete it
 * once, as descriptor chain 0; late or anything else, it may still be
 * writing the buffer, so it is reset and the disk is gone for this boot.
 */
static int request(uint32_t type, uint64_t lba, uintptr_t buf, uint32_t len)
{
	uint64_t until;
	uint16_t used;

	if (!up)
		return -1;
	hdr.type = type;
	hdr.reserved = 0;
	hdr.sector = lba;
	status = 0xff;
	vq.d[0] = (struct vq_desc){ (uintptr_t)&hdr, sizeof(hdr), VQ_D_NEXT, 1 };
	vq.d[1] = (struct vq_desc){ buf, len,
				    (uint16_t)(VQ_D_NEXT | (type == BLK_T_IN ? VQ_D_WRITE : 0)), 2 };
	vq.d[2] = (struct vq_desc){ (uintptr_t)&status, 1, VQ_D_WRITE, 0 };
	virtio_post(&dev, 0, &vq, 0);
	until = clock_ns() + REQ_NS;
	/* The interrupt is level-triggered until acknowledged: no wake-up is lost. */
	while ((used = *(volatile uint16_t *)&vq.used_idx) == last_used && clock_ns() < until) {
		clock_wake_at(until);
		wfi();
		clock_wake_off();
	}
	dsb();
	virtio_irq_ack(&dev);
	if ((uint16_t)(used - last_used) != 1 || vq.used_ring[last_used % VQ_SIZE].id != 0) {
		vblk_stop();
		return -1;
	}
	last_used++;
	return status == BLK_S_OK ? 0 : -1;
}

static int transfer(uint32_t type, uint64_t lba, uintptr_t buf, uint64_t n)
{
	while (n) {
		uint64_t k = n < MAX_BYTES / 512 ? n : MAX_BYTES / 512;

		if (request(type, lba, buf, (uint32_t)(k * 512)))
			return -1;
		lba += k;
		buf += (uintptr_t)(k * 512);
		n -= k;
	}
	return 0;
}

int vblk_read(uint64_t lba, void *buf, uint64_t n)
{
	return transfer(BLK_T_IN, lba, (uintptr_t)buf, n);
}

int vblk_write(uint64_t lba, const void *buf, uint64_t n)
{
	return transfer(BLK_T_OUT, lba, (uintptr_t)buf, n);
}
