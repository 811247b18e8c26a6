# ge: GUFI's GE on the simcore host API (examples/ge/README.md).
EXAMPLE_BIN += $(BUILD)/examples/ge
# The Makefile includes this before its own first rule: keep `all` the goal
# of a bare `make`, not this file's program.
.DEFAULT_GOAL := all

$(BUILD)/examples/ge: examples/ge/ge.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
