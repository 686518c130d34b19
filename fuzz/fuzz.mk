# libFuzzer targets (included by the top Makefile).
#
#   make fuzz                 runs every target for FUZZ_SECONDS (default 60) each
#   make fuzz FUZZ_SECONDS=10 shorter
#   make fuzz-build           only builds them: $(BUILD)/fuzz/fuzz_NAME
#   make fuzz-seeds           rebuilds the seeds: the resolver's ELFs from fuzz/seeds/mini.c,
#                             the object fuzzer's from fuzz/seeds/annotated.bpf.c
#
# Every fuzz/fuzz_NAME.c is a target; its seeds are fuzz/corpus/NAME/ (kept
# small, committed), and FUZZ_SEEDS_NAME directories when they exist (the
# object fuzzer also starts from the test suite's objects in build/bpf/). New inputs go to $(BUILD)/fuzz/corpus-NAME/, crashes to
# $(BUILD)/fuzz/artifacts/. The library is rebuilt with clang and the
# sanitizers; the targets link it like the unit tests do.

FUZZ_SECONDS ?= 60
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_SRCS    := $(wildcard fuzz/fuzz_*.c)
FUZZ_NAMES   := $(FUZZ_SRCS:fuzz/fuzz_%.c=%)
FUZZ_BINS    := $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS  := -g -O1 -std=gnu11 -I. -Iinclude $(FUZZ_SAN)
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_DIR)/obj/%.o)
# libFuzzer ships in clang's runtime package, a Recommends that
# --no-install-recommends skips
FUZZ_RT_PKG  := libclang-rt-$(firstword $(subst ., ,$(shell $(CLANG) -dumpversion 2>/dev/null)))-dev
FUZZ_SEEDS_object := $(BUILD)/bpf

.PHONY: fuzz fuzz-build fuzz-deps fuzz-seeds

fuzz-deps:
	$(Q)./scripts/deps.sh $(FUZZ_RT_PKG)

fuzz-build: fuzz-deps
	$(Q)$(MAKE) $(FUZZ_BINS)

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_DIR)/libbpfprobe-fuzz.a: $(FUZZ_LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcsP $@ $^

$(FUZZ_DIR)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_DIR)/libbpfprobe-fuzz.a
	$(call msg,CC,$@)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_DIR)/libbpfprobe-fuzz.a $(LDLIBS)

# Each target runs for FUZZ_SECONDS; any crash, leak, UB report or input
# slower than 10 s fails the run and leaves the input in artifacts/.
fuzz: fuzz-build
	@mkdir -p $(FUZZ_DIR)/artifacts
	$(Q)set -e; for n in $(FUZZ_NAMES); do \
		mkdir -p $(FUZZ_DIR)/corpus-$$n; \
		echo "fuzz: $$n for $(FUZZ_SECONDS) s"; \
		$(FUZZ_DIR)/fuzz_$$n -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_DIR)/artifacts/$$n- \
			$(FUZZ_DIR)/corpus-$$n fuzz/corpus/$$n \
			$$(for d in $(foreach n,$(FUZZ_NAMES),$(if $(FUZZ_SEEDS_$(n)),$(n):$(FUZZ_SEEDS_$(n)))); do \
				[ "$${d%%:*}" = $$n ] && [ -d "$${d#*:}" ] && echo "$${d#*:}"; done) \
			>$(FUZZ_DIR)/$$n.log 2>&1 || { tail -40 $(FUZZ_DIR)/$$n.log; \
			echo "fuzz: $$n FAILED (input in $(FUZZ_DIR)/artifacts/)"; exit 1; }; \
		grep -E '^stat::number_of_executed_units|^Done' $(FUZZ_DIR)/$$n.log | tr '\n' ' '; \
		echo; echo "fuzz: $$n clean"; \
	done

# The seed ELFs: small freestanding programs with DWARF and CFI.
fuzz-seeds:
	$(call msg,CC,fuzz/corpus/resolve/mini-gcc-O2.elf)
	$(Q)$(CC) -O2 -g -nostdlib -static -o fuzz/corpus/resolve/mini-gcc-O2.elf fuzz/seeds/mini.c
	$(call msg,CC,fuzz/corpus/resolve/mini-gcc-O0.elf)
	$(Q)$(CC) -O0 -g -nostdlib -static -o fuzz/corpus/resolve/mini-gcc-O0.elf fuzz/seeds/mini.c
	$(call msg,CC,fuzz/corpus/resolve/mini-clang-O2.elf)
	$(Q)$(CLANG) -O2 -g -nostdlib -static -o fuzz/corpus/resolve/mini-clang-O2.elf fuzz/seeds/mini.c
	@mkdir -p $(FUZZ_DIR)/seeds
	$(Q)$(CC) -O2 -o $(FUZZ_DIR)/seeds/hostile_elf tests/e2e/hostile_elf.c -lz
	$(call msg,GEN,fuzz/corpus/resolve/bomb-zlib.elf)
	$(Q)$(FUZZ_DIR)/seeds/hostile_elf fuzz/corpus/resolve/mini-gcc-O2.elf \
		fuzz/corpus/resolve/bomb-zlib.elf .debug_info zlib 1G 4K
	$(call msg,GEN,fuzz/corpus/resolve/bomb-zstd.elf)
	$(Q)$(FUZZ_DIR)/seeds/hostile_elf fuzz/corpus/resolve/mini-gcc-O2.elf \
		fuzz/corpus/resolve/bomb-zstd.elf .debug_info zstd 1G
	$(call msg,GEN,fuzz/corpus/resolve/fifo-debuglink.elf)
	$(Q)objcopy --strip-debug fuzz/corpus/resolve/mini-gcc-O2.elf $(FUZZ_DIR)/seeds/stripped.elf && \
		: >$(FUZZ_DIR)/seeds/fuzz-fifo.debug && \
		objcopy --add-gnu-debuglink=$(FUZZ_DIR)/seeds/fuzz-fifo.debug \
			$(FUZZ_DIR)/seeds/stripped.elf fuzz/corpus/resolve/fifo-debuglink.elf
	@mkdir -p fuzz/corpus/object
	$(call msg,CLANG,fuzz/corpus/object/annotated-g.o)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c fuzz/seeds/annotated.bpf.c -o fuzz/corpus/object/annotated-g.o
	$(call msg,CLANG,fuzz/corpus/object/annotated.o)
	$(Q)$(CLANG) $(filter-out -g,$(BPF_CFLAGS)) -c fuzz/seeds/annotated.bpf.c -o fuzz/corpus/object/annotated.o

-include $(shell find $(FUZZ_DIR)/obj -name '*.d' 2>/dev/null)

# make test-asan (top Makefile): the sanitized build's flags and what it
# builds into $(ASAN_BUILD); fuzz/test-asan.sh runs the suite with it.
ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# clang: GCC 12's UBSan, linked with ASan, ignores log_path and prints its
# reports on stderr, where tests that expect an error message miss them
ASAN_CC    := $(CLANG) $(ASAN_FLAGS)
.PHONY: asan-bins
asan-bins: all $(UNIT_BINS)
