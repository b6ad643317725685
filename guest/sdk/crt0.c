/*
 * crt0.c: vector table and start-up for the raptor board.
 *
 * Every core starts at Reset_Handler with SP = 0x20400000 (vector 0). The
 * handler picks this core's stack from its index, then:
 *   core 0:  copy .data, zero .bss, run constructors, publish INIT_MAGIC in
 *            a .noinit word, SEV;
 *   others:  WFE until the word holds INIT_MAGIC.
 * Then every core calls main(). Core 0 returns through exit(); the others
 * park in WFI, because SYS_EXIT from any core would end the whole run.
 */
#include <stdint.h>
#include <stdlib.h>

#include "board.h"

#define INIT_MAGIC 0x52415054u /* "RAPT" */

/* Linker script symbols (raptor.ld). */
extern uint32_t __data_start[], __data_end[], __data_load[];
extern uint32_t __bss_start[], __bss_end[];
extern uint32_t __stack_top[];

extern void __libc_init_array(void);
int main(void);

void Reset_Handler(void);
void Default_Handler(void);
_Noreturn void crt0_start(unsigned core);

/*
 * Written by core 0 only after .data/.bss are ready. It lives in .noinit so
 * zeroing .bss cannot race with a secondary core that is already polling.
 */
static volatile uint32_t init_flag __attribute__((section(".noinit")));

/* Every handler is weak: a workload overrides one by defining it. */
#define WEAK_HANDLER(name) void name(void) __attribute__((weak, alias("Default_Handler")))
WEAK_HANDLER(NMI_Handler);
WEAK_HANDLER(HardFault_Handler);
WEAK_HANDLER(MemManage_Handler);
WEAK_HANDLER(BusFault_Handler);
WEAK_HANDLER(UsageFault_Handler);
WEAK_HANDLER(SVC_Handler);
WEAK_HANDLER(DebugMon_Handler);
WEAK_HANDLER(PendSV_Handler);
WEAK_HANDLER(SysTick_Handler);
WEAK_HANDLER(IRQ0_Handler);
WEAK_HANDLER(IRQ1_Handler);
WEAK_HANDLER(IRQ2_Handler);
WEAK_HANDLER(IRQ3_Handler);
WEAK_HANDLER(IRQ4_Handler);
WEAK_HANDLER(IRQ5_Handler);
WEAK_HANDLER(IRQ6_Handler);
WEAK_HANDLER(IRQ7_Handler);
WEAK_HANDLER(IRQ8_Handler);
WEAK_HANDLER(IRQ9_Handler);
WEAK_HANDLER(IRQ10_Handler);
WEAK_HANDLER(IRQ11_Handler);
WEAK_HANDLER(IRQ12_Handler);
WEAK_HANDLER(IRQ13_Handler);
WEAK_HANDLER(IRQ14_Handler);
WEAK_HANDLER(IRQ15_Handler);
WEAK_HANDLER(IRQ16_Handler);
WEAK_HANDLER(IRQ17_Handler);
WEAK_HANDLER(IRQ18_Handler);
WEAK_HANDLER(IRQ19_Handler);
WEAK_HANDLER(IRQ20_Handler);
WEAK_HANDLER(IRQ21_Handler);
WEAK_HANDLER(IRQ22_Handler);
WEAK_HANDLER(IRQ23_Handler);
WEAK_HANDLER(IRQ24_Handler);
WEAK_HANDLER(IRQ25_Handler);
WEAK_HANDLER(IRQ26_Handler);
WEAK_HANDLER(IRQ27_Handler);
WEAK_HANDLER(IRQ28_Handler);
WEAK_HANDLER(IRQ29_Handler);
WEAK_HANDLER(IRQ30_Handler);
WEAK_HANDLER(IRQ31_Handler);

typedef void (*vector_t)(void);

/* 16 system entries + BOARD_NUM_IRQS; KEEP'd at address 0 by raptor.ld. */
__attribute__((section(".vectors"), used)) const vector_t raptor_vectors[16 + BOARD_NUM_IRQS] = {
	(vector_t)__stack_top, /* core 0's initial SP; Reset_Handler fixes the rest */
	Reset_Handler,
	NMI_Handler,
	HardFault_Handler,
	MemManage_Handler,
	BusFault_Handler,
	UsageFault_Handler,
	0,
	0,
	0,
	0,
	SVC_Handler,
	DebugMon_Handler,
	0,
	PendSV_Handler,
	SysTick_Handler,
	IRQ0_Handler,
	IRQ1_Handler,
	IRQ2_Handler,
	IRQ3_Handler,
	IRQ4_Handler,
	IRQ5_Handler,
	IRQ6_Handler,
	IRQ7_Handler,
	IRQ8_Handler,
	IRQ9_Handler,
	IRQ10_Handler,
	IRQ11_Handler,
	IRQ12_Handler,
	IRQ13_Handler,
	IRQ14_Handler,
	IRQ15_Handler,
	IRQ16_Handler,
	IRQ17_Handler,
	IRQ18_Handler,
	IRQ19_Handler,
	IRQ20_Handler,
	IRQ21_Handler,
	IRQ22_Handler,
	IRQ23_Handler,
	IRQ24_Handler,
	IRQ25_Handler,
	IRQ26_Handler,
	IRQ27_Handler,
	IRQ28_Handler,
	IRQ29_Handler,
	IRQ30_Handler,
	IRQ31_Handler,
};

/*
 * Naked: no stack may be touched before SP is this core's. Core i's stack
 * top is __stack_top - i * BOARD_CORE_STACK (16 KiB = 1 << 14).
 */
#if defined(__ARM_ARCH_6M__)
/*
 * ARMv6-M (the Cortex-M0+ builds, m0plus.ld) has no MOVW/MOVT and no
 * shifted-register SUB, and no LDREX/STREX for the SDK's locks: its builds
 * are single-core, so SP is __stack_top. The literals follow the code
 * (.ltorg), and BX reaches crt0_start wherever it is linked (a 16-bit B
 * reaches +-2 KiB only).
 */
#if !RAPTOR_SINGLE_CORE
#error "ARMv6-M builds are single-core only (-DRAPTOR_SINGLE_CORE=1)"
#endif
__attribute__((naked, noreturn)) void Reset_Handler(void)
{
	__asm__ volatile("ldr     r1, =__stack_top\n\t"
			 "mov     sp, r1\n\t"
			 "movs    r0, #0\n\t"
			 "ldr     r1, =crt0_start\n\t"
			 "bx      r1\n\t"
			 ".ltorg");
}
#else
__attribute__((naked, noreturn)) void Reset_Handler(void)
{
	__asm__ volatile(
#if RAPTOR_SINGLE_CORE
		"movs    r0, #0\n\t"
#else
		"movw    r1, #:lower16:0xD0000000\n\t"
		"movt    r1, #:upper16:0xD0000000\n\t"
		"ldr     r0, [r1]\n\t"
#endif
		"movw    r1, #:lower16:__stack_top\n\t"
		"movt    r1, #:upper16:__stack_top\n\t"
		"sub     r1, r1, r0, lsl #14\n\t"
		"mov     sp, r1\n\t"
#if defined(__ARM_FP)
		/* hard float: CPACR grants CP10/CP11 before any FP instruction */
		"movw    r2, #:lower16:0xE000ED88\n\t"
		"movt    r2, #:upper16:0xE000ED88\n\t"
		"ldr     r3, [r2]\n\t"
		"orr     r3, r3, #0xF00000\n\t"
		"str     r3, [r2]\n\t"
		"dsb\n\t"
		"isb\n\t"
#endif
		"b       crt0_start\n\t");
}
#endif

/* Core 0's share of start-up: the C runtime's memory image. */
static void init_memory(void)
{
	uint32_t *src = __data_load;
	uint32_t *dst = __data_start;

	while (dst < __data_end)
		*dst++ = *src++;
	for (dst = __bss_start; dst < __bss_end; dst++)
		*dst = 0;
}

_Noreturn void crt0_start(unsigned core)
{
	if (core == 0) {
		init_memory();
		__libc_init_array();
		dmb(); /* .data/.bss/constructors are visible before the flag */
		init_flag = INIT_MAGIC;
		dsb();
		sev();
	} else {
		/* The event register remembers a SEV that came before our WFE,
		 * so checking first and then sleeping cannot miss the wake-up. */
		while (init_flag != INIT_MAGIC)
			wfe();
		dmb();
	}

	int status = main();

	if (core == 0)
		exit(status);
	for (;;)
		wfi();
}

/*
 * Any exception nobody claimed: say which one and end the run with failure
 * status 128 + exception number, so a stray fault never hangs silently.
 * The core comes from MSP (handlers run on the core's own 16 KiB slot), not
 * from core_id(): the fault may be a read of 0xD0000000 on a board without it.
 */
void Default_Handler(void)
{
	uint32_t exc = get_ipsr() & 0x1FFu;
	uint32_t core = ((uint32_t)__stack_top - 1u - get_msp()) / BOARD_CORE_STACK;

	semi_puts("raptor: unhandled exception ");
	semi_putu(exc);
	semi_puts(" on core ");
	semi_putu(core);
	semi_puts("\n");
	board_exit(128 + (int)exc);
}

/*
 * newlib's __libc_init_array calls _init() (and exit() may call _fini()),
 * which normally come from crti.o; -nostartfiles drops that, and .init_array
 * does all the work on ARM EABI anyway.
 */
void __attribute__((weak)) _init(void) {}
void __attribute__((weak)) _fini(void) {}
