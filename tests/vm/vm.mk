# VM tests: a qemu (TCG) guest booted on Debian's current 6.1 kernel, which has
# kprobes (the host kernel has not). Included by the top Makefile.
#   make vm-prep   fetch the kernel (once, into build/vm-cache or
#                  $BPFPROBE_VM_CACHE) and build the initramfs
#   make vmtest    run tests/vm/kernel-tests.sh in the VM
# Any command: tests/vm/run.sh CMD [ARG...] (see its header).

VM_DIR := tests/vm
# Prerequisites of vmtest (e.g. tests-build, once kernel tests need binaries).
VMTEST_DEPS ?=

.PHONY: vm-prep vmtest
vm-prep:
	$(Q)$(VM_DIR)/mkinitramfs.sh >/dev/null

vmtest: vm-prep $(VMTEST_DEPS)
	$(call msg,RUN,$(VM_DIR)/kernel-tests.sh in the VM)
	$(Q)$(VM_DIR)/run.sh $(VM_DIR)/kernel-tests.sh
