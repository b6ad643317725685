/*
 * board.h: the raptor board SDK (guest side).
 *
 * The board is QEMU's mps2-an385 memory map (ROM 0x00000000, SRAM 0x20000000,
 * CMSDK UART0 0x40004000, standard SCS) plus raptor's multicore extension:
 * N cores (1..8) share memory, all start at the reset vector, and two
 * read-only words tell a core who it is:
 *
 *   0xD0000000  CORE_ID    this core's index, 0..N-1 (RP2040 SIO CPUID style)
 *   0xD0000004  NUM_CORES  N
 *
 * Builds with -DRAPTOR_SINGLE_CORE=1 never touch those two words (core_id()
 * is 0 and num_cores() is 1), so the same ELF runs on stock QEMU.
 *
 * Everything that must stay cheap and inlinable (register access, barriers,
 * masks) lives here as static inline; the rest is in board.c.
 */
#ifndef RAPTOR_BOARD_H
#define RAPTOR_BOARD_H

#include <stdint.h>

#ifndef RAPTOR_SINGLE_CORE
#define RAPTOR_SINGLE_CORE 0
#endif

#define RAPTOR_MAX_CORES 8

/* ------------------------------------------------------------------ */
/* Memory map                                                          */
/* ------------------------------------------------------------------ */

#define BOARD_ROM_BASE 0x00000000u
#define BOARD_ROM_SIZE 0x00400000u
#define BOARD_SRAM_BASE 0x20000000u
#define BOARD_SRAM_SIZE 0x00400000u
#define BOARD_CORE_STACK 0x4000u /* 16 KiB per core, top of SRAM down */

#define RAPTOR_CORE_ID_ADDR 0xD0000000u
#define RAPTOR_NUM_CORES_ADDR 0xD0000004u

#define REG32(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define REG8(a) (*(volatile uint8_t *)(uintptr_t)(a))

/* CMSDK APB UART0 */
#define UART0_DATA REG32(0x40004000u)
#define UART0_STATE REG32(0x40004004u)
#define UART0_CTRL REG32(0x40004008u)
#define UART_CTRL_TX_EN 0x1u

/* System control space (per core) */
#define SYST_CSR REG32(0xE000E010u)
#define SYST_RVR REG32(0xE000E014u)
#define SYST_CVR REG32(0xE000E018u)
#define SYST_CSR_ENABLE 0x1u
#define SYST_CSR_TICKINT 0x2u
#define SYST_CSR_CLKSOURCE 0x4u /* processor clock */

#define NVIC_ISER(n) REG32(0xE000E100u + 4u * (n))
#define NVIC_ICER(n) REG32(0xE000E180u + 4u * (n))
#define NVIC_ISPR(n) REG32(0xE000E200u + 4u * (n))
#define NVIC_ICPR(n) REG32(0xE000E280u + 4u * (n))
#define NVIC_IABR(n) REG32(0xE000E300u + 4u * (n))
#define NVIC_IPR(irq) REG8(0xE000E400u + (irq))
#define NVIC_STIR REG32(0xE000EF00u)

#define SCB_ICSR REG32(0xE000ED04u)
#define SCB_VTOR REG32(0xE000ED08u)
#define SCB_AIRCR REG32(0xE000ED0Cu)
#define SCB_SCR REG32(0xE000ED10u)
#define SCB_CCR REG32(0xE000ED14u)
#define SCB_SHPR(exc) REG8(0xE000ED18u + (exc) - 4u) /* exc = 4..15 */
#define SCB_SHCSR REG32(0xE000ED24u)
#define SCB_CFSR REG32(0xE000ED28u)

#define ICSR_PENDSVSET (1u << 28)
#define ICSR_PENDSVCLR (1u << 27)
#define ICSR_PENDSTSET (1u << 26)
#define CCR_DIV_0_TRP (1u << 4)
#define CCR_STKALIGN (1u << 9)
#define SHCSR_USGFAULTENA (1u << 18)

/* Exception numbers (IPSR values); external IRQ n is exception 16 + n. */
enum {
	EXC_NMI = 2,
	EXC_HARDFAULT = 3,
	EXC_MEMMANAGE = 4,
	EXC_BUSFAULT = 5,
	EXC_USAGEFAULT = 6,
	EXC_SVCALL = 11,
	EXC_DEBUGMON = 12,
	EXC_PENDSV = 14,
	EXC_SYSTICK = 15,
	EXC_IRQ0 = 16,
};
#define BOARD_NUM_IRQS 32

/* ------------------------------------------------------------------ */
/* Cores                                                               */
/* ------------------------------------------------------------------ */

/* This core's index, 0..num_cores()-1. */
static inline unsigned core_id(void)
{
#if RAPTOR_SINGLE_CORE
	return 0;
#else
	return REG32(RAPTOR_CORE_ID_ADDR);
#endif
}

/* Number of cores on the board (1..8). */
static inline unsigned num_cores(void)
{
#if RAPTOR_SINGLE_CORE
	return 1;
#else
	return REG32(RAPTOR_NUM_CORES_ADDR);
#endif
}

/* ------------------------------------------------------------------ */
/* Barriers, hints, special registers                                  */
/* ------------------------------------------------------------------ */

static inline void dmb(void) { __asm__ volatile("dmb" ::: "memory"); }
static inline void dsb(void) { __asm__ volatile("dsb" ::: "memory"); }
static inline void isb(void) { __asm__ volatile("isb" ::: "memory"); }
static inline void wfi(void) { __asm__ volatile("wfi" ::: "memory"); }
static inline void wfe(void) { __asm__ volatile("wfe" ::: "memory"); }
static inline void sev(void) { __asm__ volatile("sev" ::: "memory"); }

static inline void irq_disable(void) { __asm__ volatile("cpsid i" ::: "memory"); }
static inline void irq_enable(void) { __asm__ volatile("cpsie i" ::: "memory"); }

#define BOARD_SPECIAL_REG(name)                                                \
	static inline uint32_t get_##name(void)                                \
	{                                                                      \
		uint32_t v;                                                    \
		__asm__ volatile("mrs %0, " #name : "=r"(v)::"memory");        \
		return v;                                                      \
	}                                                                      \
	static inline void set_##name(uint32_t v)                              \
	{                                                                      \
		__asm__ volatile("msr " #name ", %0" ::"r"(v) : "memory");     \
	}

BOARD_SPECIAL_REG(primask)
BOARD_SPECIAL_REG(basepri)
BOARD_SPECIAL_REG(faultmask)
BOARD_SPECIAL_REG(control)
BOARD_SPECIAL_REG(psp)
BOARD_SPECIAL_REG(msp)

static inline uint32_t get_ipsr(void)
{
	uint32_t v;
	__asm__ volatile("mrs %0, ipsr" : "=r"(v));
	return v;
}

static inline uint32_t get_apsr(void)
{
	uint32_t v;
	__asm__ volatile("mrs %0, apsr" : "=r"(v));
	return v;
}

/* ------------------------------------------------------------------ */
/* Semihosting and exit                                                */
/* ------------------------------------------------------------------ */

#define SEMI_SYS_WRITEC 0x03u
#define SEMI_SYS_WRITE0 0x04u
#define SEMI_SYS_WRITE 0x05u
#define SEMI_SYS_EXIT 0x18u
#define SEMI_SYS_EXIT_EXTENDED 0x20u
#define SEMI_ADP_STOPPED_APP_EXIT 0x20026u

/* One semihosting call: r0 = op, r1 = arg; returns r0. */
static inline uint32_t semihost(uint32_t op, const void *arg)
{
	register uint32_t r0 __asm__("r0") = op;
	register const void *r1 __asm__("r1") = arg;
	__asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

/*
 * End the whole run (all cores). 0 -> SYS_EXIT ApplicationExit (status 0);
 * anything else -> SYS_EXIT_EXTENDED {ApplicationExit, code}, so the host sees
 * the code itself. A code whose low byte is 0 would read as success to a
 * POSIX host, so it is reported as 1.
 */
_Noreturn void board_exit(int code);

void semi_putc(char c);        /* SYS_WRITEC */
void semi_puts(const char *s); /* SYS_WRITE0, no newline added */
/* Print an unsigned value in decimal without printf (for handlers). */
void semi_putu(uint32_t v);

/* ------------------------------------------------------------------ */
/* UART0                                                               */
/* ------------------------------------------------------------------ */

/*
 * Enable TX and write one byte. STATE is never polled, so output costs the
 * same instructions on every run (QEMU drains the FIFO instantly).
 */
void uart_putc(char c);
void uart_puts(const char *s);

/* ------------------------------------------------------------------ */
/* Spinlock, atomics, barrier (multicore)                              */
/* ------------------------------------------------------------------ */

typedef struct {
	volatile uint32_t locked;
} spinlock_t;
#define SPINLOCK_INIT {0}

/* LDREX/STREX acquire with DMB after; waiters sleep in WFE. On ARMv6-M
 * (no exclusives; its builds are single-core) the read-modify-write runs
 * with interrupts masked (PRIMASK saved and restored), here and below. */
void spin_lock(spinlock_t *l);
/* 1 if taken, 0 if busy; never waits. */
int spin_trylock(spinlock_t *l);
/* DMB, store 0, DSB, SEV (wakes the WFE waiters). */
void spin_unlock(spinlock_t *l);

/* *p += v atomically (LDREX/STREX); returns the new value. No ordering. */
uint32_t atomic_add_u32(volatile uint32_t *p, uint32_t v);

/*
 * Sense-reversing barrier for all num_cores() cores. The last core to arrive
 * flips the shared sense; the others wait (WFE) until it matches theirs.
 * Each core keeps its own sense in its own slot, so a barrier can be reused
 * back to back without a second rendezvous.
 */
struct barrier {
	volatile uint32_t count;
	volatile uint32_t sense;
	uint32_t local_sense[RAPTOR_MAX_CORES];
};
#define BARRIER_INIT {0, 0, {0}}
void barrier_wait(struct barrier *b);

/* ------------------------------------------------------------------ */
/* SysTick, NVIC, system handlers                                      */
/* ------------------------------------------------------------------ */

/* Count down from reload (1..0xFFFFFF) on the core clock, interrupting at 0. */
void systick_start(uint32_t reload);
void systick_stop(void);

void nvic_enable(unsigned irq);
void nvic_disable(unsigned irq);
void nvic_set_pending(unsigned irq);   /* through ISPR */
void nvic_clear_pending(unsigned irq); /* through ICPR */
int nvic_is_pending(unsigned irq);
int nvic_is_active(unsigned irq);
void nvic_trigger(unsigned irq); /* through STIR */
void nvic_set_priority(unsigned irq, uint8_t prio);

/* Priority of a system exception (EXC_MEMMANAGE..EXC_SYSTICK). */
void scb_set_priority(unsigned exc, uint8_t prio);
void pendsv_trigger(void);

/* SVC with an immediate; the handler sees arg in the stacked r0, and the
 * value it leaves in the stacked r0 comes back. */
#define svc_call(imm, arg)                                                     \
	({                                                                     \
		register uint32_t r0_ __asm__("r0") = (uint32_t)(arg);         \
		__asm__ volatile("svc %1" : "+r"(r0_) : "i"(imm) : "memory");  \
		r0_;                                                           \
	})

#endif
