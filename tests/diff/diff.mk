# The differential test against gdb (included by the top Makefile; see
# tests/diff/diff_gdb.py): its workloads and helpers, built into
# $(BUILD)/diff/ with the test artifacts. `make diff-gdb` runs the large
# sample; tests/e2e/diff_gdb.sh runs a small one in `make test`.

DIFF_DIR  := $(BUILD)/diff
DIFF_BINS := $(DIFF_DIR)/pinrun $(DIFF_DIR)/libfixtime.so $(DIFF_DIR)/lua_host \
	     $(DIFF_DIR)/db_work $(DIFF_DIR)/diff_resolve

$(DIFF_DIR)/pinrun: tests/diff/pinrun.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -g -Wall -o $@ $<

$(DIFF_DIR)/libfixtime.so: tests/diff/fixtime.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -g -Wall -shared -fPIC -o $@ $<

# liblua5.4-dev and libdb5.3-dev (scripts/deps.sh): Debian's shared libraries
$(DIFF_DIR)/lua_host: tests/diff/lua_host.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -g -Wall -I/usr/include/lua5.4 -o $@ $< -llua5.4

$(DIFF_DIR)/db_work: tests/diff/db_work.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -g -Wall -o $@ $< -ldb-5.3

$(DIFF_DIR)/diff_resolve: tests/diff/diff_resolve.c $(BUILD)/libbpfprobe.a $(BUILD)/sysinfo.a $(BUILD)/inspect.a
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -fvisibility=default -o $@ $< $(BUILD)/sysinfo.a $(BUILD)/inspect.a $(BUILD)/libbpfprobe.a $(LDLIBS)

TEST_ARTIFACTS += $(DIFF_BINS)

# DIFF_ARGS: more options of tests/diff/diff_gdb.py (--seed N, --targets lua,db, ...)
.PHONY: diff-gdb
diff-gdb: tests-build
	$(call msg,RUN,tests/diff/diff_gdb.py --large)
	$(Q)python3 tests/diff/diff_gdb.py --large $(DIFF_ARGS)
