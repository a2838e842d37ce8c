#!/bin/sh
# make ktest32: make ktest's replays and stress runs in Debian's 32-bit
# (i386, 686 flavour) kernel under qemu-system-i386, with the modules
# built -m32 against that kernel's headers (policies/linux/README.md,
# "32-bit").
#
#   scripts/ktest32.sh GPUSIM
#
# Needs Debian's i386 package lists (as root, once:
# dpkg --add-architecture i386 && apt-get update). Nothing is installed:
# the kernel, its headers and an i386 busybox-static are downloaded with
# apt-get download into $KTEST32_DIR (default build-ktest32) and unpacked
# there; the host's linux-kbuild-6.1 (from linux-headers-amd64) supplies
# the build tools. Then make kreplay and make kstress build the modules
# in that folder and scripts/ktest.sh boots the kernel.
set -u
gpusim=${1:?usage: ktest32.sh GPUSIM}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${KTEST32_DIR:-$root/build-ktest32}
mkdir -p "$dir/deb" || exit 2
dir=$(cd "$dir" && pwd)

# Where Debian's i386 packages cannot be had (no i386 lists, a mirror
# mid-sync), KTEST32_OPTIONAL=1 (CI sets it) says so and stops with 0:
# the run is skipped, not passed. A build failure or a difference in the
# kernel fails either way.
unavailable() {
	echo "ktest32: $*" >&2
	if [ "${KTEST32_OPTIONAL:-0}" = 1 ]; then
		echo "ktest32: SKIPPED: Debian's i386 kernel packages are not" \
		     "available here"
		exit 0
	fi
	exit 2
}

# the ABI Debian's current 686 kernel has, e.g. 6.1.0-50
abi=$(apt-cache depends linux-image-686:i386 2>/dev/null |
      sed -n 's/.*Depends: linux-image-\(.*\)-686:i386$/\1/p' | head -n 1)
if [ -z "$abi" ]; then
	unavailable "no i386 package lists; as root:" \
		"dpkg --add-architecture i386 && apt-get update"
fi
kbuild=/usr/lib/linux-kbuild-${abi%%.0-*}
if [ ! -d "$kbuild" ]; then
	echo "ktest32: no $kbuild (apt-get install linux-headers-amd64)" >&2
	exit 2
fi
sys=$dir/root
kdir=$sys/usr/src/linux-headers-$abi-686
kernel=$sys/boot/vmlinuz-$abi-686
if [ ! -r "$kernel" ] || [ ! -d "$kdir" ] || [ ! -x "$sys/bin/busybox" ]; then
	(cd "$dir/deb" && apt-get download "linux-image-$abi-686:i386" \
		"linux-headers-$abi-686:i386" "linux-headers-$abi-common" \
		busybox-static:i386) >/dev/null 2>"$dir/apt.log" || {
		cat "$dir/apt.log" >&2
		unavailable "apt-get download failed"
	}
	for d in "$dir"/deb/*.deb; do
		dpkg -x "$d" "$sys" || exit 2
	done
	# the headers name their common half by its installed path, and
	# their tools relatively: point both into this folder
	sed -i "s|^include /usr/src/|include $sys/usr/src/|" "$kdir/Makefile"
	mkdir -p "$sys/usr/lib"
	ln -sfn "$kbuild" "$sys/usr/lib/$(basename "$kbuild")"
fi

cd "$root" || exit 2
make -s kreplay KDIR="$kdir" KREPLAY_BUILD="$dir/kreplay" >"$dir/build.log" 2>&1 &&
	make -s kstress KDIR="$kdir" KMOD_BUILD="$dir/kmod" >>"$dir/build.log" 2>&1 || {
	tail -n 30 "$dir/build.log" >&2
	echo "ktest32: building the modules -m32 failed" >&2
	exit 1
}
KTEST_BUSYBOX=$sys/bin/busybox \
KTEST_STRESS="$dir/kmod/linux/gpusim_policies.ko $dir/kmod/linux/stress/gpusim_stress.ko" \
	sh scripts/ktest.sh "$gpusim" "$dir/kreplay/linux/replay/gpusim_replay.ko" \
	"$kernel"
