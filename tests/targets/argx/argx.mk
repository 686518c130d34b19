# Builds of the argx test sources that the generic target rule (tests/tests.mk)
# does not make (tests/targets/argx itself is built there, PIE and not):
#   build/targets/argx_lib-CC-OPT.so  tests/targets/argx/lib/argxlib.c, a shared library
#   build/targets/argx_lib-CC-OPT     tests/targets/argx/lib/user.c, linked with it
#   build/targets/argx_dw-CC-OPT      tests/targets/argx/dw/main.c + dw.s + dw5.s,
#                                     whose DWARF is written by hand (assembled
#                                     without -g; dw5.s in DWARF 5)
# tests/bpf/argx_lib__*.bpf.c probe SEC("exec=" TARGET ".so;...").

define argx_rules
$(BUILD)/targets/argx_lib-$(1)-$(2).so: tests/targets/argx/lib/argxlib.c tests/targets/argx/argx.h
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$(1) -g -$(2) -fPIC -shared -Wl,-soname,$$(notdir $$@) -o $$@ $$<

$(BUILD)/targets/argx_lib-$(1)-$(2): tests/targets/argx/lib/user.c $(BUILD)/targets/argx_lib-$(1)-$(2).so
	$$(call msg,CC,$$@)
	$$(Q)$(1) -g -$(2) -o $$@ $$< $(BUILD)/targets/argx_lib-$(1)-$(2).so -Wl,-rpath,$(abspath $(BUILD)/targets)

$(BUILD)/targets/argx_dw-$(1)-$(2): tests/targets/argx/dw/main.c tests/targets/argx/dw/dw.s \
		tests/targets/argx/dw/dw5.s
	@mkdir -p $$(dir $$@)
	$$(call msg,AS,$$@.dw.o)
	$$(Q)$(1) -c -o $$@.dw.o tests/targets/argx/dw/dw.s
	$$(call msg,AS,$$@.dw5.o)
	$$(Q)$(1) -c -o $$@.dw5.o tests/targets/argx/dw/dw5.s
	$$(call msg,CC,$$@)
	$$(Q)$(1) -g -$(2) -o $$@ tests/targets/argx/dw/main.c $$@.dw.o $$@.dw5.o
endef
$(foreach c,$(TARGET_CCS),$(foreach o,$(TARGET_OPTS),$(eval $(call argx_rules,$(c),$(o)))))

TEST_ARTIFACTS += $(foreach v,$(VARIANTS),$(BUILD)/targets/argx_lib-$(v).so \
	$(BUILD)/targets/argx_lib-$(v) $(BUILD)/targets/argx_dw-$(v))
