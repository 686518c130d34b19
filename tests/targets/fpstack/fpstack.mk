# fpstack's freestanding build (included by the top Makefile): the same
# source with no libc (its own _start), static, keeping frame pointers:
# build/targets/fpstack-freestanding-CC.
FPSTACK_FREE := $(foreach c,$(TARGET_CCS),$(BUILD)/targets/fpstack-freestanding-$(c))

$(BUILD)/targets/fpstack-freestanding-%: tests/targets/fpstack/fpstack.c tests/targets/fpstack/freestanding/start.S
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$* -g -O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-stack-protector \
		-nostdlib -static -o $@ $^

TEST_ARTIFACTS += $(FPSTACK_FREE)
