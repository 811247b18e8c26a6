# nw: GUFI's NW on the simcore host API (examples/nw/README.md).
EXAMPLE_BIN += $(BUILD)/examples/nw

$(BUILD)/examples/nw: examples/nw/nw.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# nw_cuda: the same program on the CUDA runtime API (examples/common/app.mk).
$(eval $(call CUDA_APP,nw))
