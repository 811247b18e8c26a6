# bfs: GUFI's BFS on the simcore host API (examples/bfs/README.md).
EXAMPLE_BIN += $(BUILD)/examples/bfs

$(BUILD)/examples/bfs: examples/bfs/bfs.c $(APP_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(APP_CFLAGS) -o $@ $< $(APP_OBJ) $(BUILD)/libsimcore.a $(LDFLAGS) -lm

# bfs_cuda: the same program on the CUDA runtime API (examples/common/app.mk).
$(eval $(call CUDA_APP,bfs))
