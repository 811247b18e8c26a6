# lps: GUFI's LPS on the simcore host API (examples/lps/README.md).
EXAMPLE_BIN += $(BUILD)/examples/lps

$(BUILD)/examples/lps: examples/lps/lps.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# lps_cuda: the same program on the CUDA runtime API (examples/common/app.mk).
$(eval $(call CUDA_APP,lps))
