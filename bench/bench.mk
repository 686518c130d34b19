# Benchmarks (included by the top Makefile): `make bench` prints a table of
# bpfprobe vs perf (and bpftrace) ratios, measured in one run; see
# bench/bench.sh for what is measured how. Everything is built into
# $(BUILD)/bench/; the large generated program of the resolution benchmark
# is cached in $(BUILD)/bench-cache/ (bench/build_scale.sh).

BENCH_DIR   := $(BUILD)/bench
BENCH_APP   := $(abspath $(BENCH_DIR)/app)
BENCH_CUS   := $(foreach a,0 1 2 3 4 5 6 7,$(foreach b,0 1 2 3 4 5 6 7,$(a)$(b)))
# objects for perf too: without -g (perf 6.1 cannot load line info)
BENCH_BPF_NOG := -O2 -target bpf -D__TARGET_ARCH_x86 -I/usr/include/$(shell uname -m)-linux-gnu \
		 -DAPP='"$(BENCH_APP)"'
BENCH_HITS  := empty reg reg3 d1 d2 d3 stack
HIT_SPEC_empty := hot_empty
HIT_SPEC_reg   := hot_reg a
HIT_SPEC_reg3  := hot_reg3 a b c
HIT_SPEC_d1    := hot_d1 p->v@user
HIT_SPEC_d2    := hot_d2 p->next->v@user
HIT_SPEC_d3    := hot_d3 p->next->next->v@user
HIT_SPEC_stack := hot_stack a7

# the slowdown benchmark's target, built as its method says (section 7)
BENCH_SLOW  := $(abspath $(BENCH_DIR)/slow_target)
BENCH_SLOW_LINE := $(shell grep -n BENCH_PROBED_LINE bench/slow_target.c | cut -d: -f1)
# the record ABI's shapes (with -g: BTF for the record), each against perf's
# register-ABI object of the same shape
BENCH_RECS  := rec_reg rec_d1 rec_d2
HIT_SPEC_rec_reg := hot_reg a
HIT_SPEC_rec_d1  := hot_d1 p->v@user
HIT_SPEC_rec_d2  := hot_d2 p->next->v@user

BENCH_BINS := $(BENCH_DIR)/runstat $(BENCH_DIR)/app $(BENCH_DIR)/app-fp $(BENCH_DIR)/rb_bench $(BENCH_DIR)/bpf_insns \
	      $(BENCH_DIR)/attach_bench $(BENCH_DIR)/slow_target $(BENCH_DIR)/slow.bpf.o \
	      $(BENCH_RECS:%=$(BENCH_DIR)/hit_%.bpf.o) \
	      $(BENCH_DIR)/points_one.bpf.o $(BENCH_DIR)/points_distinct.bpf.o \
	      $(BENCH_DIR)/points_static.bpf.o $(BENCH_DIR)/rb.bpf.o $(BENCH_DIR)/rb_empty.bpf.o \
	      $(BENCH_DIR)/pb.bpf.o \
	      $(BENCH_HITS:%=$(BENCH_DIR)/hit_%.bpf.o)

.PHONY: bench bench-build bench-deps coverage
# bpftrace and gdb are references only: the table says n/a where one is missing
bench-deps:
	$(Q)./scripts/deps.sh bpftrace gdb

bench-build: all $(BENCH_BINS)

bench: bench-deps
	$(Q)$(MAKE) bench-build
	$(call msg,RUN,bench/bench.sh $(BENCH_DIR))
	$(Q)./bench/bench.sh $(BENCH_DIR)

# what bpfprobe reads of real programs (bench/coverage.sh): the table in
# docs/coverage.md
coverage: all
	$(Q)./scripts/deps.sh
	$(call msg,RUN,bench/coverage.sh)
	$(Q)./bench/coverage.sh $(BUILD)/bpfprobe

$(BENCH_DIR)/runstat: bench/runstat.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -Wall -Wextra -o $@ $<

$(BENCH_DIR)/bpf_insns: bench/bpf_insns.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -Wall -Wextra -Wno-unused-parameter -o $@ $< -lbpf

$(BENCH_DIR)/rb_bench $(BENCH_DIR)/attach_bench: $(BENCH_DIR)/%: bench/%.c $(BUILD)/libbpfprobe.a
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -g -Wall -Wextra -Wno-unused-parameter -Iinclude -o $@ $< $(BUILD)/libbpfprobe.a $(LDLIBS)

$(BENCH_DIR)/cu_%.o: bench/app_cu.c bench/app.h
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -g -I. -DCU=$* -c $< -o $@

$(BENCH_DIR)/app: bench/app_main.c bench/app.h $(BENCH_CUS:%=$(BENCH_DIR)/cu_%.o)
	$(call msg,LD,$@)
	$(Q)$(CC) -O2 -g -Wall -I. -o $@ $< $(BENCH_CUS:%=$(BENCH_DIR)/cu_%.o)

# the same app keeping frame pointers where its hot calls run (section 9's
# ustack=fp against ustack=dwarf)
$(BENCH_DIR)/app-fp: bench/app_main.c bench/app.h $(BENCH_CUS:%=$(BENCH_DIR)/cu_%.o)
	$(call msg,LD,$@)
	$(Q)$(CC) -O2 -g -Wall -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -I. -o $@ $< \
		$(BENCH_CUS:%=$(BENCH_DIR)/cu_%.o)

$(BENCH_DIR)/points_one.bpf.o: bench/points.bpf.c
	@mkdir -p $(dir $@)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BENCH_BPF_NOG) -DPOINTS_ONE -c $< -o $@

$(BENCH_DIR)/points_distinct.bpf.o: bench/points.bpf.c
	@mkdir -p $(dir $@)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BENCH_BPF_NOG) -DPOINTS_DISTINCT -c $< -o $@

$(BENCH_DIR)/points_static.bpf.o: bench/points.bpf.c
	@mkdir -p $(dir $@)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BENCH_BPF_NOG) -DPOINTS_STATIC -c $< -o $@

# the record ABI: BTF for the prototype's struct
$(BENCH_RECS:%=$(BENCH_DIR)/hit_%.bpf.o): $(BENCH_DIR)/hit_%.bpf.o: bench/hit.bpf.c
	@mkdir -p $(dir $@)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BENCH_BPF_NOG) -g -DRECORD -DNAME=h_$* -DSPEC='"h_$*=$(HIT_SPEC_$*)"' \
		$(if $(filter rec_reg,$*),-DREC_MEMBER=a,-DREC_MEMBER=v) -c $< -o $@

$(BENCH_DIR)/slow_target: bench/slow_target.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -g -fno-omit-frame-pointer -fno-pie -no-pie -o $@ $<

$(BENCH_DIR)/slow.bpf.o: bench/slow.bpf.c bench/slow_target.c
	@mkdir -p $(dir $@)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) -O2 -target bpf -D__TARGET_ARCH_x86 -I/usr/include/$(shell uname -m)-linux-gnu \
		-DAPP='"$(BENCH_SLOW)"' -DLINE=$(BENCH_SLOW_LINE) -c $< -o $@

$(BENCH_DIR)/hit_%.bpf.o: bench/hit.bpf.c
	@mkdir -p $(dir $@)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BENCH_BPF_NOG) -DNAME=h_$* -DSPEC='"h_$*=$(HIT_SPEC_$*)"' \
		$(if $(filter empty,$*),-DNO_ARGS) $(if $(filter reg3,$*),-DTHREE_ARGS) -c $< -o $@

# bpfprobe only (perf cannot consume a ring buffer): with -g, BTF for the maps
$(BENCH_DIR)/rb.bpf.o: bench/rb.bpf.c
	@mkdir -p $(dir $@)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BENCH_BPF_NOG) -g -c $< -o $@

$(BENCH_DIR)/pb.bpf.o: bench/pb.bpf.c
	@mkdir -p $(dir $@)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BENCH_BPF_NOG) -g -c $< -o $@

$(BENCH_DIR)/rb_empty.bpf.o: bench/rb.bpf.c
	@mkdir -p $(dir $@)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BENCH_BPF_NOG) -g -DEMPTY -c $< -o $@
