# spg: GUFI's SP (Table I shape) on the simcore host API (examples/spg/README.md).
EXAMPLE_BIN += $(BUILD)/examples/spg

$(BUILD)/examples/spg: examples/spg/spg.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# spg_cuda: the same program on the CUDA runtime API (examples/common/app.mk).
$(eval $(call CUDA_APP,spg))
