#!/bin/sh
# Records a trace.dat of the DRM GPU scheduler's own tracepoints, the
# sample of the drm-tracecmd importer
# (tests/import/samples/drm-tracecmd/amdgpu-6.1-qemu.dat).
#
#   scripts/record_drm_sample.sh OUT.dat [KERNEL_VERSION]
#
# No GPU here, so: Debian's kernel (linux-image-amd64) boots under QEMU
# (TCG) with an initramfs of busybox, trace-cmd and its libraries, the
# kernel's drm.ko and gpu-sched.ko, and tests/import/drm_sample_sched/'s
# drm_sample_sched.ko (built here against linux-headers-KERNEL_VERSION), a
# GPU-less driver of the scheduler whose jobs are hrtimers. Three processes
# (dd, cp, cat) submit jobs through its `submit` parameter, while
# sched_switch is recorded beside; three long jobs are left unfinished
# (credit limit 2: two run, one never does). trace-cmd extract takes the
# buffer with only the recorded events' formats and no kallsyms (bind
# mounts), so the file stays small; it comes back base64 on the console.
set -eu
out=${1:?usage: record_drm_sample.sh OUT.dat [KERNEL_VERSION]}
ver=${2:-$(ls /lib/modules | sort -V | tail -n 1)}
root=$(cd "$(dirname "$0")/.." && pwd)
mods=/lib/modules/$ver/kernel/drivers/gpu/drm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cp "$root/tests/import/drm_sample_sched/drm_sample_sched.c" \
   "$root/tests/import/drm_sample_sched/Kbuild" "$tmp/"
make -s -C "/usr/src/linux-headers-$ver" M="$tmp" modules >/dev/null

init=$tmp/root
mkdir -p "$init/bin" "$init/proc" "$init/sys" "$init/dev" "$init/tmp"
cp "$(command -v busybox)" "$init/bin/busybox"
tc=$(command -v trace-cmd)
cp "$tc" "$init/bin/trace-cmd"
for lib in $(ldd "$tc" | grep -o '/[^ ]*'); do
	mkdir -p "$init$(dirname "$lib")"
	cp -L "$lib" "$init$lib"
done
cp "$mods/drm.ko" "$mods/scheduler/gpu-sched.ko" "$tmp/drm_sample_sched.ko" \
   "$init/"
cat > "$init/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
T=/sys/kernel/tracing
mount -t tracefs nodev $T
insmod /drm.ko && insmod /gpu-sched.ko && insmod /drm_sample_sched.ko
P=/sys/module/drm_sample_sched/parameters/submit
echo "gfx_0.0.0 3 2000" > /tmp/a
echo "sdma0 2 500" > /tmp/b
echo "gfx_0.0.0 1 1000" > /tmp/c
echo "gfx_0.0.0 3 10000000" > /tmp/d
echo 1 > $T/events/gpu_scheduler/enable
echo 1 > $T/events/sched/sched_switch/enable
dd if=/tmp/a of=$P 2>/dev/null &
cp /tmp/b $P &
cat /tmp/c > $P &
wait
sleep 0.1
cp /tmp/d $P
sleep 0.05
echo 0 > $T/tracing_on
mkdir -p /tmp/ev/gpu_scheduler /tmp/ev/sched/sched_switch
cp $T/events/header_page $T/events/header_event /tmp/ev/
for d in $T/events/ftrace/* $T/events/gpu_scheduler/* \
	 $T/events/sched/sched_switch; do
	[ -d "$d" ] || continue
	n=${d#$T/events/}
	mkdir -p /tmp/ev/$n
	cp $d/format $d/id /tmp/ev/$n/ 2>/dev/null
done
touch /tmp/ks
mount --bind /tmp/ev $T/events
mount --bind /tmp/ks /proc/kallsyms
cd /tmp && trace-cmd extract -o /tmp/out.dat >/dev/null 2>&1
echo "==BEGIN"
base64 /tmp/out.dat
echo "==END"
poweroff -f
INIT
chmod +x "$init/init"
(cd "$init" && find . | cpio -o -H newc 2>/dev/null | gzip) > "$tmp/initrd.gz"
timeout 600 qemu-system-x86_64 -cpu max -m 1024 -nographic -no-reboot \
	-kernel "/boot/vmlinuz-$ver" -initrd "$tmp/initrd.gz" \
	-append "console=ttyS0 panic=-1 quiet loglevel=3" \
	> "$tmp/console.log" 2>&1 || :
tr -d '\r' < "$tmp/console.log" | sed -n '/==BEGIN/,/==END/p' |
	grep -v '==BEGIN\|==END' | base64 -d > "$out" || :
if [ ! -s "$out" ]; then
	echo "record_drm_sample: no trace came back; the console:" >&2
	tail -n 30 "$tmp/console.log" >&2
	exit 1
fi
echo "$out: $(wc -c < "$out") bytes"
