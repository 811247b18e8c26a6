# common: the module every host program in examples/ links (examples/common/app.h).
# The top-level Makefile includes this fragment before the applications'.
APP_OBJ := $(BUILD)/examples/common/app.o
APP_CFLAGS := -I examples/common

$(APP_OBJ): examples/common/app.h
