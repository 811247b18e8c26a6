# km: GUFI's KM on the simcore host API (examples/km/README.md).
EXAMPLE_BIN += $(BUILD)/examples/km

$(BUILD)/examples/km: examples/km/km.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
