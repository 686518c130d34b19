# Builds of the fetch test target (perf's fetch arguments) that the generic
# target rule (tests/tests.mk) does not make; tests/targets/fetch itself is
# built there, with -g:
#   build/targets/fetch_nd-CC-OPT  the same source without -g: no DWARF, a
#                                  symbol table (what perf probe needs too)
#   build/targets/fetch_st-CC-OPT  without -g, its symbols exported
#                                  (-rdynamic) and then strip -s: only .dynsym
# tests/bpf/fetch_nd__*.bpf.c and fetch_st__*.bpf.c probe them.

define fetch_rules
$(BUILD)/targets/fetch_nd-$(1)-$(2): tests/targets/fetch/main.c
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$(1) -$(2) -o $$@ $$<

$(BUILD)/targets/fetch_st-$(1)-$(2): tests/targets/fetch/main.c
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$(1) -$(2) -rdynamic -o $$@.tmp $$< && strip -s -o $$@ $$@.tmp && rm -f $$@.tmp
endef
$(foreach c,$(TARGET_CCS),$(foreach o,$(TARGET_OPTS),$(eval $(call fetch_rules,$(c),$(o)))))

TEST_ARTIFACTS += $(foreach v,$(VARIANTS),$(BUILD)/targets/fetch_nd-$(v) $(BUILD)/targets/fetch_st-$(v))
