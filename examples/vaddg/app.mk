# vaddg: GUFI's VADD (Table I shape) on the simcore host API (examples/vaddg/README.md).
EXAMPLE_BIN += $(BUILD)/examples/vaddg
# This fragment is read before the Makefile's `all` rule: without this line
# the first rule here would become make's default goal.
.DEFAULT_GOAL := all

$(BUILD)/examples/vaddg: examples/vaddg/vaddg.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
