# spg: GUFI's SP (Table I shape) on the simcore host API (examples/spg/README.md).
EXAMPLE_BIN += $(BUILD)/examples/spg

$(BUILD)/examples/spg: examples/spg/spg.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm
