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
PKGS      := capstone libelf zlib nettle jansson

-include config.mak

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-unused-parameter -Wno-sign-compare $(WERROR)
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -liniparser
ALL_CFLAGS = -std=gnu11 $(OPT) $(DEBUGINFO) $(WARN) $(SANITIZE) -I. $(PKG_CFLAGS) \
	-DRAPTOR_TESTS=$(TESTS) -MMD -MP $(CFLAGS)
ALL_LDFLAGS = $(SANITIZE) $(LDFLAGS)

LIB_DIRS := util isa board predictors caches streams record replay server analysis
LIB_SRC  := $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c))
CLI_SRC  := $(wildcard cli/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/unit/%)

.PHONY: all bootstrap run demo traces check unit bench asan debug install clean guest tools isatests

all: $(BUILD)/raptor

bootstrap:
	@scripts/bootstrap.sh build

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libraptor.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/raptor: $(CLI_OBJ) $(BUILD)/libraptor.a
	$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libraptor.a $(PKG_LIBS) -lm

$(BUILD)/unit/%: tests/unit/%.c $(BUILD)/libraptor.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libraptor.a $(PKG_LIBS) -lm

include guest/guest.mk
include tools/tools.mk
include tests/isa/isa.mk

unit: $(UNIT_BIN)

# The main job: serve the bundled demo recording and say how to attach GDB.
run:
	@scripts/bootstrap.sh build
	@$(MAKE) --no-print-directory all
	@scripts/run-demo.sh $(BUILD)

# Every race demo reproduced in batch: gdbscripts/demo-NAME.gdb against
# traces/NAME, each with its own server; prints the interleavings found.
demo:
	@scripts/bootstrap.sh build
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

asan:
	$(MAKE) BUILD=build-asan OPT=-O1 SANITIZE="-fsanitize=address,undefined -fno-omit-frame-pointer" check

debug:
	$(MAKE) BUILD=build-debug OPT=-O0 TESTS=1 all

install: $(BUILD)/raptor
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BUILD)/raptor $(DESTDIR)$(PREFIX)/bin/raptor

clean:
	rm -rf build build-asan build-debug

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
