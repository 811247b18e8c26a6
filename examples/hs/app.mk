# hs: GUFI's HS on the simcore host API (examples/hs/README.md).
EXAMPLE_BIN += $(BUILD)/examples/hs
# This fragment is read before the Makefile's `all` rule: without this line
# the first rule here would become make's default goal.
.DEFAULT_GOAL := all

$(BUILD)/examples/hs: examples/hs/hs.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
