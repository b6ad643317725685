@ v6m-random.S: written by v6m-random.py (see there); do not edit.
#include "v6m.inc"
	.text
	.thumb_func
reset:
	ldr	r7, =buf
	ldr	r0, =0xc2709f78
	mov	r8, r0
	ldr	r0, =0x5efcdeca
	mov	r9, r0
	ldr	r0, =0xe6d9a72a
	mov	r10, r0
	ldr	r0, =0xe455fe43
	mov	r11, r0
	ldr	r0, =0x76c09876
	mov	r12, r0
	ldr	r0, =0xbd64b4c5
	ldr	r1, =0x42040bc0
	ldr	r2, =0x6c96670e
	ldr	r3, =0x25e1af62
	ldr	r4, =0x7118b89e
	ldr	r5, =0x4e53a77d
	movs	r6, #0
	b	2f
	.ltorg
2:
	movs	r6, #4
	strh r0, [r7, #2]
	bpl	1f
	subs r0, r5, #3
1:
	cmp r2, r11
	push	{r3, r4}
	add r10, r0
	pop	{r3, r4}
	bgt	1f
	mrs r3, apsr
1:
	asrs r1, r3, #20
	mvns r2, r0
	cmp r10, r2
	cmn r2, r1
	cmp r3, r11
	subs r5, #156
	cmp r7, #45
	push	{r5}
	mvns r0, r6
	pop	{r5}
	mov r11, r5
	push	{r2, r3, r5}
	adds r4, #136
	pop	{r2, r3, r5}
	add r2, r12
	adds r0, r4, #7
	cmp r10, r3
	mrs r2, apsr
	subs r5, r4, #7
	bmi	1f
	subs r2, #244
1:
	mvns r0, r1
	mov r0, r10
	add r2, r8
	movs r1, #31
	add r1, sp, #104
	subs r3, #15
	ldrb r3, [r7, #9]
	add r9, r0
	subs r3, #162
	lsrs r5, r3
	subs r3, r7, r0
	push	{r4}
	str r2, [r7, #68]
	pop	{r4}
	rsbs r5, r7, #0
	cmn r3, r3
	adds r1, r1, #6
	subs r0, #20
	movs r2, #33
	add r9, r6
	rsbs r2, r1, #0
	sxth r1, r0
	adds r0, r3, r2
	subs r2, #10
	cmp r5, r11
	add r5, sp, #648
	adds r1, r0, #3
	mvns r4, r6
	subs r5, #124
	bhi	1f
	mov r12, r1
1:
	lsrs r5, r0, #31
	eors r0, r2
	subs r5, #186
	bne	1f
	ands r1, r4
1:
	subs r4, r5, #2
	cmp r9, r4
	mrs r3, apsr
	beq	1f
	add r4, sp, #600
1:
	adds r3, r5, #2
	mov r4, r9
	mov r0, r10
	bhi	1f
	add r9, r1
1:
	rev r5, r6
	subs r3, r5, r6
	bvs	1f
	lsrs r5, r4
1:
	rsbs r5, r2, #0
	rsbs r4, r4, #0
	cmp r4, #158
	subs r0, #250
	adds r5, r3, r5
	mov r9, r1
	uxth r2, r0
	mrs r0, apsr
	add r4, r12
	adds r5, r2, #3
	lsls r2, r2
	movs r5, #32
	mov r0, r12
	add r2, r12
	subs r1, #157
	ldrsh r2, [r7, r6]
	mov r8, r4
	bne	1f
	asrs r2, r2
1:
	lsls r2, r6
	asrs r4, r5, #29
	subs r1, r5, #4
	blt	1f
	mov r8, r7
1:
	add r11, r1
	rsbs r5, r6, #0
	mov r8, r1
	rsbs r4, r3, #0
	lsrs r5, r5, #14
	ldrh r0, [r7, r6]
	movs r4, #32
	adds r4, r4, r6
	subs r3, #90
	movs r0, #31
	bpl	1f
	cmp r7, #24
1:
	movs	r6, #56
	subs r5, #87
	cmp r9, r2
	push	{r0, r3, r5}
	cmp r8, r1
	pop	{r0, r3, r5}
	bcc	1f
	strh r3, [r7, #42]
1:
	asrs r2, r0
	add r5, r11
	mov r11, r7
	bge	1f
	subs r4, #197
1:
	push	{r0, r2, r4}
	str r5, [r7, r6]
	pop	{r0, r2, r4}
	cmp r2, #191
	ldrh r4, [r7, #56]
	push	{r0}
	rsbs r5, r4, #0
	pop	{r0}
	adds r3, #26
	rors r1, r7
	ldrsh r4, [r7, r6]
	lsrs r0, r7, #30
	asrs r5, r3
	cmp r5, #99
	subs r5, r6, r2
	beq	1f
	cmp r7, #250
1:
	cmp r4, #109
	lsls r4, r7
	cmp r6, r9
	mrs r1, apsr
	sxtb r0, r6
	subs r3, #87
	tst r0, r3
	bhi	1f
	sbcs r5, r5
1:
	cmp r12, r3
	subs r2, r4, r5
	bmi	1f
	subs r1, #71
1:
	subs r5, r0, #7
	add r11, r2
	subs r0, #39
	ldrh r1, [r7, r6]
	bvs	1f
	lsrs r2, r1
1:
	add r10, r0
	adds r4, #150
	add r1, r12
	subs r5, r7, r7
	orrs r3, r0
	lsrs r1, r6, #23
	push	{r1, r2, r3}
	ldr r0, [r7, #36]
	pop	{r1, r2, r3}
	add r5, sp, #488
	adds r5, r0, #3
	rev16 r2, r3
	adds r4, r6, r4
	add r0, r8
	asrs r2, r5
	ldrb r0, [r7, #2]
	mov r12, r0
	cmp r8, r2
	mrs r5, apsr
	subs r3, r5, #7
	ble	1f
	adds r2, r5, r7
1:
	mrs r4, apsr
	adds r5, #164
	subs r5, r3, r1
	revsh r1, r2
	asrs r5, r3, #7
	bne	1f
	adds r4, #204
1:
	subs r0, #214
	rsbs r3, r0, #0
	subs r3, r5, r0
	subs r4, r3, #6
	asrs r1, r6, #28
	mvns r2, r6
	cmp r0, #92
	mrs r4, apsr
	cmp r4, r10
	cmp r4, #186
	cmp r9, r2
	orrs r4, r0
	bvs	1f
	cmn r6, r0
1:
	movs r1, #1
	ldr r4, [r7, #24]
	mov r11, r3
	subs r0, #114
	add r3, r9
	eors r2, r7
	asrs r1, r1, #7
	ldr r4, [r7, #96]
	ands r4, r0
	subs r3, #166
	bvs	1f
	mov r1, r11
1:
	mov r11, r1
	cmp r4, #82
	rev16 r0, r3
	bcc	1f
	mrs r2, apsr
1:
	movs r1, #1
	lsls r4, r4
	bls	1f
	subs r4, r6, #7
1:
	rsbs r5, r0, #0
	add r2, r9
	ands r0, r4
	ldr r4, [r7, r6]
	bge	1f
	lsls r4, r0
1:
	movs	r6, #56
	bne	1f
	str r3, [r7, r6]
1:
	adds r0, r4, r7
	cmp r7, #176
	mov r11, r0
	add r0, sp, #600
	ldrb r2, [r7, #19]
	tst r3, r4
	sxtb r2, r0
	adds r5, r1, r5
	ldrsb r1, [r7, r6]
	add r11, r3
	adds r0, #224
	cmp r5, #156
	subs r4, r6, #1
	cmp r5, r10
	ble	1f
	mov r5, r12
1:
	adds r4, r3, r2
	bmi	1f
	movs r1, #33
1:
	lsrs r0, r0
	push	{r0, r1}
	strh r3, [r7, #44]
	pop	{r0, r1}
	lsls r2, r6, #15
	mvns r1, r5
	subs r3, r3, #1
	add r0, sp, #132
	bics r1, r0
	lsls r5, r3
	subs r1, #2
	beq	1f
	adds r0, r2, #2
1:
	subs r3, #54
	lsls r0, r1
	add r11, r6
	sxtb r4, r0
	cmp r4, #230
	mvns r1, r4
	mvns r1, r0
	subs r1, #247
	mvns r3, r0
	push	{r1, r2}
	adds r4, r5, #6
	pop	{r1, r2}
	ble	1f
	rsbs r3, r6, #0
1:
	strb r3, [r7, r6]
	ble	1f
	str r3, [r7, r6]
1:
	add r11, r6
	bls	1f
	cmp r0, #128
1:
	adds r1, r7, #4
	subs r2, r7, r2
	cmp r2, #134
	cmp r4, #136
	blt	1f
	mov r9, r5
1:
	rev r5, r3
	rors r0, r3
	add r5, sp, #424
	bls	1f
	cmp r9, r0
1:
	subs r2, r6, #4
	cmp r1, r6
	add r12, r3
	bmi	1f
	mvns r2, r0
1:
	movs r3, #1
	ldrsh r5, [r7, r6]
	ldr r1, [r7, #72]
	subs r2, r0, r6
	add r12, r0
	mov r3, r10
	subs r1, r2, #4
	mov r4, r11
	mvns r2, r0
	ldr r5, [r7, r6]
	mrs r5, apsr
	str r5, [r7, #36]
	ble	1f
	subs r3, #52
1:
	add r11, r0
	orrs r1, r7
	subs r5, #16
	cmp r4, #51
	bne	1f
	adds r1, #71
1:
	movs r3, #0
	movs r1, #0
	asrs r3, r0
	subs r2, r7, #7
	adds r2, r4, r0
	add r11, r0
	subs r2, #60
	lsls r3, r6
	cmn r3, r1
	cmp r12, r3
	subs r5, r1, r6
	lsrs r4, r7
	mrs r3, apsr
	lsls r1, r0
	beq	1f
	ldrsh r5, [r7, r6]
1:
	movs r2, #0
	movs r2, #33
	mvns r1, r5
	lsrs r2, r1
	lsrs r4, r1
	subs r1, #42
	movs r5, #184
	cmp r12, r5
	movs	r6, #8
	subs r0, r2, r3
	bvc	1f
	lsrs r5, r1, #21
1:
	lsls r5, r3, #15
	mrs r1, apsr
	cmp r9, r0
	rsbs r2, r2, #0
	adds r0, r1, #5
	bmi	1f
	mov r8, r7
1:
	ldr r4, [r7, #36]
	adds r5, #4
	sxtb r3, r1
	add r11, r1
	mvns r0, r6
	lsls r3, r4, #15
	ldrsh r1, [r7, r6]
	adds r5, #33
	muls r1, r3, r1
	adds r1, #83
	add r11, r1
	bne	1f
	subs r1, r2, r5
1:
	mrs r0, apsr
	subs r4, #98
	subs r4, r3, #7
	adds r3, #119
	add r3, r9
	movs r0, #0
	rors r4, r6
	subs r3, r1, r0
	adds r4, #73
	subs r4, r2, #6
	bhi	1f
	rev r5, r2
1:
	bls	1f
	cmp r6, #107
1:
	bcs	1f
	mrs r3, apsr
1:
	mov r12, r7
	cmp r9, r7
	mrs r3, apsr
	adds r2, #94
	cmp r8, r6
	bcc	1f
	movs r2, #104
1:
	cmn r7, r2
	subs r1, r7, r0
	subs r3, r2, #5
	mov r0, r10
	cmp r7, r8
	cmp r7, #77
	ldrh r2, [r7, #46]
	adds r4, #13
	subs r4, #204
	ldr r0, [r7, r6]
	add r3, sp, #428
	bne	1f
	bics r1, r7
1:
	add r4, sp, #460
	mov r8, r4
	mov r4, r9
	lsrs r1, r4
	adds r3, #150
	rors r3, r1
	adds r2, r3, r7
	movs r3, #32
	bvs	1f
	add r12, r1
1:
	mov r8, r6
	adds r2, #98
	subs r5, r5, #0
	add r1, sp, #224
	bpl	1f
	subs r3, #123
1:
	bvs	1f
	subs r3, r0, r4
1:
	add r4, sp, #792
	lsls r4, r4, #7
	movs r2, #32
	adds r5, #168
	mvns r4, r5
	beq	1f
	movs r0, #202
1:
	cmp r9, r4
	beq	1f
	subs r5, r4, #1
1:
	cmp r4, r10
	uxth r4, r0
	muls r3, r0, r3
	add r1, r12
	cmn r1, r0
	movs r2, #33
	beq	1f
	add r2, sp, #372
1:
	rsbs r2, r2, #0
	ldr r2, [r7, r6]
	asrs r3, r3
	bls	1f
	tst r6, r3
1:
	add r4, sp, #712
	add r0, r12
	bgt	1f
	cmp r1, #232
1:
	subs r4, r3, #3
	cmp r7, r6
	add r8, r4
	add r9, r0
	tst r4, r1
	lsls r0, r4, #23
	cmp r9, r6
	movs r4, #33
	add r9, r7
	movs	r6, #16
	mov r4, r11
	strh r5, [r7, r6]
	mvns r2, r7
	rsbs r4, r7, #0
	add r1, sp, #712
	bgt	1f
	asrs r5, r3, #6
1:
	bvs	1f
	ldrb r5, [r7, r6]
1:
	asrs r4, r4
	cmp r4, r9
	mov r11, r1
	add r12, r2
	ldr r0, [r7, r6]
	add r2, sp, #416
	add r1, r11
	adds r1, r4, #3
	cmp r10, r4
	adds r5, r2, #3
	subs r0, #176
	add r10, r5
	mrs r0, apsr
	ble	1f
	subs r3, r1, r6
1:
	rsbs r2, r1, #0
	mov r4, r8
	uxth r4, r1
	adds r0, r7, #3
	lsls r2, r7
	adds r1, r1, r2
	mvns r3, r3
	cmp r11, r2
	cmp r4, #73
	blt	1f
	ldrsh r5, [r7, r6]
1:
	cmp r10, r1
	cmp r12, r2
	cmp r4, r8
	adds r1, r6, #2
	adds r5, r3, #5
	mrs r1, apsr
	adds r4, #105
	mvns r2, r7
	eors r1, r4
	cmp r5, r9
	subs r5, r1, #7
	subs r1, #198
	bvs	1f
	adds r5, #110
1:
	add r9, r0
	add r1, r11
	adds r2, r0, #0
	bmi	1f
	cmp r1, #193
1:
	add r4, sp, #336
	bics r2, r0
	add r4, r12
	rsbs r5, r1, #0
	adds r0, r5, #3
	movs r5, #32
	adds r4, r0, #5
	adds r3, r2, #0
	muls r1, r7, r1
	mov r8, r3
	bne	1f
	mov r12, r4
1:
	asrs r4, r1, #25
	add r2, r11
	tst r6, r0
	cmp r2, r7
	mov r3, r12
	ldrsh r4, [r7, r6]
	add r9, r3
	beq	1f
	tst r7, r4
1:
	subs r1, #92
	lsrs r0, r1
	adds r5, r4, r0
	rev16 r3, r3
	adds r5, r2, #3
	cmp r3, r4
	add r0, r8
	lsls r3, r0
	blt	1f
	strh r0, [r7, #18]
1:
	mov r1, r12
	subs r2, r4, #1
	adds r1, r5, #1
	lsls r0, r5
	tst r6, r0
	lsrs r0, r7, #8
	subs r5, r5, r6
	ble	1f
	lsrs r0, r3
1:
	lsrs r1, r3
	adds r1, r1, r2
	mrs r2, apsr
	adds r4, r1, #1
	add r4, r10
	mov r1, r9
	tst r5, r0
	sbcs r3, r1
	mrs r2, apsr
	mrs r5, apsr
	movs r4, #1
	push	{r0, r3, r4}
	lsls r0, r3
	pop	{r0, r3, r4}
	subs r0, r1, r2
	movs	r6, #0
	subs r5, r2, r1
	adds r2, r2, r1
	cmp r5, #40
	lsls r4, r1
	mov r11, r2
	subs r2, #122
	mrs r1, apsr
	strh r0, [r7, #24]
	rsbs r5, r3, #0
	ldrb r5, [r7, r6]
	cmp r0, r10
	adds r5, #245
	add r4, sp, #124
	mov r5, r9
	mrs r3, apsr
	b	2f
	.ltorg
2:
	lsls r0, r7, #7
	ldrb r5, [r7, #19]
	cmp r6, #206
	movs r0, #32
	mov r2, r11
	mvns r3, r5
	cmp r6, #124
	lsrs r3, r2
	rors r4, r1
	add r8, r5
	beq	1f
	adds r2, r3, r2
1:
	subs r5, #67
	lsrs r5, r4
	lsrs r5, r4, #10
	lsls r3, r2, #11
	add r5, r11
	revsh r5, r4
	rev r3, r6
	bcs	1f
	lsrs r2, r5
1:
	mvns r0, r6
	add r10, r3
	mov r9, r1
	cmp r0, r3
	bvc	1f
	add r11, r2
1:
	adds r4, r0, #4
	add r4, sp, #820
	adds r0, #44
	movs r3, #31
	lsrs r4, r0
	beq	1f
	movs r5, #32
1:
	mrs r0, apsr
	mrs r1, apsr
	ldrb r5, [r7, r6]
	str r0, [r7, r6]
	movs r1, #31
	adds r4, r2, r1
	adcs r5, r3
	bhi	1f
	asrs r1, r0
1:
	push	{r3}
	mov r4, r9
	pop	{r3}
	ldrb r5, [r7, r6]
	rsbs r0, r0, #0
	mov r0, r12
	adds r3, r3, #3
	asrs r1, r4, #16
	cmp r6, r12
	bcc	1f
	cmp r5, #129
1:
	bvc	1f
	mvns r3, r3
1:
	subs r1, r2, r1
	ldrb r0, [r7, r6]
	mvns r4, r6
	mvns r0, r4
	cmp r3, r7
	cmp r3, #216
	eors r5, r2
	mov r8, r2
	adds r0, r3, #7
	adds r3, r5, #0
	asrs r1, r1, #22
	strh r2, [r7, r6]
	bcs	1f
	add r5, r10
1:
	add r4, r8
	bcs	1f
	mov r0, r10
1:
	subs r2, #226
	add r0, sp, #28
	push	{r2, r3}
	cmp r4, r11
	pop	{r2, r3}
	cmp r4, r0
	adds r3, r1, #7
	rev r0, r1
	sxtb r2, r7
	sbcs r0, r3
	add r1, r12
	subs r0, r0, #5
	add r1, sp, #496
	bls	1f
	lsls r5, r5, #16
1:
	add r5, r8
	rsbs r4, r2, #0
	cmn r1, r6
	muls r5, r3, r5
	beq	1f
	lsls r5, r4, #28
1:
	cmp r1, #77
	orrs r2, r6
	adds r1, r0, r6
	movs	r6, #0
	mov r9, r2
	subs r2, r6, #3
	ble	1f
	subs r1, r2, #5
1:
	lsrs r1, r4
	add r5, r11
	ldr r5, [r7, r6]
	cmp r9, r7
	rev16 r5, r1
	cmp r9, r3
	cmp r2, r10
	bhi	1f
	adds r2, r5, #5
1:
	bls	1f
	subs r0, r4, #3
1:
	orrs r2, r1
	cmp r11, r2
	mrs r4, apsr
	mov r5, r12
	cmp r12, r1
	subs r5, r1, r5
	add r10, r3
	bhi	1f
	rsbs r4, r4, #0
1:
	bge	1f
	lsrs r2, r7
1:
	mvns r0, r0
	cmp r8, r3
	add r2, sp, #252
	rsbs r1, r7, #0
	add r4, sp, #348
	adcs r2, r0
	asrs r1, r0
	ldrsh r4, [r7, r6]
	rors r5, r1
	cmp r7, r8
	movs r0, #33
	mov r4, r8
	cmp r11, r1
	asrs r4, r4
	add r12, r2
	beq	1f
	lsls r1, r3
1:
	subs r5, r7, r4
	lsls r4, r6, #23
	bhi	1f
	subs r2, r4, #1
1:
	subs r2, #91
	asrs r1, r0
	subs r0, #31
	mvns r1, r7
	mrs r5, apsr
	mov r1, r11
	eors r3, r2
	sxth r1, r4
	asrs r0, r7
	asrs r4, r5
	ble	1f
	movs r2, #31
1:
	add r0, r12
	mrs r3, apsr
	subs r3, #206
	add r0, r8
	adds r1, r4, r2
	bne	1f
	strb r3, [r7, r6]
1:
	movs r0, #6
	cmp r5, #10
	mov r12, r5
	asrs r2, r7, #30
	bls	1f
	rors r2, r2
1:
	cmp r3, r10
	bics r4, r1
	adds r3, r5, r3
	adcs r4, r3
	mov r1, r9
	cmp r12, r7
	adds r3, r5, #4
	bics r5, r7
	bvc	1f
	adds r4, r0, r4
1:
	rsbs r3, r7, #0
	bls	1f
	str r5, [r7, #24]
1:
	subs r4, r7, r2
	bcs	1f
	mrs r1, apsr
1:
	cmp r12, r1
	subs r2, #48
	adds r1, #172
	bne	1f
	cmp r4, r6
1:
	subs r0, r2, #3
	adcs r2, r2
	cmp r12, r0
	add r9, r0
	bvc	1f
	ldrsb r3, [r7, r6]
1:
	rsbs r3, r5, #0
	adds r0, r1, #7
	cmp r6, r11
	lsls r3, r2
	bmi	1f
	adds r1, r4, #2
1:
	lsls r5, r7
	mov r3, r12
	asrs r2, r7
	cmp r4, #176
	mrs r2, apsr
	adds r5, r2, r1
	add r12, r1
	mrs r5, apsr
	movs	r6, #56
	cmp r9, r3
	add r2, r12
	cmp r1, #24
	adds r3, r2, r7
	uxtb r0, r1
	add r12, r4
	rors r1, r3
	subs r0, #181
	mvns r1, r4
	blt	1f
	mov r11, r3
1:
	strb r2, [r7, #16]
	subs r2, r5, r6
	movs r0, #39
	subs r4, #189
	add r11, r6
	mvns r1, r2
	subs r0, #237
	adds r4, r4, #6
	add r5, sp, #76
	push	{r0, r2, r5}
	movs r4, #32
	pop	{r0, r2, r5}
	adds r4, r1, r5
	add r11, r1
	cmp r7, r12
	bls	1f
	str r0, [r7, #12]
1:
	cmp r5, r11
	cmp r5, r11
	ldr r4, [r7, r6]
	adds r5, #7
	cmp r11, r1
	rsbs r1, r6, #0
	lsls r2, r0
	adds r4, r5, #0
	bvc	1f
	cmp r12, r4
1:
	ldrh r0, [r7, r6]
	bne	1f
	cmp r5, r10
1:
	add r0, sp, #464
	add r8, r3
	ldrsb r0, [r7, r6]
	asrs r4, r1, #23
	tst r4, r4
	subs r3, #156
	eors r1, r7
	bne	1f
	subs r5, #193
1:
	ldrh r5, [r7, #6]
	beq	1f
	adds r4, r0, r0
1:
	subs r5, r7, r0
	rsbs r4, r6, #0
	add r0, sp, #588
	rsbs r5, r3, #0
	add r12, r6
	rors r0, r5
	mvns r4, r5
	movs r0, #14
	bne	1f
	asrs r3, r2
1:
	bhi	1f
	cmp r5, r8
1:
	subs r1, r0, r4
	ble	1f
	adds r1, r3, #0
1:
	cmn r3, r5
	adds r2, r3, r1
	mov r0, r12
	lsrs r1, r5
	bge	1f
	add r12, r3
1:
	subs r1, r3, r4
	adds r2, #95
	mov r11, r2
	bne	1f
	subs r4, r4, #4
1:
	subs r5, r3, r4
	cmp r1, r11
	sxtb r3, r5
	add r5, sp, #564
	subs r2, r3, #5
	uxtb r0, r7
	strh r2, [r7, r6]
	push	{r0, r2}
	rev16 r5, r2
	pop	{r0, r2}
	mov r0, r9
	mvns r5, r4
	add r10, r4
	cmn r3, r3
	push	{r3}
	lsrs r2, r6
	pop	{r3}
	sxth r5, r5
	ldrh r5, [r7, #32]
	mov r4, r11
	orrs r0, r3
	add r1, sp, #576
	cmp r7, r9
	lsrs r5, r2, #12
	add r8, r0
	bls	1f
	cmp r4, #214
1:
	subs r3, r2, #5
	ldrh r0, [r7, r6]
	adds r3, #232
	str r1, [r7, r6]
	push	{r3, r5}
	subs r1, r0, #1
	pop	{r3, r5}
	asrs r5, r2
	adds r4, #97
	mrs r1, apsr
	bics r0, r6
	movs	r6, #48
	add r12, r5
	movs r3, #31
	subs r0, #255
	mvns r1, r0
	adds r1, #126
	str r2, [r7, r6]
	ldrb r3, [r7, #26]
	cmp r0, #183
	beq	1f
	cmp r2, r1
1:
	mrs r4, apsr
	mvns r2, r2
	sbcs r5, r1
	lsls r2, r0, #10
	muls r4, r4, r4
	bgt	1f
	cmp r3, r10
1:
	adds r0, r0, #0
	mov r11, r7
	asrs r4, r5, #19
	bne	1f
	ldrb r5, [r7, r6]
1:
	subs r5, r0, #2
	subs r5, r7, r1
	bcs	1f
	mov r4, r11
1:
	cmp r2, r10
	subs r0, r7, r2
	movs r3, #1
	add r12, r3
	asrs r5, r6
	bhi	1f
	asrs r2, r6
1:
	subs r3, r0, #4
	bhi	1f
	strh r3, [r7, r6]
1:
	subs r5, #72
	subs r4, r5, #0
	mov r10, r2
	bge	1f
	asrs r4, r5, #3
1:
	lsls r1, r7
	lsrs r2, r4, #16
	lsrs r4, r1
	uxtb r3, r7
	add r0, sp, #84
	cmp r6, #139
	orrs r0, r2
	mov r9, r6
	bvc	1f
	strh r4, [r7, r6]
1:
	mrs r1, apsr
	ldrsb r5, [r7, r6]
	ands r5, r5
	rsbs r4, r4, #0
	adds r3, r4, r1
	strb r5, [r7, r6]
	ldrh r2, [r7, #12]
	ldrsb r4, [r7, r6]
	ldr r1, [r7, #76]
	bmi	1f
	lsrs r2, r2
1:
	subs r4, r7, #0
	cmp r0, r9
	lsrs r0, r1, #10
	mvns r2, r1
	bcc	1f
	mrs r5, apsr
1:
	add r10, r5
	bhi	1f
	add r0, r11
1:
	ldr r3, [r7, r6]
	adds r5, r2, #7
	cmp r3, #206
	subs r1, r3, #5
	subs r1, #122
	ldrh r5, [r7, #50]
	subs r2, r2, r0
	subs r3, #156
	add r0, sp, #108
	rev16 r1, r2
	mvns r5, r7
	ldrb r3, [r7, #5]
	adds r5, r1, r7
	movs r3, #32
	rors r4, r5
	str r0, [r7, #28]
	cmp r6, #18
	lsls r3, r4, #15
	mvns r3, r2
	add r0, r11
	bcs	1f
	asrs r0, r0, #31
1:
	add r4, sp, #88
	subs r0, #39
	sbcs r1, r0
	movs r1, #37
	cmp r7, #86
	lsls r0, r4
	ldr r2, [r7, r6]
	mov r5, r9
	cmp r2, #165
	add r5, sp, #16
	bls	1f
	asrs r0, r3, #7
1:
	adds r4, r5, #5
	rors r2, r7
	rev16 r3, r3
	mrs r2, apsr
	cmp r8, r7
	movs	r6, #60
	adds r1, r3, r7
	add r4, sp, #280
	bvc	1f
	cmp r10, r0
1:
	subs r0, r1, #4
	subs r2, r2, #1
	revsh r4, r5
	cmp r2, r8
	cmp r11, r4
	lsls r3, r6
	subs r4, r1, #2
	subs r0, r4, #3
	adds r0, #184
	mov r2, r10
	bge	1f
	mrs r3, apsr
1:
	mov r5, r12
	subs r1, #217
	add r8, r7
	movs r0, #31
	cmp r3, r10
	movs r0, #33
	adds r1, r5, r7
	mov r4, r11
	strb r3, [r7, r6]
	mov r10, r1
	adds r2, r7, r2
	add r11, r7
	adds r3, r0, #5
	cmp r1, r12
	cmp r4, #190
	cmp r3, #70
	add r5, r8
	bls	1f
	mov r4, r12
1:
	subs r3, r5, #5
	beq	1f
	add r11, r1
1:
	bgt	1f
	sbcs r3, r7
1:
	rors r0, r5
	mov r11, r3
	cmp r6, r10
	cmp r4, r5
	uxtb r2, r7
	cmp r9, r7
	adds r2, r7, r7
	mov r5, r10
	rsbs r5, r1, #0
	lsrs r3, r1
	adds r4, #92
	ldr r5, [r7, r6]
	mov r1, r12
	adds r3, #70
	cmp r3, r11
	adds r1, #182
	mov r9, r7
	subs r2, #130
	movs r0, #73
	add r3, sp, #400
	movs r1, #32
	cmp r1, r10
	blt	1f
	adds r1, r2, #5
1:
	push	{r2, r5}
	subs r4, r5, #3
	pop	{r2, r5}
	mov r5, r12
	mov r0, r11
	add r11, r6
	beq	1f
	lsrs r2, r5
1:
	rors r1, r2
	add r9, r4
	orrs r4, r1
	adds r3, #9
	push	{r2}
	lsls r3, r0
	pop	{r2}
	beq	1f
	add r8, r5
1:
	blt	1f
	strh r2, [r7, r6]
1:
	bge	1f
	subs r2, #87
1:
	subs r4, #209
	subs r3, #186
	bls	1f
	cmp r2, #154
1:
	strb r1, [r7, #23]
	adds r3, r0, #1
	bhi	1f
	cmp r7, r8
1:
	bne	1f
	cmn r1, r1
1:
	bhi	1f
	subs r4, r1, #0
1:
	push	{r0, r2, r5}
	adds r0, #133
	pop	{r0, r2, r5}
	add r10, r7
	cmp r10, r6
	cmp r5, #189
	sxtb r1, r3
	mov r11, r0
	cmp r3, r11
	bls	1f
	cmp r7, #125
1:
	adds r1, r3, r7
	mov r9, r7
	mvns r2, r7
	cmp r6, r10
	uxtb r5, r1
	rev r4, r6
	lsrs r1, r1
	subs r4, #24
	mrs r1, apsr
	rsbs r1, r6, #0
	movs	r6, #28
	str r2, [r7, r6]
	bhi	1f
	mvns r4, r5
1:
	mvns r1, r6
	uxth r0, r3
	cmp r6, #232
	subs r2, r6, #7
	add r10, r4
	cmp r0, #46
	mov r5, r11
	subs r0, r6, r5
	adds r0, #94
	adds r4, #241
	mvns r3, r3
	subs r0, #150
	cmp r10, r7
	lsrs r3, r4
	bvc	1f
	adds r1, #16
1:
	bcc	1f
	add r11, r2
1:
	lsrs r1, r1
	movs r0, #1
	cmp r5, #95
	mov r2, r11
	rsbs r3, r6, #0
	bls	1f
	mov r1, r9
1:
	cmp r0, r0
	asrs r4, r5, #22
	adds r5, r5, #4
	bge	1f
	cmp r4, #173
1:
	asrs r1, r3
	add r1, r8
	b	2f
	.ltorg
2:
	add r9, r7
	subs r0, r3, #3
	ble	1f
	str r4, [r7, r6]
1:
	add r5, sp, #176
	mov r1, r9
	mrs r4, apsr
	subs r4, r1, #7
	bge	1f
	add r12, r2
1:
	cmp r6, r12
	adds r2, #198
	bhi	1f
	mvns r5, r0
1:
	mov r4, r12
	cmn r4, r4
	lsrs r0, r3, #31
	bhi	1f
	asrs r1, r2, #12
1:
	strb r4, [r7, r6]
	subs r1, r3, #3
	ldrsb r3, [r7, r6]
	adds r2, r3, r1
	cmn r0, r0
	mov r9, r6
	adds r5, r6, r5
	adds r0, #3
	tst r7, r3
	add r3, sp, #12
	lsrs r0, r7
	orrs r4, r3
	tst r0, r4
	cmp r11, r2
	mov r4, r10
	add r4, r10
	lsrs r5, r1
	add r0, r8
	blt	1f
	mvns r4, r4
1:
	cmp r0, r9
	rors r0, r7
	lsrs r1, r1, #28
	adds r0, #64
	subs r0, r7, #2
	push	{r0}
	adds r5, #18
	pop	{r0}
	bcc	1f
	cmp r10, r5
1:
	subs r0, r4, #5
	blt	1f
	lsrs r5, r1
1:
	bne	1f
	cmp r8, r7
1:
	cmn r7, r4
	cmp r7, r7
	cmp r8, r1
	cmp r0, r2
	mov r5, r8
	sxth r1, r1
	uxth r3, r4
	str r2, [r7, #100]
	cmp r5, r6
	strh r0, [r7, r6]
	bcc	1f
	adds r1, #196
1:
	subs r2, r1, r4
	ldrsh r3, [r7, r6]
	add r3, sp, #596
	bls	1f
	ldrh r4, [r7, #42]
1:
	adds r4, r7, r4
	add r2, sp, #596
	ldrh r5, [r7, #32]
	cmp r11, r6
	str r5, [r7, #72]
	movs r1, #33
	bls	1f
	adds r1, r2, #2
1:
	asrs r0, r7
	movs	r6, #40
	blt	1f
	tst r4, r1
1:
	asrs r5, r1
	push	{r4, r5}
	adds r4, #123
	pop	{r4, r5}
	blt	1f
	subs r0, r6, r2
1:
	asrs r0, r5
	push	{r2}
	subs r0, r7, #5
	pop	{r2}
	bvc	1f
	add r2, r10
1:
	bvc	1f
	sxtb r4, r3
1:
	add r4, sp, #712
	asrs r1, r6
	blt	1f
	adds r2, r0, r5
1:
	add r2, sp, #980
	bgt	1f
	tst r7, r5
1:
	cmp r7, #243
	adds r4, r6, #1
	strb r1, [r7, r6]
	mov r0, r11
	rors r0, r0
	ldr r5, [r7, r6]
	subs r0, r0, r6
	add r0, sp, #76
	adds r0, #167
	lsrs r3, r6
	asrs r2, r1
	strb r0, [r7, r6]
	mov r5, r12
	strb r3, [r7, r6]
	adds r2, #32
	bcs	1f
	cmp r12, r6
1:
	mvns r0, r6
	subs r0, r4, r6
	rors r0, r2
	adds r1, #35
	mvns r2, r7
	add r12, r2
	adds r3, r0, #1
	str r2, [r7, #88]
	push	{r2}
	add r0, sp, #932
	pop	{r2}
	rsbs r1, r2, #0
	add r3, sp, #232
	orrs r5, r0
	rev16 r2, r7
	bls	1f
	movs r2, #31
1:
	mvns r2, r6
	blt	1f
	tst r5, r1
1:
	push	{r3}
	ldrsh r1, [r7, r6]
	pop	{r3}
	mov r1, r9
	lsrs r0, r6
	push	{r0}
	adds r5, r0, #0
	pop	{r0}
	mov r5, r12
	cmp r12, r2
	movs r2, #33
	cmp r12, r7
	subs r4, #72
	lsrs r5, r7
	ldrb r4, [r7, #12]
	add r12, r7
	adds r1, r2, r2
	bge	1f
	mov r9, r5
1:
	adds r2, #37
	strb r3, [r7, #16]
	ands r1, r3
	cmn r4, r0
	mov r10, r4
	tst r1, r4
	asrs r1, r7
	mvns r5, r5
	subs r1, r3, #1
	bvs	1f
	mvns r0, r0
1:
	cmp r8, r7
	rsbs r5, r1, #0
	add r1, r12
	lsrs r1, r0
	cmp r3, #168
	add r2, sp, #536
	tst r2, r7
	adds r3, r4, #4
	bgt	1f
	cmp r6, #161
1:
	add r10, r4
	subs r2, r4, r5
	bls	1f
	add r5, r9
1:
	subs r2, #41
	str r5, [r7, #28]
	sxth r3, r2
	movs r4, #31
	rsbs r5, r7, #0
	subs r5, #120
	bne	1f
	subs r5, #167
1:
	adds r2, #232
	movs r4, #0
	mvns r2, r2
	mov r8, r3
	add r0, r10
	adds r2, #86
	cmp r4, #237
	bvs	1f
	lsrs r3, r0
1:
	subs r3, r5, r2
	movs	r6, #32
	sxth r2, r4
	subs r4, #81
	uxth r4, r1
	lsls r1, r1, #31
	cmp r8, r5
	add r1, sp, #288
	movs r3, #32
	ldrh r0, [r7, r6]
	bne	1f
	muls r5, r1, r5
1:
	add r5, sp, #1004
	add r0, sp, #604
	cmp r7, r3
	adds r2, r4, #3
	subs r0, r0, r2
	subs r0, r6, #4
	adds r5, r2, #0
	add r8, r4
	adds r0, r5, #4
	lsrs r5, r0
	push	{r3, r5}
	cmp r6, r12
	pop	{r3, r5}
	add r0, r9
	asrs r3, r5
	tst r5, r6
	subs r4, r3, #6
	movs r2, #32
	bvc	1f
	add r0, r8
1:
	movs r5, #1
	subs r3, r0, r2
	mov r0, r11
	lsls r4, r6, #3
	asrs r2, r4
	cmp r10, r2
	lsrs r0, r6
	uxth r1, r7
	adds r4, r3, r5
	mrs r3, apsr
	add r12, r6
	cmp r12, r6
	subs r3, #166
	cmn r1, r3
	tst r6, r6
	strb r0, [r7, #14]
	bpl	1f
	mrs r5, apsr
1:
	rors r3, r2
	ldrh r1, [r7, r6]
	bvs	1f
	mov r9, r6
1:
	asrs r0, r2
	subs r3, r5, #0
	add r2, r10
	lsls r3, r6, #19
	mov r5, r9
	add r4, sp, #392
	subs r2, r6, #4
	add r2, r12
	mvns r4, r4
	cmp r11, r5
	subs r1, #194
	ble	1f
	lsls r2, r5
1:
	add r5, r9
	subs r5, #109
	cmp r9, r7
	adds r0, r4, #7
	bpl	1f
	mov r12, r7
1:
	subs r2, r5, r2
	push	{r3, r4, r5}
	subs r3, r2, r3
	pop	{r3, r4, r5}
	cmp r2, r12
	push	{r0, r2, r3}
	strh r3, [r7, #60]
	pop	{r0, r2, r3}
	adds r4, r6, #3
	add r0, r8
	str r3, [r7, r6]
	movs r0, #1
	sxtb r2, r0
	adds r5, r2, r7
	asrs r2, r0
	adds r0, #110
	ldrsb r5, [r7, r6]
	rors r1, r3
	mrs r0, apsr
	cmp r11, r5
	mvns r4, r5
	movs r0, #31
	subs r2, r6, r3
	adds r0, r2, r3
	cmp r7, r9
	tst r6, r5
	asrs r5, r6
	mrs r5, apsr
	mrs r2, apsr
	add r2, sp, #596
	ldrh r2, [r7, #50]
	asrs r1, r6
	sxtb r4, r5
	orrs r1, r1
	adds r2, r4, r6
	mov r5, r8
	adds r1, #69
	add r8, r2
	movs	r6, #56
	bne	1f
	subs r0, #161
1:
	movs r1, #32
	lsrs r2, r7
	blt	1f
	add r10, r4
1:
	tst r5, r0
	cmp r3, #39
	push	{r1, r2, r3}
	cmp r5, r8
	pop	{r1, r2, r3}
	ldrh r4, [r7, r6]
	mrs r5, apsr
	subs r0, r1, #7
	rsbs r0, r0, #0
	bcs	1f
	rsbs r4, r2, #0
1:
	bne	1f
	revsh r1, r5
1:
	subs r1, r2, r2
	bpl	1f
	rsbs r0, r6, #0
1:
	mvns r5, r6
	cmp r6, #147
	bgt	1f
	cmp r8, r2
1:
	add r12, r7
	mrs r5, apsr
	adds r2, r3, r0
	movs r2, #31
	bcs	1f
	add r1, r11
1:
	bls	1f
	strh r5, [r7, r6]
1:
	rsbs r5, r3, #0
	subs r5, r7, r1
	subs r3, r3, #3
	movs r4, #1
	ble	1f
	subs r2, r4, #4
1:
	subs r5, r2, #0
	adds r2, r0, r2
	tst r0, r0
	bge	1f
	rev r3, r3
1:
	asrs r3, r6
	mov r9, r7
	cmp r10, r6
	bne	1f
	bics r0, r1
1:
	add r1, sp, #680
	asrs r4, r4, #31
	rors r3, r1
	adds r2, #253
	rev16 r5, r7
	cmp r7, #69
	ldrb r3, [r7, #6]
	mvns r4, r0
	cmn r1, r6
	mov r9, r2
	muls r2, r3, r2
	cmp r6, #54
	cmp r4, #209
	mrs r4, apsr
	adds r3, #37
	add r4, sp, #852
	subs r3, #233
	subs r1, r4, r3
	add r4, r11
	str r2, [r7, r6]
	mrs r0, apsr
	cmp r7, r8
	mov r0, r10
	adds r2, r4, #4
	add r10, r6
	asrs r0, r5
	cmp r6, #88
	lsls r4, r3, #11
	add r0, sp, #508
	cmp r9, r6
	bvs	1f
	str r4, [r7, r6]
1:
	adds r1, r1, #6
	adds r5, r3, #6
	cmp r6, r9
	mov r9, r7
	lsrs r1, r1
	strb r2, [r7, #16]
	bvs	1f
	add r9, r2
1:
	subs r5, r0, #0
	subs r4, r4, #2
	uxtb r1, r5
	add r4, sp, #176
	cmp r9, r5
	revsh r5, r4
	subs r3, r3, #2
	add r0, sp, #580
	subs r1, r2, #2
	bvc	1f
	rsbs r0, r1, #0
1:
	beq	1f
	ldrh r3, [r7, #48]
1:
	adds r3, r2, r4
	cmn r4, r4
	cmp r9, r2
	bgt	1f
	rev r0, r5
1:
	sbcs r0, r2
	subs r3, r1, r4
	bmi	1f
	asrs r2, r7, #18
1:
	mov r2, r10
	asrs r4, r5
	subs r3, #167
	adds r4, #18
	movs	r6, #12
	cmp r5, r11
	revsh r2, r5
	mov r11, r1
	rsbs r5, r5, #0
	cmp r9, r4
	adds r3, r0, #3
	ldrb r4, [r7, #17]
	asrs r3, r5, #12
	beq	1f
	adds r1, r5, #6
1:
	subs r0, #124
	lsrs r5, r3, #29
	rsbs r1, r0, #0
	mvns r5, r1
	cmp r7, r8
	add r8, r2
	rsbs r3, r1, #0
	mov r1, r12
	bcc	1f
	cmp r5, r11
1:
	subs r3, r3, r2
	ldrsh r3, [r7, r6]
	subs r1, r5, #0
	adds r4, #146
	muls r5, r0, r5
	adds r2, r5, #1
	cmp r5, r9
	lsrs r4, r0, #1
	cmn r5, r6
	subs r4, #49
	mvns r3, r3
	mrs r4, apsr
	asrs r3, r0, #17
	mvns r4, r7
	mov r0, r9
	sxth r3, r6
	mov r12, r2
	bge	1f
	rev16 r0, r0
1:
	adds r4, r6, r5
	subs r1, r6, #0
	lsrs r1, r3
	subs r3, #34
	cmp r2, #13
	cmn r0, r5
	adds r2, #98
	subs r2, r0, r4
	str r0, [r7, #52]
	bne	1f
	mrs r2, apsr
1:
	push	{r2, r4, r5}
	adds r0, #126
	pop	{r2, r4, r5}
	bgt	1f
	movs r0, #0
1:
	add r2, r11
	mov r12, r0
	mvns r2, r6
	adds r5, r5, #2
	lsrs r2, r2, #23
	cmp r6, #70
	add r8, r7
	ldrsb r2, [r7, r6]
	movs r5, #32
	rors r3, r0
	adds r5, #114
	asrs r0, r2, #4
	mov r3, r9
	subs r0, r3, #4
	bge	1f
	adds r4, #203
1:
	mov r2, r8
	mvns r3, r6
	blt	1f
	mvns r4, r5
1:
	add r0, sp, #420
	movs r2, #1
	mov r3, r9
	movs r3, #58
	rev16 r4, r1
	subs r2, #188
	lsls r4, r7, #26
	push	{r2, r3}
	revsh r4, r0
	pop	{r2, r3}
	bvc	1f
	add r3, r8
1:
	add r4, sp, #888
	ldr r3, [r7, #44]
	cmp r7, #66
	cmn r4, r3
	add r11, r4
	cmn r0, r4
	lsls r1, r1, #12
	rsbs r1, r5, #0
	tst r1, r4
	bge	1f
	subs r5, r4, r4
1:
	adds r5, r6, #4
	mvns r0, r0
	subs r4, r1, r4
	subs r0, r0, r4
	cmp r3, r11
	subs r2, r1, #1
	add r0, r8
	adds r0, #0
	lsrs r1, r2, #3
	bne	1f
	cmp r7, r12
1:
	bge	1f
	cmp r2, r10
1:
	push	{r1, r2, r3}
	cmp r5, #176
	pop	{r1, r2, r3}
	movs	r6, #16
	rors r0, r5
	strh r4, [r7, #14]
	cmp r6, #100
	ands r3, r3
	bvs	1f
	cmp r7, r9
1:
	rors r0, r0
	add r2, sp, #68
	asrs r1, r1
	add r4, r9
	add r4, r12
	add r10, r6
	adds r5, r7, r5
	subs r5, r4, r5
	add r3, r9
	bmi	1f
	tst r7, r7
1:
	bcs	1f
	subs r5, r3, r2
1:
	asrs r3, r0
	lsls r3, r1, #10
	add r0, sp, #452
	adds r1, r5, r0
	cmp r7, r7
	asrs r2, r5
	mrs r2, apsr
	strb r0, [r7, #10]
	lsls r0, r0, #22
	adds r1, #205
	revsh r2, r5
	mvns r3, r7
	rev r5, r1
	subs r5, #201
	adds r3, r2, #4
	mov r11, r6
	mvns r2, r5
	movs r2, #0
	bpl	1f
	lsrs r1, r1
1:
	cmp r9, r5
	lsrs r2, r3
	strb r5, [r7, #16]
	adds r0, #138
	lsls r0, r3, #9
	mrs r0, apsr
	blt	1f
	subs r3, r0, r4
1:
	adds r5, r0, #5
	str r0, [r7, #68]
	cmp r7, r7
	b	2f
	.ltorg
2:
	sbcs r3, r0
	mov r9, r5
	ldrsh r4, [r7, r6]
	mov r12, r6
	orrs r1, r7
	cmp r2, #148
	movs r2, #0
	mrs r3, apsr
	ldr r0, [r7, #112]
	ldrsh r2, [r7, r6]
	bcs	1f
	lsls r5, r3
1:
	subs r5, r7, r6
	mov r5, r12
	add r1, sp, #44
	adds r0, r0, #1
	lsls r1, r1
	ldrh r3, [r7, #30]
	mrs r1, apsr
	rev16 r3, r4
	bvs	1f
	mvns r3, r6
1:
	mvns r3, r7
	lsls r0, r2, #18
	rsbs r4, r5, #0
	add r12, r3
	bls	1f
	subs r3, #172
1:
	push	{r1, r3}
	add r5, sp, #672
	pop	{r1, r3}
	bcs	1f
	mov r1, r11
1:
	bcc	1f
	cmp r10, r6
1:
	adds r5, r0, #1
	add r0, r9
	add r4, sp, #484
	bmi	1f
	cmp r7, #109
1:
	movs r4, #125
	asrs r4, r5
	bvc	1f
	lsrs r3, r0
1:
	mov r1, r9
	mov r8, r7
	mvns r0, r0
	blt	1f
	strh r2, [r7, r6]
1:
	bge	1f
	cmp r10, r6
1:
	bne	1f
	subs r2, r2, #6
1:
	add r5, sp, #20
	mov r1, r10
	movs r5, #0
	movs r2, #33
	adds r2, r4, r6
	add r0, sp, #616
	lsls r2, r6
	rsbs r2, r1, #0
	subs r3, #167
	ldrsb r2, [r7, r6]
	cmp r5, #188
	movs	r6, #56
	muls r2, r1, r2
	lsrs r5, r0
	strb r4, [r7, r6]
	cmp r5, #54
	subs r5, r4, #7
	rsbs r5, r2, #0
	cmp r4, #158
	mov r11, r0
	subs r3, r2, r2
	lsls r2, r7
	blt	1f
	adds r2, #89
1:
	adds r1, r1, r2
	muls r5, r6, r5
	ldrh r3, [r7, r6]
	rors r5, r1
	rsbs r4, r6, #0
	add r4, r10
	subs r0, r3, #4
	bhi	1f
	movs r0, #0
1:
	orrs r3, r6
	tst r0, r2
	mov r12, r5
	cmp r7, r1
	add r4, sp, #400
	mov r4, r9
	ble	1f
	rsbs r0, r1, #0
1:
	adcs r0, r1
	cmp r6, r2
	strh r4, [r7, r6]
	mrs r4, apsr
	mvns r5, r5
	cmp r11, r4
	mrs r0, apsr
	rors r0, r5
	bls	1f
	subs r5, r7, r3
1:
	movs r2, #1
	cmp r4, r9
	mov r1, r10
	cmp r1, #67
	rsbs r1, r6, #0
	add r0, r8
	add r2, r10
	adds r2, r7, r3
	sxtb r0, r1
	cmp r5, r12
	add r5, sp, #776
	lsls r2, r1
	cmp r4, r6
	add r5, r8
	movs r2, #32
	cmp r5, #213
	adds r1, r5, r2
	mov r8, r0
	bgt	1f
	adds r4, r7, r1
1:
	ldrh r3, [r7, #32]
	adds r5, r2, #2
	subs r1, r6, #3
	rev16 r5, r0
	mvns r2, r6
	subs r3, #37
	adds r3, r7, r7
	movs r4, #32
	mov r8, r5
	mrs r0, apsr
	str r3, [r7, #44]
	cmp r7, #17
	ldrsh r0, [r7, r6]
	lsrs r3, r1
	rsbs r4, r0, #0
	add r9, r3
	asrs r4, r3, #30
	beq	1f
	add r0, sp, #468
1:
	bgt	1f
	adds r0, #227
1:
	movs r4, #0
	bcs	1f
	mov r9, r1
1:
	cmp r4, r9
	mov r8, r4
	lsrs r3, r7, #8
	mov r9, r6
	mrs r5, apsr
	cmp r5, r2
	rsbs r2, r3, #0
	movs r5, #33
	subs r1, r1, #2
	mrs r5, apsr
	add r3, sp, #12
	subs r0, r6, r0
	subs r3, r3, r5
	add r3, sp, #292
	sbcs r4, r3
	mrs r3, apsr
	bne	1f
	add r8, r2
1:
	eors r2, r2
	add r0, r11
	cmp r7, #64
	rsbs r5, r5, #0
	bgt	1f
	cmn r3, r1
1:
	movs	r6, #48
	bics r2, r2
	adds r3, r7, #4
	bcs	1f
	cmp r4, #6
1:
	rsbs r3, r7, #0
	ldrb r4, [r7, #10]
	subs r4, #6
	add r1, r10
	mov r0, r10
	adds r2, r0, r1
	adds r0, #235
	bpl	1f
	lsrs r3, r1
1:
	ldrb r3, [r7, r6]
	bvc	1f
	str r5, [r7, r6]
1:
	cmn r3, r3
	rsbs r3, r3, #0
	ble	1f
	cmp r1, r12
1:
	strh r0, [r7, r6]
	strh r2, [r7, #8]
	beq	1f
	subs r2, r6, r6
1:
	ble	1f
	cmp r6, r9
1:
	ldrb r4, [r7, #24]
	ldrb r3, [r7, r6]
	rev r1, r4
	mvns r0, r3
	adds r2, r5, #7
	cmp r12, r4
	adds r3, #144
	uxtb r2, r5
	adds r0, r2, #3
	rors r1, r4
	adds r5, r0, r4
	subs r1, r1, r4
	push	{r1, r3}
	mvns r0, r2
	pop	{r1, r3}
	movs r5, #32
	bls	1f
	cmp r9, r7
1:
	subs r4, r5, #2
	bcs	1f
	lsrs r2, r3
1:
	mov r2, r8
	lsrs r1, r5
	subs r1, #111
	strh r1, [r7, #48]
	mov r3, r8
	sxtb r1, r4
	lsrs r5, r5
	rors r0, r4
	mvns r2, r3
	adds r3, r5, r0
	subs r3, r4, #6
	ldrb r2, [r7, r6]
	subs r5, r1, r6
	asrs r2, r3
	bne	1f
	cmp r12, r4
1:
	add r11, r7
	add r5, sp, #644
	cmp r0, r12
	mov r11, r4
	add r12, r5
	add r3, sp, #936
	strb r1, [r7, r6]
	add r9, r3
	add r4, sp, #172
	bcc	1f
	eors r3, r3
1:
	mrs r3, apsr
	rsbs r1, r1, #0
	mov r9, r7
	cmp r1, r9
	adds r1, r1, #5
	mov r5, r11
	rsbs r5, r2, #0
	adds r2, #199
	bpl	1f
	movs r4, #32
1:
	bvs	1f
	strb r4, [r7, r6]
1:
	subs r3, r2, #7
	subs r3, r2, #0
	cmp r5, #135
	ble	1f
	cmp r7, #12
1:
	movs r2, #33
	add r1, sp, #84
	rsbs r1, r2, #0
	mov r12, r7
	subs r4, r2, #4
	uxth r4, r7
	uxtb r0, r6
	ands r1, r0
	adds r5, r5, r4
	cmp r6, #224
	lsls r0, r3
	bne	1f
	adds r4, r1, #4
1:
	rev r0, r0
	asrs r4, r5
	movs r4, #1
	bvs	1f
	cmp r5, r12
1:
	movs r0, #31
	push	{r1, r4}
	rsbs r1, r3, #0
	pop	{r1, r4}
	subs r3, #200
	movs r2, #0
	rsbs r1, r5, #0
	movs	r6, #12
	add r9, r6
	mov r0, r9
	sbcs r0, r4
	add r0, sp, #256
	mrs r4, apsr
	rev r3, r4
	asrs r4, r1
	subs r1, r3, r1
	subs r0, r7, r2
	cmp r11, r1
	rors r5, r2
	mov r8, r5
	lsls r2, r6
	mov r1, r10
	movs r5, #32
	bls	1f
	subs r0, #58
1:
	mrs r1, apsr
	push	{r4}
	lsrs r0, r0
	pop	{r4}
	tst r7, r6
	ldr r1, [r7, r6]
	rors r5, r7
	lsls r4, r4
	adds r4, r0, #2
	str r5, [r7, r6]
	mov r2, r9
	mov r3, r8
	mov r10, r0
	mov r1, r10
	add r11, r4
	rev16 r4, r1
	cmp r3, #7
	mov r11, r7
	rev r5, r6
	cmp r6, r12
	adds r1, r6, r2
	adds r0, r6, r0
	adds r0, r4, r3
	revsh r4, r7
	mov r2, r8
	cmp r3, r0
	ble	1f
	adds r2, #163
1:
	push	{r2}
	adds r0, r0, #3
	pop	{r2}
	rsbs r3, r3, #0
	cmn r6, r4
	cmp r11, r4
	mov r12, r7
	subs r4, r2, #1
	cmp r6, r8
	add r11, r2
	subs r4, r5, #3
	movs r3, #198
	mov r2, r8
	adds r4, r6, #5
	sbcs r0, r5
	adds r0, r3, #3
	lsls r1, r3, #15
	rsbs r5, r3, #0
	rsbs r3, r4, #0
	bmi	1f
	orrs r1, r6
1:
	muls r3, r1, r3
	add r4, sp, #252
	mvns r2, r3
	bhi	1f
	adds r1, r5, r1
1:
	cmp r10, r4
	movs r4, #15
	strh r5, [r7, r6]
	lsrs r0, r7, #13
	subs r1, r2, #3
	ble	1f
	add r11, r1
1:
	adds r2, #141
	cmp r3, r12
	add r8, r1
	movs r1, #213
	rors r3, r2
	asrs r4, r1, #12
	cmp r12, r3
	subs r4, r1, r0
	adds r5, r1, r4
	ldr r2, [r7, #92]
	add r4, r8
	strb r2, [r7, r6]
	lsrs r4, r3, #6
	adds r4, #126
	add r9, r6
	add r8, r7
	ands r3, r1
	cmp r5, r11
	mov r12, r1
	adds r4, #97
	adds r4, r2, #5
	lsrs r4, r2
	movs r0, #0
	lsls r2, r2, #27
	add r11, r5
	adds r5, r6, r5
	mvns r1, r2
	movs r2, #32
	movs	r6, #16
	strb r2, [r7, r6]
	asrs r4, r0
	mov r4, r9
	adds r3, r7, r1
	subs r4, r1, #4
	cmp r6, r12
	subs r3, r1, r4
	lsls r3, r5
	mrs r0, apsr
	push	{r2, r5}
	lsls r1, r6
	pop	{r2, r5}
	adds r3, #217
	str r0, [r7, #96]
	mov r2, r11
	rsbs r5, r2, #0
	add r11, r6
	adds r2, #37
	ldr r1, [r7, #108]
	push	{r2}
	subs r4, r6, r5
	pop	{r2}
	bhi	1f
	subs r0, r6, #7
1:
	adds r5, r1, r1
	ldr r4, [r7, r6]
	adds r2, #67
	bmi	1f
	cmp r2, #133
1:
	adds r3, r5, #7
	adds r1, r4, r7
	push	{r0, r5}
	asrs r2, r4, #21
	pop	{r0, r5}
	subs r5, r2, #7
	ldrh r3, [r7, r6]
	bpl	1f
	ldrh r2, [r7, #18]
1:
	adds r3, #120
	rev r4, r3
	subs r4, r7, #6
	cmp r1, r9
	add r9, r5
	cmp r4, r8
	bhi	1f
	lsls r2, r6
1:
	rors r4, r7
	bcc	1f
	bics r5, r7
1:
	cmp r2, #132
	str r4, [r7, r6]
	add r5, r8
	adds r2, r0, r5
	add r0, r11
	rors r2, r5
	rsbs r4, r7, #0
	cmp r1, r10
	push	{r4}
	asrs r1, r2
	pop	{r4}
	strh r0, [r7, #0]
	add r1, r8
	add r4, sp, #612
	mov r11, r3
	mrs r5, apsr
	asrs r5, r2, #30
	mrs r1, apsr
	subs r4, r6, #4
	mov r11, r1
	add r2, r8
	add r9, r4
	ands r2, r2
	add r10, r3
	subs r1, r3, r3
	rsbs r2, r2, #0
	mrs r2, apsr
	revsh r5, r7
	lsrs r2, r2, #20
	mov r0, r10
	subs r5, r1, r3
	adds r3, r5, r0
	ldr r5, [r7, r6]
	cmp r5, #18
	mov r9, r7
	cmp r11, r2
	blt	1f
	sxtb r5, r1
1:
	cmp r5, r8
	subs r3, r1, #6
	asrs r0, r4
	adds r2, r4, #6
	adds r4, r0, r6
	subs r3, r4, #3
	adds r1, #190
	add r3, sp, #764
	bhi	1f
	cmp r1, #242
1:
	bvc	1f
	movs r2, #33
1:
	mov r5, r10
	subs r1, #141
	bcs	1f
	adds r1, #178
1:
	add r9, r6
	add r8, r6
	add r0, sp, #820
	subs r0, #18
	bics r4, r2
	bcs	1f
	lsls r1, r7
1:
	mov r2, r10
	movs r5, #34
	bge	1f
	bics r1, r1
1:
	add r9, r0
	cmn r1, r7
	movs	r6, #12
	beq	1f
	str r5, [r7, r6]
1:
	mov r1, r10
	cmp r11, r2
	subs r3, r4, r0
	cmp r4, r12
	cmp r9, r3
	add r4, r8
	mov r9, r3
	subs r2, r0, r7
	adcs r4, r3
	bmi	1f
	add r5, sp, #632
1:
	mvns r0, r5
	push	{r1, r2, r5}
	lsrs r3, r7
	pop	{r1, r2, r5}
	mvns r0, r5
	subs r1, r2, r7
	push	{r2, r4}
	sbcs r5, r7
	pop	{r2, r4}
	uxth r2, r1
	cmn r7, r1
	subs r5, r7, #6
	strb r2, [r7, r6]
	mrs r4, apsr
	adds r0, r0, #4
	lsls r4, r1
	movs r3, #0
	ldr r3, [r7, #112]
	subs r4, r0, r0
	asrs r5, r1, #16
	bcs	1f
	subs r2, r3, #3
1:
	mrs r5, apsr
	lsrs r4, r2, #23
	sxth r5, r6
	cmp r5, #156
	adds r1, r6, r2
	rsbs r5, r6, #0
	rors r3, r3
	cmn r3, r6
	cmp r1, #87
	add r5, r11
	bvc	1f
	movs r0, #8
1:
	rors r5, r0
	uxtb r0, r6
	adds r3, r4, r5
	bgt	1f
	add r5, sp, #200
1:
	uxth r0, r4
	subs r2, #68
	str r2, [r7, #80]
	cmp r1, r1
	bcs	1f
	adds r1, r1, #4
1:
	mrs r5, apsr
	tst r3, r3
	add r2, sp, #700
	subs r5, r2, #2
	bls	1f
	cmp r1, r11
1:
	add r1, sp, #712
	add r0, sp, #80
	cmp r5, r9
	mvns r2, r0
	mov r10, r2
	subs r3, #206
	bcc	1f
	subs r2, #80
1:
	b	2f
	.ltorg
2:
	strb r5, [r7, #1]
	subs r2, r5, #2
	subs r0, r3, r1
	cmp r3, r11
	mov r9, r7
	lsrs r3, r7
	subs r4, r2, r5
	movs r4, #31
	rors r5, r7
	cmp r10, r0
	movs r1, #33
	rsbs r0, r5, #0
	mov r10, r6
	mov r2, r10
	subs r1, #0
	mvns r0, r4
	bics r5, r3
	adds r1, r0, r5
	bmi	1f
	add r3, sp, #604
1:
	mov r1, r8
	ldrb r0, [r7, #18]
	subs r1, r1, r7
	revsh r5, r1
	subs r1, r0, r5
	sxtb r5, r5
	rsbs r5, r7, #0
	movs r0, #32
	push	{r1, r3}
	mrs r0, apsr
	pop	{r1, r3}
	cmp r6, r8
	orrs r2, r5
	mov r11, r0
	mov r1, r11
	add r12, r0
	strh r0, [r7, r6]
	adds r4, #211
	eors r5, r5
	subs r0, r7, r0
	movs	r6, #16
	subs r4, r1, #0
	bne	1f
	adcs r1, r5
1:
	mrs r5, apsr
	bvc	1f
	rsbs r0, r6, #0
1:
	cmp r8, r1
	cmp r2, r2
	strh r5, [r7, r6]
	rsbs r1, r4, #0
	bhi	1f
	cmp r6, r12
1:
	sbcs r2, r7
	cmp r5, r10
	bics r5, r0
	cmp r10, r3
	adcs r2, r7
	mrs r4, apsr
	ldrsh r4, [r7, r6]
	cmp r4, r10
	bmi	1f
	adcs r1, r1
1:
	movs r1, #31
	strb r5, [r7, #30]
	sxth r5, r6
	bne	1f
	rsbs r5, r6, #0
1:
	mov r10, r6
	mov r5, r10
	ble	1f
	tst r7, r4
1:
	add r3, r10
	uxtb r2, r4
	ldrh r1, [r7, r6]
	beq	1f
	bics r3, r6
1:
	bhi	1f
	cmp r6, r9
1:
	subs r1, r3, #3
	bvc	1f
	mrs r0, apsr
1:
	mov r12, r4
	sbcs r2, r0
	bhi	1f
	subs r1, r6, r1
1:
	adds r5, r2, #6
	add r0, r9
	mvns r5, r4
	rsbs r2, r0, #0
	lsrs r4, r0
	adds r5, r1, #0
	mov r8, r7
	add r4, sp, #84
	beq	1f
	cmp r0, #200
1:
	revsh r4, r4
	cmp r10, r6
	bvs	1f
	rsbs r1, r2, #0
1:
	subs r4, r0, r3
	subs r5, r1, #5
	push	{r2, r3}
	lsrs r4, r0, #16
	pop	{r2, r3}
	movs r5, #1
	adds r4, r1, #5
	mvns r4, r4
	mrs r0, apsr
	subs r5, r2, r2
	muls r1, r7, r1
	subs r4, r0, #6
	blt	1f
	add r2, sp, #540
1:
	sbcs r5, r5
	lsrs r4, r6, #9
	bmi	1f
	lsls r3, r7, #5
1:
	adds r3, r4, r2
	uxtb r5, r3
	sbcs r1, r5
	lsls r3, r7
	add r2, sp, #588
	add r9, r6
	bcc	1f
	subs r4, r4, r3
1:
	add r8, r4
	mrs r4, apsr
	subs r0, r4, r0
	lsrs r3, r6, #20
	asrs r4, r3
	subs r2, #5
	add r1, r9
	subs r4, #33
	add r9, r4
	asrs r3, r1, #27
	subs r0, r6, r2
	adds r2, #45
	cmp r2, r10
	cmp r9, r0
	mvns r2, r5
	subs r2, r6, #1
	subs r5, #65
	bcs	1f
	movs r1, #33
1:
	beq	1f
	bics r0, r7
1:
	sxtb r4, r6
	rsbs r1, r0, #0
	adds r1, #89
	mov r2, r9
	cmp r11, r3
	mrs r2, apsr
	mov r12, r7
	bcc	1f
	str r0, [r7, r6]
1:
	bls	1f
	sxth r2, r7
1:
	subs r5, r0, r7
	movs	r6, #8
	movs r0, #33
	bcc	1f
	cmp r6, #254
1:
	subs r3, r4, r0
	add r2, r8
	lsrs r0, r4, #12
	lsls r5, r1
	cmn r3, r7
	subs r5, r2, #0
	cmp r7, r12
	add r2, r12
	subs r1, r7, r0
	adds r3, r4, r1
	adds r4, #203
	subs r4, #205
	rsbs r4, r3, #0
	bmi	1f
	subs r0, #88
1:
	adds r3, #222
	mrs r4, apsr
	adds r5, r1, #5
	mov r0, r9
	mvns r0, r6
	cmp r2, #215
	rev r1, r2
	asrs r1, r3, #4
	lsls r5, r7
	rsbs r2, r0, #0
	movs r2, #32
	cmp r8, r4
	blt	1f
	sbcs r5, r7
1:
	lsls r2, r1, #23
	blt	1f
	lsls r3, r5
1:
	mrs r5, apsr
	bpl	1f
	lsls r3, r3
1:
	adds r2, r6, #6
	bmi	1f
	mov r10, r3
1:
	cmp r9, r5
	ldrsh r4, [r7, r6]
	ldrb r4, [r7, r6]
	strb r1, [r7, r6]
	bvs	1f
	revsh r1, r7
1:
	beq	1f
	add r3, r11
1:
	adds r4, r7, #5
	bpl	1f
	rsbs r3, r5, #0
1:
	movs r4, #31
	push	{r2, r3, r4}
	lsls r0, r0
	pop	{r2, r3, r4}
	rsbs r2, r5, #0
	movs r3, #186
	mov r11, r7
	strb r5, [r7, #4]
	add r1, sp, #452
	movs r3, #32
	add r9, r2
	rev16 r1, r2
	sbcs r1, r7
	tst r5, r2
	subs r4, #11
	adds r5, r0, #7
	add r2, r9
	subs r5, #87
	add r10, r7
	bpl	1f
	add r12, r0
1:
	subs r0, r5, r4
	movs r3, #32
	mov r2, r11
	adds r5, r0, r0
	bvc	1f
	add r3, r11
1:
	mvns r4, r4
	adds r5, r6, #2
	cmp r1, r8
	eors r3, r0
	lsls r3, r4, #19
	bgt	1f
	adds r0, #72
1:
	add r5, sp, #688
	subs r5, r3, #5
	cmp r11, r4
	push	{r0, r4}
	cmp r4, r12
	pop	{r0, r4}
	bvc	1f
	adds r2, r2, #0
1:
	adds r1, r1, r0
	bvc	1f
	mrs r2, apsr
1:
	bhi	1f
	adds r4, r5, #2
1:
	bls	1f
	ldr r3, [r7, r6]
1:
	lsls r5, r7
	mov r0, r12
	subs r4, #219
	mov r5, r11
	adds r5, #157
	rsbs r2, r1, #0
	cmp r3, r5
	cmp r0, r9
	bvc	1f
	mov r3, r10
1:
	subs r4, #150
	bne	1f
	strb r4, [r7, r6]
1:
	tst r5, r1
	subs r2, r6, #6
	asrs r0, r3, #6
	asrs r5, r2, #30
	lsls r5, r7, #17
	movs	r6, #12
	adds r3, #70
	mrs r5, apsr
	rsbs r0, r2, #0
	subs r5, r6, r1
	bpl	1f
	subs r2, r4, #7
1:
	adds r0, r0, #1
	mvns r2, r1
	rsbs r3, r1, #0
	add r2, sp, #800
	bpl	1f
	mvns r3, r2
1:
	movs r2, #191
	add r2, sp, #732
	cmp r11, r0
	rsbs r2, r2, #0
	cmp r0, r10
	rors r3, r3
	subs r5, r2, r0
	cmp r6, r2
	add r3, r11
	subs r4, #58
	ldrb r3, [r7, r6]
	add r3, sp, #256
	add r3, r10
	rsbs r5, r2, #0
	cmp r11, r5
	subs r2, r2, #4
	subs r0, r2, #7
	asrs r5, r2
	ldrsb r2, [r7, r6]
	adds r1, r2, #2
	rors r0, r5
	rsbs r3, r4, #0
	adds r3, #175
	strb r2, [r7, #31]
	cmp r10, r4
	adds r2, r5, r2
	mov r3, r10
	tst r0, r2
	add r8, r5
	eors r3, r7
	cmp r2, #255
	lsls r1, r2, #15
	bcs	1f
	cmp r3, #34
1:
	add r4, sp, #228
	bge	1f
	cmp r9, r4
1:
	adds r1, r2, r1
	cmp r10, r0
	bcc	1f
	cmp r11, r6
1:
	lsls r0, r5, #25
	cmp r3, r11
	ble	1f
	rors r0, r5
1:
	movs r1, #1
	tst r6, r3
	mvns r0, r1
	bls	1f
	mov r10, r1
1:
	subs r5, r0, #2
	cmp r4, r9
	mrs r1, apsr
	subs r1, r3, #2
	subs r0, r5, #3
	subs r1, r0, r7
	cmp r12, r7
	asrs r5, r4, #11
	uxtb r4, r0
	subs r4, #27
	mrs r5, apsr
	subs r4, r7, #5
	cmp r7, #139
	bge	1f
	adds r1, r7, #3
1:
	push	{r1, r2, r5}
	adds r0, #122
	pop	{r1, r2, r5}
	blt	1f
	mvns r2, r2
1:
	cmp r1, r12
	subs r3, #229
	cmp r1, #55
	bne	1f
	mov r0, r10
1:
	ldrh r2, [r7, r6]
	bne	1f
	mvns r5, r7
1:
	str r2, [r7, #120]
	cmp r3, #59
	adds r2, #11
	lsrs r4, r3
	cmp r8, r6
	bcc	1f
	mrs r5, apsr
1:
	adds r5, #16
	lsls r2, r0, #27
	adds r3, #203
	ldrh r4, [r7, #44]
	rsbs r0, r5, #0
	subs r0, r5, r5
	rors r1, r1
	ble	1f
	adds r0, #157
1:
	adds r5, r3, r1
	add r1, r10
	add r4, sp, #1020
	bhi	1f
	adds r3, #73
1:
	adds r2, r1, r7
	mov r3, r9
	movs	r6, #16
	bpl	1f
	movs r3, #1
1:
	subs r5, #109
	mvns r0, r3
	adds r4, r6, #7
	movs r4, #1
	cmp r3, #9
	mvns r4, r7
	mvns r1, r6
	adds r4, r2, r7
	adds r0, #10
	mov r12, r4
	push	{r2, r4}
	mov r3, r8
	pop	{r2, r4}
	add r0, sp, #164
	adds r0, r4, #4
	mvns r0, r1
	rsbs r3, r1, #0
	mov r3, r12
	beq	1f
	asrs r5, r2
1:
	asrs r4, r1
	lsrs r2, r6
	lsls r1, r0, #29
	asrs r2, r2
	mrs r1, apsr
	beq	1f
	subs r0, r2, #1
1:
	subs r5, r7, #7
	rev16 r3, r3
	add r2, r9
	cmp r11, r2
	adds r0, r6, #1
	subs r4, r4, r2
	adcs r5, r3
	cmp r12, r0
	strb r5, [r7, #10]
	subs r3, #145
	lsls r5, r5
	rsbs r3, r2, #0
	blt	1f
	rors r3, r0
1:
	subs r3, #99
	mov r4, r10
	bmi	1f
	add r8, r2
1:
	asrs r2, r0, #4
	add r5, r12
	adds r5, #215
	cmp r3, r12
	push	{r0, r1}
	adcs r3, r2
	pop	{r0, r1}
	rsbs r5, r3, #0
	strb r2, [r7, #26]
	lsrs r3, r6
	add r10, r4
	asrs r2, r2
	adds r3, r3, #2
	adds r2, r3, #0
	cmp r3, r11
	subs r0, r1, r1
	mvns r0, r3
	bgt	1f
	movs r5, #0
1:
	revsh r1, r7
	mov r10, r3
	lsls r5, r3
	push	{r0, r1, r4}
	rsbs r0, r1, #0
	pop	{r0, r1, r4}
	cmn r2, r4
	lsrs r2, r0, #15
	cmp r4, #217
	cmp r10, r7
	subs r1, r2, #1
	add r1, sp, #16
	add r0, sp, #624
	cmp r0, #20
	blt	1f
	movs r3, #33
1:
	rsbs r4, r7, #0
	add r10, r1
	bcc	1f
	eors r3, r5
1:
	bge	1f
	rsbs r2, r7, #0
1:
	asrs r2, r1, #16
	add r11, r0
	mvns r4, r3
	adds r2, r0, #2
	cmp r0, r7
	movs r4, #32
	mov r3, r8
	cmp r7, r11
	blt	1f
	cmp r2, #23
1:
	subs r2, #174
	cmp r9, r2
	bvc	1f
	mov r2, r8
1:
	add r5, r12
	bge	1f
	mov r12, r2
1:
	asrs r0, r1, #17
	add r11, r5
	cmp r2, #143
	rsbs r4, r7, #0
	rors r4, r5
	bhi	1f
	movs r3, #1
1:
	rev16 r3, r6
	cmp r4, #117
	add r10, r3
	tst r6, r7
	movs	r6, #60
	adds r1, r3, #4
	lsrs r1, r0
	add r2, sp, #532
	rors r2, r4
	bcs	1f
	cmp r1, #251
1:
	add r1, r11
	subs r3, #251
	ldrb r4, [r7, #0]
	movs r4, #33
	bvs	1f
	asrs r1, r6
1:
	movs r5, #32
	bge	1f
	asrs r5, r3, #17
1:
	add r0, r12
	bcs	1f
	cmp r9, r0
1:
	mov r2, r12
	lsls r5, r4
	cmp r11, r6
	ldrsb r0, [r7, r6]
	cmp r2, r4
	rev16 r5, r4
	add r11, r6
	adds r4, r6, #3
	adds r5, #6
	subs r0, #249
	beq	1f
	lsls r1, r5
1:
	mov r8, r7
	adds r2, #49
	bcc	1f
	add r11, r3
1:
	lsrs r0, r3
	push	{r0, r2, r5}
	mov r9, r6
	pop	{r0, r2, r5}
	ldr r5, [r7, r6]
	adds r3, r4, r6
	adds r2, r5, #5
	ldrb r3, [r7, #19]
	adds r0, r6, r7
	adds r4, r2, #0
	lsls r4, r2
	mrs r5, apsr
	asrs r4, r7, #7
	ands r4, r0
	add r10, r5
	tst r1, r7
	cmp r2, #32
	mov r2, r9
	bne	1f
	mrs r1, apsr
1:
	add r0, sp, #700
	subs r3, r3, r1
	tst r3, r4
	adds r3, r4, #2
	add r4, r9
	rsbs r0, r6, #0
	subs r4, r6, r3
	add r3, r11
	lsrs r3, r0
	mov r12, r5
	adds r1, r3, #0
	adds r0, r0, #1
	bmi	1f
	mov r10, r7
1:
	bpl	1f
	lsls r4, r7
1:
	rev r5, r6
	subs r3, r3, r1
	subs r1, r4, #4
	rsbs r3, r6, #0
	subs r4, #164
	push	{r2}
	mov r9, r0
	pop	{r2}
	asrs r5, r6
	muls r0, r6, r0
	ldrb r3, [r7, r6]
	rsbs r3, r6, #0
	bge	1f
	mov r3, r11
1:
	sbcs r3, r0
	bmi	1f
	bics r4, r1
1:
	lsls r3, r2
	rors r2, r7
	beq	1f
	ldr r1, [r7, r6]
1:
	b	2f
	.ltorg
2:
	cmp r2, r9
	adds r2, r1, #3
	mrs r2, apsr
	strh r1, [r7, #48]
	adds r0, r6, r7
	cmp r7, r5
	subs r5, r5, r7
	asrs r5, r7
	cmp r8, r5
	cmp r10, r6
	mov r10, r4
	subs r4, r7, #3
	mov r9, r5
	cmp r5, r11
	cmp r3, #190
	add r5, r10
	lsrs r1, r5
	add r9, r5
	adds r4, #218
	movs r4, #33
	cmp r6, r12
	strh r1, [r7, #6]
	movs	r6, #28
	bne	1f
	cmp r12, r4
1:
	movs r3, #0
	cmp r12, r7
	rors r3, r5
	subs r2, r4, #3
	bgt	1f
	cmp r4, #162
1:
	rsbs r4, r0, #0
	rsbs r4, r5, #0
	tst r5, r0
	bls	1f
	subs r4, r1, r2
1:
	movs r4, #33
	mrs r0, apsr
	cmp r3, r12
	mov r1, r11
	bics r5, r4
	eors r3, r3
	subs r2, r0, r3
	add r2, r11
	adds r4, #189
	subs r4, #152
	uxtb r1, r5
	add r2, r9
	ldrsb r1, [r7, r6]
	ldrsb r4, [r7, r6]
	subs r2, r2, r3
	add r0, r11
	bls	1f
	mov r8, r1
1:
	adds r5, #140
	mvns r0, r5
	ldr r2, [r7, #16]
	cmn r1, r2
	adds r3, #120
	bcs	1f
	subs r4, r2, r6
1:
	cmp r5, #236
	adds r1, #238
	adds r3, r7, #4
	rev16 r3, r4
	orrs r0, r5
	asrs r4, r4
	adds r4, r6, #6
	subs r3, r2, #5
	cmp r4, r12
	subs r1, #95
	bvs	1f
	subs r0, r1, r4
1:
	cmp r7, r10
	adds r4, #125
	cmp r2, #235
	bmi	1f
	asrs r3, r6
1:
	cmp r6, r8
	cmp r7, #183
	lsrs r1, r1
	push	{r3, r4}
	cmp r8, r6
	pop	{r3, r4}
	ldrb r5, [r7, r6]
	rors r4, r6
	cmp r1, #171
	movs r2, #0
	subs r0, r3, r1
	mov r3, r12
	lsls r5, r3
	adds r1, r7, r1
	rsbs r4, r7, #0
	lsrs r2, r5, #28
	mov r10, r1
	bcs	1f
	add r4, sp, #212
1:
	cmp r9, r6
	uxth r3, r0
	subs r1, r4, r1
	blt	1f
	add r10, r5
1:
	bge	1f
	bics r2, r2
1:
	adds r0, r1, r3
	tst r5, r6
	adds r2, r5, r4
	movs r1, #32
	mrs r3, apsr
	blt	1f
	muls r1, r2, r1
1:
	cmp r10, r3
	push	{r1}
	add r9, r0
	pop	{r1}
	mrs r5, apsr
	adcs r1, r7
	ble	1f
	subs r2, #200
1:
	sxth r4, r4
	subs r4, #174
	mvns r1, r3
	rsbs r1, r7, #0
	push	{r1, r3}
	rors r0, r3
	pop	{r1, r3}
	mov r2, r8
	str r2, [r7, #72]
	bpl	1f
	mov r2, r12
1:
	subs r4, r5, r7
	ldr r3, [r7, #28]
	add r10, r7
	ldrb r5, [r7, #1]
	push	{r1}
	adds r2, r2, #3
	pop	{r1}
	add r2, sp, #460
	adds r0, #211
	subs r3, #81
	asrs r5, r5
	movs	r6, #8
	beq	1f
	movs r3, #1
1:
	cmp r0, r5
	bvs	1f
	mrs r4, apsr
1:
	rsbs r4, r7, #0
	rors r4, r4
	rsbs r2, r6, #0
	mov r1, r8
	str r2, [r7, #48]
	rev16 r2, r1
	adds r1, r6, #2
	cmp r3, r8
	mrs r5, apsr
	adds r1, r6, r7
	strb r1, [r7, #10]
	mrs r3, apsr
	rsbs r5, r3, #0
	sxth r1, r4
	rev16 r3, r5
	strb r1, [r7, #24]
	mrs r0, apsr
	rors r5, r5
	movs r0, #31
	add r4, r9
	bmi	1f
	mrs r0, apsr
1:
	cmp r12, r7
	rsbs r3, r1, #0
	rors r1, r4
	add r4, r12
	adds r1, r1, r6
	subs r3, r4, #1
	asrs r5, r6
	push	{r1, r3}
	cmp r3, #70
	pop	{r1, r3}
	lsls r2, r2
	cmp r1, #184
	mvns r1, r3
	subs r0, r7, #6
	bics r3, r6
	mov r11, r6
	bvs	1f
	lsls r3, r6
1:
	adds r2, #38
	rsbs r4, r7, #0
	subs r5, r4, r6
	add r12, r0
	rsbs r5, r7, #0
	mrs r0, apsr
	add r5, sp, #736
	cmp r4, r8
	mvns r5, r0
	add r1, sp, #32
	strh r5, [r7, #58]
	bmi	1f
	mrs r2, apsr
1:
	mrs r1, apsr
	mov r10, r4
	mrs r0, apsr
	subs r2, r1, #4
	ldrsh r3, [r7, r6]
	add r5, r8
	subs r4, r0, #2
	subs r2, r2, #2
	bgt	1f
	cmp r2, r11
1:
	bne	1f
	adds r1, r0, r6
1:
	ldrsb r3, [r7, r6]
	sbcs r5, r4
	ldrsh r5, [r7, r6]
	bcs	1f
	uxtb r4, r1
1:
	mov r8, r0
	subs r4, r6, #7
	bcc	1f
	rsbs r2, r1, #0
1:
	sxtb r4, r1
	adds r0, r3, r2
	blt	1f
	adds r1, r6, #1
1:
	cmp r5, #104
	mov r1, r11
	asrs r5, r7, #2
	cmp r7, #222
	lsrs r1, r0, #1
	mrs r4, apsr
	asrs r3, r7
	cmp r8, r3
	revsh r5, r0
	bhi	1f
	cmp r0, #139
1:
	ldr r3, [r7, r6]
	mrs r0, apsr
	add r5, sp, #168
	mvns r5, r1
	adds r5, r4, r6
	rsbs r0, r6, #0
	add r11, r4
	subs r2, r2, r1
	cmp r4, #122
	mvns r5, r4
	mvns r2, r3
	mvns r4, r5
	cmp r5, r8
	asrs r4, r0, #31
	lsrs r0, r2, #2
	mov r1, r12
	movs	r6, #48
	adds r5, #70
	add r3, sp, #880
	add r11, r1
	adds r2, r5, #2
	ldrsb r1, [r7, r6]
	subs r1, r3, r6
	rors r2, r5
	str r0, [r7, r6]
	mrs r5, apsr
	cmp r2, #126
	strh r5, [r7, r6]
	cmp r0, r12
	push	{r2}
	subs r0, r2, #2
	pop	{r2}
	cmp r0, r1
	subs r1, r4, #4
	bvc	1f
	cmp r5, r9
1:
	subs r3, #142
	sxtb r3, r4
	subs r4, r7, #4
	lsls r2, r6
	movs r0, #0
	lsrs r4, r5
	rsbs r5, r1, #0
	cmp r7, #57
	sxtb r5, r0
	rsbs r1, r3, #0
	cmp r12, r2
	adds r2, r4, #7
	mrs r4, apsr
	adds r1, #77
	rev16 r1, r0
	adds r3, r3, #7
	bics r2, r4
	add r2, r10
	cmp r7, #72
	bcs	1f
	mov r12, r0
1:
	bgt	1f
	add r3, r8
1:
	mov r11, r0
	add r10, r6
	bls	1f
	mvns r5, r1
1:
	blt	1f
	ldrsh r1, [r7, r6]
1:
	beq	1f
	cmp r6, #187
1:
	mvns r0, r1
	cmp r4, #27
	cmn r7, r3
	add r9, r7
	strh r1, [r7, #38]
	add r1, r9
	rsbs r2, r3, #0
	adcs r1, r0
	adds r1, r7, r3
	ldrh r2, [r7, r6]
	cmp r5, r0
	mov r2, r11
	bmi	1f
	cmp r4, r11
1:
	adds r3, r2, r5
	mvns r0, r0
	subs r3, #111
	lsrs r2, r7
	adds r0, r4, #6
	mov r8, r1
	cmp r7, #229
	push	{r1, r2, r3}
	strb r0, [r7, #3]
	pop	{r1, r2, r3}
	lsrs r3, r6, #30
	subs r3, #19
	cmp r7, r9
	add r2, r10
	push	{r0, r4}
	adds r4, r3, r3
	pop	{r0, r4}
	ble	1f
	rev r4, r2
1:
	push	{r0, r4, r5}
	rsbs r1, r3, #0
	pop	{r0, r4, r5}
	mov r12, r7
	mvns r0, r2
	add r4, r12
	mov r8, r4
	mrs r3, apsr
	subs r3, #17
	add r3, r12
	bpl	1f
	movs r5, #1
1:
	ldrb r0, [r7, #15]
	cmp r4, r12
	movs r3, #33
	subs r5, r7, r2
	add r9, r2
	blt	1f
	ldrb r5, [r7, r6]
1:
	add r4, sp, #840
	lsls r3, r5
	orrs r4, r0
	ands r4, r3
	adds r3, r3, r0
	lsls r0, r2, #6
	adds r5, #76
	add r8, r6
	blt	1f
	rors r3, r2
1:
	lsrs r0, r1
	cmn r1, r5
	cmp r5, #79
	cmp r10, r0
	movs	r6, #4
	asrs r1, r0
	add r12, r4
	cmp r2, r8
	mrs r5, apsr
	mov r11, r1
	mrs r1, apsr
	cmn r7, r7
	mov r2, r8
	adds r1, #35
	adds r2, r7, #5
	adds r2, r7, r0
	bics r1, r3
	adds r1, r3, #6
	orrs r0, r2
	push	{r2, r3, r4}
	subs r4, r4, #4
	pop	{r2, r3, r4}
	rsbs r1, r3, #0
	bpl	1f
	asrs r3, r7
1:
	lsrs r1, r3
	mov r2, r12
	adds r4, #161
	rors r0, r5
	add r1, sp, #804
	adds r3, r5, #0
	rsbs r2, r1, #0
	adds r3, #81
	rsbs r5, r5, #0
	bgt	1f
	subs r3, #60
1:
	mrs r1, apsr
	cmp r5, r10
	adds r2, r7, r7
	beq	1f
	subs r2, r0, r5
1:
	ldrh r1, [r7, r6]
	add r12, r4
	rsbs r4, r7, #0
	ldrsb r0, [r7, r6]
	cmp r2, #86
	cmn r1, r2
	strb r5, [r7, #28]
	add r0, r12
	adds r3, r4, #4
	adds r0, #202
	bvc	1f
	cmp r8, r4
1:
	subs r1, r2, r0
	rors r3, r3
	subs r5, r2, #4
	sbcs r2, r4
	subs r2, #146
	revsh r0, r1
	mov r9, r1
	subs r5, #81
	rev r0, r5
	add r5, sp, #648
	cmp r11, r6
	subs r5, #249
	adds r0, r2, #6
	rsbs r0, r0, #0
	movs r1, #33
	subs r3, #105
	subs r0, r0, r4
	subs r4, r3, r5
	bcs	1f
	movs r2, #32
1:
	mrs r4, apsr
	bls	1f
	mvns r1, r1
1:
	tst r0, r1
	movs r5, #32
	blt	1f
	adds r3, r1, r0
1:
	rev16 r0, r1
	bgt	1f
	cmp r9, r0
1:
	ldrh r5, [r7, r6]
	add r9, r5
	mvns r4, r1
	mvns r3, r2
	cmp r12, r1
	adds r0, #45
	cmp r3, #225
	subs r4, r3, r3
	subs r4, r2, r3
	sbcs r1, r4
	ldr r5, [r7, #116]
	lsrs r1, r3, #20
	subs r4, #114
	bgt	1f
	adds r0, r3, r6
1:
	add r4, r8
	push	{r0}
	strh r1, [r7, r6]
	pop	{r0}
	bge	1f
	add r5, sp, #552
1:
	adds r2, r1, r7
	cmp r0, r8
	strh r0, [r7, #18]
	adds r1, r4, #1
	lsrs r1, r4
	subs r5, r1, #5
	orrs r4, r2
	movs r0, #32
	cmn r4, r2
	mvns r3, r5
	revsh r5, r7
	cmp r0, r5
	movs	r6, #8
	cmp r1, r0
	ldrb r4, [r7, r6]
	cmp r2, #40
	movs r2, #1
	push	{r0, r2, r5}
	rsbs r0, r4, #0
	pop	{r0, r2, r5}
	lsrs r3, r6
	ldr r4, [r7, r6]
	add r10, r5
	adds r4, r4, #0
	subs r1, r4, #5
	adds r0, r4, #0
	add r1, r10
	adds r5, r7, r5
	subs r3, r7, r2
	bgt	1f
	adds r5, r2, r6
1:
	uxth r2, r1
	bcs	1f
	mov r12, r2
1:
	movs r0, #33
	lsrs r5, r5
	subs r0, r4, #7
	subs r5, r7, #5
	subs r3, r7, #5
	adds r0, r1, #6
	subs r3, r4, r7
	adds r1, #119
	sbcs r2, r6
	lsrs r4, r7, #22
	subs r3, r7, r7
	add r0, r8
	add r2, r9
	cmp r11, r1
	bne	1f
	add r9, r1
1:
	sxth r2, r7
	subs r3, #7
	bhi	1f
	rors r5, r2
1:
	mvns r1, r3
	rors r2, r0
	lsls r1, r2
	add r1, r10
	uxtb r2, r5
	movs r3, #0
	add r11, r2
	subs r1, #102
	cmp r6, r4
	bne	1f
	mrs r2, apsr
1:
	lsrs r5, r0
	add r3, sp, #732
	muls r3, r3, r3
	strh r5, [r7, #32]
	cmp r7, #114
	bcc	1f
	add r1, r8
1:
	rsbs r4, r0, #0
	lsls r3, r1
	cmp r6, r6
	mrs r0, apsr
	cmp r5, r8
	cmp r9, r3
	bge	1f
	subs r2, r3, r3
1:
	bvc	1f
	mvns r3, r2
1:
	mvns r1, r2
	add r0, sp, #244
	cmp r6, #48
	strh r0, [r7, #18]
	cmn r0, r3
	push	{r4}
	lsls r4, r0, #29
	pop	{r4}
	mrs r1, apsr
	bmi	1f
	lsls r3, r6
1:
	lsrs r0, r7
	ldrb r0, [r7, #31]
	push	{r0}
	rsbs r4, r2, #0
	pop	{r0}
	cmp r6, r7
	bcs	1f
	add r12, r4
1:
	adds r3, r2, #1
	add r5, r9
	revsh r2, r4
	uxtb r3, r7
	mvns r2, r0
	blt	1f
	cmn r4, r1
1:
	bvc	1f
	lsls r2, r2
1:
	lsrs r4, r0, #27
	cmp r4, #177
	rors r1, r7
	ldr r4, [r7, r6]
	str r5, [r7, #4]
	push	{r1, r5}
	rsbs r0, r2, #0
	pop	{r1, r5}
	add r5, sp, #824
	movs r3, #32
	subs r4, r7, #5
	mvns r5, r7
	subs r3, r5, #2
	b	2f
	.ltorg
2:
	EXIT_OK
	.ltorg
	.data
	.align	2
buf:
	.fill	128 + 64, 1, 0x5a
