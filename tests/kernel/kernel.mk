# Kernel-probe tests (included by the top Makefile). The host kernel may
# lack kprobes, so they run in a VM (tests/vm/kernel-tests.sh, `make vmtest`,
# tests/e2e/vm_kernel.sh); what they need is built here, on the host:
#   tests/kernel/bpf/NAME.bpf.c   ->  build/kernel/NAME.bpf.o
#   tests/kernel/bpf/bad.bpf.c    ->  build/kernel/bad_CASE.o  (-DBAD_CASE)
#   tests/kernel/progs/kt_NAME.c  ->  build/kernel/kt_NAME     (static)
#   (kt_maps.c, map tracing's, links libbpf; kt_maps_def.bpf.c are its maps)

KTEST_DIR := tests/kernel
KTEST_BAD_CASES := nofunc nomodule nomember nonptr noparam stack_param notscalar \
	retval_entry param_return offset_args notrace blacklist badoffset toomany
KTEST_BPF := $(patsubst $(KTEST_DIR)/bpf/%.bpf.c,$(BUILD)/kernel/%.bpf.o,\
	$(filter-out %/bad.bpf.c,$(wildcard $(KTEST_DIR)/bpf/*.bpf.c)))
KTEST_BAD := $(KTEST_BAD_CASES:%=$(BUILD)/kernel/bad_%.o)
KTEST_PROGS := $(patsubst $(KTEST_DIR)/progs/%.c,$(BUILD)/kernel/%,\
	$(wildcard $(KTEST_DIR)/progs/*.c))
KERNEL_TEST_ARTIFACTS := $(KTEST_BPF) $(KTEST_BAD) $(KTEST_PROGS)

$(BUILD)/kernel/%.bpf.o: $(KTEST_DIR)/bpf/%.bpf.c $(KTEST_DIR)/bpf/ktest.h $(KTEST_DIR)/bpf/kt_maps.h
	@mkdir -p $(dir $@)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/kernel/bad_%.o: $(KTEST_DIR)/bpf/bad.bpf.c $(KTEST_DIR)/bpf/ktest.h
	@mkdir -p $(dir $@)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DBAD_$* -c $< -o $@

# static: they run in the VM, whatever it has (kt_maps with libbpf)
KT_LIBS_maps := -lbpf -lelf -lz
$(BUILD)/kernel/kt_%: $(KTEST_DIR)/progs/kt_%.c $(wildcard $(KTEST_DIR)/bpf/kt_*.h)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -g -Wall -static -o $@ $< $(KT_LIBS_$*)

.PHONY: kernel-tests-build
kernel-tests-build: all $(KERNEL_TEST_ARTIFACTS)
tests-build: kernel-tests-build
vmtest: kernel-tests-build
