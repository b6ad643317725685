@ fp-ctx.S built for the Cortex-M7 (FPv5-D16): the same FP context and
@ exception rules, diffed against QEMU's mps2-an500.
#include "fp-ctx.S"
