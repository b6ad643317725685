# Standalone trace tools: plain C11 and libc only, so they build without
# raptor's pkg-config dependencies (hence not ALL_CFLAGS).
TOOLS_CFLAGS := -std=gnu11 -O2 -Wall -Wextra $(WERROR)
TOOLS_BIN := $(BUILD)/qemulog $(BUILD)/tracecmp

tools: $(TOOLS_BIN)

$(BUILD)/qemulog: tools/qemulog.c
	@mkdir -p $(dir $@)
	$(CC) $(TOOLS_CFLAGS) -o $@ $<

$(BUILD)/tracecmp: tools/tracecmp.c
	@mkdir -p $(dir $@)
	$(CC) $(TOOLS_CFLAGS) -o $@ $<
