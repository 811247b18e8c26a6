# km: GUFI's KM on the simcore host API (examples/km/README.md).
EXAMPLE_BIN += $(BUILD)/examples/km

$(BUILD)/examples/km: examples/km/km.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# km_cuda: the same program on the CUDA runtime API (examples/common/app.mk).
$(eval $(call CUDA_APP,km))
