# The prologue's build-time table (included by the top Makefile): how many
# arguments each BPF helper takes, generated from libbpf-dev's
# bpf_helper_defs.h, for the register liveness of program bodies
# (prologue/liveness.c). Helpers newer than the header count as taking five.

BPF_HELPER_DEFS ?= /usr/include/bpf/bpf_helper_defs.h
HELPER_NARGS_H  := $(BUILD)/gen/bpf_helper_nargs.h

$(HELPER_NARGS_H): $(BPF_HELPER_DEFS) prologue/helper_nargs.awk
	@mkdir -p $(dir $@)
	$(call msg,GEN,$@)
	$(Q)awk -f prologue/helper_nargs.awk $(BPF_HELPER_DEFS) >$@.tmp && mv $@.tmp $@

# the library's build, its sanitized twin (BUILD=build/asan) and the fuzz build
$(BUILD)/obj/prologue/liveness.o $(FUZZ_DIR)/obj/prologue/liveness.o: $(HELPER_NARGS_H)
$(BUILD)/obj/prologue/liveness.o: CFLAGS += -I$(BUILD)/gen
$(FUZZ_DIR)/obj/prologue/liveness.o: FUZZ_CFLAGS += -I$(BUILD)/gen
