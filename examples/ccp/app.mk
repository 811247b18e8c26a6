# ccp: GUFI's CCP on the simcore host API (examples/ccp/README.md).
EXAMPLE_BIN += $(BUILD)/examples/ccp
# This fragment is read before the Makefile's `all` rule: without this line
# the first rule here would become make's default goal.
.DEFAULT_GOAL := all

$(BUILD)/examples/ccp: examples/ccp/ccp.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
