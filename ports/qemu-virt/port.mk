# SPDX-License-Identifier: BSD-3-Clause
# ports/qemu-virt: the bare-metal verified-boot stage for QEMU virt, included
# by the top Makefile.  Per ARCH (arm64, arm) under $(BUILD)/qemu/ARCH:
#   stage.bin     the stage (-bios), with rom.dtb built in (keys dev, recovery):
#                 state and counters on the disk
#   stage-tpm.bin the same with rom-tpm.dtb, whose /config vfit,tpm = "required"
#                 keeps them in a TPM (docs/trust-state.md)
#   disk.img      a vfit boot disk: linux.fit in slots A and B, recovery.fit
#   linux.fit     Debian's kernel + a busybox initramfs (tag "main"), signed
#                 with the dev key, rollback-index 1
#   recovery.fit  the same kernel + an initramfs tagged "recovery", signed
#                 with key-recovery
# `make qemu-boot ARCH=arm64|arm` builds both and boots them with a TPM
# (ports/qemu-virt/with-tpm: swtpm); exit 0 only when the guest printed the marker.  Debian's kernel, busybox and libfdt
# for the target are fetched by `scripts/deps qemu` into $(BUILD)/qemu.

ARCH     ?= arm64
QEMU_DIR := $(BUILD)/qemu
QV       := ports/qemu-virt
QV_SRC   := $(sort $(wildcard $(QV)/*.c))
# main.c is the boot path, selftest.c the platform self-test: one each per binary.
QV_COMMON := $(filter-out $(QV)/main.c $(QV)/selftest.c,$(QV_SRC))
QV_MARKER := VFIT-QEMU-MARKER: userspace reached on

QV_CROSS_arm64 := aarch64-linux-gnu-
QV_CROSS_arm   := arm-linux-gnueabihf-
QV_LIBDIR_arm64 := aarch64-linux-gnu
QV_LIBDIR_arm   := arm-linux-gnueabihf
# arm64: the ARMv8 SHA-256 instructions (lib/hash/sha_arm.c); armv7: Thumb-2, NEON.
QV_CPU_arm64 := -march=armv8-a+crypto -mtune=cortex-a57
QV_CPU_arm   := -march=armv7-a -mtune=cortex-a15 -mfpu=neon-vfpv4 -mfloat-abi=hard -mthumb \
                -DVFIT_SHA256_ARMV7_ASM
QV_FIT_arm64 := arm64
QV_FIT_arm   := arm
# Where the FIT puts the kernel: 2 MiB-aligned Image (text_offset 0); zImage at RAM + 32 KiB.
QV_LOAD_arm64 := 0x40400000
QV_LOAD_arm   := 0x40008000
QV_QEMU_arm64 := qemu-system-aarch64 -M virt -cpu cortex-a57
QV_QEMU_arm   := qemu-system-arm -M virt -cpu cortex-a15

QV_CFLAGS = -std=c11 $(WARN) -O2 -g -ffreestanding -fno-tree-loop-distribute-patterns \
            -fno-pic -fno-pie -fno-stack-protector \
            -ffunction-sections -fdata-sections -fno-common -Iinclude -isystem $(QV)/include

QV_DEPS_OK := $(QEMU_DIR)/.deps-ok
$(QV_DEPS_OK): scripts/deps
	@scripts/deps qemu $(QEMU_DIR)
	@touch $@

.PHONY: qemu-stage qemu-disk qemu-boot
qemu-stage: $(QEMU_DIR)/$(ARCH)/stage.bin $(QEMU_DIR)/$(ARCH)/stage-tpm.bin \
	$(QEMU_DIR)/$(ARCH)/stage-selftest.bin
qemu-disk: $(QEMU_DIR)/$(ARCH)/disk.img
# With a TPM (swtpm, state in $(QEMU_DIR)/ARCH/tpm, provisioned on first use).
qemu-boot: $(QEMU_DIR)/$(ARCH)/stage-tpm.bin $(QEMU_DIR)/$(ARCH)/disk.img
	$(QV)/with-tpm $(QEMU_DIR)/$(ARCH)/tpm $(QV)/boot $(ARCH) $(QEMU_DIR)/$(ARCH)/stage-tpm.bin \
		$(QEMU_DIR)/$(ARCH)/disk.img "$(QV_MARKER)"

# Network recovery (netboot.c): QEMU's own DHCP and TFTP server (slirp) serves recovery.fit
# from $(QEMU_DIR)/ARCH/tftp, and an 'n' waiting at the console asks for it before the disk.
.PHONY: qemu-netboot
qemu-netboot: $(QEMU_DIR)/$(ARCH)/stage.bin $(QEMU_DIR)/$(ARCH)/disk.img
	@mkdir -p $(QEMU_DIR)/$(ARCH)/tftp
	cp $(QEMU_DIR)/$(ARCH)/recovery.fit $(QEMU_DIR)/$(ARCH)/tftp/recovery.fit
	printf n >$(QEMU_DIR)/$(ARCH)/netboot.key
	QEMU_STDIN=$(QEMU_DIR)/$(ARCH)/netboot.key $(QV)/boot $(ARCH) $(QEMU_DIR)/$(ARCH)/stage.bin \
		$(QEMU_DIR)/$(ARCH)/disk.img "$(QV_MARKER)" \
		-netdev user,id=n0,tftp=$(QEMU_DIR)/$(ARCH)/tftp,bootfile=recovery.fit \
		-device virtio-net-device,netdev=n0

$(QEMU_DIR)/keys/%.key: | $(BUILD)/vfit
	@mkdir -p $(@D)
	$(BUILD)/vfit keygen -a rsa2048 -k $(@D) -n $* -f

# $(1): arm64 or arm
define QV_ARCH
QV_ROOT_$(1) := $(QEMU_DIR)/root-$(1)
QV_OBJ_$(1) := $(addprefix $(QEMU_DIR)/$(1)/obj/,$(VFIT_SRC:.c=.o) $(QV_COMMON:.c=.o) \
	$(QV)/start_$(if $(filter arm64,$(1)),aarch64,arm).o \
	$(if $(filter arm,$(1)),$(VFIT_SRC_ARMV7:.S=.o)))

$(QEMU_DIR)/$(1)/obj/%.o: %.c $(QV)/port.mk $(wildcard $(QV)/include/*.h) | $(QV_DEPS_OK)
	@mkdir -p $$(@D)
	$$(call say,CC,$$@)$(QV_CROSS_$(1))gcc $(QV_CPU_$(1)) $$(QV_CFLAGS) -isystem $(QEMU_DIR)/root-$(1)/usr/include \
		-DVFIT_STAGE_ARCH='"$(1)"' -MMD -MP -c -o $$@ $$<
$(QEMU_DIR)/$(1)/obj/%.o: %.S | $(QV_DEPS_OK)
	@mkdir -p $$(@D)
	$$(call say,AS,$$@)$(QV_CROSS_$(1))gcc $(QV_CPU_$(1)) -DROM_KEYS='"$(QEMU_DIR)/$(1)/rom.dtb"' -c -o $$@ $$<
$(QEMU_DIR)/$(1)/obj/$(QV)/rom_keys.o: $(QEMU_DIR)/$(1)/rom.dtb
# The TPM stage's ROM: the same keys, and the requirement only the ROM may state.
$(QEMU_DIR)/$(1)/rom-tpm.dtb: $(QEMU_DIR)/$(1)/rom.dtb
	$$(call say,DTB,$$@)cp $$< $$@.tmp && fdtput -p -t s $$@.tmp /config vfit,tpm required && mv $$@.tmp $$@
# stage-NAME.bin: the stage with rom-NAME.dtb as its ROM (stage-tpm.bin; the ROM /config
# settings tests/qemu/net.sh writes).
$(QEMU_DIR)/$(1)/obj/$(QV)/rom_keys-%.o: $(QV)/rom_keys.S $(QEMU_DIR)/$(1)/rom-%.dtb | $(QV_DEPS_OK)
	$$(call say,AS,$$@)$(QV_CROSS_$(1))gcc $(QV_CPU_$(1)) -DROM_KEYS='"$(QEMU_DIR)/$(1)/rom-$$*.dtb"' -c -o $$@ $$<

define QV_LINK_$(1)
	$$(call say,LD,$$@)$(QV_CROSS_$(1))gcc -nostdlib -static -no-pie -Wl,--gc-sections -Wl,--build-id=none \
		-Wl,--no-warn-rwx-segments -Wl,-z,noexecstack -Wl,-T,$(QV)/stage.ld \
		-Wl,-Map,$$(@:.elf=.map) -o $$@ $$(filter %.o,$$^) \
		$(QEMU_DIR)/root-$(1)/usr/lib/$(QV_LIBDIR_$(1))/libfdt.a -lgcc
endef
$(QEMU_DIR)/$(1)/stage.elf: $(QEMU_DIR)/$(1)/obj/$(QV)/main.o $(QEMU_DIR)/$(1)/obj/$(QV)/rom_keys.o
$(QEMU_DIR)/$(1)/stage-selftest.elf: $(QEMU_DIR)/$(1)/obj/$(QV)/selftest.o \
	$(QEMU_DIR)/$(1)/obj/$(QV)/rom_keys.o
$(QEMU_DIR)/$(1)/stage.elf $(QEMU_DIR)/$(1)/stage-selftest.elf: $$(QV_OBJ_$(1)) $(QV)/stage.ld
	$$(QV_LINK_$(1))
$(QEMU_DIR)/$(1)/stage-%.elf: $(QEMU_DIR)/$(1)/obj/$(QV)/main.o \
		$(QEMU_DIR)/$(1)/obj/$(QV)/rom_keys-%.o $$(QV_OBJ_$(1)) $(QV)/stage.ld
	$$(QV_LINK_$(1))
# Kept beside their .bin, not deleted as intermediates: gdb reads the ELF's
# symbols (tests/qemu/powercut.sh), and relinking needs the object.
.PRECIOUS: $(QEMU_DIR)/$(1)/stage-%.elf $(QEMU_DIR)/$(1)/obj/$(QV)/rom_keys-%.o
$(QEMU_DIR)/$(1)/%.bin: $(QEMU_DIR)/$(1)/%.elf
	$$(call say,OBJCOPY,$$@)$(QV_CROSS_$(1))objcopy -O binary $$< $$@

$(QEMU_DIR)/$(1)/initramfs-main.cpio $(QEMU_DIR)/$(1)/initramfs-recovery.cpio: \
		$(QEMU_DIR)/$(1)/initramfs-%.cpio: $(QV)/mkinitramfs | $(QV_DEPS_OK)
	@mkdir -p $$(@D)
	$(QV)/mkinitramfs $(QEMU_DIR)/root-$(1)/bin/busybox "$(QV_MARKER)" $$@ $$*
# Signing writes the keys into rom.dtb, the stage's ROM keys: dev (required
# for configurations) and key-recovery (recovery's own, not required).
$(QEMU_DIR)/$(1)/linux.fit $(QEMU_DIR)/$(1)/recovery.fit $(QEMU_DIR)/$(1)/rom.dtb &: \
		$(QV)/linux.its.in $(QV)/mkfit $(QEMU_DIR)/$(1)/initramfs-main.cpio \
		$(QEMU_DIR)/$(1)/initramfs-recovery.cpio $(QEMU_DIR)/keys/dev.key \
		$(QEMU_DIR)/keys/recovery.key | $(BUILD)/vfit
	printf '/dts-v1/;\n/ {\n};\n' | dtc -I dts -O dtb -o $(QEMU_DIR)/$(1)/rom.dtb
	VFIT=$(BUILD)/vfit $(QV)/mkfit -i 1 -K $(QEMU_DIR)/$(1)/rom.dtb -r $(QV_FIT_$(1)) \
		$$$$(ls $(QEMU_DIR)/root-$(1)/boot/vmlinuz-* | head -n 1) \
		$(QEMU_DIR)/$(1)/initramfs-main.cpio $(QV_LOAD_$(1)) $(QEMU_DIR)/keys \
		$(QEMU_DIR)/$(1)/linux.fit
	VFIT=$(BUILD)/vfit $(QV)/mkfit -n recovery -K $(QEMU_DIR)/$(1)/rom.dtb $(QV_FIT_$(1)) \
		$$$$(ls $(QEMU_DIR)/root-$(1)/boot/vmlinuz-* | head -n 1) \
		$(QEMU_DIR)/$(1)/initramfs-recovery.cpio $(QV_LOAD_$(1)) $(QEMU_DIR)/keys \
		$(QEMU_DIR)/$(1)/recovery.fit
$(QEMU_DIR)/$(1)/disk.img: $(QEMU_DIR)/$(1)/linux.fit $(QEMU_DIR)/$(1)/recovery.fit | $(BUILD)/vfit
	rm -f $$@
	$(BUILD)/vfit disk create --slot-size 48M $$@
	$(BUILD)/vfit disk write $$@ a $(QEMU_DIR)/$(1)/linux.fit
	$(BUILD)/vfit disk write $$@ b $(QEMU_DIR)/$(1)/linux.fit
	$(BUILD)/vfit disk write $$@ recovery $(QEMU_DIR)/$(1)/recovery.fit
endef
$(foreach a,arm64 arm,$(eval $(call QV_ARCH,$(a))))

-include $(wildcard $(QEMU_DIR)/*/obj/*/*.d $(QEMU_DIR)/*/obj/*/*/*.d)
