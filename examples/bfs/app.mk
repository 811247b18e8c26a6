# bfs: GUFI's BFS on the simcore host API (examples/bfs/README.md).
EXAMPLE_BIN += $(BUILD)/examples/bfs
# The Makefile includes this before its own first rule: keep `all` the goal
# of a bare `make`, not this file's program.
.DEFAULT_GOAL := all

$(BUILD)/examples/bfs: examples/bfs/bfs.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
