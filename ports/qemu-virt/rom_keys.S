/* SPDX-License-Identifier: BSD-3-Clause */
/* The ROM keys: a control DTB written by `vfit mkimage -K`, built into the stage. */
	.section .rodata.rom_keys, "a"
	.balign	8
	.global	rom_keys, rom_keys_end
rom_keys:
	.incbin	ROM_KEYS
rom_keys_end:
