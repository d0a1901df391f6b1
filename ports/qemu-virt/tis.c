/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TPM's TIS interface over MMIO, locality 0 (TCG PC Client Platform
 * TPM Profile, FIFO interface), as QEMU's tpm-tis-device has it: the
 * transport under lib/tpm (struct vfit_tpm_transport).  Every wait is
 * bounded by the generic timer; a register that reads all ones is no TPM.
 */
#include <libfdt.h>

#include "arch.h"
#include "port.h"
#include "tis.h"

#define ACCESS 0x000u
#define STS 0x018u
#define FIFO 0x024u
#define DID_VID 0xf00u

#define ACCESS_VALID 0x80u
#define ACCESS_ACTIVE 0x20u
#define ACCESS_REQUEST 0x02u
#define STS_VALID 0x80u
#define STS_READY 0x40u
#define STS_GO 0x20u
#define STS_AVAIL 0x10u
#define STS_EXPECT 0x08u

/* PTP timeouts: A 750 ms (locality, status), B 2 s (ready); commands up to 120 s (C, D) */
#define T_A 750000000ull
#define T_B 2000000000ull
#define T_CMD 10000000000ull

static uint8_t rd8(const struct tis *t, uint32_t off)
{
	uint8_t v = *(volatile const uint8_t *)(t->base + off);

	dsb();
	return v;
}

static uint32_t rd32(const struct tis *t, uint32_t off)
{
	uint32_t v = *(volatile const uint32_t *)(t->base + off);

	dsb();
	return v;
}

static void wr8(const struct tis *t, uint32_t off, uint8_t v)
{
	*(volatile uint8_t *)(t->base + off) = v;
	dsb();
}

/*
 * Waits until (reg & mask) == want; false on the timeout.  The clock is
 * read once every 64 polls: while the TPM works, the loop is one register
 * read, not a division for the time as well.
 */
static bool wait_sts(const struct tis *t, uint32_t mask, uint32_t want, uint64_t ns)
{
	uint64_t end = clock_ns() + ns;
	unsigned int i;

	do {
		for (i = 0; i < 64; i++)
			if ((rd32(t, STS) & mask) == want)
				return true;
	} while (clock_ns() < end);
	return false;
}

static uint32_t burst(const struct tis *t)
{
	return (rd32(t, STS) >> 8) & 0xffffu;
}

/* The TPM node QEMU declares (compatible "tcg,tpm-tis-mmio"), its reg translated to the CPU. */
static int node_base(const void *fdt, int node, uint64_t *base)
{
	const fdt32_t *reg, *rng;
	uint64_t a = 0;
	int parent, ac, len, i;

	parent = fdt_parent_offset(fdt, node);
	ac = parent < 0 ? -1 : fdt_address_cells(fdt, parent);
	reg = fdt_getprop(fdt, node, "reg", &len);
	if (ac < 1 || ac > 2 || !reg || len < ac * 4)
		return -1;
	for (i = 0; i < ac; i++)
		a = a << 32 | fdt32_to_cpu(reg[i]);
	/* Up the tree through each bus's ranges (one window each, as QEMU's platform bus). */
	for (node = parent; node > 0; node = parent) {
		int pac, cac = fdt_address_cells(fdt, node), sc = fdt_size_cells(fdt, node);
		uint64_t child = 0, pa = 0, size = 0;

		parent = fdt_parent_offset(fdt, node);
		pac = parent < 0 ? -1 : fdt_address_cells(fdt, parent);
		rng = fdt_getprop(fdt, node, "ranges", &len);
		if (!rng)
			return -1;
		if (!len)
			continue;       /* identity */
		if (pac < 1 || pac > 2 || cac < 1 || cac > 2 || sc < 1 || sc > 2 ||
		    len < (cac + pac + sc) * 4)
			return -1;
		for (i = 0; i < cac; i++)
			child = child << 32 | fdt32_to_cpu(rng[i]);
		for (i = 0; i < pac; i++)
			pa = pa << 32 | fdt32_to_cpu(rng[cac + i]);
		for (i = 0; i < sc; i++)
			size = size << 32 | fdt32_to_cpu(rng[cac + pac + i]);
		if (a < child || a - child >= size)
			return -1;
		a = a - child + pa;
	}
	*base = a;
	return 0;
}

enum tis_find tis_find(const void *fdt, struct tis *t)
{
	int node = fdt_node_offset_by_compatible(fdt, -1, "tcg,tpm-tis-mmio");
	uint64_t base;

	if (node < 0)
		return TIS_NONE;
	/* Devices live in the Device window the MMU maps (plat.c, mmu.c). */
	if (node_base(fdt, node, &base) || base < 0x08000000u || base >= 0x40000000u)
		return TIS_BAD_NODE;
	t->base = (uintptr_t)base;
	t->node = node;
	return TIS_FOUND;
}

enum vfit_tpm_result tis_open(struct tis *t)
{
	uint64_t end = clock_ns() + T_A;

	if (rd32(t, DID_VID) == 0xffffffffu || rd32(t, DID_VID) == 0)
		return VFIT_TPM_ERR_NO_TPM;
	if (!(rd8(t, ACCESS) & ACCESS_VALID))
		return VFIT_TPM_ERR_NO_TPM;
	wr8(t, ACCESS, ACCESS_REQUEST);
	while ((rd8(t, ACCESS) & (ACCESS_VALID | ACCESS_ACTIVE)) != (ACCESS_VALID | ACCESS_ACTIVE))
		if (clock_ns() > end)
			return VFIT_TPM_ERR_TIMEOUT;
	return VFIT_TPM_OK;
}

static enum vfit_tpm_result xfer(void *ctx, const uint8_t *cmd, size_t cmd_len, uint8_t *rsp,
				 size_t rsp_cap, size_t *rsp_len)
{
	struct tis *t = ctx;
	size_t i = 0, n, want;
	uint32_t b;

	*rsp_len = 0;
	if (cmd_len < 10 || rsp_cap < 10)
		return VFIT_TPM_ERR_TRANSPORT;
	wr8(t, STS, STS_READY);
	if (!wait_sts(t, STS_READY, STS_READY, T_B))
		return VFIT_TPM_ERR_TIMEOUT;
	/* All but the last byte in bursts; the TPM must still expect more. */
	while (i < cmd_len - 1) {
		uint64_t end = clock_ns() + T_A;

		while (!(b = burst(t)))
			if (clock_ns() > end)
				return VFIT_TPM_ERR_TIMEOUT;
		for (; b && i < cmd_len - 1; b--)
			wr8(t, FIFO, cmd[i++]);
		if (!wait_sts(t, STS_VALID, STS_VALID, T_A))
			return VFIT_TPM_ERR_TIMEOUT;
		if (!(rd32(t, STS) & STS_EXPECT))
			return VFIT_TPM_ERR_TRANSPORT;
	}
	wr8(t, FIFO, cmd[i]);
	if (!wait_sts(t, STS_VALID, STS_VALID, T_A))
		return VFIT_TPM_ERR_TIMEOUT;
	if (rd32(t, STS) & STS_EXPECT)
		return VFIT_TPM_ERR_TRANSPORT;
	wr8(t, STS, STS_GO);
	if (!wait_sts(t, STS_VALID | STS_AVAIL, STS_VALID | STS_AVAIL, T_CMD))
		return VFIT_TPM_ERR_TIMEOUT;
	/* The header first: its responseSize says how much follows. */
	want = 10;
	for (n = 0; n < want;) {
		uint64_t end = clock_ns() + T_A;

		while (!(b = burst(t)))
			if (clock_ns() > end)
				return VFIT_TPM_ERR_TIMEOUT;
		for (; b && n < want; b--)
			rsp[n++] = rd8(t, FIFO);
		if (n == 10 && want == 10) {
			want = (size_t)rsp[2] << 24 | (size_t)rsp[3] << 16 | (size_t)rsp[4] << 8 | rsp[5];
			if (want < 10 || want > rsp_cap)
				return VFIT_TPM_ERR_TRANSPORT;
		}
	}
	/* Nothing may be left in the FIFO. */
	if (!wait_sts(t, STS_VALID, STS_VALID, T_A) || (rd32(t, STS) & STS_AVAIL))
		return VFIT_TPM_ERR_TRANSPORT;
	wr8(t, STS, STS_READY);
	*rsp_len = n;
	return VFIT_TPM_OK;
}

void tis_transport(struct tis *t, struct vfit_tpm_transport *tr)
{
	tr->xfer = xfer;
	tr->ctx = t;
}
