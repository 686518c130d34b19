// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests for the kernel resolver (probes/kernel/: the driver, BTF,
 * kallsyms): a synthetic kernel built here (BTF through libbpf's
 * btf__add_*() API, a kallsyms file, ftrace and blacklist lists), a test
 * target standing in for a vmlinux with DWARF, and, when present, the host
 * kernel's own BTF. Runtime values are the VM tests' job
 * (tests/vm/kernel-tests.sh).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/btf.h>

#include "prologue/arch.h"
#include "prologue/arch_x86_64.h"
#include "probes/binary/debuginfo_cache.h"
#include "probes/dwarf/dwarf.h"
#include "probes/kernel/kallsyms.h"
#include "probes/kernel/kernel.h"
#include "probes/resolve.h"
#include "probes/spec.h"
#include "util/log.h"
#include "tests/unit/test.h"
#include "tests/unit/resolve_fixture.h"

/* ---- message capture (msgs: resolve_fixture.h) ----------------------------- */

#define CHECK_MSG(sub) CHECK(strstr(msgs, sub), "message lacks '%s': %s", sub, msgs)

/* ---- the synthetic kernel ---------------------------------------------- */

static char dir[] = "/tmp/bpfprobe-kernel-test.XXXXXX";
static char btf_dir[300], kallsyms[300], aff[300], blacklist[300];

/* BTF type ids of the synthetic vmlinux */
static int t_int, t_uint, t_long, t_ulong, t_uchar, t_double, t_pid, t_esign,
	   t_ecolor, t_inner, t_pinner, t_obj, t_objt, t_pobjt, t_pobj, t_pair,
	   t_big, t_cobj, t_pcobj, t_pchar;

static int add_func(struct btf *btf, const char *name, int ret, int nparams, ...)
{
	va_list ap;
	int proto = btf__add_func_proto(btf, ret);

	va_start(ap, nparams);
	for (int i = 0; i < nparams; i++) {
		const char *pname = va_arg(ap, const char *);
		int type = va_arg(ap, int);

		btf__add_func_param(btf, pname, type);
	}
	va_end(ap);
	return btf__add_func(btf, name, BTF_FUNC_STATIC, proto);
}

static void build_vmlinux_btf(struct btf *btf)
{
	t_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	t_uint = btf__add_int(btf, "unsigned int", 4, 0);
	t_long = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	t_ulong = btf__add_int(btf, "unsigned long", 8, 0);
	t_uchar = btf__add_int(btf, "unsigned char", 1, 0);
	t_double = btf__add_float(btf, "double", 8);
	t_pid = btf__add_typedef(btf, "pid_t", t_int);
	t_pchar = btf__add_ptr(btf, btf__add_int(btf, "char", 1, BTF_INT_SIGNED));

	t_esign = btf__add_enum(btf, "sign", 4);
	btf__add_enum_value(btf, "NEG", -1);
	btf__add_enum_value(btf, "POS", 1);
	t_ecolor = btf__add_enum(btf, "color", 4);
	btf__add_enum_value(btf, "RED", 0);
	btf__add_enum_value(btf, "BLUE", 1);

	t_inner = btf__add_struct(btf, "inner", 8);
	btf__add_field(btf, "a", t_int, 0, 0);
	btf__add_field(btf, "b", t_int, 32, 0);
	t_pinner = btf__add_ptr(btf, t_inner);

	/* struct obj: every kind of member step. Members are added to the
	 * last struct added, so what obj refers to comes first. */
	int t_short = btf__add_int(btf, "short", 2, BTF_INT_SIGNED);
	int anon = btf__add_union(btf, NULL, 8);
	btf__add_field(btf, "s", t_short, 0, 0);
	btf__add_field(btf, "l", t_long, 0, 0);
	int arr = btf__add_array(btf, t_int, t_int, 4);
	int carr = btf__add_array(btf, t_int, btf__add_array(btf, t_int, t_uchar, 3), 2);
	/* const struct obj *, before obj: ids may point forward */
	int obj_id = btf__type_cnt(btf) + 2;
	t_cobj = btf__add_const(btf, obj_id);
	t_pcobj = btf__add_ptr(btf, t_cobj);
	t_obj = btf__add_struct(btf, "obj", 80);
	btf__add_field(btf, "id", t_long, 0, 0);
	btf__add_field(btf, "in", t_pinner, 64, 0);
	btf__add_field(btf, NULL, anon, 128, 0);
	btf__add_field(btf, "arr", arr, 192, 0);
	btf__add_field(btf, "flag", t_uint, 320, 3);
	btf__add_field(btf, "sflag", t_int, 323, 5);
	btf__add_field(btf, "next", t_pcobj, 384, 0);
	btf__add_field(btf, "sg", t_esign, 448, 0);
	btf__add_field(btf, "emb", t_inner, 480, 0);
	btf__add_field(btf, "grid", carr, 544, 0);
	t_objt = btf__add_typedef(btf, "obj_t", t_obj);
	t_pobjt = btf__add_ptr(btf, t_objt);
	t_pobj = btf__add_ptr(btf, t_obj);

	t_pair = btf__add_struct(btf, "pair", 16);
	btf__add_field(btf, "a", t_long, 0, 0);
	btf__add_field(btf, "b", t_long, 64, 0);
	t_big = btf__add_struct(btf, "big", 24);
	btf__add_field(btf, "a", t_long, 0, 0);
	btf__add_field(btf, "b", t_long, 64, 0);
	btf__add_field(btf, "c", t_long, 128, 0);

	add_func(btf, "f1", t_long, 6, "o", t_pobjt, "pid", t_pid, "c", t_uchar,
		 "l", t_long, "e", t_esign, "col", t_ecolor);
	add_func(btf, "f8", t_long, 8, "a1", t_long, "a2", t_long, "a3", t_long,
		 "a4", t_long, "a5", t_long, "a6", t_long, "a7", t_long, "a8", t_long);
	add_func(btf, "fpair", t_long, 3, "p", t_pair, "x", t_long, "y", t_long);
	add_func(btf, "fbig", t_long, 2, "b", t_big, "x", t_long);
	add_func(btf, "ffloat", t_long, 2, "d", t_double, "x", t_long);
	add_func(btf, "fvoid", 0, 1, "a", t_int);
	add_func(btf, "fdbl", t_double, 1, "a", t_int);
	add_func(btf, "fint", t_int, 2, "s", t_pchar, "n", t_ulong);
	add_func(btf, "dup", t_int, 1, "o", t_pobj);
	add_func(btf, "notraced", t_int, 1, "o", t_pobj);
	add_func(btf, "blacklisted", t_int, 1, "o", t_pobj);
	/* two different prototypes for one name */
	add_func(btf, "twin", t_int, 1, "o", t_pobj);
	add_func(btf, "twin", t_long, 1, "x", t_long);

	/* forward declarations: of a struct defined once (pair), of one
	 * defined nowhere, of one defined twice differently */
	int fw_pair = btf__add_fwd(btf, "pair", BTF_FWD_STRUCT);
	int fw_lonely = btf__add_fwd(btf, "lonely", BTF_FWD_STRUCT);
	int fw_twice = btf__add_fwd(btf, "twice", BTF_FWD_STRUCT);
	int fw_upair = btf__add_fwd(btf, "pair", BTF_FWD_UNION);

	btf__add_struct(btf, "twice", 8);
	btf__add_field(btf, "a", t_long, 0, 0);
	btf__add_struct(btf, "twice", 16);
	btf__add_field(btf, "a", t_long, 0, 0);
	btf__add_field(btf, "b", t_long, 64, 0);
	add_func(btf, "fwdfn", t_long, 4, "p", btf__add_ptr(btf, fw_pair),
		 "l", btf__add_ptr(btf, fw_lonely), "t", btf__add_ptr(btf, fw_twice),
		 "u", btf__add_ptr(btf, fw_upair));
}

static void build_module_btf(struct btf *mod)
{
	int t_mod = btf__add_struct(mod, "modstate", 16);

	btf__add_field(mod, "owner", t_pobj, 0, 0);
	btf__add_field(mod, "count", t_uint, 64, 0);
	add_func(mod, "modfunc", t_long, 2, "st", btf__add_ptr(mod, t_mod), "n", t_int);
	/* a module's forward declaration of a struct its base defines */
	add_func(mod, "modfwd", t_long, 1, "o",
		 btf__add_ptr(mod, btf__add_fwd(mod, "obj", BTF_FWD_STRUCT)));
}

static int write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fwrite(data, 1, len, f);
	fclose(f);
	return 0;
}

static int write_btf(const char *path, const struct btf *btf)
{
	__u32 size;
	const void *raw = btf__raw_data(btf, &size);

	return raw ? write_file(path, raw, size) : -EINVAL;
}

static const char kallsyms_text[] =
	"ffffffff81000000 T f1\n"
	"ffffffff81000100 t f8\n"
	"ffffffff81000200 t fpair\n"
	"ffffffff81000300 t fbig\n"
	"ffffffff81000400 t ffloat\n"
	"ffffffff81000500 t fvoid\n"
	"ffffffff81000580 t fdbl\n"
	"ffffffff81000590 t fint\n"
	"ffffffff81000700 t dup\n"
	"ffffffff81000600 t dup\n"
	"ffffffff81000800 t notraced\n"
	"ffffffff81000900 t blacklisted\n"
	"ffffffff81000a00 t cloned.isra.0\n"
	"ffffffff81000a80 t cloned.cold\n"
	"ffffffff81000b00 D data_symbol\n"
	"ffffffff81000c00 t twin\n"
	"ffffffff81000d00 t twin\n"
	"ffffffff81000e00 t nobtf\n"
	"ffffffff81001000 t handle_req\n"
	"ffffffff81002000 t neg_args\n"
	"ffffffff81004000 t fwdfn\n"
	"ffffffffc0000300 t modfwd\t[testmod]\n"
	"ffffffffc0000000 t modfunc\t[testmod]\n"
	"ffffffffc0000100 t both\t[testmod]\n"
	"ffffffff81003000 T both\n";

static int setup(void)
{
	struct btf *btf, *mod;
	char path[400];
	int err;

	if (!mkdtemp(dir))
		return -errno;
	snprintf(btf_dir, sizeof(btf_dir), "%s/btf", dir);
	snprintf(kallsyms, sizeof(kallsyms), "%s/kallsyms", dir);
	snprintf(aff, sizeof(aff), "%s/available_filter_functions", dir);
	snprintf(blacklist, sizeof(blacklist), "%s/blacklist", dir);
	mkdir(btf_dir, 0755);

	btf = btf__new_empty();
	build_vmlinux_btf(btf);
	if (btf__type_by_id(btf, t_cobj)->type != (__u32)t_obj)
		return -EINVAL;
	mod = btf__new_empty_split(btf);
	build_module_btf(mod);
	snprintf(path, sizeof(path), "%s/vmlinux", btf_dir);
	err = write_btf(path, btf);
	snprintf(path, sizeof(path), "%s/testmod", btf_dir);
	if (!err)
		err = write_btf(path, mod);
	btf__free(mod);
	btf__free(btf);
	if (!err)
		err = write_file(kallsyms, kallsyms_text, strlen(kallsyms_text));
	static const char aff_text[] =
		"f1\nf8\nfpair\nfbig\nffloat\nfvoid\nfdbl\nfint\ndup\ndup\nblacklisted\n"
		"twin\ntwin\nnobtf\nhandle_req\nneg_args\nboth\nmodfunc [testmod]\nboth [testmod]\n"
		"fwdfn\nmodfwd [testmod]\n";
	static const char bl_text[] =
		"0xffffffff81000900-0xffffffff81000910\tblacklisted\n"
		"0xffffffffc0000200-0xffffffffc0000210\tother_mod_fn [testmod]\n";
	if (!err)
		err = write_file(aff, aff_text, strlen(aff_text));
	if (!err)
		err = write_file(blacklist, bl_text, strlen(bl_text));
	return err;
}

static void teardown(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
}

/* ---- resolving ------------------------------------------------------------ */

/* the binaries kernel specs with DWARF open */
static struct bp_debuginfo_cache dcache;

static struct bp_kernel *kernel;
static struct bp_point *pts;
static int npts;

/* A kernel over the synthetic files; vmlinux "" turns DWARF off. */
static void use_kernel(const char *vmlinux)
{
	struct bp_kernel_paths p = {
		.kallsyms = kallsyms,
		.btf_dir = btf_dir,
		.filter_functions = aff,
		.blacklist = blacklist,
		.vmlinux = vmlinux,
		.no_build_id_check = true,
	};

	bp_kernel__free(kernel);
	kernel = bp_kernel__new();
	bp_kernel__set_paths(kernel, &p);
}

static int resolve(const char *text)
{
	char err[256] = "";
	struct bp_spec spec;
	int ret;

	bp_points__free(pts, npts);
	pts = NULL;
	npts = 0;
	msgs[0] = '\0';
	memset(&spec, 0, sizeof(spec));
	ret = bp_spec__parse(text, &spec, err, sizeof(err));
	if (ret) {
		snprintf(msgs, sizeof(msgs), "parse: %s", err);
		bp_spec__free(&spec);
		return ret;
	}
	{
		struct bp_kernel_dwarf dw = { .resolve = bp_dwarf__resolve_path, .ctx = &dcache };

		ret = bp_kernel__resolve(kernel, &dw, &spec, &pts, &npts, NULL);
	}
	bp_spec__free(&spec);
	return ret;
}

#define RESOLVE_OK(text) do {							\
	int r_ = resolve(text);							\
	CHECK(r_ == 0, "resolve('%s') = %d: %s", text, r_, msgs);		\
	if (r_)									\
		return;								\
} while (0)

#define RESOLVE_FAILS(text, sub) do {						\
	int r_ = resolve(text);							\
	CHECK(r_ < 0, "resolve('%s') succeeded", text);				\
	CHECK_MSG(sub);								\
} while (0)

static const struct bp_fetch *arg(int i)
{
	return &pts[0].plan.args[i];
}

/* ---- kallsyms and lists --------------------------------------------------- */

static void test_kallsyms(void)
{
	struct bp_kallsyms *ks;
	const struct bp_ksym *s;

	CHECK_INT(bp_kallsyms__load(kallsyms, &ks, NULL), 0);
	CHECK_INT(bp_kallsyms__find(ks, "f1", NULL, &s), 1);
	CHECK_INT(s->addr, 0xffffffff81000000ull);
	CHECK(s->module == NULL, "f1 has module %s", s->module);
	/* two of a name, by address */
	CHECK_INT(bp_kallsyms__find(ks, "dup", NULL, &s), 2);
	CHECK_INT(s[0].addr, 0xffffffff81000600ull);
	CHECK_INT(s[1].addr, 0xffffffff81000700ull);
	/* data symbols are no functions */
	CHECK_INT(bp_kallsyms__find(ks, "data_symbol", NULL, &s), 0);
	CHECK_INT(bp_kallsyms__find(ks, "modfunc", "testmod", &s), 1);
	CHECK_STR(s->module, "testmod");
	CHECK_INT(bp_kallsyms__find(ks, "modfunc", "vmlinux", &s), 0);
	CHECK_INT(bp_kallsyms__find(ks, "both", NULL, &s), 2);
	CHECK_INT(bp_kallsyms__find(ks, "both", "vmlinux", &s), 1);
	CHECK_INT(s->addr, 0xffffffff81003000ull);
	CHECK_INT(bp_kallsyms__clones(ks, "cloned", NULL, NULL), 2);
	CHECK_INT(bp_kallsyms__clones(ks, "f", NULL, NULL), 0);
	bp_kallsyms__free(ks);

	CHECK_INT(bp_klist__has(aff, "modfunc", "testmod"), 1);
	CHECK_INT(bp_klist__has(aff, "modfunc", "vmlinux"), 0);
	CHECK_INT(bp_klist__has(aff, "f1", "vmlinux"), 1);
	CHECK_INT(bp_klist__has(aff, "notraced", NULL), 0);
	CHECK_INT(bp_klist__has(blacklist, "blacklisted", NULL), 1);
	CHECK_INT(bp_klist__has(blacklist, "other_mod_fn", "testmod"), 1);
	CHECK_INT(bp_klist__has("/nonexistent/list", "f1", NULL), -ENOENT);
}

/* ---- BTF: parameters by position ------------------------------------------ */

static void check_reg(int i, int reg, int size, bool is_signed)
{
	const struct bp_fetch *f = arg(i);

	CHECK_INT(f->base, BP_BASE_REG);
	CHECK_INT(f->reg, reg);
	CHECK_INT(f->nderef, 0);
	CHECK_INT(f->size, size);
	CHECK_INT(f->is_signed, is_signed);
}

static void test_btf_params(void)
{
	use_kernel("");
	RESOLVE_OK("func=f1 pid c l");
	CHECK_INT(npts, 1);
	CHECK(pts[0].kernel, "not a kernel point");
	CHECK_STR(pts[0].func, "f1");
	CHECK_STR(pts[0].binary, "vmlinux");
	CHECK(pts[0].module == NULL, "module %s", pts[0].module);
	CHECK(pts[0].source && strstr(pts[0].source, "BTF ") &&
	      strstr(pts[0].source, "/btf/vmlinux"), "source %s", pts[0].source);
	CHECK_INT(pts[0].offset, 0);
	CHECK_INT(pts[0].kaddr, 0);
	CHECK_INT(pts[0].addr, 0xffffffff81000000ull);
	check_reg(0, BP_REG_RSI, 4, true);	/* pid_t: typedef of int */
	check_reg(1, BP_REG_RDX, 1, false);
	check_reg(2, BP_REG_RCX, 8, true);
	CHECK_STR(pts[0].type_name[0], "pid_t");
	CHECK_STR(pts[0].loc_desc[0], "reg rsi (parameter 2)");

	RESOLVE_OK("func=f1 e col o");
	check_reg(0, BP_REG_R8, 4, true);	/* enum with a negative value */
	check_reg(1, BP_REG_R9, 4, false);
	check_reg(2, BP_REG_RDI, 8, false);	/* a pointer */
	CHECK_STR(pts[0].type_name[0], "enum sign");
	CHECK_STR(pts[0].type_name[2], "obj_t *");

	RESOLVE_OK("func=f8 a6");
	check_reg(0, BP_REG_R9, 8, true);
	RESOLVE_FAILS("func=f8 a7", "parameter 7 'a7' is passed on the stack");

	/* a 16-byte struct takes rdi and rsi */
	RESOLVE_OK("func=fpair x y");
	check_reg(0, BP_REG_RDX, 8, true);
	check_reg(1, BP_REG_RCX, 8, true);
	RESOLVE_FAILS("func=fpair p", "struct passed by value");
	/* a 24-byte struct and a double take no integer register */
	RESOLVE_OK("func=fbig x");
	check_reg(0, BP_REG_RDI, 8, true);
	RESOLVE_OK("func=ffloat x");
	check_reg(0, BP_REG_RDI, 8, true);
	RESOLVE_FAILS("func=ffloat d", "SSE register");

	RESOLVE_FAILS("func=f1 nope", "no parameter 'nope' (parameters: o, pid, c, l, e, col)");
}

static void test_btf_casts(void)
{
	use_kernel("");
	RESOLVE_OK("func=f1 pid:u16 l:x8");
	CHECK_INT(arg(0)->size, 2);
	CHECK_INT(arg(0)->is_signed, false);
	CHECK_INT(arg(1)->size, 1);
}

/* ---- BTF: member chains --------------------------------------------------- */

static void test_btf_members(void)
{
	const struct bp_fetch *f;

	use_kernel("");
	RESOLVE_OK("func=f1 o->id o->in->b o->arr[2]");
	f = arg(0);
	CHECK_INT(f->reg, BP_REG_RDI);
	CHECK_INT(f->nderef, 1);
	CHECK_INT(f->deref_off[0], 0);
	CHECK_INT(f->size, 8);
	CHECK_INT(f->is_signed, true);
	CHECK_INT(f->user_mask, 0);	/* kernel memory */
	f = arg(1);
	CHECK_INT(f->nderef, 2);
	CHECK_INT(f->deref_off[0], 8);
	CHECK_INT(f->deref_off[1], 4);
	CHECK_INT(f->size, 4);
	f = arg(2);
	CHECK_INT(f->nderef, 1);
	CHECK_INT(f->deref_off[0], 24 + 8);
	CHECK_STR(pts[0].type_name[2], "int");

	/* anonymous union members, . on an embedded struct, 2-D arrays */
	RESOLVE_OK("func=f1 o->s o->emb.b o->grid[1][2]");
	CHECK_INT(arg(0)->deref_off[0], 16);
	CHECK_INT(arg(0)->size, 2);
	CHECK_INT(arg(0)->is_signed, true);
	CHECK_INT(arg(1)->deref_off[0], 60 + 4);
	CHECK_INT(arg(2)->deref_off[0], 68 + 3 + 2);
	CHECK_INT(arg(2)->size, 1);

	/* through a const pointer, an enum member, a pointer index */
	RESOLVE_OK("func=f1 o->next->id o->sg o->in[1].a");
	CHECK_INT(arg(0)->nderef, 2);
	CHECK_INT(arg(0)->deref_off[0], 48);
	CHECK_INT(arg(1)->size, 4);
	CHECK_INT(arg(1)->is_signed, true);
	CHECK_INT(arg(2)->nderef, 2);
	CHECK_INT(arg(2)->deref_off[1], 8);

	/* bitfields: flag is bits 320..322, sflag 323..327 of obj */
	RESOLVE_OK("func=f1 o->flag o->sflag");
	f = arg(0);
	CHECK_INT(f->deref_off[0], 40);
	CHECK_INT(f->size, 4);
	CHECK_INT(f->bit_off, 0);
	CHECK_INT(f->bit_size, 3);
	CHECK_INT(f->is_signed, false);
	f = arg(1);
	CHECK_INT(f->deref_off[0], 40);
	CHECK_INT(f->bit_off, 3);
	CHECK_INT(f->bit_size, 5);
	CHECK_INT(f->is_signed, true);

	/* a pointer value itself */
	RESOLVE_OK("func=f1 o->in");
	CHECK_INT(arg(0)->size, 8);
	CHECK_INT(arg(0)->is_signed, false);
	CHECK_STR(pts[0].type_name[0], "struct inner *");
}

static void test_btf_member_errors(void)
{
	use_kernel("");
	RESOLVE_FAILS("func=f1 o->nope", "struct obj has no member 'nope' (members: id, in, s, l, arr, flag, sflag, next, ...)");
	RESOLVE_FAILS("func=f1 pid->x", "'->' on non-pointer 'pid' (type pid_t)");
	RESOLVE_FAILS("func=f1 o.id", "'.' on pointer 'o'");
	RESOLVE_FAILS("func=f1 o->emb", "'o->emb' is a struct; name a member");
	RESOLVE_FAILS("func=f1 o->arr", "an array; index it");
	RESOLVE_FAILS("func=f1 o->arr[4]", "index 4 is out of bounds of 'o->arr' (4 elements)");
	RESOLVE_FAILS("func=f1 o->flag->x", "'o->flag' is a bitfield: nothing can follow it");
	RESOLVE_FAILS("func=f1 o->in->a->b", "'->' on non-pointer 'o->in->a'");
	RESOLVE_FAILS("func=f1 l[0]", "neither an array nor a pointer");
	/* $params: every named parameter, at most 3 in all */
	RESOLVE_OK("func=fint $params");
	CHECK_INT(pts[0].plan.nargs, 2);
	check_reg(0, BP_REG_RDI, 8, false);
	check_reg(1, BP_REG_RSI, 8, false);
	CHECK_STR(pts[0].arg_name[0], "s");
	CHECK_STR(pts[0].arg_name[1], "n");
	RESOLVE_FAILS("func=f1 $params", "$params expands to 6 parameters (o, pid, c, l, e, col)");
	RESOLVE_FAILS("func=fint $params s[1] n", "at most 3");

	/* char *s: s[1] reads one signed byte */
	RESOLVE_OK("func=fint s[1]");
	CHECK_INT(arg(0)->nderef, 1);
	CHECK_INT(arg(0)->deref_off[0], 1);
	CHECK_INT(arg(0)->size, 1);
	CHECK_INT(arg(0)->is_signed, true);
}

/* ---- BTF: @user, $retval, offsets, return probes ------------------------- */

static void test_btf_user(void)
{
	use_kernel("");
	/* the register is kernel state, every dereference of the chain user */
	RESOLVE_OK("func=f1 o->id@user o->in->b@user pid@user");
	CHECK_INT(arg(0)->user_mask, 0x1);
	CHECK_INT(arg(1)->user_mask, 0x3);
	CHECK_INT(arg(2)->user_mask, 0);
	CHECK_INT(arg(2)->nderef, 0);
}

static void test_btf_retval(void)
{
	use_kernel("");
	RESOLVE_OK("func=f1%return $retval");
	CHECK(pts[0].is_return, "not a return point");
	check_reg(0, BP_REG_RAX, 8, true);
	RESOLVE_OK("func=fint%return $retval");
	check_reg(0, BP_REG_RAX, 4, true);
	RESOLVE_FAILS("func=fvoid%return $retval", "returns void");
	RESOLVE_FAILS("func=fdbl%return $retval", "floating-point");
	RESOLVE_FAILS("func=f1 $retval", "$retval is only");
	RESOLVE_FAILS("func=f1%return pid", "a return probe can only fetch $retval");
	RESOLVE_FAILS("func=f1+8 pid", "only at the function's entry");
	/* without arguments, an offset is the kernel's to check */
	RESOLVE_OK("func=f1+8");
	CHECK_INT(pts[0].offset, 8);
	CHECK_INT(pts[0].plan.nargs, 0);
	CHECK(strstr(pts[0].source, "kallsyms"), "source %s", pts[0].source);
}

/* ---- which function ------------------------------------------------------- */

static void test_functions(void)
{
	use_kernel("");
	/* two functions of a name: each probed by its address */
	RESOLVE_OK("func=dup o->id");
	CHECK_INT(npts, 2);
	CHECK_INT(pts[0].kaddr, 0xffffffff81000600ull);
	CHECK_INT(pts[1].kaddr, 0xffffffff81000700ull);
	CHECK(bp_plan__equal(&pts[0].plan, &pts[1].plan), "plans differ");
	CHECK_STR(pts[1].type_name[0], "long");

	RESOLVE_OK("func=dup+4");
	CHECK_INT(pts[1].kaddr, 0xffffffff81000704ull);

	RESOLVE_FAILS("func=twin o", "2 functions of that name with different prototypes");
	RESOLVE_OK("func=twin");
	CHECK_INT(npts, 2);

	RESOLVE_FAILS("func=no_such_fn", "no_such_fn in the kernel: no such function in");
	RESOLVE_FAILS("func=cloned x", "only compiler-made copies (cloned.isra.0, cloned.cold)");
	RESOLVE_FAILS("func=data_symbol", "no such function");
	RESOLVE_FAILS("func=notraced", "notraced in the kernel: not probeable: notrace");
	RESOLVE_FAILS("func=blacklisted", "on the kprobe blacklist");
	RESOLVE_FAILS("func=nobtf x", "nobtf in the kernel: no BTF description in");
	RESOLVE_OK("func=nobtf");
	RESOLVE_FAILS("module=nosuchmod;func=modfunc", "module 'nosuchmod' is not loaded");
	RESOLVE_FAILS("func=both", "functions of that name are in several places (vmlinux, testmod): say which with module=NAME");
	/* one in scope, but the name is ambiguous to the kernel: by address */
	RESOLVE_OK("module=vmlinux;func=both");
	CHECK_INT(npts, 1);
	CHECK_INT(pts[0].addr, 0xffffffff81003000ull);
	CHECK_INT(pts[0].kaddr, 0xffffffff81003000ull);
	CHECK(pts[0].module == NULL, "module %s", pts[0].module);
	RESOLVE_OK("module=testmod;func=both");
	CHECK_STR(pts[0].module, "testmod");
	CHECK_INT(pts[0].kaddr, 0xffffffffc0000100ull);
	/* a unique name is probed by name */
	RESOLVE_OK("module=testmod;func=modfunc");
	CHECK_INT(pts[0].kaddr, 0);
	RESOLVE_FAILS("func=f1 o pid c l", "at most 3");
	RESOLVE_FAILS("func=f*", "a glob in a kernel probe point is not supported");
	RESOLVE_FAILS("func=f1:3", "a line number in a kernel probe point is not supported");
	RESOLVE_FAILS("func=f1 @jiffies", "kernel globals are not supported");
}

/* ---- modules ------------------------------------------------------------- */

static void test_module(void)
{
	use_kernel("");
	RESOLVE_OK("module=testmod;func=modfunc st->owner->id st->count n");
	CHECK_STR(pts[0].module, "testmod");
	CHECK_STR(pts[0].binary, "testmod");
	CHECK(strstr(pts[0].source, "/btf/testmod"), "source %s", pts[0].source);
	CHECK_INT(arg(0)->nderef, 2);
	CHECK_INT(arg(1)->deref_off[0], 8);
	CHECK_INT(arg(1)->size, 4);
	check_reg(2, BP_REG_RSI, 4, true);
	/* kallsyms says which module holds it */
	RESOLVE_OK("func=modfunc st->count");
	CHECK_STR(pts[0].module, "testmod");
	/* '-' and '_' are one in module names */
	RESOLVE_FAILS("module=test-mod2;func=modfunc", "module 'test_mod2' is not loaded");
}

/* A forward declaration is completed from the one definition of its name
 * (the base's, for a module), or says why it cannot be. */
static void test_btf_forward(void)
{
	use_kernel("");
	RESOLVE_OK("func=fwdfn p->b");
	CHECK_INT(arg(0)->deref_off[0], 8);
	CHECK(strstr(pts[0].loc_desc[0], "; struct pair completed from BTF type ["),
	      "location %s", pts[0].loc_desc[0]);
	RESOLVE_FAILS("func=fwdfn l->x",
		      "struct lonely is only declared in BTF (no members known), and no struct of that name is defined in it");
	RESOLVE_FAILS("func=fwdfn t->a", "struct twice is only declared here in BTF, and 2 different definitions of it are: type [");
	CHECK_MSG("8 bytes; type [");
	CHECK_MSG("16 bytes");
	/* a union's forward declaration takes no struct */
	RESOLVE_FAILS("func=fwdfn u->a", "union pair is only declared in BTF (no members known), and no union of that name");
	RESOLVE_OK("module=testmod;func=modfwd o->next->id");
	CHECK_INT(arg(0)->nderef, 2);
	CHECK_INT(arg(0)->deref_off[0], 48);
}

static void test_no_btf(void)
{
	struct bp_kernel_paths p = { .btf_dir = "/nonexistent/btf" };

	use_kernel("");
	bp_kernel__set_paths(kernel, &p);
	RESOLVE_FAILS("func=f1 pid", "there is no kernel BTF (/nonexistent/btf/vmlinux");
	CHECK_MSG("install the kernel's debug info");
	/* no arguments: no types needed */
	RESOLVE_OK("func=f1");
}

/* ---- BTF: perf's fetch arguments ------------------------------------------ */

static void test_btf_fetchargs(void)
{
	const struct bp_fetch *f;

	use_kernel("");
	/* $argN by position, typed by the prototype */
	RESOLVE_OK("func=f1 $arg2 $arg3 $arg1->id");
	check_reg(0, BP_REG_RSI, 4, true);	/* pid_t */
	check_reg(1, BP_REG_RDX, 1, false);	/* unsigned char */
	CHECK_STR(pts[0].type_name[0], "pid_t");
	CHECK_STR(pts[0].loc_desc[0], "reg rsi ($arg2, parameter 'pid')");
	CHECK_INT(arg(2)->nderef, 1);
	CHECK_INT(arg(2)->user_mask, 0);
	/* the 7th and 8th on the kernel stack, read as kernel memory */
	RESOLVE_OK("func=f8 $arg7 $arg8 $arg6");
	f = arg(0);
	CHECK_INT(f->base, BP_BASE_REG);
	CHECK_INT(f->reg, BP_REG_RSP);
	CHECK_INT(f->nderef, 1);
	CHECK_INT(f->deref_off[0], 8);
	CHECK_INT(f->user_mask, 0);
	CHECK_INT(f->size, 8);
	CHECK_INT(f->is_signed, true);
	CHECK_INT(arg(1)->deref_off[0], 16);
	CHECK_STR(pts[0].loc_desc[1], "stack rsp+16 ($arg8, parameter 'a8')");
	check_reg(2, BP_REG_R9, 8, true);
	/* past a 16-byte struct the positions are no parameter's: untyped */
	RESOLVE_OK("func=fpair $arg3");
	check_reg(0, BP_REG_RDX, 8, false);
	CHECK_STR(pts[0].type_name[0], "u64");
	RESOLVE_FAILS("func=fpair $arg3->x", "$arg3 has no type here");
	/* %REG anywhere, +OFFS(...) kernel memory unless +u or @user */
	RESOLVE_OK("func=f1+4 %di:s32 +8(%si) +u16(+0(%dx))");
	check_reg(0, BP_REG_RDI, 4, true);
	CHECK_INT(arg(1)->nderef, 1);
	CHECK_INT(arg(1)->deref_off[0], 8);
	CHECK_INT(arg(1)->user_mask, 0);
	CHECK_INT(arg(2)->nderef, 2);
	CHECK_INT(arg(2)->user_mask, 2);
	RESOLVE_OK("func=f1%return %ax +8(%ax)@user");
	check_reg(0, BP_REG_RAX, 8, false);
	CHECK_INT(arg(1)->user_mask, 1);
	/* $argN only at the entry */
	RESOLVE_FAILS("func=f1+4 $arg2", "f1+0x4 is not one: name the parameter ('pid')");
	RESOLVE_FAILS("func=f1%return $arg2", "the return of f1 (%return) is not one");
	RESOLVE_FAILS("func=f1 @sym+8", "kernel globals are not supported");
	/* :string: a char pointer's value */
	RESOLVE_OK("func=fint $arg1:string s:ustring");
	check_reg(0, BP_REG_RDI, 8, false);
	check_reg(1, BP_REG_RDI, 8, false);
	RESOLVE_FAILS("func=fint n:string", "'n' is not a string");
}

static void test_no_btf_fetchargs(void)
{
	struct bp_kernel_paths p = { .btf_dir = "/nonexistent/btf" };

	use_kernel("");
	bp_kernel__set_paths(kernel, &p);
	/* perf's fetch arguments need no types */
	RESOLVE_OK("func=f1 $arg2 %si +8(%di)");
	check_reg(0, BP_REG_RSI, 8, false);
	CHECK_STR(pts[0].type_name[0], "u64");
	CHECK(pts[0].source && strstr(pts[0].source, "untyped"), "source %s", pts[0].source);
	RESOLVE_FAILS("func=f1 $arg1->id", "needs the kernel's types");
}

/* ---- DWARF: a test target standing in for vmlinux -------------------------- */

static void test_dwarf(const char *variant, bool O0)
{
	char path[256];

	snprintf(path, sizeof(path), "build/targets/args-%s", variant);
	use_kernel(path);
	RESOLVE_OK("func=handle_req req->hdr->len@user req->id");
	CHECK_INT(npts, 1);
	CHECK(pts[0].kernel, "not a kernel point");
	CHECK(pts[0].source && !strncmp(pts[0].source, "DWARF ", 6), "source %s",
	      pts[0].source);
	CHECK_STR(pts[0].binary, path);
	/* -O0 is probed past its prologue: a non-zero offset into the symbol */
	CHECK(O0 ? pts[0].offset > 0 : pts[0].offset == 0, "offset %llu",
	      (unsigned long long)pts[0].offset);
	CHECK_INT(pts[0].kaddr, 0);
	if (O0) {
		/* req lives in a kernel stack slot: that read stays kernel */
		CHECK_INT(arg(0)->nderef, 3);
		CHECK_INT(arg(0)->user_mask, 0x6);
		CHECK_INT(arg(1)->user_mask, 0);
	} else {
		CHECK_INT(arg(0)->nderef, 2);
		CHECK_INT(arg(0)->user_mask, 0x3);
		CHECK_INT(arg(1)->user_mask, 0);
	}
	CHECK_INT(arg(0)->size, 4);
	CHECK_INT(arg(0)->is_signed, true);
	RESOLVE_OK("func=neg_args%return $retval");
	CHECK_INT(arg(0)->reg, BP_REG_RAX);
	RESOLVE_FAILS("func=handle_req nope", "no parameter");
}

static void test_dwarf_gcc_O0(void)
{
	test_dwarf("gcc-O0", true);
}

static void test_dwarf_gcc_O2(void)
{
	test_dwarf("gcc-O2", false);
}

/* Two static functions named twin (twin_a.c, twin_b.c): DWARF's link-time
 * addresses are paired with kallsyms' run-time ones, KASLR moving both alike. */
static void test_dwarf_twins(void)
{
	const char *bin = "build/targets/args-gcc-O2";
	unsigned long long addr[2];
	char line[256], cmd[300], ks[400];
	int n = 0;
	FILE *p, *f;

	snprintf(cmd, sizeof(cmd), "nm %s 2>/dev/null", bin);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p) && n < 2) {
		unsigned long long a;
		char t, name[64];

		if (sscanf(line, "%llx %c %63s", &a, &t, name) == 3 && !strcmp(name, "twin"))
			addr[n++] = a;
	}
	if (p)
		pclose(p);
	CHECK(n == 2, "%d functions named twin in %s (nm)", n, bin);
	if (n != 2)
		return;
	/* the run-time copy, moved by 0xffffffff80000000; listed in reverse */
	snprintf(ks, sizeof(ks), "%s/kallsyms-twins", dir);
	f = fopen(ks, "w");
	fprintf(f, "%llx t twin\n%llx t twin\n", addr[1] + 0xffffffff80000000ull,
		addr[0] + 0xffffffff80000000ull);
	fclose(f);

	use_kernel(bin);
	{
		struct bp_kernel_paths kp = { .kallsyms = ks, .filter_functions = "/nonexistent" };

		bp_kernel__set_paths(kernel, &kp);
	}
	RESOLVE_OK("func=twin x");
	CHECK_INT(npts, 2);
	CHECK_INT(pts[0].kaddr, (addr[0] < addr[1] ? addr[0] : addr[1]) + 0xffffffff80000000ull);
	CHECK_INT(pts[1].kaddr, (addr[0] < addr[1] ? addr[1] : addr[0]) + 0xffffffff80000000ull);
	CHECK_INT(pts[0].plan.args[0].base, BP_BASE_REG);

	/* a kallsyms whose copies are not moved alike is not this binary */
	f = fopen(ks, "w");
	fprintf(f, "%llx t twin\n%llx t twin\n", addr[0] + 0xffffffff80000000ull,
		addr[1] + 0xffffffff80001000ull);
	fclose(f);
	use_kernel(bin);
	{
		struct bp_kernel_paths kp = { .kallsyms = ks, .filter_functions = "/nonexistent" };

		bp_kernel__set_paths(kernel, &kp);
	}
	RESOLVE_FAILS("func=twin x", "do not match the running kernel's");
}

/* A module's debug file is relocatable (ET_REL), like an object file. */
static void test_dwarf_relocatable(void)
{
	char obj[400], cmd[600];

	snprintf(obj, sizeof(obj), "%s/args.o", dir);
	snprintf(cmd, sizeof(cmd), "cc -c -g -O2 -o %s tests/targets/args/main.c 2>/dev/null", obj);
	CHECK(!system(cmd), "cannot compile tests/targets/args/main.c");
	use_kernel(obj);
	RESOLVE_OK("func=handle_req req->hdr->len@user");
	CHECK(pts[0].source && strstr(pts[0].source, "args.o"), "source %s", pts[0].source);
	CHECK_INT(pts[0].offset, 0);
	CHECK_INT(arg(0)->reg, BP_REG_RDI);
	CHECK_INT(arg(0)->nderef, 2);
	CHECK_INT(arg(0)->deref_off[0], 8);
	CHECK_INT(arg(0)->deref_off[1], 4);
	CHECK_INT(arg(0)->user_mask, 3);
	RESOLVE_OK("func=neg_args+4 b");
	CHECK_INT(pts[0].offset, 4);
}

/* ---- the host kernel's own BTF --------------------------------------------- */

static bool host_btf(void)
{
	return !access("/sys/kernel/btf/vmlinux", R_OK) && !access(BP_KALLSYMS_PATH, R_OK);
}

static void test_host_kernel(void)
{
	struct bp_kernel_paths p = { .vmlinux = "" };

	bp_kernel__free(kernel);
	kernel = bp_kernel__new();
	bp_kernel__set_paths(kernel, &p);
	msgs[0] = '\0';
	if (resolve("func=null_lseek file->f_mode offset orig")) {
		CHECK(strstr(msgs, "not probeable") || strstr(msgs, "no such function"),
		      "null_lseek: %s", msgs);
		return;
	}
	CHECK(pts[0].source && strstr(pts[0].source, "BTF /sys/kernel/btf/vmlinux"),
	      "source %s", pts[0].source);
	CHECK_INT(arg(0)->reg, BP_REG_RDI);
	CHECK_INT(arg(0)->nderef, 1);
	CHECK_INT(arg(0)->size, 4);
	CHECK_INT(arg(0)->is_signed, false);
	CHECK_INT(arg(0)->user_mask, 0);
	check_reg(1, BP_REG_RSI, 8, true);	/* loff_t */
	check_reg(2, BP_REG_RDX, 4, true);

	/* the seed */
	RESOLVE_OK("func=do_sched_setscheduler param->sched_priority@user");
	CHECK_INT(arg(0)->reg, BP_REG_RDX);
	CHECK_INT(arg(0)->nderef, 1);
	CHECK_INT(arg(0)->deref_off[0], 0);
	CHECK_INT(arg(0)->user_mask, 1);
	CHECK_INT(arg(0)->size, 4);
	CHECK_INT(arg(0)->is_signed, true);
	RESOLVE_FAILS("func=do_sched_setscheduler param->nope@user",
		      "struct sched_param has no member 'nope' (members: sched_priority)");
}

int main(void)
{
	bpfprobe_set_print(capture);
	if (setup()) {
		printf("FAIL setup: cannot write the synthetic kernel in %s\n", dir);
		teardown();
		return 1;
	}
	resolver = fixture_resolver();
	RUN(test_kallsyms);
	RUN(test_btf_params);
	RUN(test_btf_casts);
	RUN(test_btf_members);
	RUN(test_btf_member_errors);
	RUN(test_btf_user);
	RUN(test_btf_retval);
	RUN(test_functions);
	RUN(test_module);
	RUN(test_btf_forward);
	RUN(test_no_btf);
	RUN(test_btf_fetchargs);
	RUN(test_no_btf_fetchargs);
	/* test targets stand in for a vmlinux with DWARF */
	if (access("build/targets/args-gcc-O0", R_OK) || access("build/targets/args-gcc-O2", R_OK)) {
		SKIP(test_dwarf, "build/targets/args-* not built (make tests-build)");
	} else {
		RUN(test_dwarf_gcc_O0);
		RUN(test_dwarf_gcc_O2);
		RUN(test_dwarf_twins);
		RUN(test_dwarf_relocatable);
	}
	if (host_btf())
		RUN(test_host_kernel);
	else
		SKIP(test_host_kernel, "no /sys/kernel/btf/vmlinux (kernel without BTF)");
	bp_points__free(pts, npts);
	bp_kernel__free(kernel);
	bp_resolver__free(resolver);
	bp_debuginfo_cache__clear(&dcache);
	teardown();
	return TEST_EXIT();
}
