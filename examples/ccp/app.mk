# ccp: GUFI's CCP on the simcore host API (examples/ccp/README.md).
EXAMPLE_BIN += $(BUILD)/examples/ccp

$(BUILD)/examples/ccp: examples/ccp/ccp.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
