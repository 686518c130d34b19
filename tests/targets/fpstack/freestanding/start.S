/*
 * The entry of the freestanding fpstack build (fpstack.mk): no libc, so
 * every function in the process keeps a frame pointer. rbp = 0 ends the
 * frame-pointer chain and the CFI marks the return address undefined,
 * as glibc's _start does.
 */
	.text
	.globl	_start
	.type	_start, @function
_start:
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	movq	(%rsp), %rdi		/* argc */
	leaq	8(%rsp), %rsi		/* argv */
	andq	$-16, %rsp
	call	main
	movl	%eax, %edi
	movl	$231, %eax		/* exit_group */
	syscall
	hlt
	.cfi_endproc
	.size	_start, . - _start

	.section .note.GNU-stack, "", @progbits
