#!/usr/bin/env python3
# v6m-random.py: writes v6m-random.S, random ARMv6-M 16-bit instructions
# (ALU with every flag rule, shifts by any amount, extends and reversals,
# high-register MOV/ADD/CMP, loads and stores of every width, conditional
# branches) for the QEMU differential, which compares every register after
# every instruction. Deterministic: `python3 tests/isa/v6m-random.py >
# tests/isa/v6m-random.S` gives the committed file again.
import random

rnd = random.Random(20250601)
N = 3000
lo = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5']  # written; r6 index, r7 buffer base
src = lo + ['r6', 'r7']
hi = ['r8', 'r9', 'r10', 'r11', 'r12']
conds = ['eq', 'ne', 'cs', 'cc', 'mi', 'pl', 'vs', 'vc', 'hi', 'ls', 'ge', 'lt', 'gt', 'le']
C = rnd.choice


def alu():
    k = rnd.randrange(26)
    d, n, m = C(lo), C(src), C(src)
    if k == 0: return f'adds {d}, {n}, #{rnd.randrange(8)}'
    if k == 1: return f'subs {d}, {n}, #{rnd.randrange(8)}'
    if k == 2: return f'adds {d}, #{rnd.randrange(256)}'
    if k == 3: return f'subs {d}, #{rnd.randrange(256)}'
    if k == 4: return f'movs {d}, #{rnd.choice([0, 1, 31, 32, 33, rnd.randrange(256)])}'
    if k == 5: return f'cmp {n}, #{rnd.randrange(256)}'
    if k == 6: return f'adds {d}, {n}, {m}'
    if k == 7: return f'subs {d}, {n}, {m}'
    if k == 8:
        op = C(['ands', 'eors', 'orrs', 'bics', 'adcs', 'sbcs', 'muls'])
        return f'{op} {d}, {m}' if op != 'muls' else f'muls {d}, {m}, {d}'
    if k == 9: return f'{C(["lsls", "lsrs", "asrs", "rors"])} {d}, {m}'
    if k == 10: return f'{C(["tst", "cmp", "cmn"])} {n}, {m}'
    if k == 11: return f'mvns {d}, {m}'
    if k == 12:
        op = C(['lsls', 'lsrs', 'asrs'])
        lo_amt = 0 if op == 'lsls' else 1
        return f'{op} {d}, {m}, #{rnd.randrange(lo_amt, 32)}'
    if k == 13: return f'{C(["sxtb", "sxth", "uxtb", "uxth", "rev", "rev16", "revsh"])} {d}, {m}'
    if k == 14: return f'mov {C(hi)}, {m}'
    if k == 15: return f'mov {d}, {C(hi)}'
    if k == 16: return f'add {d}, {C(hi)}'
    if k == 17: return f'add {C(hi)}, {m}'
    if k == 18: return f'cmp {C(hi)}, {m}'
    if k == 19: return f'cmp {n}, {C(hi)}'
    if k == 20:  # loads and stores into buf (r7), r6 an aligned index
        w = C(['ldr', 'str', 'ldrh', 'strh', 'ldrb', 'strb'])
        scale = {'ldr': 4, 'str': 4, 'ldrh': 2, 'strh': 2}.get(w, 1)
        return f'{w} {d}, [r7, #{scale * rnd.randrange(32)}]'
    if k == 21:
        w = C(['ldr', 'str', 'ldrh', 'strh', 'ldrb', 'strb', 'ldrsb', 'ldrsh'])
        return f'{w} {d}, [r7, r6]'
    if k == 22: return f'mrs {d}, apsr'
    if k == 23: return f'rsbs {d}, {m}, #0'
    if k == 24: return f'add {d}, sp, #{4 * rnd.randrange(256)}'
    return f'{C(["lsls", "lsrs", "asrs", "rors"])} {d}, {m}'


out = []
w = out.append
w('@ v6m-random.S: written by v6m-random.py (see there); do not edit.')
w('#include "v6m.inc"')
w('\t.text')
w('\t.thumb_func')
w('reset:')
w('\tldr\tr7, =buf')
for r in hi:
    w(f'\tldr\tr0, =0x{rnd.getrandbits(32):08x}')
    w(f'\tmov\t{r}, r0')
for r in lo:
    w(f'\tldr\t{r}, =0x{rnd.getrandbits(32):08x}')
w('\tmovs\tr6, #0')
w('\tb\t2f')
w('\t.ltorg')
w('2:')
for i in range(N):
    if i % 97 == 0:
        w(f'\tmovs\tr6, #{4 * rnd.randrange(16)}')
    if rnd.randrange(8) == 0:
        w(f'\tb{C(conds)}\t1f')
        w(f'\t{alu()}')
        w('1:')
    elif rnd.randrange(40) == 0:
        regs = sorted(rnd.sample(lo, rnd.randrange(1, 4)))
        w(f'\tpush\t{{{", ".join(regs)}}}')
        w(f'\t{alu()}')
        w(f'\tpop\t{{{", ".join(regs)}}}')
    else:
        w(f'\t{alu()}')
    if i % 500 == 499:
        w('\tb\t2f')
        w('\t.ltorg')
        w('2:')
w('\tEXIT_OK')
w('\t.ltorg')
w('\t.data')
w('\t.align\t2')
w('buf:')
w('\t.fill\t128 + 64, 1, 0x5a')
print('\n'.join(out))
