# hs: GUFI's HS on the simcore host API (examples/hs/README.md).
EXAMPLE_BIN += $(BUILD)/examples/hs

$(BUILD)/examples/hs: examples/hs/hs.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# hs_cuda: the same program on the CUDA runtime API (examples/common/app.mk).
$(eval $(call CUDA_APP,hs))
