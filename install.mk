# make install PREFIX=/usr/local DESTDIR=: the binary, both libraries, the
# headers (bpfprobe.h for programs that load, bpf.h for BPF programs), bpfprobe.pc, man pages and bash completion.
PREFIX  ?= /usr/local
LIBDIR  ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR  ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
SONAME_MAJOR := 0

.PHONY: install uninstall
$(BUILD)/bpfprobe.pc: lib/bpfprobe.pc.in
	@mkdir -p $(dir $@)
	$(call msg,GEN,$@)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' $< >$@

install: all $(BUILD)/bpfprobe.pc
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)install -d $(DESTDIR)$(PREFIX)/sbin $(DESTDIR)$(LIBDIR)/pkgconfig \
		$(DESTDIR)$(INCLUDEDIR)/bpfprobe $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(BASHCOMPDIR)
	$(Q)install -m 755 $(BUILD)/bpfprobe $(DESTDIR)$(PREFIX)/sbin/bpfprobe
	$(Q)install -m 644 $(BUILD)/libbpfprobe.a $(DESTDIR)$(LIBDIR)/libbpfprobe.a
	$(Q)install -m 755 $(BUILD)/libbpfprobe.so $(DESTDIR)$(LIBDIR)/libbpfprobe.so.$(VERSION)
	$(Q)ln -sf libbpfprobe.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libbpfprobe.so.$(SONAME_MAJOR)
	$(Q)ln -sf libbpfprobe.so.$(SONAME_MAJOR) $(DESTDIR)$(LIBDIR)/libbpfprobe.so
	$(Q)install -m 644 include/bpfprobe/bpfprobe.h include/bpfprobe/bpf.h $(DESTDIR)$(INCLUDEDIR)/bpfprobe/
	$(Q)install -m 644 $(BUILD)/bpfprobe.pc $(DESTDIR)$(LIBDIR)/pkgconfig/bpfprobe.pc
	$(Q)install -m 644 man/bpfprobe.8 $(DESTDIR)$(MANDIR)/man8/bpfprobe.8
	$(Q)install -m 644 man/libbpfprobe.3 $(DESTDIR)$(MANDIR)/man3/libbpfprobe.3
	$(Q)install -m 644 completion/bpfprobe.bash $(DESTDIR)$(BASHCOMPDIR)/bpfprobe

uninstall:
	$(call msg,UNINST,$(DESTDIR)$(PREFIX))
	$(Q)rm -f $(DESTDIR)$(PREFIX)/sbin/bpfprobe $(DESTDIR)$(LIBDIR)/libbpfprobe.* \
		$(DESTDIR)$(LIBDIR)/pkgconfig/bpfprobe.pc $(DESTDIR)$(MANDIR)/man8/bpfprobe.8 \
		$(DESTDIR)$(MANDIR)/man3/libbpfprobe.3 $(DESTDIR)$(BASHCOMPDIR)/bpfprobe
	$(Q)rm -rf $(DESTDIR)$(INCLUDEDIR)/bpfprobe
