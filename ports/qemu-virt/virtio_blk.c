/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * virtio-blk over virtio-mmio (virtio 1.2 §4.2, and the legacy interface
 * of §4.2.4 that QEMU 7.2 offers by default).  One request at a time, one
 * split virtqueue of QUEUE_SIZE, polled: a loader has nothing else to do.
 * The device writes straight into the caller's buffer (RAM is
 * identity-mapped, and under QEMU device accesses are coherent), so a
 * FIT lands in staging RAM without a copy.
 */
#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "port.h"
#include "virtio_blk.h"

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
#define BLK_T_IN 0u
#define BLK_T_OUT 1u
#define BLK_S_OK 0u

#define QUEUE_SIZE 4u
#define PAGE 4096u
/* Bytes per request: bounded, so no device limit is ever hit. */
#define MAX_BYTES (4u << 20)

#define D_NEXT 1u
#define D_WRITE 2u

struct desc {
	uint64_t addr;
	uint32_t len;
	uint16_t flags, next;
};

struct req_hdr {
	uint32_t type, reserved;
	uint64_t sector;
};

/* Legacy layout: descriptors and available ring in the first page, used ring page-aligned after. */
struct vring {
	struct desc d[QUEUE_SIZE];
	uint16_t avail_flags, avail_idx, avail_ring[QUEUE_SIZE], used_event;
	uint8_t pad[PAGE - QUEUE_SIZE * sizeof(struct desc) - (3 + QUEUE_SIZE) * 2];
	uint16_t used_flags, used_idx;
	struct {
		uint32_t id, len;
	} used_ring[QUEUE_SIZE];
	uint16_t avail_event;
};
_Static_assert(offsetof(struct vring, used_flags) == PAGE, "legacy used ring on the next page");

static struct vring vq __attribute__((aligned(PAGE)));

static struct req_hdr hdr;
static volatile uint8_t status;
static uintptr_t base;
static uint16_t last_used;

static volatile uint32_t *reg(uint32_t off)
{
	return (volatile uint32_t *)(base + off);
}

static int setup_queue(uint32_t version)
{
	*reg(R_QUEUE_SEL) = 0;
	if (*reg(R_QUEUE_NUM_MAX) < QUEUE_SIZE)
		return -1;
	*reg(R_QUEUE_NUM) = QUEUE_SIZE;
	if (version == 1) {
		*reg(R_QUEUE_ALIGN) = PAGE;
		*reg(R_QUEUE_PFN) = (uint32_t)((uintptr_t)&vq / PAGE);
		return 0;
	}
	*reg(R_QUEUE_DESC) = (uint32_t)(uintptr_t)vq.d;
	*reg(R_QUEUE_DESC + 4) = (uint32_t)((uint64_t)(uintptr_t)vq.d >> 32);
	*reg(R_QUEUE_AVAIL) = (uint32_t)(uintptr_t)&vq.avail_flags;
	*reg(R_QUEUE_AVAIL + 4) = (uint32_t)((uint64_t)(uintptr_t)&vq.avail_flags >> 32);
	*reg(R_QUEUE_USED) = (uint32_t)(uintptr_t)&vq.used_flags;
	*reg(R_QUEUE_USED + 4) = (uint32_t)((uint64_t)(uintptr_t)&vq.used_flags >> 32);
	*reg(R_QUEUE_READY) = 1;
	return 0;
}

/* Feature negotiation: the driver needs no optional feature; v2 must accept VERSION_1. */
static int negotiate(uint32_t version)
{
	*reg(R_DRV_FEATURES_SEL) = 0;
	*reg(R_DRV_FEATURES) = 0;
	if (version == 1) {
		*reg(R_GUEST_PAGE_SIZE) = PAGE;
		return 0;
	}
	*reg(R_DEV_FEATURES_SEL) = 1;
	if (!(*reg(R_DEV_FEATURES) & F_VERSION_1_HI))
		return -1;
	*reg(R_DRV_FEATURES_SEL) = 1;
	*reg(R_DRV_FEATURES) = F_VERSION_1_HI;
	*reg(R_STATUS) = S_ACK | S_DRIVER | S_FEATURES_OK;
	return *reg(R_STATUS) & S_FEATURES_OK ? 0 : -1;
}

static int probe(uintptr_t b, uint64_t *sectors)
{
	uint32_t version;

	base = b;
	version = *reg(R_VERSION);
	if (*reg(R_MAGIC) != 0x74726976u || (version != 1 && version != 2) ||
	    *reg(R_DEVICE_ID) != 2)
		return -1;
	*reg(R_STATUS) = 0;
	*reg(R_STATUS) = S_ACK;
	*reg(R_STATUS) = S_ACK | S_DRIVER;
	if (negotiate(version) || setup_queue(version)) {
		*reg(R_STATUS) = S_FAILED;
		return -1;
	}
	*reg(R_STATUS) = *reg(R_STATUS) | S_DRIVER_OK;
	*sectors = (uint64_t)*reg(R_CONFIG) | (uint64_t)*reg(R_CONFIG + 4) << 32;
	last_used = vq.used_idx;
	return 0;
}

int vblk_init(uint64_t *sectors)
{
	uint32_t i;

	for (i = 0; i < MMIO_COUNT; i++)
		if (!probe(MMIO_BASE + i * MMIO_STRIDE, sectors)) {
			gic_wake_on(MMIO_INTID + i);
			return 0;
		}
	return -1;
}

static int request(uint32_t type, uint64_t lba, uintptr_t buf, uint32_t len)
{
	uint16_t idx = vq.avail_idx;

	hdr.type = type;
	hdr.reserved = 0;
	hdr.sector = lba;
	status = 0xff;
	vq.d[0] = (struct desc){ (uintptr_t)&hdr, sizeof(hdr), D_NEXT, 1 };
	vq.d[1] = (struct desc){ buf, len, (uint16_t)(D_NEXT | (type == BLK_T_IN ? D_WRITE : 0)), 2 };
	vq.d[2] = (struct desc){ (uintptr_t)&status, 1, D_WRITE, 0 };
	vq.avail_ring[idx % QUEUE_SIZE] = 0;
	dsb();
	*(volatile uint16_t *)&vq.avail_idx = (uint16_t)(idx + 1);
	dsb();
	*reg(R_QUEUE_NOTIFY) = 0;
	/* The interrupt is level-triggered until acknowledged: no wake-up is lost. */
	while (*(volatile uint16_t *)&vq.used_idx == last_used)
		wfi();
	dsb();
	last_used++;
	*reg(R_INT_ACK) = *reg(R_INT_STATUS);
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
