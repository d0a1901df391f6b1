/* SPDX-License-Identifier: BSD-3-Clause */
/* The virtio-mmio transport (virtio.h). */
#include "arch.h"
#include "port.h"
#include "virtio.h"

#define MMIO_BASE 0x0a000000u
#define MMIO_STRIDE 0x200u
#define MMIO_COUNT 32u
/* Transport i raises SPI 16 + i, GIC interrupt 48 + i (QEMU hw/arm/virt.c). */
#define MMIO_INTID 48u

#define R_MAGIC 0x000
#define R_VERSION 0x004
#define R_DEVICE_ID 0x008
#define R_DEV_FEATURES 0x010
#define R_DEV_FEATURES_SEL 0x014
#define R_DRV_FEATURES 0x020
#define R_DRV_FEATURES_SEL 0x024
#define R_GUEST_PAGE_SIZE 0x028   /* legacy */
#define R_QUEUE_SEL 0x030
#define R_QUEUE_NUM_MAX 0x034
#define R_QUEUE_NUM 0x038
#define R_QUEUE_ALIGN 0x03c       /* legacy */
#define R_QUEUE_PFN 0x040         /* legacy */
#define R_QUEUE_READY 0x044
#define R_QUEUE_NOTIFY 0x050
#define R_INT_STATUS 0x060
#define R_INT_ACK 0x064
#define R_STATUS 0x070
#define R_QUEUE_DESC 0x080
#define R_QUEUE_AVAIL 0x090
#define R_QUEUE_USED 0x0a0
#define R_CONFIG 0x100

#define S_ACK 1u
#define S_DRIVER 2u
#define S_DRIVER_OK 4u
#define S_FEATURES_OK 8u
#define S_FAILED 128u

#define F_VERSION_1_HI 1u   /* bit 32 */

static volatile uint32_t *reg(const struct virtio_dev *d, uint32_t off)
{
	return (volatile uint32_t *)(d->base + off);
}

static void addr64(const struct virtio_dev *d, uint32_t off, const volatile void *p)
{
	*reg(d, off) = (uint32_t)(uintptr_t)p;
	*reg(d, off + 4) = (uint32_t)((uint64_t)(uintptr_t)p >> 32);
}

/* Of the low 32 feature bits the driver takes those in want; v2 must accept VERSION_1. */
static int negotiate(struct virtio_dev *d, uint32_t want)
{
	*reg(d, R_DEV_FEATURES_SEL) = 0;
	d->features = *reg(d, R_DEV_FEATURES) & want;
	*reg(d, R_DRV_FEATURES_SEL) = 0;
	*reg(d, R_DRV_FEATURES) = d->features;
	if (d->version == 1) {
		*reg(d, R_GUEST_PAGE_SIZE) = VQ_PAGE;
		return 0;
	}
	*reg(d, R_DEV_FEATURES_SEL) = 1;
	if (!(*reg(d, R_DEV_FEATURES) & F_VERSION_1_HI))
		return -1;
	*reg(d, R_DRV_FEATURES_SEL) = 1;
	*reg(d, R_DRV_FEATURES) = F_VERSION_1_HI;
	*reg(d, R_STATUS) = S_ACK | S_DRIVER | S_FEATURES_OK;
	return *reg(d, R_STATUS) & S_FEATURES_OK ? 0 : -1;
}

int virtio_find(uint32_t id, uint32_t want, struct virtio_dev *d)
{
	uint32_t i;

	for (i = 0; i < MMIO_COUNT; i++) {
		d->base = MMIO_BASE + i * MMIO_STRIDE;
		d->version = *reg(d, R_VERSION);
		d->intid = MMIO_INTID + i;
		if (*reg(d, R_MAGIC) != 0x74726976u || (d->version != 1 && d->version != 2) ||
		    *reg(d, R_DEVICE_ID) != id)
			continue;
		*reg(d, R_STATUS) = 0;
		*reg(d, R_STATUS) = S_ACK;
		*reg(d, R_STATUS) = S_ACK | S_DRIVER;
		if (!negotiate(d, want))
			return 0;
		virtio_fail(d);
	}
	return -1;
}

int virtio_queue(const struct virtio_dev *d, unsigned int index, struct vq *q)
{
	*reg(d, R_QUEUE_SEL) = index;
	if (*reg(d, R_QUEUE_NUM_MAX) < VQ_SIZE)
		return -1;
	*reg(d, R_QUEUE_NUM) = VQ_SIZE;
	if (d->version == 1) {
		*reg(d, R_QUEUE_ALIGN) = VQ_PAGE;
		*reg(d, R_QUEUE_PFN) = (uint32_t)((uintptr_t)q / VQ_PAGE);
		return 0;
	}
	addr64(d, R_QUEUE_DESC, q->d);
	addr64(d, R_QUEUE_AVAIL, &q->avail_flags);
	addr64(d, R_QUEUE_USED, &q->used_flags);
	*reg(d, R_QUEUE_READY) = 1;
	return 0;
}

void virtio_ready(const struct virtio_dev *d)
{
	*reg(d, R_STATUS) = *reg(d, R_STATUS) | S_DRIVER_OK;
	gic_wake_on(d->intid);
}

void virtio_fail(const struct virtio_dev *d)
{
	*reg(d, R_STATUS) = S_FAILED;
}

void virtio_reset(const struct virtio_dev *d)
{
	*reg(d, R_STATUS) = 0;
}

void virtio_notify(const struct virtio_dev *d, unsigned int index)
{
	*reg(d, R_QUEUE_NOTIFY) = index;
}

void virtio_post(const struct virtio_dev *d, unsigned int index, struct vq *q, uint16_t id)
{
	uint16_t idx = q->avail_idx;

	q->avail_ring[idx % VQ_SIZE] = id;
	dsb();
	*(volatile uint16_t *)&q->avail_idx = (uint16_t)(idx + 1);
	/* The index out before the flag is read (the device writes the flag, then reads the index). */
	dsb();
	if (!(*(volatile uint16_t *)&q->used_flags & VQ_USED_NO_NOTIFY))
		virtio_notify(d, index);
}

void virtio_irq_ack(const struct virtio_dev *d)
{
	*reg(d, R_INT_ACK) = *reg(d, R_INT_STATUS);
}

uint32_t virtio_config(const struct virtio_dev *d, uint32_t off)
{
	return *reg(d, R_CONFIG + off);
}
