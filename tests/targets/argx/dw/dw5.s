# A function whose DWARF 5 is written by hand: location lists in
# .debug_loclists holding DW_OP_GNU_uninit, gcc's mark of a variable not
# initialized yet, which Debian's libdw 0.188 refuses ("invalid DWARF"):
# at the end of an entry, before DW_OP_piece and DW_OP_stack_value, next
# to operands with a 0xf0 byte. The lists use every DW_LLE_* kind and are
# reached through DW_FORM_loclistx (the unit's DW_AT_loclists_base) and
# DW_FORM_sec_offset, their addresses through .debug_addr (DW_AT_addr_base).
# main.c calls dw_uninit and prints the truth (tests/e2e/argx.sh);
# tests/unit/test_loclist.c reads the lists.
# Assembled without -g: this file is its own compilation unit.

	.text
.Lu_text0:

# long dw_uninit(long a, long b)
	.globl	dw_uninit
	.type	dw_uninit, @function
dw_uninit:
	leaq	-240(%rdi), %rax
.Lu_1:
	addq	$240, %rax
	addq	%rsi, %rax
	ret
.Lu_end:
	.size	dw_uninit, .-dw_uninit

# ---- abbreviations -------------------------------------------------------
	.section	.debug_abbrev,"",@progbits
.Lu_abbrev:
	.uleb128 1		# compile unit
	.uleb128 0x11
	.byte	1
	.uleb128 0x25, 0x08	# producer, string
	.uleb128 0x13, 0x05	# language, data2
	.uleb128 0x03, 0x08	# name, string
	.uleb128 0x11, 0x01	# low_pc, addr
	.uleb128 0x12, 0x07	# high_pc, data8
	.uleb128 0x73, 0x17	# addr_base, sec_offset
	.uleb128 0x8c, 0x17	# loclists_base, sec_offset
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
	.uleb128 4		# variable, location loclistx
	.uleb128 0x34
	.byte	0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x02, 0x22
	.byte	0, 0
	.uleb128 5		# variable, location sec_offset
	.uleb128 0x34
	.byte	0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x02, 0x17
	.byte	0, 0
	.uleb128 6		# structure type
	.uleb128 0x13
	.byte	1
	.uleb128 0x03, 0x08
	.uleb128 0x0b, 0x0b
	.byte	0, 0
	.uleb128 7		# member
	.uleb128 0x0d
	.byte	0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x38, 0x0b	# data_member_location, data1
	.byte	0, 0
	.byte	0

# ---- the unit ------------------------------------------------------------
	.section	.debug_info,"",@progbits
.Lu_cu:
	.long	.Lu_cu_end - .Lu_cu_version
.Lu_cu_version:
	.value	5
	.byte	1		# DW_UT_compile
	.byte	8
	.long	.Lu_abbrev
	.uleb128 1
	.string	"bpfprobe hand-written DWARF 5"
	.value	0x1d		# C11
	.string	"tests/targets/argx/dw/dw5.s"
	.quad	.Lu_text0
	.quad	.Lu_end - .Lu_text0
	.long	.Lu_addr_base
	.long	.Lu_ll_base

.Lu_t_long:
	.uleb128 2
	.string	"long int"
	.byte	8, 0x05
.Lu_t_pair:
	.uleb128 6
	.string	"upair"
	.byte	16
	.uleb128 7
	.string	"x"
	.long	.Lu_t_long - .Lu_cu
	.byte	0
	.uleb128 7
	.string	"y"
	.long	.Lu_t_long - .Lu_cu
	.byte	8
	.byte	0

	# long dw_uninit(long a, long b)
	.uleb128 3
	.string	"dw_uninit"
	.quad	dw_uninit
	.quad	.Lu_end - dw_uninit
	.long	.Lu_t_long - .Lu_cu
	.uleb128 4
	.string	"x"		# a, then rax + 240 (= a)
	.long	.Lu_t_long - .Lu_cu
	.uleb128 0		# loclists index 0
	.uleb128 5
	.string	"pr"		# { a, b }
	.long	.Lu_t_pair - .Lu_cu
	.long	.Lu_ll_pr
	.uleb128 5
	.string	"k"		# 240
	.long	.Lu_t_long - .Lu_cu
	.long	.Lu_ll_k
	.uleb128 5
	.string	"w"		# a, then b (the default location)
	.long	.Lu_t_long - .Lu_cu
	.long	.Lu_ll_w
	.byte	0
	.byte	0
.Lu_cu_end:

# ---- addresses (DW_LLE_*x kinds) ------------------------------------------
	.section	.debug_addr,"",@progbits
	.long	.Lu_addr_end - .Lu_addr_version
.Lu_addr_version:
	.value	5
	.byte	8, 0
.Lu_addr_base:
	.quad	dw_uninit	# 0
	.quad	.Lu_1		# 1
	.quad	.Lu_end		# 2
.Lu_addr_end:

# ---- location lists --------------------------------------------------------
# An expression: .uleb128 length, then the ops.
	.macro	uexpr_begin n
	.uleb128 .Lue\n - .Lus\n
.Lus\n:
	.endm
	.macro	uexpr_end n
.Lue\n:
	.endm

	.section	.debug_loclists,"",@progbits
	.long	.Lu_ll_end - .Lu_ll_version
.Lu_ll_version:
	.value	5
	.byte	8, 0
	.long	1		# offset entry count
.Lu_ll_base:
	.long	.Lu_ll_x - .Lu_ll_base
.Lu_ll_x:
	.byte	0x01		# DW_LLE_base_addressx 0 (dw_uninit)
	.uleb128 0
	.byte	0x04		# DW_LLE_offset_pair
	.uleb128 0
	.uleb128 .Lu_1 - dw_uninit
	uexpr_begin 1
	.byte	0x55, 0xf0	# DW_OP_reg5 DW_OP_GNU_uninit
	uexpr_end 1
	.byte	0x04		# DW_LLE_offset_pair
	.uleb128 .Lu_1 - dw_uninit
	.uleb128 .Lu_end - dw_uninit
	uexpr_begin 2
	.byte	0x70, 0		# DW_OP_breg0 0
	.byte	0x23, 0xf0, 0x01	# DW_OP_plus_uconst 240
	.byte	0x9f, 0xf0	# DW_OP_stack_value DW_OP_GNU_uninit
	uexpr_end 2
	.byte	0		# DW_LLE_end_of_list
.Lu_ll_pr:
	.byte	0x03		# DW_LLE_startx_length 0 (dw_uninit)
	.uleb128 0
	.uleb128 .Lu_1 - dw_uninit
	uexpr_begin 3
	.byte	0x55, 0xf0, 0x93, 8	# DW_OP_reg5 DW_OP_GNU_uninit DW_OP_piece 8
	.byte	0x54, 0xf0, 0x93, 8	# DW_OP_reg4 DW_OP_GNU_uninit DW_OP_piece 8
	uexpr_end 3
	.byte	0x07		# DW_LLE_start_end
	.quad	.Lu_1
	.quad	.Lu_end
	uexpr_begin 4
	.byte	0x55, 0x93, 8	# DW_OP_reg5 DW_OP_piece 8
	.byte	0x54, 0xf0, 0x93, 8	# DW_OP_reg4 DW_OP_GNU_uninit DW_OP_piece 8
	uexpr_end 4
	.byte	0
.Lu_ll_k:
	.byte	0x06		# DW_LLE_base_address
	.quad	dw_uninit
	.byte	0x04		# DW_LLE_offset_pair
	.uleb128 0
	.uleb128 .Lu_1 - dw_uninit
	uexpr_begin 5
	.byte	0x08, 0xf0	# DW_OP_const1u 240
	.byte	0x9f, 0xf0	# DW_OP_stack_value DW_OP_GNU_uninit
	uexpr_end 5
	.byte	0x02		# DW_LLE_startx_endx 1 2 (.Lu_1, .Lu_end)
	.uleb128 1
	.uleb128 2
	uexpr_begin 6
	.byte	0x10, 0xf0, 0x01	# DW_OP_constu 240
	.byte	0xf0, 0x9f	# DW_OP_GNU_uninit DW_OP_stack_value
	uexpr_end 6
	.byte	0
.Lu_ll_w:
	.byte	0x08		# DW_LLE_start_length
	.quad	dw_uninit
	.uleb128 .Lu_1 - dw_uninit
	uexpr_begin 7
	.byte	0x55, 0xf0	# DW_OP_reg5 DW_OP_GNU_uninit
	uexpr_end 7
	.byte	0x05		# DW_LLE_default_location
	uexpr_begin 8
	.byte	0x54		# DW_OP_reg4
	uexpr_end 8
	.byte	0
.Lu_ll_end:

	.section	.note.GNU-stack,"",@progbits
