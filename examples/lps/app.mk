# lps: GUFI's LPS on the simcore host API (examples/lps/README.md).
EXAMPLE_BIN += $(BUILD)/examples/lps
# This fragment is read before the Makefile's `all` rule: without this line
# the first rule here would become make's default goal.
.DEFAULT_GOAL := all

$(BUILD)/examples/lps: examples/lps/lps.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
