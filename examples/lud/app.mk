# lud: GUFI's LUD on the simcore host API (examples/lud/README.md).
EXAMPLE_BIN += $(BUILD)/examples/lud

$(BUILD)/examples/lud: examples/lud/lud.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# lud_cuda: the same program on the CUDA runtime API (examples/common/app.mk).
$(eval $(call CUDA_APP,lud))
