// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Decompression bombs for the hostile-file tests (and the fuzz corpus):
 *
 *   hostile_elf IN OUT SECTION KIND CLAIM [KEEP]
 *
 * copies the 64-bit ELF file IN to OUT with the contents of section
 * SECTION (.debug_info, or .zdebug_info in a file built with
 * -gz=zlib-gnu) replaced by a compressed payload that inflates to CLAIM
 * bytes (suffixes K, M, G), appended at the end of the file:
 *   zlib    SHF_COMPRESSED, ELFCOMPRESS_ZLIB: a real zlib stream of CLAIM
 *           zero bytes (1 GiB of them deflate to about 1 MiB)
 *   zstd    SHF_COMPRESSED, ELFCOMPRESS_ZSTD (2): the header only, with
 *           a few bytes that are no zstd frame (nothing may inflate it)
 *   zdebug  GNU's .zdebug_ form: "ZLIB", the size in 8 big-endian bytes,
 *           then the zlib stream
 * KEEP: only the first KEEP bytes of the stream are written (a small
 * file that still claims CLAIM: the fuzz corpus's seed).
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static unsigned char *file;
static size_t file_size;

static void die(const char *what)
{
	fprintf(stderr, "hostile_elf: %s\n", what);
	exit(1);
}

static uint64_t parse_size(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 10);

	switch (*end) {
	case 'G':
		v <<= 10;
		/* fallthrough */
	case 'M':
		v <<= 10;
		/* fallthrough */
	case 'K':
		v <<= 10;
	}
	return v;
}

static void read_in(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < (long)sizeof(Elf64_Ehdr))
		die("cannot read the input");
	rewind(f);
	file_size = n;
	file = malloc(file_size);
	if (!file || fread(file, 1, file_size, f) != file_size)
		die("cannot read the input");
	fclose(f);
}

static Elf64_Shdr *find_section(const char *name)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)file;
	Elf64_Shdr *sh = (Elf64_Shdr *)(file + eh->e_shoff), *strs;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(*sh) > file_size ||
	    eh->e_shstrndx >= eh->e_shnum)
		die("not a 64-bit ELF file with section headers");
	strs = &sh[eh->e_shstrndx];
	for (int i = 0; i < eh->e_shnum; i++) {
		if (strs->sh_offset + sh[i].sh_name < file_size &&
		    !strcmp((const char *)file + strs->sh_offset + sh[i].sh_name, name))
			return &sh[i];
	}
	die("no such section");
	return NULL;
}

/* CLAIM zero bytes deflated onto f, KEEP bytes of it at most (0: all). */
static uint64_t deflate_zeros(FILE *f, uint64_t claim, uint64_t keep)
{
	static unsigned char zeros[1 << 16], out[1 << 16];
	z_stream z = {};
	uint64_t left = claim, written = 0;
	int flush;

	if (deflateInit(&z, 9) != Z_OK)
		die("deflateInit");
	do {
		size_t n = left < sizeof(zeros) ? left : sizeof(zeros);

		z.next_in = zeros;
		z.avail_in = n;
		left -= n;
		flush = left ? Z_NO_FLUSH : Z_FINISH;
		do {
			size_t got;

			z.next_out = out;
			z.avail_out = sizeof(out);
			deflate(&z, flush);
			got = sizeof(out) - z.avail_out;
			if (keep && written + got > keep)
				got = keep - written;
			if (got && fwrite(out, 1, got, f) != got)
				die("cannot write");
			written += got;
		} while (z.avail_out == 0);
	} while (flush != Z_FINISH && (!keep || written < keep));
	deflateEnd(&z);
	return written;
}

static void put_be64(unsigned char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = v & 0xff;
}

int main(int argc, char **argv)
{
	uint64_t claim, keep, at, size = 0;
	Elf64_Shdr *sh;
	Elf64_Chdr ch = {};
	unsigned char zhdr[12];
	FILE *out;

	if (argc < 6)
		die("usage: hostile_elf IN OUT SECTION zlib|zstd|zdebug CLAIM [KEEP]");
	read_in(argv[1]);
	claim = parse_size(argv[5]);
	keep = argc > 6 ? parse_size(argv[6]) : 0;
	sh = find_section(argv[3]);
	out = fopen(argv[2], "wb");
	if (!out)
		die("cannot create the output");
	/* the payload goes at the end, 8-byte aligned */
	at = (file_size + 7) & ~7ull;
	if (fwrite(file, 1, file_size, out) != file_size || fseek(out, at, SEEK_SET))
		die("cannot write");
	if (!strcmp(argv[4], "zdebug")) {
		memcpy(zhdr, "ZLIB", 4);
		put_be64(zhdr + 4, claim);
		size = fwrite(zhdr, 1, sizeof(zhdr), out);
		size += deflate_zeros(out, claim, keep);
		sh->sh_flags &= ~(uint64_t)SHF_COMPRESSED;
	} else {
		ch.ch_type = strcmp(argv[4], "zstd") ? ELFCOMPRESS_ZLIB : 2;
		ch.ch_size = claim;
		ch.ch_addralign = 1;
		size = fwrite(&ch, 1, sizeof(ch), out);
		if (ch.ch_type == ELFCOMPRESS_ZLIB)
			size += deflate_zeros(out, claim, keep);
		else
			size += fwrite("not zstd", 1, 8, out);
		sh->sh_flags |= SHF_COMPRESSED;
	}
	sh->sh_offset = at;
	sh->sh_size = size;
	sh->sh_addralign = 8;
	/* the section headers, patched, where they were */
	if (fseek(out, ((Elf64_Ehdr *)file)->e_shoff, SEEK_SET) ||
	    fwrite(file + ((Elf64_Ehdr *)file)->e_shoff, sizeof(*sh),
		   ((Elf64_Ehdr *)file)->e_shnum, out) != ((Elf64_Ehdr *)file)->e_shnum)
		die("cannot write");
	if (fclose(out))
		die("cannot write");
	return 0;
}
