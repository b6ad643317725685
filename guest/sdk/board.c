/*
 * board.c: raptor board SDK helpers that need not be inlined.
 */
#include "board.h"

_Noreturn void board_exit(int code)
{
	if (code == 0) {
		semihost(SEMI_SYS_EXIT, (const void *)SEMI_ADP_STOPPED_APP_EXIT);
	} else {
		/* POSIX hosts keep only the low byte: never let 256 pass as 0. */
		uint32_t block[2] = {SEMI_ADP_STOPPED_APP_EXIT, (uint32_t)code};
		if ((code & 0xff) == 0)
			block[1] = 1;
		semihost(SEMI_SYS_EXIT_EXTENDED, block);
	}
	/* Only reached without a semihosting host: stop here, visibly. */
	for (;;)
		__asm__ volatile("bkpt 0x00");
}

void semi_putc(char c)
{
	semihost(SEMI_SYS_WRITEC, &c);
}

void semi_puts(const char *s)
{
	semihost(SEMI_SYS_WRITE0, s);
}

void semi_putu(uint32_t v)
{
	char buf[12];
	char *p = buf + sizeof(buf) - 1;

	*p = '\0';
	do {
		*--p = (char)('0' + v % 10u);
		v /= 10u;
	} while (v != 0);
	semi_puts(p);
}

void uart_putc(char c)
{
	UART0_CTRL = UART_CTRL_TX_EN;
	UART0_DATA = (uint8_t)c;
}

void uart_puts(const char *s)
{
	while (*s != '\0')
		uart_putc(*s++);
}

#if defined(__ARM_ARCH_6M__)
/*
 * ARMv6-M has no LDREX/STREX. Its builds are single-core (crt0.c refuses
 * the others), where masking interrupts makes a read-modify-write atomic:
 * against handlers, the only other code that can run. PRIMASK is restored,
 * not cleared, so these nest inside an irq_disable() section.
 */
int spin_trylock(spinlock_t *l)
{
	uint32_t primask = get_primask();
	int got;

	irq_disable();
	got = l->locked == 0;
	if (got)
		l->locked = 1;
	set_primask(primask);
	dmb(); /* acquire, as below */
	return got;
}

uint32_t atomic_add_u32(volatile uint32_t *p, uint32_t v)
{
	uint32_t primask = get_primask();
	uint32_t val;

	irq_disable();
	val = *p + v;
	*p = val;
	set_primask(primask);
	return val;
}
#else
int spin_trylock(spinlock_t *l)
{
	uint32_t busy;

	/* One asm block: at -O0 the compiler would otherwise spill between the
	 * LDREX and the STREX, and a store there may clear the monitor. */
	__asm__ volatile("ldrex   %0, [%1]\n\t"
			 "cmp     %0, #0\n\t" /* not CBNZ: %0 may be a high reg */
			 "bne     1f\n\t"
			 "strex   %0, %2, [%1]\n\t"
			 "b       2f\n"
			 "1:\n\t"
			 "clrex\n" /* busy: drop the monitor we armed */
			 "2:"
			 : "=&r"(busy)
			 : "r"(&l->locked), "r"(1u)
			 : "cc", "memory");
	if (busy != 0)
		return 0;
	dmb(); /* acquire: nothing in the critical section moves above here */
	return 1;
}
#endif

void spin_lock(spinlock_t *l)
{
	while (!spin_trylock(l)) {
		/* Sleep until an unlock's SEV; re-check first so a SEV that came
		 * before the WFE is not needed (the event register remembers it). */
		while (l->locked != 0)
			wfe();
	}
}

void spin_unlock(spinlock_t *l)
{
	dmb(); /* release: the critical section's stores land first */
	l->locked = 0;
	dsb(); /* the store is visible before the wake-up */
	sev();
}

#if !defined(__ARM_ARCH_6M__)
uint32_t atomic_add_u32(volatile uint32_t *p, uint32_t v)
{
	uint32_t val, fail;

	__asm__ volatile("1:\n\t"
			 "ldrex   %0, [%2]\n\t"
			 "add     %0, %0, %3\n\t"
			 "strex   %1, %0, [%2]\n\t"
			 "cmp     %1, #0\n\t"
			 "bne     1b"
			 : "=&r"(val), "=&r"(fail)
			 : "r"(p), "r"(v)
			 : "cc", "memory");
	return val;
}
#endif

void barrier_wait(struct barrier *b)
{
	unsigned me = core_id();
	uint32_t sense = b->local_sense[me] ^ 1u;

	b->local_sense[me] = sense;
	dmb(); /* this core's work is visible before it is counted */
	if (atomic_add_u32(&b->count, 1) == num_cores()) {
		/* Last one in: reset the count before releasing anyone, so a
		 * fast core re-entering the barrier counts from zero. */
		b->count = 0;
		dmb();
		b->sense = sense;
		dsb();
		sev();
	} else {
		while (b->sense != sense)
			wfe();
	}
	dmb(); /* everyone's work is visible after the barrier */
}

void systick_start(uint32_t reload)
{
	SYST_CSR = 0;
	SYST_RVR = reload & 0x00FFFFFFu;
	SYST_CVR = 0; /* any write clears the counter and COUNTFLAG */
	SYST_CSR = SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE;
}

void systick_stop(void)
{
	SYST_CSR = 0;
	SCB_ICSR = 1u << 25; /* PENDSTCLR: drop a tick that raced the stop */
}

void nvic_enable(unsigned irq)
{
	NVIC_ISER(irq / 32u) = 1u << (irq % 32u);
}

void nvic_disable(unsigned irq)
{
	NVIC_ICER(irq / 32u) = 1u << (irq % 32u);
	dsb();
	isb();
}

void nvic_set_pending(unsigned irq)
{
	NVIC_ISPR(irq / 32u) = 1u << (irq % 32u);
	/* Make the pend take effect before the next instruction. */
	dsb();
	isb();
}

void nvic_clear_pending(unsigned irq)
{
	NVIC_ICPR(irq / 32u) = 1u << (irq % 32u);
}

int nvic_is_pending(unsigned irq)
{
	return (NVIC_ISPR(irq / 32u) >> (irq % 32u)) & 1u;
}

int nvic_is_active(unsigned irq)
{
	return (NVIC_IABR(irq / 32u) >> (irq % 32u)) & 1u;
}

void nvic_trigger(unsigned irq)
{
	NVIC_STIR = irq;
	dsb();
	isb();
}

void nvic_set_priority(unsigned irq, uint8_t prio)
{
	NVIC_IPR(irq) = prio;
}

void scb_set_priority(unsigned exc, uint8_t prio)
{
	SCB_SHPR(exc) = prio;
}

void pendsv_trigger(void)
{
	SCB_ICSR = ICSR_PENDSVSET;
	dsb();
	isb();
}
