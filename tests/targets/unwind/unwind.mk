# The unwinder's test programs (tests/e2e/unwind.sh, tests/unit/test_unwind.c),
# outside the generic target rule (tests/tests.mk): each takes a stack sample
# of its own (capture/uw_capture.c) where gdb stops too.
#   build/targets/uw_target-CC-O2   c/uw_target.c, -O2 -fomit-frame-pointer,
#                                   inlined functions, a qsort() comparator
#   build/targets/uw_preload.so     preload/uw_preload.c: samples inside fopen64()
#                                   and access() of an interpreter (lua5.4, python3.11)
#   build/tests/uw_frames           tool/uw_frames.c: the unwinder on a sample file

UW_DIR := tests/targets/unwind
UW_CAPTURE := $(UW_DIR)/capture/uw_capture.c $(UW_DIR)/capture/uw_capture.h util/stack_sample.h

define uw_target_rule
$(BUILD)/targets/uw_target-$(1)-O2: $(UW_DIR)/c/uw_target.c $(UW_CAPTURE)
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$(1) -g -O2 -fomit-frame-pointer -I. -o $$@ $(UW_DIR)/c/uw_target.c $(UW_DIR)/capture/uw_capture.c
endef
$(foreach c,$(TARGET_CCS),$(eval $(call uw_target_rule,$(c))))

$(BUILD)/targets/uw_preload.so: $(UW_DIR)/preload/uw_preload.c $(UW_CAPTURE)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)gcc -g -O2 -fPIC -shared -I. -o $@ $(UW_DIR)/preload/uw_preload.c $(UW_DIR)/capture/uw_capture.c -ldl

$(BUILD)/tests/uw_frames: $(UW_DIR)/tool/uw_frames.c $(BUILD)/libbpfprobe.a
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libbpfprobe.a $(LDLIBS)

# the unit test takes samples of itself
$(BUILD)/tests/test_unwind: $(BUILD)/obj/$(UW_DIR)/capture/uw_capture.o

TEST_ARTIFACTS += $(foreach c,$(TARGET_CCS),$(BUILD)/targets/uw_target-$(c)-O2) \
	$(BUILD)/targets/uw_preload.so $(BUILD)/tests/uw_frames
