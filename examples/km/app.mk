# km: GUFI's KM on the simcore host API (examples/km/README.md).
EXAMPLE_BIN += $(BUILD)/examples/km
# The Makefile includes this before its own first rule: keep `all` the goal
# of a bare `make`, not this file's program.
.DEFAULT_GOAL := all

$(BUILD)/examples/km: examples/km/km.c $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libsimcore.a $(LDFLAGS) -lm
