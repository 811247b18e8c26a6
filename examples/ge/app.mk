# ge: GUFI's GE on the simcore host API (examples/ge/README.md).
EXAMPLE_BIN += $(BUILD)/examples/ge

$(BUILD)/examples/ge: examples/ge/ge.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# ge_cuda: the same program on the CUDA runtime API (examples/common/app.mk).
$(eval $(call CUDA_APP,ge))
