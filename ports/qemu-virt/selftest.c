/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A stage that checks the platform layer's write paths on the machine
 * (stage-selftest.bin; tests/qemu/stage.sh runs it): it writes the state
 * record twice, advances two rollback counters and copies slot A's chain
 * to slot B, reading each back.  The host then reads the same disk with
 * `vfit disk info`, so what the device writes is checked by the host's
 * reader of the same format.  Phase 1's boot path (main.c) only reads.
 */
#include <string.h>

#include "plat.h"
#include "port.h"

void stage_main(void);

static uint8_t blob[64];
static int failed;

static void check(int ok, const char *what)
{
	con_puts(ok ? "vfit-selftest: ok   " : "vfit-selftest: FAIL ");
	con_puts(what);
	con_nl();
	failed |= !ok;
}

static void state(void)
{
	uint8_t back[sizeof(blob)];
	size_t len = 0;
	unsigned int i, round;

	check(plat_state_read(back, sizeof(back), &len) == PLAT_IO_ABSENT, "fresh state: absent");
	for (round = 1; round <= 2; round++) {
		for (i = 0; i < sizeof(blob); i++)
			blob[i] = (uint8_t)(i * 7 + round);
		check(plat_state_write(blob, sizeof(blob)) == PLAT_IO_OK, "state written");
		check(plat_state_read(back, sizeof(back), &len) == PLAT_IO_OK &&
		      len == sizeof(blob) && !memcmp(back, blob, len), "state read back");
	}
	check(plat_state_read(back, 10, &len) == PLAT_IO_BIG, "state larger than the buffer");
}

static void counters(void)
{
	uint64_t v = 1;

	check(plat_counter_read("kernel", &v) == PLAT_IO_OK && v == 0, "fresh counter: 0");
	check(plat_counter_advance("kernel", 7) == PLAT_IO_OK, "kernel advanced to 7");
	check(plat_counter_advance("bootloader", 3) == PLAT_IO_OK, "bootloader advanced to 3");
	check(plat_counter_read("kernel", &v) == PLAT_IO_OK && v == 7, "kernel reads 7");
	check(plat_counter_read("bootloader", &v) == PLAT_IO_OK && v == 3, "bootloader reads 3");
	check(plat_counter_advance("no/such", 1) == PLAT_IO_ERROR, "bad name refused");
}

static void chain(const struct plat_ram *ram)
{
	uint8_t *a = (uint8_t *)(uintptr_t)ram->fit_addr;
	uint8_t *b = a + ram->fit_size / 2;
	const void *fit[1] = { a };
	size_t len = 0, len_b = 0, cap = (size_t)(ram->fit_size / 2);

	check(plat_chain_read(PLAT_SLOT_A, 0, a, cap, &len) == PLAT_IO_OK, "slot A read");
	check(plat_chain_read(PLAT_SLOT_B, 0, b, cap, &len_b) == PLAT_IO_ABSENT, "slot B empty");
	check(plat_chain_write(PLAT_SLOT_B, fit, &len, 1) == PLAT_IO_OK, "slot A copied to B");
	check(plat_chain_read(PLAT_SLOT_B, 0, b, cap, &len_b) == PLAT_IO_OK && len_b == len &&
	      !memcmp(a, b, len), "slot B read back");
	check(plat_chain_read(PLAT_SLOT_B, 1, b, cap, &len_b) == PLAT_IO_ABSENT, "no stage 2");
	check(plat_chain_read(PLAT_SLOT_B, 0, b, len - 1, &len_b) == PLAT_IO_BIG, "too small");
}

void stage_main(void)
{
	struct plat_ram ram;
	const char *why = plat_init(&ram);

	if (why)
		port_halt(why);
	state();
	counters();
	chain(&ram);
	con_puts(failed ? "vfit-selftest: FAILED" : "vfit-selftest: all passed");
	con_nl();
	port_power_off();
}
