#!/bin/sh
# bootstrap.sh: install the Debian packages raptor needs to build and test.
# As root it runs apt-get; otherwise it prints the exact command to run.
# Usage: scripts/bootstrap.sh [build|run|check]
#   build: the libraries (libopencsd-dev: etm/ocsd.c decodes ETM trace with
#     OpenCSD), the compilers too: gcc-arm-none-eabi, and clang for the guest
#     workloads' clang builds (guest/guest.mk) and the fuzz targets;
#   run: build's, and gdb-multiarch (what `make run` tells you to start);
#   check: run's, and the test-only tools.
set -e
need_build="libcapstone-dev libelf-dev zlib1g-dev libdeflate-dev libzstd-dev libiniparser-dev nettle-dev libjansson-dev libopencsd-dev gnuplot-nox pkg-config gcc make \
gcc-arm-none-eabi libnewlib-arm-none-eabi clang"
need_run="gdb-multiarch"
need_check="qemu-system-arm time python3 valgrind lldb"
pkgs=$need_build
case "${1:-build}" in
run) pkgs="$pkgs $need_run" ;;
check) pkgs="$pkgs $need_run $need_check" ;;
esac

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then
	echo "bootstrap: installing:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2 || true
	apt-get install -y -qq --no-install-recommends $missing >&2
else
	echo "bootstrap: missing Debian packages:$missing" >&2
	echo "bootstrap: run: sudo apt-get install -y$missing" >&2
	exit 1
fi
