# The C++ test target (tests/targets/readable_cxx/main.cc), which the
# generic target rule (tests/tests.mk, C sources) does not build:
#   build/targets/readable_cxx-gcc-OPT    with g++
#   build/targets/readable_cxx-clang-OPT  with clang++
# for the levels in its opts file; tests/bpf/readable_cxx__*.bpf.c are
# built for the same variants by tests/tests.mk.
define readable_cxx_rule
$(BUILD)/targets/readable_cxx-$(1)-$(3): tests/targets/readable_cxx/main.cc
	@mkdir -p $$(dir $$@)
	$$(call msg,CXX,$$@)
	$$(Q)$(2) -g -$(3) -o $$@ $$<
endef
$(foreach o,$(call target_opts,readable_cxx),$(eval $(call readable_cxx_rule,gcc,g++,$(o))) \
	$(eval $(call readable_cxx_rule,clang,clang++,$(o))))

TEST_ARTIFACTS += $(foreach v,$(call target_variants,readable_cxx),$(BUILD)/targets/readable_cxx-$(v))
