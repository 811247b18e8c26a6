# pathf: GUFI's PATHF on the simcore host API (examples/pathf/README.md).
EXAMPLE_BIN += $(BUILD)/examples/pathf

$(BUILD)/examples/pathf: examples/pathf/pathf.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# pathf_cuda: the same program on the CUDA runtime API (examples/common/app.mk).
$(eval $(call CUDA_APP,pathf))
