# vaddg: GUFI's VADD (Table I shape) on the simcore host API (examples/vaddg/README.md).
EXAMPLE_BIN += $(BUILD)/examples/vaddg

$(BUILD)/examples/vaddg: examples/vaddg/vaddg.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
