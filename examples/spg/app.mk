# spg: GUFI's SP (Table I shape) on the simcore host API (examples/spg/README.md).
EXAMPLE_BIN += $(BUILD)/examples/spg
# This fragment is read before the Makefile's `all` rule: without this line
# the first rule here would become make's default goal.
.DEFAULT_GOAL := all

$(BUILD)/examples/spg: examples/spg/spg.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
