# Builds for the probe point tests that the generic target rule (tests/tests.mk)
# does not make:
#   build/targets/pointslib-CC-OPT/libpoints.so  tests/targets/points/lib/libpoints.c
#   build/targets/pointsapp-CC-OPT               tests/targets/points/app/main.c,
#       linked with it without an rpath: the e2e test runs it, and bpfprobe's
#       exec=libpoints.so finds it, through LD_LIBRARY_PATH, as ld.so would.
# tests/bpf/pointsapp__*.bpf.c are built for pointsapp's variants (tests/tests.mk).

define points_lib_rules
$(BUILD)/targets/pointslib-$(1)/libpoints.so: tests/targets/points/lib/libpoints.c
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$(firstword $(subst -, ,$(1))) -g $(call opt_flags,$(word 2,$(subst -, ,$(1)))) -fPIC -shared \
		-Wl,-soname,libpoints.so -o $$@ $$<

$(BUILD)/targets/pointsapp-$(1): tests/targets/points/app/main.c $(BUILD)/targets/pointslib-$(1)/libpoints.so
	$$(call msg,CC,$$@)
	$$(Q)$(firstword $(subst -, ,$(1))) -g $(call opt_flags,$(word 2,$(subst -, ,$(1)))) -o $$@ $$< \
		-L$(BUILD)/targets/pointslib-$(1) -lpoints
endef
$(foreach v,$(call target_variants,pointsapp),$(eval $(call points_lib_rules,$(v))))

TEST_ARTIFACTS += $(foreach v,$(call target_variants,pointsapp),\
	$(BUILD)/targets/pointslib-$(v)/libpoints.so $(BUILD)/targets/pointsapp-$(v))
