# Test artifacts (included by the top Makefile).
#
# Targets: tests/targets/NAME/*.c  ->  build/targets/NAME-CC-OPT
#   for every compiler in TARGET_CCS and level in TARGET_OPTS (all with -g).
#   Only the folder's own *.c are compiled: a target that also needs other
#   builds (a library, hand-written DWARF) keeps their rules beside its
#   sources in tests/targets/NAME/NAME.mk, which the top Makefile includes.
# BPF objects: tests/bpf/TARGET__WHAT.bpf.c  ->  build/bpf/TARGET__WHAT-CC-OPT.o
#   compiled with -DTARGET='"<abs path of build/targets/TARGET-CC-OPT>"', so a
#   program writes SEC("exec=" TARGET ";func=...").

TARGET_CCS  := gcc clang
TARGET_OPTS := O0 O2
# (a folder without C sources builds by its own rules: readable_cxx)
TARGET_NAMES := $(foreach d,$(wildcard tests/targets/*),$(if $(wildcard $(d)/*.c),$(notdir $(d))))
VARIANTS := $(foreach c,$(TARGET_CCS),$(foreach o,$(TARGET_OPTS),$(c)-$(o)))

# A target may widen its own build matrix: tests/targets/NAME/opts lists its
# levels, e.g. "O0 O1 O2 O3 Os O2-nopie" (a -nopie suffix builds a non-PIE
# executable; without it gcc and clang build PIE here; a -fp suffix keeps
# frame pointers, leaf functions' too). Only the targets that
# ask pay for the extra builds; the others build TARGET_OPTS.
target_opts = $(or $(strip $(file <tests/targets/$(1)/opts)),$(TARGET_OPTS))
target_variants = $(foreach c,$(TARGET_CCS),$(foreach o,$(call target_opts,$(1)),$(c)-$(o)))
opt_flags = -$(firstword $(subst -, ,$(1))) $(if $(filter %-nopie,$(1)),-fno-pie -no-pie)$(if $(filter %-lto,$(1)), -flto)$(if $(filter %-fp,$(1)), -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer)
# tests/bpf/TARGET__WHAT.bpf.c is built for every variant of TARGET
bpf_target = $(firstword $(subst __, ,$(1)))

TARGET_BINS := $(foreach t,$(TARGET_NAMES),$(foreach v,$(call target_variants,$(t)),$(BUILD)/targets/$(t)-$(v)))

BPF_SRCS := $(wildcard tests/bpf/*.bpf.c)
BPF_NAMES := $(BPF_SRCS:tests/bpf/%.bpf.c=%)
BPF_OBJS := $(foreach b,$(BPF_NAMES),$(foreach v,$(call target_variants,$(call bpf_target,$(b))),$(BUILD)/bpf/$(b)-$(v).o))

BPF_CFLAGS := -O2 -g -target bpf -D__TARGET_ARCH_x86 -I/usr/include/$(shell uname -m)-linux-gnu -Itests/bpf -Iinclude

define target_rule
$(BUILD)/targets/$(1)-$(2)-$(3): $(wildcard tests/targets/$(1)/*.c) $(wildcard tests/targets/$(1)/*.h)
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$(2) -g $(call opt_flags,$(3)) -o $$@ $(wildcard tests/targets/$(1)/*.c)
endef
$(foreach t,$(TARGET_NAMES),$(foreach c,$(TARGET_CCS),$(foreach o,$(call target_opts,$(t)),\
	$(eval $(call target_rule,$(t),$(c),$(o))))))

define bpf_rule
$(BUILD)/bpf/$(1)-$(2).o: tests/bpf/$(1).bpf.c $(wildcard tests/bpf/*.h)
	@mkdir -p $$(dir $$@)
	$$(call msg,CLANG,$$@)
	$$(Q)$(CLANG) $(BPF_CFLAGS) -DTARGET='"$(abspath $(BUILD)/targets/$(call bpf_target,$(1))-$(2))"' -c $$< -o $$@
endef
$(foreach b,$(BPF_NAMES),$(foreach v,$(call target_variants,$(call bpf_target,$(b))),$(eval $(call bpf_rule,$(b),$(v)))))

TEST_ARTIFACTS := $(TARGET_BINS) $(BPF_OBJS) $(BUILD)/tests/bpfprobe-preloadable
