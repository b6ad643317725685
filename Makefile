# raptor: trace-replay gdbserver for multicore Cortex-M.
# Settings first; override any of them in config.mak or on the command line.

CC        ?= cc
OPT       ?= -O2
DEBUGINFO ?= -g
CFLAGS    ?=
LDFLAGS   ?=
WERROR    ?=
SANITIZE  ?=
TESTS     ?= 0
BUILD     ?= build
PREFIX    ?= /usr/local
ARM_PREFIX ?= arm-none-eabi-
PKGS      := capstone libelf zlib libdeflate libzstd nettle jansson

-include config.mak

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-unused-parameter -Wno-sign-compare $(WERROR)
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# OpenCSD's libraries come first: the replay of a trace port's recording
# decodes it (replay/etmpath.c, etm/ocsd.c), so raptor links them too.
PKG_LIBS   = $(OCSD_LIBS) $(shell pkg-config --libs $(PKGS) 2>/dev/null) -liniparser
ALL_CFLAGS = -std=gnu11 $(OPT) $(DEBUGINFO) $(WARN) $(SANITIZE) -I. $(PKG_CFLAGS) \
	-DRAPTOR_TESTS=$(TESTS) -MMD -MP $(CFLAGS)
ALL_LDFLAGS = $(SANITIZE) $(LDFLAGS)
# OpenCSD (libopencsd-dev) decodes ETM trace: etm/ocsd.c. Debian ships a
# pkg-config file for the C++ library alone; its C API library comes first.
OCSD_LIBS = -lopencsd_c_api $(shell pkg-config --libs libopencsd 2>/dev/null || echo -lopencsd)
# The raptor binary links Capstone and OpenCSD from their archives (the same
# Debian packages ship them) into a position-dependent executable: as shared
# libraries, Capstone's tables (77 000 relocations) and OpenCSD's C++ symbols
# cost every raptor command 10 ms before main, 16 ms in all against 6, and
# the tests run raptor thousands of times. LINK_STATIC=0 links them shared.
LINK_STATIC ?= 1
ifeq ($(LINK_STATIC),1)
EXE_LDFLAGS = -no-pie
EXE_LIBS    = -Wl,-Bstatic -lopencsd_c_api -lopencsd $(shell pkg-config --libs capstone 2>/dev/null) \
	-Wl,-Bdynamic -lstdc++ $(shell pkg-config --libs $(filter-out capstone,$(PKGS)) 2>/dev/null) \
	-liniparser
else
EXE_LDFLAGS =
EXE_LIBS    = $(PKG_LIBS)
endif

LIB_DIRS := util isa board predictors caches streams record replay server analysis etm
LIB_SRC  := $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c))
CLI_SRC  := $(wildcard cli/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/unit/%)

.PHONY: all bootstrap run demo traces check unit bench bench-scale bench-bandwidth asan debug install clean guest tools isatests

all: $(BUILD)/raptor

bootstrap:
	@scripts/bootstrap.sh build

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libraptor.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# raptor debug finds gdbscripts/raptor.py beside the binary (a build or an
# install under any prefix), else in the install's data directory or the
# source tree.
$(BUILD)/obj/cli/cmd_debug.o: ALL_CFLAGS += -DRAPTOR_DATADIR='"$(PREFIX)/share/raptor"' \
	-DRAPTOR_SRCDIR='"$(CURDIR)"'

$(BUILD)/raptor: $(CLI_OBJ) $(BUILD)/libraptor.a
	$(CC) $(ALL_LDFLAGS) $(EXE_LDFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libraptor.a $(EXE_LIBS) -lm

$(BUILD)/unit/%: tests/unit/%.c $(BUILD)/libraptor.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libraptor.a $(PKG_LIBS) -lm

include guest/guest.mk
include tools/tools.mk
include tests/isa/isa.mk

unit: $(UNIT_BIN)

# The main job: serve the bundled demo recording and say how to attach GDB.
run:
	@scripts/bootstrap.sh run
	@$(MAKE) --no-print-directory all
	@scripts/run-demo.sh $(BUILD)

# Every race demo reproduced in batch: gdbscripts/demo-NAME.gdb against
# traces/NAME, each with its own server; prints the interleavings found.
demo:
	@scripts/bootstrap.sh run
	@$(MAKE) --no-print-directory all
	@gdbscripts/demo.sh $(BUILD)/raptor

# Record traces/ again from the committed ELFs (traces/demos.list) and
# check with cmp that every file came out byte-identical.
traces:
	@scripts/bootstrap.sh build
	@$(MAKE) --no-print-directory all
	@traces/regen.sh $(BUILD)/raptor

check:
	@scripts/bootstrap.sh check
	@$(MAKE) --no-print-directory all unit guest tools isatests
	@BUILD=$(BUILD) tests/run-all.sh

bench:
	@scripts/bootstrap.sh check
	@$(MAKE) --no-print-directory all guest tools
	@BUILD=$(BUILD) bench/run.sh

# Long recordings (10^8 to 10^10 instructions): bench/scale.sh writes
# bench/SCALE.md. RUNS="CORES:ROUNDS ..." picks the runs (bench/scale.sh).
bench-scale:
	@scripts/bootstrap.sh check
	@$(MAKE) --no-print-directory all guest tools
	@$(MAKE) --no-print-directory -f Makefile -f bench/bench.mk BUILD=$(BUILD) bench-tools
	@bench/scale.sh $(BUILD) > bench/SCALE.md.new && mv bench/SCALE.md.new bench/SCALE.md

# The trace-port bandwidth study: every encoding of the papers and the real
# trace ports (ETMv4, ETMv3.5, MTB) on the multicore suite at 1, 2, 4 and 8
# cores; bench/bandwidth.sh writes bench/BANDWIDTH.md and bench/plots/.
bench-bandwidth:
	@scripts/bootstrap.sh check
	@$(MAKE) --no-print-directory all guest
	@BUILD=$(BUILD) bench/bandwidth.sh

# AddressSanitizer + UBSan over `make check`: every test, the long campaigns
# at 1 in ASAN_SAMPLE of their cases (tests/lib.sh test_sample; ASAN_SAMPLE=1
# for all of them) and the QEMU differentials (t0100-t0104, whose programs the
# other tests run under the sanitizers too) at 1 in ASAN_QEMU_SAMPLE, T="unit t0200 ..."
# for a part of the suite (run-all.sh patterns). CI runs it after `make
# check`. Reports go to files as well as failing the program (exit 86, also
# under test_must_fail), and any report fails the target (docs/HARDENING.md).
# tests/lsan.supp names the one leak of a library we link (OpenCSD's).
ASAN_LOG     = $(abspath build-asan)/sanitizer-reports
ASAN_SAMPLE ?= 8
ASAN_QEMU_SAMPLE ?= 16
asan:
	@rm -rf $(ASAN_LOG) && mkdir -p $(ASAN_LOG)
	ASAN_OPTIONS=log_path=$(ASAN_LOG)/asan:exitcode=86:detect_leaks=1 \
	UBSAN_OPTIONS=log_path=$(ASAN_LOG)/ubsan:halt_on_error=1:print_stacktrace=1:exitcode=86 \
	LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp):print_suppressions=0 \
	RAPTOR_TEST_SAMPLE=$(ASAN_SAMPLE) RAPTOR_QEMU_SAMPLE=$(ASAN_QEMU_SAMPLE) \
	$(MAKE) BUILD=build-asan OPT=-O1 FUZZ_BUILD=$(abspath $(FUZZ_BUILD)) \
		SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" check
	@if ls $(ASAN_LOG)/* >/dev/null 2>&1; then \
		echo "asan: sanitizer reports in $(ASAN_LOG):"; head -30 $(ASAN_LOG)/*; exit 1; fi

debug:
	$(MAKE) BUILD=build-debug OPT=-O0 TESTS=1 all

install: $(BUILD)/raptor
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BUILD)/raptor $(DESTDIR)$(PREFIX)/bin/raptor
	install -d $(DESTDIR)$(PREFIX)/share/raptor
	install -m 644 gdbscripts/raptor.py $(DESTDIR)$(PREFIX)/share/raptor/raptor.py

clean:
	rm -rf build build-asan build-debug $(FUZZ_BUILD) build-asan-valgrind

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)

# ---- fuzzing (tests/fuzz/, docs/HARDENING.md) -------------------------------
# `make fuzz`: the libFuzzer targets, built with clang (library included,
# instrumented) into $(FUZZ_BUILD)/fuzz/, each run FUZZ_TIME seconds on its
# corpus (tests/fuzz/run.sh; FUZZ_JOBS targets at a time). `make fuzz-build`
# only builds them (always at an absolute path: the dependency files then
# name the same targets whoever builds it, make fuzz, make check or make asan).
FUZZ_BUILD ?= build-fuzz
FUZZ_TIME  ?= 60
FUZZ_JOBS  ?= 1
FUZZ_CC    ?= clang
FUZZ_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_NAMES := cf lv manifest elf rsp
FUZZ_BINS   = $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)
FUZZ_UTIL   = $(BUILD)/obj/tests/fuzz/fuzz_util.o
FUZZ_LINK   = $(CC) $(ALL_CFLAGS) -fsanitize=fuzzer $(ALL_LDFLAGS) $(FUZZ_WRAP) -o $@ $^ \
	$(PKG_LIBS) -lm -lpthread

.PHONY: fuzz fuzz-build fuzz-bins

fuzz:
	@scripts/bootstrap.sh check
	@$(MAKE) --no-print-directory all guest isatests fuzz-build
	@FUZZ_TIME=$(FUZZ_TIME) FUZZ_JOBS=$(FUZZ_JOBS) tests/fuzz/run.sh $(BUILD) $(FUZZ_BUILD)

fuzz-build:
	@$(MAKE) --no-print-directory BUILD=$(abspath $(FUZZ_BUILD)) CC=$(FUZZ_CC) OPT=-O1 \
		SANITIZE="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" \
		FUZZ_NOCMP=-fno-sanitize-coverage=trace-cmp fuzz-bins

# Comparison tracing (what libFuzzer learns the values an input must hold
# from) only where an input's bytes are compared: the decoders of streams,
# manifests, ELF files, trace ports and packets, and the replay's checks
# of the messages. Not in the ISS, the board's models or the replay's
# bookkeeping, which compare the guest's values: there its callbacks were
# 40% of fuzz_lv's time. Edge coverage and the sanitizers stay everywhere.
FUZZ_CMP_SRC := $(wildcard streams/*.c server/*.c etm/*.c) isa/elf.c isa/attrs.c \
	replay/replay.c replay/cfwalk.c replay/etmpath.c
$(filter-out $(FUZZ_CMP_SRC:%.c=$(BUILD)/obj/%.o),$(LIB_OBJ)): ALL_CFLAGS += $(FUZZ_NOCMP)

fuzz-bins: $(FUZZ_BINS)

$(BUILD)/obj/tests/fuzz/fuzz_cf.o: tests/fuzz/fuzz_stream.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DFZ_LV=0 -c $< -o $@

$(BUILD)/obj/tests/fuzz/fuzz_lv.o: tests/fuzz/fuzz_stream.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DFZ_LV=1 -c $< -o $@

# each base recording keeps its instruction decoder and isa_describe's answers: see fuzz_stream.c
$(BUILD)/fuzz/fuzz_cf $(BUILD)/fuzz/fuzz_lv: FUZZ_WRAP = \
	-Wl,--wrap=isa_decoder_new,--wrap=isa_decoder_free,--wrap=isa_describe

$(BUILD)/fuzz/fuzz_%: $(BUILD)/obj/tests/fuzz/fuzz_%.o $(FUZZ_UTIL) $(BUILD)/libraptor.a
	@mkdir -p $(dir $@)
	$(FUZZ_LINK)

-include $(wildcard $(BUILD)/obj/tests/fuzz/*.d)
