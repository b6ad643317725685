@ defaults.S: weak fallback handlers for the ISA corner tests: an
@ exception a test did not expect ends it with status 99.
	.syntax unified
	.thumb
	.text
	.weak	hard_handler, usage_handler, svc_handler, pendsv_handler
	.weak	irq0_handler, irq1_handler, systick_handler
	.global	default_handler
	.thumb_func
default_handler:
hard_handler:
usage_handler:
svc_handler:
pendsv_handler:
irq0_handler:
irq1_handler:
systick_handler:
	ldr	r1, =fail_block
	movs	r0, #0x20
	bkpt	0xab
	.data
	.align	2
fail_block:
	.word	0x20026, 99
