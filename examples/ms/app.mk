# ms: GUFI's MS on the simcore host API (examples/ms/README.md).
EXAMPLE_BIN += $(BUILD)/examples/ms
# The Makefile includes this before its own first rule: keep `all` the goal
# of a bare `make`, not this file's program.
.DEFAULT_GOAL := all

$(BUILD)/examples/ms: examples/ms/ms.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
