# The samples (included by the top Makefile): the demo application and the
# other programs with DWARF that the samples probe, their BPF objects, and
# lib_example, a program using the library.
#   samples/NAME_app.c    ->  build/samples/NAME_app
#   samples/NAME.bpf.c    ->  build/samples/NAME.bpf.o
#   samples/lib_example.c ->  build/samples/lib_example

.PHONY: samples
SAMPLE_BPF := $(patsubst samples/%.bpf.c,$(BUILD)/samples/%.bpf.o,$(wildcard samples/*.bpf.c))
SAMPLE_APPS := $(BUILD)/samples/demo_app $(BUILD)/samples/malloc_app \
	       $(BUILD)/samples/setscheduler_app
samples: $(SAMPLE_BPF) $(SAMPLE_APPS) $(BUILD)/samples/lib_example

$(BUILD)/samples/%_app: samples/%_app.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) -g -O2 -o $@ $<

$(BUILD)/samples/%.bpf.o: samples/%.bpf.c
	@mkdir -p $(dir $@)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DDEMO_APP='"$(abspath $(BUILD)/samples/demo_app)"' -c $< -o $@

# links the in-tree library the way an installed one is linked (see the install test)
$(BUILD)/samples/lib_example: samples/lib_example.c $(BUILD)/libbpfprobe.a
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -g -Wall -Iinclude -o $@ $< $(BUILD)/libbpfprobe.a $(LDLIBS)
