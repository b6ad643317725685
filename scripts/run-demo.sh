#!/bin/sh
# run-demo.sh BUILD: what 'make run' does.
# The gdbserver (raptor serve) and the bundled demo recordings are not built
# yet; until they are, this runs the racy-counter workload on the 4-core board
# and says so plainly.
set -e
build=${1:-build}
elf=$build/guest/racy-m3-O0.elf
echo "raptor: 'raptor serve' and the demo recordings are not implemented yet;"
echo "raptor: meanwhile, the racy counter on the virtual 4-core board:"
echo "\$ $build/raptor run $elf --cores 4 --seed 1"
"$build/raptor" run "$elf" --cores 4 --seed 1
