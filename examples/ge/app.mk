# ge: GUFI's GE on the simcore host API (examples/ge/README.md).
EXAMPLE_BIN += $(BUILD)/examples/ge

$(BUILD)/examples/ge: examples/ge/ge.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm
