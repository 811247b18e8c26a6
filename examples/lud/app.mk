# lud: GUFI's LUD on the simcore host API (examples/lud/README.md).
EXAMPLE_BIN += $(BUILD)/examples/lud
# The Makefile includes this before its own first rule: keep `all` the goal
# of a bare `make`, not this file's program.
.DEFAULT_GOAL := all

$(BUILD)/examples/lud: examples/lud/lud.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
