# bfs: GUFI's BFS on the simcore host API (examples/bfs/README.md).
EXAMPLE_BIN += $(BUILD)/examples/bfs

$(BUILD)/examples/bfs: examples/bfs/bfs.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
