# vaddg: GUFI's VADD (Table I shape) on the simcore host API (examples/vaddg/README.md).
EXAMPLE_BIN += $(BUILD)/examples/vaddg

$(BUILD)/examples/vaddg: examples/vaddg/vaddg.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# vaddg_cuda: the same program on the CUDA runtime API (examples/common/app.mk).
$(eval $(call CUDA_APP,vaddg))
