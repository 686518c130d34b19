# Test functions whose DWARF is written by hand, so that the location
# forms compilers emit only now and then are there in every build:
# DW_OP_entry_value at the entry, multi-op expressions (breg + deref +
# offset), pieces and bit pieces (registers and memory), constants
# (DW_AT_const_value sdata/data1/block, DW_OP_implicit_value, stack
# values), globals (DW_OP_addr), shifts, masks and conversions, a double
# in xmm0 that is spilled later, a thread-local variable, a location list
# with DW_OP_GNU_uninit (and dw5.s: the same in DWARF 5).
# main.c calls each function and prints the truth (see tests/e2e/argx.sh).
# Assembled without -g: this file is its own compilation unit (DWARF 4).

	.text
.Ltext0:

# long dw_entry(long a, long b): a and b are only "entry values"
	.globl	dw_entry
	.type	dw_entry, @function
dw_entry:
	nop
	leaq	(%rdi,%rsi), %rax
	ret
.Ldw_entry_end:
	.size	dw_entry, .-dw_entry

# long dw_chain(struct box *p): locals at *(p + 8) + 4 and p + 16
	.globl	dw_chain
	.type	dw_chain, @function
dw_chain:
	movq	8(%rdi), %rax
	movslq	4(%rax), %rax
	ret
.Ldw_chain_end:
	.size	dw_chain, .-dw_chain

# long dw_pieces(long x): struct quad s = { x >> 32, (int)x, <gone> }
	.globl	dw_pieces
	.type	dw_pieces, @function
dw_pieces:
	movq	%rdi, %rax
	ret
.Ldw_pieces_end:
	.size	dw_pieces, .-dw_pieces

# long dw_mixed(long r, int *m): struct pt t = { (int)r, *m }
	.globl	dw_mixed
	.type	dw_mixed, @function
dw_mixed:
	movslq	(%rsi), %rax
	ret
.Ldw_mixed_end:
	.size	dw_mixed, .-dw_mixed

# long dw_consts(void): constants only
	.globl	dw_consts
	.type	dw_consts, @function
dw_consts:
	xorl	%eax, %eax
	ret
.Ldw_consts_end:
	.size	dw_consts, .-dw_consts

# long dw_global(void): gv is dw_gvar[1]
	.globl	dw_global
	.type	dw_global, @function
dw_global:
	movq	8+dw_gvar(%rip), %rax
	ret
.Ldw_global_end:
	.size	dw_global, .-dw_global

# long dw_float(double d): d2 is in xmm0, then spilled at rsp-8
	.globl	dw_float
	.type	dw_float, @function
dw_float:
	movsd	%xmm0, -8(%rsp)
.Ldw_float_spilled:
	movq	-8(%rsp), %rax
	ret
.Ldw_float_end:
	.size	dw_float, .-dw_float

# long dw_shr(long x, unsigned short *p): bits of x, and a 2-byte read
	.globl	dw_shr
	.type	dw_shr, @function
dw_shr:
	movq	%rdi, %rax
	ret
.Ldw_shr_end:
	.size	dw_shr, .-dw_shr

# long dw_uninit4(long a): y = a + 240 is marked DW_OP_GNU_uninit
	.globl	dw_uninit4
	.type	dw_uninit4, @function
dw_uninit4:
	leaq	240(%rdi), %rax
.Ldw_uninit4_1:
	ret
.Ldw_uninit4_end:
	.size	dw_uninit4, .-dw_uninit4
.Ltext_end:

	.data
	.align	8
	.globl	dw_gvar
	.type	dw_gvar, @object
dw_gvar:
	.quad	111, 222
	.size	dw_gvar, 16
	.type	dw_static, @object
dw_static:
	.quad	-31337
	.size	dw_static, 8
	.globl	dw_static_get
	.text
	.type	dw_static_get, @function
dw_static_get:
	movq	dw_static(%rip), %rax
	ret
	.size	dw_static_get, .-dw_static_get

# ---- abbreviations -------------------------------------------------------
	.section	.debug_abbrev,"",@progbits
.Labbrev:
	.uleb128 1		# compile unit
	.uleb128 0x11
	.byte	1
	.uleb128 0x25, 0x08	# producer, string
	.uleb128 0x13, 0x05	# language, data2
	.uleb128 0x03, 0x08	# name, string
	.uleb128 0x11, 0x01	# low_pc, addr
	.uleb128 0x12, 0x07	# high_pc, data8
	.byte	0, 0
	.uleb128 2		# base type
	.uleb128 0x24
	.byte	0
	.uleb128 0x03, 0x08
	.uleb128 0x0b, 0x0b	# byte_size, data1
	.uleb128 0x3e, 0x0b	# encoding, data1
	.byte	0, 0
	.uleb128 3		# subprogram
	.uleb128 0x2e
	.byte	1
	.uleb128 0x03, 0x08
	.uleb128 0x3f, 0x19	# external, flag_present
	.uleb128 0x11, 0x01
	.uleb128 0x12, 0x07
	.uleb128 0x49, 0x13	# type, ref4
	.byte	0, 0
	.uleb128 4		# parameter, exprloc
	.uleb128 0x05
	.byte	0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x02, 0x18	# location, exprloc
	.byte	0, 0
	.uleb128 5		# parameter, location list
	.uleb128 0x05
	.byte	0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x02, 0x17	# location, sec_offset
	.byte	0, 0
	.uleb128 6		# variable, exprloc
	.uleb128 0x34
	.byte	0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x02, 0x18
	.byte	0, 0
	.uleb128 7		# variable, const_value block1
	.uleb128 0x34
	.byte	0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x1c, 0x0a
	.byte	0, 0
	.uleb128 8		# variable, const_value sdata
	.uleb128 0x34
	.byte	0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x1c, 0x0d
	.byte	0, 0
	.uleb128 9		# structure type
	.uleb128 0x13
	.byte	1
	.uleb128 0x03, 0x08
	.uleb128 0x0b, 0x0b
	.byte	0, 0
	.uleb128 10		# member
	.uleb128 0x0d
	.byte	0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x38, 0x0b	# data_member_location, data1
	.byte	0, 0
	.uleb128 11		# pointer type
	.uleb128 0x0f
	.byte	0
	.uleb128 0x0b, 0x0b
	.uleb128 0x49, 0x13
	.byte	0, 0
	.uleb128 12		# global variable, exprloc
	.uleb128 0x34
	.byte	0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x3f, 0x19
	.uleb128 0x02, 0x18
	.byte	0, 0
	.uleb128 13		# variable, const_value data1
	.uleb128 0x34
	.byte	0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x1c, 0x0b
	.byte	0, 0
	.uleb128 14		# parameter without a location
	.uleb128 0x05
	.byte	0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.byte	0, 0
	.uleb128 15		# variable, location list
	.uleb128 0x34
	.byte	0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x02, 0x17
	.byte	0, 0
	.byte	0

# A location: .uleb128 length, then the ops.
	.macro	loc_begin n
	.uleb128 .Lle\n - .Lls\n
.Lls\n:
	.endm
	.macro	loc_end n
.Lle\n:
	.endm

# ---- the unit ------------------------------------------------------------
	.section	.debug_info,"",@progbits
.Lcu:
	.long	.Lcu_end - .Lcu_version
.Lcu_version:
	.value	4
	.long	.Labbrev
	.byte	8
	.uleb128 1
	.string	"bpfprobe hand-written DWARF"
	.value	0x0c		# C99
	.string	"tests/targets/argx/dw/dw.s"
	.quad	.Ltext0
	.quad	.Ltext_end - .Ltext0

.Lt_long:
	.uleb128 2
	.string	"long int"
	.byte	8, 0x05
.Lt_int:
	.uleb128 2
	.string	"int"
	.byte	4, 0x05
.Lt_u16:
	.uleb128 2
	.string	"short unsigned int"
	.byte	2, 0x07
.Lt_s32:
	.uleb128 2
	.string	"s32"
	.byte	4, 0x05
.Lt_schar:
	.uleb128 2
	.string	"signed char"
	.byte	1, 0x06
.Lt_double:
	.uleb128 2
	.string	"double"
	.byte	8, 0x04
.Lt_two:
	.uleb128 9
	.string	"two"
	.byte	8
	.uleb128 10
	.string	"first"
	.long	.Lt_int - .Lcu
	.byte	0
	.uleb128 10
	.string	"second"
	.long	.Lt_int - .Lcu
	.byte	4
	.byte	0
.Lt_two_ptr:
	.uleb128 11
	.byte	8
	.long	.Lt_two - .Lcu
.Lt_box:
	.uleb128 9
	.string	"box"
	.byte	16
	.uleb128 10
	.string	"tag"
	.long	.Lt_long - .Lcu
	.byte	0
	.uleb128 10
	.string	"ptr"
	.long	.Lt_two_ptr - .Lcu
	.byte	8
	.byte	0
.Lt_box_ptr:
	.uleb128 11
	.byte	8
	.long	.Lt_box - .Lcu
.Lt_quad:
	.uleb128 9
	.string	"quad"
	.byte	16
	.uleb128 10
	.string	"a"
	.long	.Lt_int - .Lcu
	.byte	0
	.uleb128 10
	.string	"b"
	.long	.Lt_int - .Lcu
	.byte	4
	.uleb128 10
	.string	"c"
	.long	.Lt_long - .Lcu
	.byte	8
	.byte	0
.Lt_pt:
	.uleb128 9
	.string	"pt"
	.byte	8
	.uleb128 10
	.string	"x"
	.long	.Lt_int - .Lcu
	.byte	0
	.uleb128 10
	.string	"y"
	.long	.Lt_int - .Lcu
	.byte	4
	.byte	0
.Lt_pair:
	.uleb128 9
	.string	"pair"
	.byte	16
	.uleb128 10
	.string	"x"
	.long	.Lt_long - .Lcu
	.byte	0
	.uleb128 10
	.string	"y"
	.long	.Lt_long - .Lcu
	.byte	8
	.byte	0
.Lt_int_ptr:
	.uleb128 11
	.byte	8
	.long	.Lt_int - .Lcu
.Lt_u16_ptr:
	.uleb128 11
	.byte	8
	.long	.Lt_u16 - .Lcu

	# long dw_entry(long a, long b)
	.uleb128 3
	.string	"dw_entry"
	.quad	dw_entry
	.quad	.Ldw_entry_end - dw_entry
	.long	.Lt_long - .Lcu
	.uleb128 4
	.string	"a"
	.long	.Lt_long - .Lcu
	loc_begin 1
	.byte	0xf3, 1, 0x55		# DW_OP_GNU_entry_value(DW_OP_reg5)
	.byte	0x9f			# DW_OP_stack_value
	loc_end 1
	.uleb128 4
	.string	"b"
	.long	.Lt_long - .Lcu
	loc_begin 2
	.byte	0xf3, 2, 0x74, 0x7f	# DW_OP_GNU_entry_value(DW_OP_breg4 -1)
	.byte	0x23, 1			# DW_OP_plus_uconst 1
	.byte	0x9f
	loc_end 2
	.uleb128 14
	.string	"gone"
	.long	.Lt_long - .Lcu
	.byte	0

	# long dw_chain(struct box *p)
	.uleb128 3
	.string	"dw_chain"
	.quad	dw_chain
	.quad	.Ldw_chain_end - dw_chain
	.long	.Lt_long - .Lcu
	.uleb128 4
	.string	"p"
	.long	.Lt_box_ptr - .Lcu
	loc_begin 3
	.byte	0x55			# DW_OP_reg5
	loc_end 3
	.uleb128 6
	.string	"inner"
	.long	.Lt_int - .Lcu
	loc_begin 4
	.byte	0x75, 8			# DW_OP_breg5 8
	.byte	0x06			# DW_OP_deref
	.byte	0x23, 4			# DW_OP_plus_uconst 4
	loc_end 4
	.uleb128 6
	.string	"end"
	.long	.Lt_long - .Lcu
	loc_begin 5
	.byte	0x75, 16		# DW_OP_breg5 16
	.byte	0x9f
	loc_end 5
	.byte	0

	# long dw_pieces(long x)
	.uleb128 3
	.string	"dw_pieces"
	.quad	dw_pieces
	.quad	.Ldw_pieces_end - dw_pieces
	.long	.Lt_long - .Lcu
	.uleb128 4
	.string	"s"
	.long	.Lt_quad - .Lcu
	loc_begin 6
	.byte	0x55, 0x9d, 32, 32	# DW_OP_reg5 DW_OP_bit_piece 32 32
	.byte	0x55, 0x93, 4		# DW_OP_reg5 DW_OP_piece 4
	.byte	0x93, 8			# DW_OP_piece 8 (missing)
	loc_end 6
	.byte	0

	# long dw_mixed(long r, int *m)
	.uleb128 3
	.string	"dw_mixed"
	.quad	dw_mixed
	.quad	.Ldw_mixed_end - dw_mixed
	.long	.Lt_long - .Lcu
	.uleb128 4
	.string	"t"
	.long	.Lt_pt - .Lcu
	loc_begin 7
	.byte	0x55, 0x93, 4		# DW_OP_reg5 DW_OP_piece 4
	.byte	0x74, 0, 0x93, 4	# DW_OP_breg4 0 DW_OP_piece 4
	loc_end 7
	.byte	0

	# long dw_consts(void)
	.uleb128 3
	.string	"dw_consts"
	.quad	dw_consts
	.quad	.Ldw_consts_end - dw_consts
	.long	.Lt_long - .Lcu
	.uleb128 8
	.string	"k"
	.long	.Lt_long - .Lcu
	.sleb128 -42
	.uleb128 7
	.string	"blk"
	.long	.Lt_pair - .Lcu
	.byte	16
	.quad	0x1122334455667788, -2
	.uleb128 6
	.string	"iv"
	.long	.Lt_int - .Lcu
	loc_begin 8
	.byte	0x9e, 4			# DW_OP_implicit_value 4
	.long	-7
	loc_end 8
	.uleb128 6
	.string	"sv"
	.long	.Lt_long - .Lcu
	loc_begin 9
	.byte	0x35, 0x33, 0x1c, 0x9f	# DW_OP_lit5 DW_OP_lit3 DW_OP_minus DW_OP_stack_value
	loc_end 9
	.uleb128 6
	.string	"cv"
	.long	.Lt_int - .Lcu
	loc_begin 10
	.byte	0x0d			# DW_OP_const4s
	.long	-100000
	.byte	0x9f
	loc_end 10
	.uleb128 13
	.string	"u8v"
	.long	.Lt_schar - .Lcu
	.byte	0xfe
	.byte	0

	# long dw_global(void)
	.uleb128 3
	.string	"dw_global"
	.quad	dw_global
	.quad	.Ldw_global_end - dw_global
	.long	.Lt_long - .Lcu
	.uleb128 6
	.string	"gv"
	.long	.Lt_long - .Lcu
	loc_begin 11
	.byte	0x03			# DW_OP_addr
	.quad	dw_gvar
	.byte	0x23, 8			# DW_OP_plus_uconst 8
	loc_end 11
	.uleb128 6
	.string	"tls"
	.long	.Lt_int - .Lcu
	loc_begin 12
	.byte	0x0e			# DW_OP_const8u
	.quad	16
	.byte	0xe0			# DW_OP_GNU_push_tls_address
	loc_end 12
	.byte	0

	# long dw_float(double d)
	.uleb128 3
	.string	"dw_float"
	.quad	dw_float
	.quad	.Ldw_float_end - dw_float
	.long	.Lt_long - .Lcu
	.uleb128 4
	.string	"d"
	.long	.Lt_double - .Lcu
	loc_begin 13
	.byte	0x61			# DW_OP_reg17 (xmm0)
	loc_end 13
	.uleb128 15
	.string	"d2"
	.long	.Lt_double - .Lcu
	.long	.Lloc_d2
	.byte	0

	# long dw_shr(long x, unsigned short *p)
	.uleb128 3
	.string	"dw_shr"
	.quad	dw_shr
	.quad	.Ldw_shr_end - dw_shr
	.long	.Lt_long - .Lcu
	.uleb128 6
	.string	"hw"
	.long	.Lt_u16 - .Lcu
	loc_begin 14
	.byte	0x75, 0, 0x40, 0x25	# DW_OP_breg5 0 DW_OP_lit16 DW_OP_shr
	.byte	0xf7			# DW_OP_GNU_convert <unsigned short>
	.uleb128 .Lt_u16 - .Lcu
	.byte	0x9f
	loc_end 14
	.uleb128 6
	.string	"lo8"
	.long	.Lt_long - .Lcu
	loc_begin 15
	.byte	0x75, 0, 0x08, 0xff, 0x1a, 0x9f	# DW_OP_breg5 0 DW_OP_const1u 255 DW_OP_and
	loc_end 15
	.uleb128 6
	.string	"sx"
	.long	.Lt_long - .Lcu
	loc_begin 16
	.byte	0x75, 0, 0xf7		# DW_OP_breg5 0 DW_OP_GNU_convert <s32>
	.uleb128 .Lt_s32 - .Lcu
	.byte	0x9f
	loc_end 16
	.uleb128 6
	.string	"ds"
	.long	.Lt_long - .Lcu
	loc_begin 17
	.byte	0x74, 0, 0x94, 2, 0x9f	# DW_OP_breg4 0 DW_OP_deref_size 2
	loc_end 17
	.byte	0

	# long dw_uninit4(long a)
	.uleb128 3
	.string	"dw_uninit4"
	.quad	dw_uninit4
	.quad	.Ldw_uninit4_end - dw_uninit4
	.long	.Lt_long - .Lcu
	.uleb128 15
	.string	"y"
	.long	.Lt_long - .Lcu
	.long	.Lloc_y
	.byte	0

	# file-scope variables
	.uleb128 12
	.string	"dw_gvar"
	.long	.Lt_long - .Lcu
	loc_begin 18
	.byte	0x03
	.quad	dw_gvar
	loc_end 18
	.uleb128 6
	.string	"dw_static"
	.long	.Lt_long - .Lcu
	loc_begin 19
	.byte	0x03
	.quad	dw_static
	loc_end 19
	.byte	0
.Lcu_end:

# ---- location lists (DWARF 4, offsets from the unit's low_pc) -----------
	.section	.debug_loc,"",@progbits
.Lloc_d2:
	.quad	dw_float - .Ltext0
	.quad	.Ldw_float_spilled - .Ltext0
	.value	1
	.byte	0x61			# DW_OP_reg17 (xmm0)
	.quad	.Ldw_float_spilled - .Ltext0
	.quad	.Ldw_float_end - .Ltext0
	.value	2
	.byte	0x77, 0x78		# DW_OP_breg7 -8
	.quad	0, 0
# y: gcc's DW_OP_GNU_uninit at the end of each entry, after a base
# address selection entry; 0xf0 is also a byte of plus_uconst's operand
.Lloc_y:
	.quad	-1, dw_uninit4
	.quad	0, .Ldw_uninit4_1 - dw_uninit4
	.value	7
	.byte	0x75, 0, 0x23, 0xf0, 0x01, 0x9f	# DW_OP_breg5 0 DW_OP_plus_uconst 240 DW_OP_stack_value
	.byte	0xf0				# DW_OP_GNU_uninit
	.quad	.Ldw_uninit4_1 - dw_uninit4, .Ldw_uninit4_end - dw_uninit4
	.value	2
	.byte	0x50, 0xf0			# DW_OP_reg0 DW_OP_GNU_uninit
	.quad	0, 0

	.section	.note.GNU-stack,"",@progbits
