# ccp: GUFI's CCP on the simcore host API (examples/ccp/README.md).
EXAMPLE_BIN += $(BUILD)/examples/ccp

$(BUILD)/examples/ccp: examples/ccp/ccp.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# ccp_cuda: the same program on the CUDA runtime API (examples/common/app.mk).
$(eval $(call CUDA_APP,ccp))
