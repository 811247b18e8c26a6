# lud: GUFI's LUD on the simcore host API (examples/lud/README.md).
EXAMPLE_BIN += $(BUILD)/examples/lud

$(BUILD)/examples/lud: examples/lud/lud.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
