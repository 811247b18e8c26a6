# nw: GUFI's NW on the simcore host API (examples/nw/README.md).
EXAMPLE_BIN += $(BUILD)/examples/nw
# The Makefile includes this before its own first rule: keep `all` the goal
# of a bare `make`, not this file's program.
.DEFAULT_GOAL := all

$(BUILD)/examples/nw: examples/nw/nw.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
