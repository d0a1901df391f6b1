# SPDX-License-Identifier: BSD-3-Clause
# vfit: plain GNU make.  `make`, `make test`, `make demo`, `make bench`,
# `make size`, `make install`, `make uninstall`, `make clean`.
# BUILD selects the output directory, so parallel builds with other flags
# (sanitizers, fuzzers) never share objects.
# `make` and `make install` install nothing: scripts/check-build names what
# is missing.  `make test`, `make demo` and `make qemu-boot` (the README's
# set-up commands) first install the missing Debian packages (scripts/deps).
#
# Knobs (command line or environment):
#   CFLAGS CPPFLAGS LDFLAGS  the builder's own (a distribution's hardening),
#                 added after the project's flags to every host compile and
#                 link; OPT (default -O2 -g) and SAN (sanitizers) come first
#   CC CLANG      the host compiler; clang for unit-asan and fuzz
#   AR LD OBJCOPY their binutils (a cross or sysroot build's own)
#   WERROR=1      warnings fail the build: make test sets it (and CI, which
#                 runs make test); a plain make only warns
#   V=1           print whole command lines instead of "  CC      lib/x.o"
#   PREFIX BINDIR LIBDIR INCLUDEDIR MANDIR DESTDIR  where make install puts
#                 things (LIBDIR=$(PREFIX)/lib/x86_64-linux-gnu for multiarch)
#   UBOOT_TOOLS_NAMES=1  make install also puts mkimage, dumpimage, ... in BINDIR

BUILD   ?= build
CC      ?= cc
CLANG   ?= clang
OBJCOPY ?= objcopy
OPT     ?= -O2 -g
SAN     ?=
WERROR  ?=
# One version, in include/vfit/vfit.h: joined by make, not paste (which
# bitbake's HOSTTOOLS lack: the version came out empty in every FIT signed).
empty :=
space := $(empty) $(empty)
VERSION := $(subst $(space),.,$(strip $(shell sed -n \
	's/^\#define VFIT_VERSION_\(MAJOR\|MINOR\|PATCH\) //p' include/vfit/vfit.h)))

# -Werror where the project asks for it: make test and everything it runs
# (tests/build's own makes inherit it); a plain make warns and goes on.
ifneq ($(filter test,$(MAKECMDGOALS)),)
WERROR := $(or $(WERROR),1)
endif
export WERROR

# Quiet by default, as Linux and U-Boot: "  CC      lib/fit/fit_verify.o";
# V=1 prints the commands.  $(call say,WHAT,TARGET) starts a recipe line.
ifeq ($(V),1)
say =
Q   =
else
say = @printf '  %-7s %s\n' '$(1)' '$(patsubst $(BUILD)/%,%,$(2))';
Q   = @
endif

WARN     = -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wvla -Wpointer-arith -Wcast-qual -Wundef
# Sections per function: the installed libvfit.a is one object (below), so
# an application's --gc-sections still drops what it does not call.
# The builder's CPPFLAGS and CFLAGS come last, so they win (-O, -g, -f...).
CFLAGS_LIB  = -std=c11 $(WARN) $(OPT) $(SAN) -Iinclude -fno-common \
              -ffunction-sections -fdata-sections $(CPPFLAGS) $(CFLAGS)
CFLAGS_HOST = $(CFLAGS_LIB) -D_GNU_SOURCE -DVFIT_VERSION='"$(VERSION)"'
LINK        = $(CC) $(OPT) $(SAN) $(CFLAGS) $(LDFLAGS)
# libcrypto (EVP, the PKCS#11 engine) and libfdt: all the tool links.
LDLIBS_HOST = -lcrypto -lfdt
# zlib and liblz4 are the reference the tests and benches compare with.
LDLIBS_TEST = $(LDLIBS_HOST) -lz -llz4
# The tool links the installed (API-only) library; tests and benches the
# internal one, whose every symbol stays global.
HOST_LIBS   = $(BUILD)/libvfit-sim.a $(BUILD)/libvfit-host.a $(BUILD)/libvfit.a
TEST_LIBS   = $(BUILD)/libvfit-sim.a $(BUILD)/libvfit-host.a $(BUILD)/libvfit-int.a

# The device library's sources, per capability: lib.mk (for other builds too).
include lib.mk
LIB_SRC   := $(VFIT_SRC)
# host/ has a folder per job (docs/architecture.md); host/boot is libvfit-sim.
HOST_SRC  := $(filter-out host/boot/%,$(sort $(wildcard host/*/*.c)))
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

.PHONY: all deps test unit unit-asan demo bench size install uninstall clean fuzz \
	check-freestanding
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

# A compiler, OpenSSL and libfdt, or a clear list of what is missing.
$(BUILD_OK): scripts/check-build
	@scripts/check-build "$(CC)"
	@mkdir -p $(@D) && touch $@

$(BUILD)/lib/%.o: lib/%.c | $(BUILD_OK)
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS_LIB) -MMD -MP -c -o $@ $<

$(BUILD)/%.o: %.c | $(BUILD_OK)
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS_HOST) -MMD -MP -c -o $@ $<

# Every object of lib/, each symbol global: what the tests and fuzzers link.
$(BUILD)/libvfit-int.a: $(LIB_OBJ)
	@rm -f $@
	$(call say,AR,$@)$(AR) rcs $@ $^

# The installed library: lib/ linked into one object in which only the
# documented API (lib/api.list, tests/build/symbols.sh) stays global.
$(BUILD)/libvfit.a: $(LIB_OBJ) lib/api.list scripts/api-keep
	@rm -f $@
	$(call say,LD,$(BUILD)/libvfit.o)$(LD) -r -o $(BUILD)/libvfit.o $(LIB_OBJ)
	$(Q)scripts/api-keep lib/api.list $(LIB_OBJ) > $(BUILD)/api.keep
	$(Q)$(OBJCOPY) --keep-global-symbols=$(BUILD)/api.keep $(BUILD)/libvfit.o
	$(call say,AR,$@)$(AR) rcs $@ $(BUILD)/libvfit.o

$(BUILD)/libvfit-host.a: $(HOST_OBJ)
	@rm -f $@
	$(call say,AR,$@)$(AR) rcs $@ $^

$(BUILD)/libvfit-sim.a: $(SIM_OBJ)
	@rm -f $@
	$(call say,AR,$@)$(AR) rcs $@ $^

$(BUILD)/vfit: $(CLI_OBJ) $(HOST_LIBS)
	$(call say,LD,$@)$(LINK) -o $@ $(CLI_OBJ) $(HOST_LIBS) $(LDLIBS_HOST)
	@ln -sf vfit $(BUILD)/mkimage

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(UTIL_OBJ) $(TEST_LIBS)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(LINK) -o $@ $< $(UTIL_OBJ) $(TEST_LIBS) $(LDLIBS_TEST) $(TEST_LDFLAGS)

# test_fit_scale counts the bytes the verifier hashes.
$(BUILD)/tests/test_fit_scale: TEST_LDFLAGS = -Wl,--wrap=vfit_hash_update
# test_fit_cost runs the mkimage and verify subcommands themselves (cli/) and counts their bytes.
COST_CLI = $(BUILD)/cli/mkimage.o $(BUILD)/cli/verify.o $(BUILD)/cli/fail.o
$(BUILD)/tests/test_fit_cost: $(COST_CLI)
$(BUILD)/tests/test_fit_cost: TEST_LDFLAGS = $(COST_CLI) $(TEST_LIBS) $(LDLIBS_HOST) \
	-Wl,--wrap=vfit_hash_update

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(TEST_LIBS)
	$(call say,LD,$@)$(LINK) -o $@ $< $(TEST_LIBS) $(LDLIBS_TEST)

# The test objects are intermediate files of the pattern rule above; keep
# them, or make deletes them at the end and `make test` would not end with
# its summary line.
.SECONDARY: $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%.o) $(UTIL_OBJ)

unit: all $(UNIT_BIN)

# The unit tests again under ASan+UBSan, in $(BUILD)/asan.
ASAN_VARS = BUILD=$(BUILD)/asan CC=$(CLANG) OPT="-O1 -g" \
	SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
unit-asan:
	$(Q)$(MAKE) --no-print-directory $(ASAN_VARS) unit
# One of them: make asan/test_x (tests/mutate/run.sh).
asan/test_%:
	$(Q)$(MAKE) --no-print-directory $(ASAN_VARS) $(BUILD)/asan/tests/test_$*

# libFuzzer targets: the whole library rebuilt once with clang, coverage and
# sanitizers, and linked into each target.
FUZZ_FLAGS = -std=c11 -g -O1 -Iinclude -D_GNU_SOURCE -DVFIT_VERSION='"$(VERSION)"' \
             -fno-sanitize-recover=all
FUZZ_OBJ  := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(LIB_SRC) $(HOST_SRC))
$(BUILD)/fuzz/obj/%.o: %.c | $(BUILD_OK)
	@mkdir -p $(@D)
	$(call say,CLANG,$@)$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,address,undefined \
		-MMD -MP -c -o $@ $<
$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJ) $(wildcard tests/fuzz/*.h) | $(BUILD_OK)
	@mkdir -p $(@D)
	$(call say,CLANG,$@)$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< \
		$(FUZZ_OBJ) $(LDLIBS_HOST)
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

# ---- install ------------------------------------------------------------
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
# The masquerade directory, as ccache's /usr/lib/ccache: bin/ holds U-Boot's
# tool names as links to vfit, man/man1 their pages (man-db looks in a PATH
# entry's ../man), so PATH=$(MASQDIR)/bin:$PATH makes a build use vfit while
# BINDIR's names stay u-boot-tools' (both packages install side by side).
MASQDIR    ?= $(PREFIX)/lib/vfit
INSTALL    ?= install
# Each tool name and the page that documents it (man/).
UBOOT_TOOLS_MAN = mkimage:vfit dumpimage:vfit-uboot-tools mkenvimage:vfit-uboot-tools \
                  fit_check_sign:vfit-uboot-tools fit_info:vfit-uboot-tools preload_check_sign:vfit
UBOOT_TOOLS     = $(foreach t,$(UBOOT_TOOLS_MAN),$(firstword $(subst :, ,$(t))))
MAN_PAGES       = $(notdir $(wildcard man/*.1))
# $(call reldir,FROM,TO): directory TO relative to FROM, with a final / (none
# when they are the same): the start of a relative link from FROM into TO.
reldir = $(patsubst %,%/,$(filter-out .,$(shell realpath -ms --relative-to='$(1)' '$(2)')))
# $(call tool_links,DIR,MANDIR): DIR/NAME -> vfit and MANDIR/NAME.1 -> its page, per tool
# name; a name that is already another package's file (u-boot-tools') is refused, not replaced.
define tool_links
	$(Q)for t in $(UBOOT_TOOLS_MAN); do \
		for l in $(DESTDIR)$(1)/$${t%%:*} $(DESTDIR)$(2)/$${t%%:*}.1; do \
			if [ -e "$$l" ] || [ -L "$$l" ]; then case $$(readlink "$$l") in \
			vfit|*/vfit|vfit*.1|*/vfit*.1) ;; \
			*) echo "make install: $$l is not vfit's: left alone (remove it first)" >&2; \
			   exit 1 ;; esac; fi; \
		done; \
		ln -sf $(call reldir,$(1),$(BINDIR))vfit $(DESTDIR)$(1)/$${t%%:*}; \
		ln -sf $(call reldir,$(2),$(MANDIR)/man1)$${t#*:}.1 $(DESTDIR)$(2)/$${t%%:*}.1; \
	done
endef
# $(call rm_tool_links,DIR,MANDIR): removes them again, and only if they are vfit's links.
define rm_tool_links
	$(Q)for t in $(UBOOT_TOOLS_MAN); do \
		l=$(DESTDIR)$(1)/$${t%%:*}; \
		case $$(readlink "$$l") in vfit|*/vfit) rm -f "$$l" ;; esac; \
		l=$(DESTDIR)$(2)/$${t%%:*}.1; \
		case $$(readlink "$$l") in vfit*.1|*/vfit*.1) rm -f "$$l" ;; esac; \
	done
endef

install: all
	$(call say,INSTALL,$(DESTDIR)$(PREFIX))$(INSTALL) -d $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/vfit $(DESTDIR)$(INCLUDEDIR)/vfit-host \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MASQDIR)/bin $(DESTDIR)$(MASQDIR)/man/man1
	$(Q)$(INSTALL) -m 755 $(BUILD)/vfit $(DESTDIR)$(BINDIR)/vfit
	$(Q)$(INSTALL) -m 644 $(BUILD)/libvfit.a $(BUILD)/libvfit-host.a $(BUILD)/libvfit-sim.a \
		$(DESTDIR)$(LIBDIR)/
	$(Q)$(INSTALL) -m 644 include/vfit/*.h $(DESTDIR)$(INCLUDEDIR)/vfit/
	$(Q)$(INSTALL) -m 644 include/vfit-host/*.h $(DESTDIR)$(INCLUDEDIR)/vfit-host/
	$(Q)$(INSTALL) -m 644 $(addprefix man/,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man1/
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' vfit.pc.in \
		> $(DESTDIR)$(LIBDIR)/pkgconfig/vfit.pc
	$(call tool_links,$(MASQDIR)/bin,$(MASQDIR)/man/man1)
	$(if $(UBOOT_TOOLS_NAMES),$(call tool_links,$(BINDIR),$(MANDIR)/man1))

# What install put there, and the directories only vfit uses; a tool name
# in BINDIR or MANDIR goes only when it is vfit's link.  Under a DESTDIR (a
# staging tree) also the directories install made, once empty, up to
# DESTDIR; never a system's own /usr/local/bin or share/man.
uninstall:
	$(call say,RM,$(DESTDIR)$(PREFIX))rm -f $(DESTDIR)$(BINDIR)/vfit \
		$(addprefix $(DESTDIR)$(LIBDIR)/,libvfit.a libvfit-host.a libvfit-sim.a pkgconfig/vfit.pc) \
		$(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(patsubst include/%,%,$(wildcard include/vfit/*.h \
		include/vfit-host/*.h))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man1/,$(MAN_PAGES))
	$(call rm_tool_links,$(MASQDIR)/bin,$(MASQDIR)/man/man1)
	$(call rm_tool_links,$(BINDIR),$(MANDIR)/man1)
	$(Q)rmdir $(DESTDIR)$(INCLUDEDIR)/vfit $(DESTDIR)$(INCLUDEDIR)/vfit-host \
		$(DESTDIR)$(MASQDIR)/bin $(DESTDIR)$(MASQDIR)/man/man1 $(DESTDIR)$(MASQDIR)/man \
		$(DESTDIR)$(MASQDIR) 2>/dev/null || true
	$(if $(DESTDIR),$(Q)for d in $(BINDIR) $(LIBDIR)/pkgconfig $(INCLUDEDIR) $(MANDIR)/man1 \
		$(MASQDIR); do \
		while [ -n "$$d" ] && rmdir "$(DESTDIR)$$d" 2>/dev/null; do d=$${d%/*}; done; \
	done)

clean:
	rm -rf $(BUILD)

# The bare-metal stage for QEMU virt (make qemu-boot ARCH=arm64|arm): its own block.
include ports/qemu-virt/port.mk

-include $(patsubst %.o,%.d,$(LIB_OBJ) $(HOST_OBJ) $(SIM_OBJ) $(CLI_OBJ) $(UTIL_OBJ) $(FUZZ_OBJ) $(UNIT_BIN:$(BUILD)/tests/%=$(BUILD)/tests/unit/%.o))
