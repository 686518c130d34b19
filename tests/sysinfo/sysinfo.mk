# Helpers of the list/pin/monitor e2e tests (included by the top Makefile):
# a plain libbpf object and loader (tests/e2e/list.sh), kernel probes and a
# generic libbpf loader (tests/e2e/list_vm.sh), and a loader of a program
# that lives 10 ms (tests/e2e/monitor.sh).

SYSINFO_TEST_BINS := $(BUILD)/sysinfo-tests/plain_loader $(BUILD)/sysinfo-tests/blink_loader \
		     $(BUILD)/sysinfo-tests/attach_all $(BUILD)/sysinfo-tests/plain.bpf.o \
		     $(BUILD)/sysinfo-tests/kprobe.bpf.o

$(BUILD)/sysinfo-tests/%_loader: tests/sysinfo/%_loader.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -g -Wall -Wextra -o $@ $< -lbpf -lelf -lz

$(BUILD)/sysinfo-tests/attach_all: tests/sysinfo/attach_all.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -g -Wall -Wextra -o $@ $< -lbpf -lelf -lz

$(BUILD)/sysinfo-tests/%.bpf.o: tests/sysinfo/%.bpf.c
	@mkdir -p $(dir $@)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

tests-build: $(SYSINFO_TEST_BINS)
