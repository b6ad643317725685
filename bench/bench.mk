# bench.mk: benchmark-only programs. Not included by the top-level Makefile:
# bench/run.sh builds them with `make -f Makefile -f bench/bench.mk TARGET`,
# so they get the same settings (ALL_CFLAGS, PKG_LIBS, config.mak) without
# `make all` or `make check` ever building them.

BENCH_BIN := $(BUILD)/bench/rplbench

bench-tools: $(BENCH_BIN)

$(BUILD)/bench/rplbench: bench/rplbench.c $(BUILD)/libraptor.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libraptor.a $(PKG_LIBS) -lm

.PHONY: bench-tools
