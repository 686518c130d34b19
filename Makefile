# bpfprobe — see README.md. `make` builds build/bpfprobe and the libraries;
# `make test` installs missing Debian packages, builds everything and runs the tests.

CC      ?= gcc
CLANG   ?= clang
BUILD   ?= build
CFLAGS  ?= -O2 -g
CFLAGS  += -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
	   -std=gnu11 -fPIC -fvisibility=hidden -I. -Iinclude
# Every build whose C library is shared links cxx_runtime.c, which finds
# libstdc++'s demangler at run time (an archive member nothing else pulls).
LDLIBS  := -lbpf -ldw -lelf -lz -ltraceevent -Wl,-u,bp_cxx__runtime_demangler
# The bpfprobe command is one static program: Debian's static archives of
# these libraries, of their compressors, of glibc, and libstdc++'s
# demangler (__cxa_demangle). A short command (resolve, list, load of one
# probe) is mostly start: each shared library costs its relocations and
# page faults at every start, and the dynamic loader itself about a
# millisecond. LINK=static-libs keeps glibc shared (a preload can then
# reach its calls: the fault tests' build); LINK=shared links the shared
# libraries, as a distribution's package would. libbpfprobe.so and the
# tests link the shared libraries either way.
LINK    ?= static
# (The static link warns that libdw's debuginfod client is loaded with
# dlopen: in a static program that needs this glibc's shared libraries at
# run time, which a Debian system has; without them debuginfod is not used.)
ARCHIVES := -lbpf -ldw -lelf -ltraceevent -lz -llzma -lbz2
STATIC_LIBS_LDLIBS := -Wl,-Bstatic $(ARCHIVES) -Wl,-Bdynamic -Wl,-u,bp_cxx__runtime_demangler
ifeq ($(LINK),static)
CLI_LDLIBS := -static $(ARCHIVES) -Wl,-u,__cxa_demangle -lstdc++
else ifeq ($(LINK),static-libs)
CLI_LDLIBS := $(STATIC_LIBS_LDLIBS)
else ifeq ($(LINK),shared)
CLI_LDLIBS := $(LDLIBS)
else
$(error LINK=$(LINK): say static, static-libs or shared)
endif
VERSION := 0.1.0

# Each rule prints one short line ("  CC      build/obj/probes/spec.o"):
# `make V=1` prints the whole commands instead, `make -s` neither. Compiler
# messages show in every mode. A recipe line is $(call msg,TAG,WHAT)
# followed by $(Q)command.
ifeq ($(V),1)
Q   :=
msg :=
else
Q   := @
msg = @printf '  %-7s %s\n' '$(1)' '$(2)'
MAKEFLAGS += --no-print-directory
endif
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
msg :=
endif

LIB_SRCS := $(wildcard probes/*.c probes/binary/*.c probes/value/*.c probes/usdt/*.c probes/dwarf/*.c probes/kernel/*.c probes/map/*.c prologue/*.c \
	      loader/*.c util/*.c output/*.c unwind/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
CLI_SRCS := $(wildcard cli/*.c)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
# What `list` and `monitor` read of the running system: the command's own
# code, linked into build/bpfprobe (and the unit tests), not the library.
SYSINFO_SRCS := $(wildcard sysinfo/*.c)
SYSINFO_OBJS := $(SYSINFO_SRCS:%.c=$(BUILD)/obj/%.o)
# What only the command uses of the library's internals: resolving without
# loading (`resolve`), the listings of `funcs` and `vars`, `monitor --map`'s
# programs. Linked into build/bpfprobe (and the unit tests), not the library.
INSPECT_SRCS := $(wildcard inspect/*.c)
INSPECT_OBJS := $(INSPECT_SRCS:%.c=$(BUILD)/obj/%.o)
# `bpfprobe trace`'s generated programs (BTF, instructions, the ELF object)
# and the lines it prints: the command's own code, linked into
# build/bpfprobe, not the library.
TRACE_SRCS := $(wildcard trace/*.c)
TRACE_OBJS := $(TRACE_SRCS:%.c=$(BUILD)/obj/%.o)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all lib cli test check-deps deps demo clean tests-build
all: lib cli

lib: $(BUILD)/libbpfprobe.a $(BUILD)/libbpfprobe.so
cli: $(BUILD)/bpfprobe

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# bpfprobe --version
$(BUILD)/obj/cli/main.o: CFLAGS += -DBPFPROBE_VERSION='"$(VERSION)"'

$(BUILD)/libbpfprobe.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcsP $@ $^

$(BUILD)/libbpfprobe.so: $(LIB_OBJS) lib/libbpfprobe.map
	$(call msg,LD,$@)
	$(Q)$(CC) -shared -Wl,-soname,libbpfprobe.so.0 -Wl,--version-script=lib/libbpfprobe.map \
		-o $@ $(LIB_OBJS) $(LDLIBS)

$(BUILD)/sysinfo.a: $(SYSINFO_OBJS)
	@mkdir -p $(dir $@)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcsP $@ $^

$(BUILD)/inspect.a: $(INSPECT_OBJS)
	@mkdir -p $(dir $@)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcsP $@ $^

$(BUILD)/trace.a: $(TRACE_OBJS)
	@mkdir -p $(dir $@)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcsP $@ $^

$(BUILD)/bpfprobe: $(CLI_OBJS) $(BUILD)/sysinfo.a $(BUILD)/trace.a $(BUILD)/inspect.a $(BUILD)/libbpfprobe.a
	$(call msg,LD,$@)
	$(Q)$(CC) -o $@ $(CLI_OBJS) $(BUILD)/sysinfo.a $(BUILD)/trace.a $(BUILD)/inspect.a $(BUILD)/libbpfprobe.a $(CLI_LDLIBS)

# The command with glibc shared, whatever LINK says, so that a preload
# reaches its libc calls: the fault tests' (tests/e2e/fault_stop.c).
$(BUILD)/tests/bpfprobe-preloadable: $(CLI_OBJS) $(BUILD)/sysinfo.a $(BUILD)/trace.a $(BUILD)/inspect.a $(BUILD)/libbpfprobe.a
	@mkdir -p $(dir $@)
	$(call msg,LD,$@)
	$(Q)$(CC) -o $@ $(CLI_OBJS) $(BUILD)/sysinfo.a $(BUILD)/trace.a $(BUILD)/inspect.a $(BUILD)/libbpfprobe.a $(STATIC_LIBS_LDLIBS)

# A unit test links the helpers (tests/unit/*.c other than test_*.c) it names here.
$(BUILD)/tests/test_prologue $(BUILD)/tests/test_guard $(BUILD)/tests/test_map_trace \
	$(BUILD)/tests/test_follow $(BUILD)/tests/test_expr \
	$(BUILD)/tests/test_loc_generic: $(BUILD)/obj/tests/unit/bpf_interp.o
$(BUILD)/tests/test_prologue $(BUILD)/tests/test_expr \
	$(BUILD)/tests/test_loc_generic: $(BUILD)/obj/tests/unit/fetch_model.o

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libbpfprobe.a $(BUILD)/sysinfo.a $(BUILD)/trace.a $(BUILD)/inspect.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -fvisibility=default -o $@ $< $(filter %.o,$^) $(BUILD)/sysinfo.a $(BUILD)/trace.a $(BUILD)/inspect.a $(BUILD)/libbpfprobe.a $(LDLIBS)

# The rules of test targets, BPF test objects and samples live beside them.
include tests/tests.mk
include tests/targets/argx/argx.mk
include tests/targets/fetch/fetch.mk
include tests/targets/points/points.mk
include tests/targets/readable_cxx/readable_cxx.mk
include tests/diff/diff.mk
include tests/targets/unwind/unwind.mk
include tests/targets/fpstack/fpstack.mk
include samples/samples.mk
VMTEST_DEPS := tests-build
include tests/vm/vm.mk
include tests/kernel/kernel.mk
include install.mk
include bench/bench.mk
include fuzz/fuzz.mk
include tests/sysinfo/sysinfo.mk
include prologue/prologue.mk

tests-build: all samples $(UNIT_BINS) $(TEST_ARTIFACTS)

deps:
	$(Q)./scripts/deps.sh

test: deps
	$(Q)$(MAKE) tests-build
	$(call msg,RUN,tests/run.sh)
	$(Q)./tests/run.sh

# The whole suite under ASan+UBSan+LeakSanitizer: the tool, the library and
# the unit tests are rebuilt into $(ASAN_BUILD) (fuzz/fuzz.mk: asan-bins);
# test targets and BPF objects stay in build/.
ASAN_BUILD ?= build/asan
.PHONY: test-asan
test-asan: deps
	$(Q)$(MAKE) tests-build
	$(Q)$(MAKE) BUILD=$(ASAN_BUILD) CC="$(ASAN_CC)" LINK=static-libs asan-bins
	$(call msg,RUN,fuzz/test-asan.sh $(ASAN_BUILD))
	$(Q)./fuzz/test-asan.sh $(ASAN_BUILD)

demo: deps
	$(Q)$(MAKE) all samples
	$(call msg,RUN,samples/demo.sh)
	$(Q)./samples/demo.sh

clean:
	$(call msg,CLEAN,$(BUILD))
	$(Q)rm -rf $(BUILD)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
