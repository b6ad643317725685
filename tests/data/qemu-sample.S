@ qemu-sample.S: the tiny guest behind tests/data/qemu-sample.log.
@ It takes an SVC, SysTick interrupts (some arrive while QEMU has a block
@ ready, giving "Stopped execution of TB chain" lines) and exits through
@ semihosting. SysTick makes the log timing-dependent: it was regenerated
@ until one run showed both kinds of interrupt entry, then kept.
@
@   arm-none-eabi-gcc -nostdlib -mcpu=cortex-m4 -mthumb -Wl,-Ttext=0 \
@       qemu-sample.S -o qemu-sample-m4.elf
@   qemu-system-arm -M mps2-an386 -nographic -semihosting -singlestep \
@       -d exec,cpu,fpu,nochain,int -D qemu-sample.log -kernel qemu-sample-m4.elf
@
@ (QEMU 7.2; -d fpu and -d int add lines qemulog must skip.)
    .syntax unified
    .cpu cortex-m4
    .thumb
    .text
    .word 0x20004000
    .word _start+1
    .word hang+1, hang+1, hang+1, hang+1, hang+1
    .word 0,0,0,0
    .word svc_handler+1
    .word 0,0
    .word hang+1
    .word systick_handler+1
    .thumb_func
    .global _start
_start:
    movs r0, #1
    adds r1, r0, #2
    push {r0, r1}
    pop {r2, r3}
    svc #0
    ldr r0, =0xE000E010     @ SysTick: reload 1500, core clock, interrupt on
    ldr r1, =1500
    str r1, [r0, #4]
    movs r1, #7
    str r1, [r0]
    movs r5, #4
loop:
    adds r3, r3, #1
    subs r5, r5, #1
    bne loop
    movs r1, #0
    str r1, [r0]            @ SysTick off
    movs r0, #0x18          @ SYS_EXIT, ADP_Stopped_ApplicationExit
    ldr r1, =0x20026
    bkpt 0xab
    .thumb_func
svc_handler:
    movs r4, #0x55
    bx lr
    .thumb_func
systick_handler:
    adds r6, r6, #1
    bx lr
    .thumb_func
hang:
    b hang
