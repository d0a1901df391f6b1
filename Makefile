# SPDX-License-Identifier: BSD-3-Clause
# vfit: plain GNU make.  `make`, `make test`, `make demo`, `make bench`,
# `make size`, `make install PREFIX=... [UBOOT_TOOLS_NAMES=1]`, `make clean`.
# BUILD selects the output directory, so parallel builds with other flags
# (sanitizers, fuzzers) never share objects.
# `make` and `make install` install nothing: scripts/check-build names what
# is missing.  `make test`, `make demo` and `make qemu-boot` (the README's
# set-up commands) first install the missing Debian packages (scripts/deps).

BUILD   ?= build
PREFIX  ?= /usr/local
CC      ?= cc
CLANG   ?= clang
OPT     ?= -O2 -g
SAN     ?=
# One version, in include/vfit/vfit.h.
VERSION := $(shell sed -n 's/^\#define VFIT_VERSION_\(MAJOR\|MINOR\|PATCH\) //p' \
	include/vfit/vfit.h | paste -sd.)

WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wvla -Wpointer-arith -Wcast-qual -Wundef
# Sections per function: the installed libvfit.a is one object (below), so
# an application's --gc-sections still drops what it does not call.
CFLAGS_LIB  = -std=c11 $(WARN) $(OPT) $(SAN) -Iinclude -fno-common \
              -ffunction-sections -fdata-sections
CFLAGS_HOST = $(CFLAGS_LIB) -D_GNU_SOURCE -DVFIT_VERSION='"$(VERSION)"'
LDLIBS_HOST = -lssl -lcrypto -lfdt
# Only the simulator's counter stores (libvfit-sim) talk to a TPM.
LDLIBS_SIM  = $(LDLIBS_HOST) $(shell pkg-config --libs tss2-esys tss2-tctildr tss2-rc 2>/dev/null)
# zlib and liblz4 are the reference the tests and benches compare with.
LDLIBS_TEST = $(LDLIBS_SIM) -lz -llz4
# The tool links the installed (API-only) library; tests and benches the
# internal one, whose every symbol stays global.
HOST_LIBS   = $(BUILD)/libvfit-sim.a $(BUILD)/libvfit-host.a $(BUILD)/libvfit.a
TEST_LIBS   = $(BUILD)/libvfit-sim.a $(BUILD)/libvfit-host.a $(BUILD)/libvfit-int.a

# The device library's sources, per capability: lib.mk (for other builds too).
include lib.mk
LIB_SRC   := $(VFIT_SRC)
HOST_SRC  := $(sort $(wildcard host/*.c))
SIM_SRC   := $(sort $(wildcard host/boot/*.c))
CLI_SRC   := $(sort $(wildcard cli/*.c))
UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_UTIL := $(filter-out tests/unit/test_%,$(sort $(wildcard tests/unit/*.c)))
BENCH_SRC := $(sort $(wildcard bench/*.c))
FUZZ_SRC  := $(sort $(wildcard tests/fuzz/fuzz_*.c))

LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
HOST_OBJ  := $(HOST_SRC:%.c=$(BUILD)/%.o)
SIM_OBJ   := $(SIM_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o)
UTIL_OBJ  := $(UNIT_UTIL:%.c=$(BUILD)/%.o)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
FUZZ_BIN  := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)

BUILD_OK := $(BUILD)/.build-ok

.PHONY: all deps test unit unit-asan demo bench size install clean fuzz check-freestanding
.DELETE_ON_ERROR:

all: $(BUILD)/vfit $(BUILD)/libvfit.a $(BUILD)/libvfit-int.a $(BUILD)/libvfit-host.a \
     $(BUILD)/libvfit-sim.a

# The set-up goals install what is missing first (scripts/deps is a no-op
# when all is there), before make reads further; nothing else installs.
ifneq ($(filter test demo qemu-boot,$(MAKECMDGOALS)),)
ifneq ($(shell scripts/deps >&2; echo $$?),0)
$(error scripts/deps failed)
endif
endif
deps:
	@scripts/deps

# A compiler, OpenSSL and libfdt (and tpm2-tss for libvfit-sim), or a clear
# list of what is missing.
$(BUILD_OK): scripts/check-build
	@scripts/check-build "$(CC)"
	@mkdir -p $(@D) && touch $@
$(BUILD)/.sim-ok: scripts/check-build
	@scripts/check-build "$(CC)" sim
	@mkdir -p $(@D) && touch $@
$(SIM_OBJ): | $(BUILD)/.sim-ok

$(BUILD)/lib/%.o: lib/%.c | $(BUILD_OK)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_LIB) -MMD -MP -c -o $@ $<

$(BUILD)/%.o: %.c | $(BUILD_OK)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) -MMD -MP -c -o $@ $<

# Every object of lib/, each symbol global: what the tests and fuzzers link.
$(BUILD)/libvfit-int.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# The installed library: lib/ linked into one object in which only the
# documented API (lib/api.list, tests/build/symbols.sh) stays global.
$(BUILD)/libvfit.a: $(LIB_OBJ) lib/api.list scripts/api-keep
	@rm -f $@
	$(CC) -r -nostdlib -o $(BUILD)/libvfit.o $(LIB_OBJ)
	scripts/api-keep lib/api.list $(LIB_OBJ) > $(BUILD)/api.keep
	objcopy --keep-global-symbols=$(BUILD)/api.keep $(BUILD)/libvfit.o
	ar rcs $@ $(BUILD)/libvfit.o

$(BUILD)/libvfit-host.a: $(HOST_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libvfit-sim.a: $(SIM_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/vfit: $(CLI_OBJ) $(HOST_LIBS)
	$(CC) $(OPT) $(SAN) -o $@ $(CLI_OBJ) $(HOST_LIBS) $(LDLIBS_SIM)
	@ln -sf vfit $(BUILD)/mkimage

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(UTIL_OBJ) $(TEST_LIBS)
	@mkdir -p $(@D)
	$(CC) $(OPT) $(SAN) -o $@ $< $(UTIL_OBJ) $(TEST_LIBS) $(LDLIBS_TEST) $(TEST_LDFLAGS)

# test_fit_scale counts the bytes the verifier hashes.
$(BUILD)/tests/test_fit_scale: TEST_LDFLAGS = -Wl,--wrap=vfit_hash_update
# test_fit_cost runs the mkimage and verify subcommands themselves (cli/) and counts their bytes.
COST_CLI = $(BUILD)/cli/mkimage.o $(BUILD)/cli/verify.o $(BUILD)/cli/fail.o
$(BUILD)/tests/test_fit_cost: $(COST_CLI)
$(BUILD)/tests/test_fit_cost: TEST_LDFLAGS = $(COST_CLI) $(TEST_LIBS) $(LDLIBS_SIM) \
	-Wl,--wrap=vfit_hash_update

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(TEST_LIBS)
	$(CC) $(OPT) -o $@ $< $(TEST_LIBS) $(LDLIBS_TEST)

# The test objects are intermediate files of the pattern rule above; keep
# them, or make deletes them at the end and `make test` would not end with
# its summary line.
.SECONDARY: $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%.o) $(UTIL_OBJ)

unit: all $(UNIT_BIN)

# The unit tests again under ASan+UBSan, in $(BUILD)/asan.
ASAN_VARS = BUILD=$(BUILD)/asan CC=$(CLANG) OPT="-O1 -g" \
	SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
unit-asan:
	$(MAKE) --no-print-directory $(ASAN_VARS) unit
# One of them: make asan/test_x (tests/mutate/run.sh).
asan/test_%:
	$(MAKE) --no-print-directory $(ASAN_VARS) $(BUILD)/asan/tests/test_$*

# libFuzzer targets: the whole library rebuilt once with clang, coverage and
# sanitizers, and linked into each target.
FUZZ_FLAGS = -std=c11 -g -O1 -Iinclude -D_GNU_SOURCE -DVFIT_VERSION='"$(VERSION)"' \
             -fno-sanitize-recover=all
FUZZ_OBJ  := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(LIB_SRC) $(HOST_SRC))
$(BUILD)/fuzz/obj/%.o: %.c | $(BUILD_OK)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,address,undefined -MMD -MP -c -o $@ $<
$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJ) $(wildcard tests/fuzz/*.h) | $(BUILD_OK)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< $(FUZZ_OBJ) \
		$(LDLIBS_HOST)
fuzz: $(FUZZ_BIN)
.SECONDARY: $(FUZZ_OBJ)

# Every layer (tests/README.md): the runner's self-test, unit tests (plain
# and ASan+UBSan), CLI, interop, fuzz, freestanding and cross builds.  Fails
# on any skip unless VFIT_ALLOW_SKIP names it.
test: unit unit-asan fuzz
	BUILD=$(BUILD) tests/run

demo: all
	BUILD=$(BUILD) examples/demo.sh

bench: all $(BENCH_BIN)
	BUILD=$(BUILD) bench/run

size:
	@scripts/deps size
	BUILD=$(BUILD) scripts/size

check-freestanding:
	tests/build/freestanding.sh

# One-line mutants of lib/'s refusals against their tests (tests/mutate/run.sh):
# on demand, not part of `make test`.
.PHONY: mutate
mutate: unit
	BUILD=$(BUILD) tests/mutate/run.sh

UBOOT_TOOLS = mkimage dumpimage mkenvimage fit_check_sign fit_info
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/include/vfit $(DESTDIR)$(PREFIX)/include/vfit-host \
		$(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/vfit $(DESTDIR)$(PREFIX)/bin/vfit
	install -m 644 $(BUILD)/libvfit.a $(BUILD)/libvfit-host.a $(BUILD)/libvfit-sim.a \
		$(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/vfit/*.h $(DESTDIR)$(PREFIX)/include/vfit/
	install -m 644 include/vfit-host/*.h $(DESTDIR)$(PREFIX)/include/vfit-host/
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	@# UBOOT_TOOLS_NAMES=1: vfit under u-boot-tools' names too (man/vfit-uboot-tools.1).
	if [ -n "$(UBOOT_TOOLS_NAMES)" ]; then \
		for n in $(UBOOT_TOOLS); do ln -sf vfit $(DESTDIR)$(PREFIX)/bin/$$n; done; \
	fi
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' vfit.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/vfit.pc

clean:
	rm -rf build

# The bare-metal stage for QEMU virt (make qemu-boot ARCH=arm64|arm): its own block.
include ports/qemu-virt/port.mk

-include $(patsubst %.o,%.d,$(LIB_OBJ) $(HOST_OBJ) $(SIM_OBJ) $(CLI_OBJ) $(UTIL_OBJ) $(FUZZ_OBJ) $(UNIT_BIN:$(BUILD)/tests/%=$(BUILD)/tests/unit/%.o))
