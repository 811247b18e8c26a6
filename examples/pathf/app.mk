# pathf: GUFI's PATHF on the simcore host API (examples/pathf/README.md).
EXAMPLE_BIN += $(BUILD)/examples/pathf
# This fragment is read before the Makefile's `all` rule: without this line
# the first rule here would become make's default goal.
.DEFAULT_GOAL := all

$(BUILD)/examples/pathf: examples/pathf/pathf.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
