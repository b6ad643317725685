# Standalone trace tools: plain C11 and libc only, so they build without
# raptor's pkg-config dependencies (hence not ALL_CFLAGS).
TOOLS_CFLAGS := -std=gnu11 -O2 -Wall -Wextra $(WERROR)
TOOLS_BIN := $(BUILD)/qemulog $(BUILD)/tracecmp $(BUILD)/truthq $(BUILD)/etmcheck

tools: $(TOOLS_BIN)

$(BUILD)/qemulog: tools/qemulog.c
	@mkdir -p $(dir $@)
	$(CC) $(TOOLS_CFLAGS) -o $@ $<

$(BUILD)/tracecmp: tools/tracecmp.c
	@mkdir -p $(dir $@)
	$(CC) $(TOOLS_CFLAGS) -o $@ $<

# truthq reads truth.gz through streams/truth: it links raptor's library.
$(BUILD)/truthq: tools/truthq.c $(BUILD)/libraptor.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libraptor.a $(PKG_LIBS) -lm

# etmcheck encodes a recording's truth as ETMv4 trace and decodes it with
# OpenCSD (etm/): raptor's library and libopencsd.
$(BUILD)/etmcheck: tools/etmcheck.c $(BUILD)/libraptor.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libraptor.a $(OCSD_LIBS) $(PKG_LIBS) -lm
