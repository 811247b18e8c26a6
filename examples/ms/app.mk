# ms: GUFI's MS on the simcore host API (examples/ms/README.md).
EXAMPLE_BIN += $(BUILD)/examples/ms

$(BUILD)/examples/ms: examples/ms/ms.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# ms_cuda: the same program on the CUDA runtime API (examples/common/app.mk).
$(eval $(call CUDA_APP,ms))
