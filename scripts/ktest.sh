#!/bin/sh
# make ktest: replays HAL records inside a real Linux kernel booted under
# QEMU and checks that the policies decide there what they decided in the
# simulator (policies/linux/README.md, "Differential replay").
#
#   scripts/ktest.sh GPUSIM MODULE [KERNEL]
#
# GPUSIM records the scenarios (every policy on generated scenarios, the
# examples, tests/replay/tiny.yaml) and two records changed on purpose,
# which must fail: a timer moved, and a params= string (the instance
# line's, parsed by the kernel's params.c) that gives another slice. MODULE is gpusim_replay.ko (make kreplay)
# built for KERNEL (default: /boot/vmlinuz-<version of MODULE>). The
# kernel boots with KVM where /dev/kvm passes a quick probe, else with
# TCG (-cpu max); KTEST_KVM=0 or 1 skips the probe. Prints one line per record, then "N passed, N failed";
# exit 0 when every record matched and the changed one did not.
#
# With KTEST_STRESS="gpusim_policies.ko gpusim_stress.ko" (make ktest
# sets it) the same boot then stresses one instance of each policy from
# several kernel threads (KTEST_STRESS_MS, default 1000 ms, with
# KTEST_STRESS_THREADS, default 4, on 2 CPUs) and scripts/ktest_check.sh
# judges it: one more line, counted with the records. KTEST_CONSOLE=FILE
# keeps the guest's console.
set -u
gpusim=${1:?usage: ktest.sh GPUSIM MODULE [KERNEL]}
module=${2:?usage: ktest.sh GPUSIM MODULE [KERNEL]}
root=$(cd "$(dirname "$0")/.." && pwd)
ver=$(modinfo -F vermagic "$module" 2>/dev/null | cut -d' ' -f1)
kernel=${3:-/boot/vmlinuz-$ver}

# A 32-bit module (scripts/ktest32.sh) boots under qemu-system-i386, and
# its initramfs needs an i386 busybox: KTEST_BUSYBOX.
qemu=qemu-system-x86_64
if [ "$(od -An -tx1 -j4 -N1 "$module" | tr -d ' ')" = 01 ]; then
	qemu=qemu-system-i386 # ELF class 1: 32-bit
fi
for tool in $qemu ${KTEST_BUSYBOX:-busybox} cpio gzip; do
	if ! command -v $tool >/dev/null; then
		echo "ktest: $tool is missing; on Debian: apt-get install" \
		     "--no-install-recommends qemu-system-x86 busybox-static" \
		     "cpio linux-image-amd64" >&2
		exit 2
	fi
done
if [ ! -r "$kernel" ]; then
	echo "ktest: no kernel $kernel for the module's $ver (pass KERNEL=," \
	     "or apt-get install linux-image-$ver)" >&2
	exit 2
fi
busybox=$(command -v "${KTEST_BUSYBOX:-busybox}")
if command -v file >/dev/null &&
	! file -L "$busybox" | grep -q 'statically linked'; then
	echo "ktest: $busybox is not static (apt-get install busybox-static)" >&2
	exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
init=$tmp/root
mkdir -p "$init/bin" "$init/rec" "$init/proc" "$init/sys" "$init/dev"
cp "$busybox" "$init/bin/busybox"
cp "$module" "$init/gpusim_replay.ko"
stress_runs=0
if [ -n "${KTEST_STRESS:-}" ]; then
	set -- $KTEST_STRESS
	cp "$1" "$init/gpusim_policies.ko" && cp "$2" "$init/gpusim_stress.ko" ||
		exit 2
	"$gpusim" list | sed -n '/^Policies/,/^GPU presets/p' |
		sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' > "$init/stress_policies"
	stress_runs=$(wc -l < "$init/stress_policies")
	echo "${KTEST_STRESS_MS:-1000} ${KTEST_STRESS_THREADS:-4}" \
		> "$init/stress_args"
fi

# record NAME FILE [run options]: into rec/POLICY--NAME.rec, POLICY
# the host instance's, as the record's first instance line names it
record() {
	name=$1 f=$2
	shift 2
	if "$gpusim" run "$f" -q --no-standalone --no-timeline \
		--out "$tmp/out" --record-hal "$tmp/r.rec" "$@" >/dev/null 2>&1
	then
		p=$(sed -n 's/^instance 0 \([^ ]*\) .*/\1/p' "$tmp/r.rec")
		mv "$tmp/r.rec" "$init/rec/$p--$name.rec"
	else
		[ -n "${quiet_fail:-}" ] || echo "ktest: cannot record $f" >&2
		rm -f "$tmp/r.rec"
		rm -rf "$tmp/out"
		return 1
	fi
	rm -rf "$tmp/out"
}
cd "$root" || exit 2
record tiny tests/replay/tiny.yaml
for f in configs/examples/*.yaml; do
	record "$(basename "$f" .yaml)" "$f"
done
policies=$("$gpusim" list | sed -n '/^Policies/,/^GPU presets/p' |
	   sed -n 's/^  \([a-z-]*\) .*/\1/p')
for p in $policies; do
	for s in 1 2; do
		"$gpusim" generate --seed $s --policy "$p" \
			-o "$tmp/gen-$p-$s.yaml" 2>/dev/null &&
			record "gen-$s" "$tmp/gen-$p-$s.yaml"
	done
done
# Three shipped scenarios per policy (configs/paper, configs/drm,
# configs/examples): those written for the policy first, then others run
# under it (--set policy.name; one whose parameters belong to another
# policy is refused and skipped), shortest first, each cut to its first
# KTEST_SHIPPED_MS ms (default 300) so that the boot stays short.
"$gpusim" validate configs/paper/*.yaml configs/drm/*.yaml \
	configs/examples/*.yaml 2>/dev/null |
	sed -n 's/^\(.*\): ok: .*, policy \([a-z-]*\), \([0-9.]*\) s$/\2 \3 \1/p' |
	sort -k2,2n -k3,3 > "$tmp/shipped"
quiet_fail=1
for p in $policies; do
	n=0
	for f in $(awk -v p="$p" '$1 == p {print $3}' "$tmp/shipped") \
		 $(awk -v p="$p" '$1 != p {print $3}' "$tmp/shipped"); do
		[ $n -ge 3 ] && break
		record "shipped-$(basename "$f" .yaml)" "$f" \
			--set policy.name="$p" \
			--set duration="${KTEST_SHIPPED_MS:-300}ms" &&
			n=$((n + 1))
	done
	[ $n -ge 3 ] ||
		echo "ktest: only $n shipped scenarios record under $p" >&2
done
quiet_fail=
# the planted difference: the first timer dfq arms, one ns later
record neon_fig6 configs/paper/neon_fig6_dfq.yaml
good=$init/rec/dfq--neon_fig6.rec
l=$(grep -n '^hal_timer_arm ' "$good" | sed -n 2p | cut -d: -f1)
sed "${l}s/\$/1/" "$good" > "$init/rec/planted--neon_fig6.rec"
# and a params= string that gives another slice than the record answered:
# the kernel's params.c must tell
sed '/^instance /s/ params .*$/ params slice=2ms,engaged=true/' \
	"$init/rec/timeslice--tiny.rec" > "$init/rec/planted--params.rec"

cat > "$init/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t debugfs none /sys/kernel/debug
echo "TAP version 14"
# the kernel log is judged from here on: the boot's own warnings (QEMU's
# CPU model under a 32-bit kernel has one) are not the modules'
dmesg -c > /dev/null
if insmod /gpusim_replay.ko; then
	for r in /rec/*.rec; do
		cat "$r" > /sys/kernel/debug/gpusim_replay/record
		echo "# ${r#/rec/}: $(cat /sys/kernel/debug/gpusim_replay/result)"
	done
else
	echo "not ok 1 - insmod gpusim_replay.ko"
fi
echo "# done"
if [ -f /gpusim_stress.ko ]; then
	if insmod /gpusim_policies.ko && insmod /gpusim_stress.ko; then
		for p in $(cat /stress_policies); do
			echo "$p $(cat /stress_args)" > /sys/kernel/debug/gpusim_stress/run
			echo "# stress: $(cat /sys/kernel/debug/gpusim_stress/result)"
			echo "# live:" $(cat /sys/kernel/debug/gpusim/live)
		done
		rmmod gpusim_stress && rmmod gpusim_policies
	else
		echo "# stress: not ok - insmod gpusim_policies.ko gpusim_stress.ko"
	fi
	dmesg | grep -E 'WARNING:|BUG:|Oops|general protection|Call Trace|refcount_t|list_(add|del) corruption|hung_task|soft lockup|circular locking' |
		sed 's/^/# kmsg: /'
	echo "# stress done"
fi
poweroff -f
INIT
chmod +x "$init/init"
(cd "$init" && find . | cpio -o -H newc 2>/dev/null | gzip) > "$tmp/initrd.gz"

# KVM where a quick probe shows it works: a nested /dev/kvm may exist and
# still fail (QEMU refusing the host's MSRs at once, or a boot that never
# gets anywhere). The probe boots the same kernel into an initramfs that
# prints a word and powers off; without the word in KTEST_KVM_PROBE_S
# seconds (default 15), the records boot with TCG. KTEST_KVM=0: TCG
# without a probe; KTEST_KVM=1: KVM without one.
kvm_probe() {
	probe=$tmp/probe
	mkdir -p "$probe/bin"
	cp "$busybox" "$probe/bin/busybox"
	printf '#!/bin/busybox sh\n/bin/busybox echo gpusim-kvm-ok\n/bin/busybox poweroff -f\n' \
		> "$probe/init"
	chmod +x "$probe/init"
	(cd "$probe" && find . | cpio -o -H newc 2>/dev/null | gzip) \
		> "$tmp/probe.gz"
	timeout "${KTEST_KVM_PROBE_S:-15}" $qemu -enable-kvm -cpu max -m 256 \
		-nographic -no-reboot -kernel "$kernel" -initrd "$tmp/probe.gz" \
		-append "console=ttyS0 panic=-1 quiet" > "$tmp/probe.log" 2>&1
	grep -q gpusim-kvm-ok "$tmp/probe.log"
}
accel=
case ${KTEST_KVM:-auto} in
1) accel=-enable-kvm ;;
auto)
	if [ -w /dev/kvm ]; then
		probe_start=$(date +%s)
		if kvm_probe; then
			accel=-enable-kvm
		else
			echo "ktest: KVM probe failed in" \
			     "$(( $(date +%s) - probe_start )) s" \
			     "($(grep -a -m1 -i 'error\|fail' "$tmp/probe.log" ||
				 echo 'no boot')); using TCG"
		fi
	fi ;;
esac
start=$(date +%s)
timeout 600 $qemu $accel -cpu max -smp 2 -m 1024 -nographic \
	-no-reboot -kernel "$kernel" -initrd "$tmp/initrd.gz" \
	-append "console=ttyS0 panic=-1 quiet loglevel=3" \
	> "$tmp/console.log" 2>&1
# KTEST_CONSOLE=FILE keeps the guest's console
[ -n "${KTEST_CONSOLE:-}" ] && cp "$tmp/console.log" "$KTEST_CONSOLE"
echo "ktest: $kernel booted and replayed in $(( $(date +%s) - start )) s" \
     "(${accel:-TCG}, $qemu)"

passed=0 failed=0 calls=0 params=0
while IFS= read -r line; do
	rec=${line#\# }
	rec=${rec%%:*}
	case $line in
	*": ok "*)
		if [ "${rec#planted}" != "$rec" ]; then
			echo "FAIL $rec: the planted difference was not caught"
			failed=$((failed + 1))
			continue
		fi
		n=$(echo "$line" | sed 's/.* \([0-9]*\) HAL calls.*/\1/')
		calls=$((calls + n))
		np=$(echo "$line" | sed -n 's/.* \([0-9]*\) params.*/\1/p')
		params=$((params + ${np:-0}))
		echo "ok   ${rec%.rec}: $n HAL calls identical"
		passed=$((passed + 1)) ;;
	*": not ok "*)
		if [ "${rec#planted}" != "$rec" ]; then
			echo "ok   ${rec%.rec}: caught: ${line#*record line }"
			passed=$((passed + 1))
		else
			echo "FAIL ${rec%.rec}: ${line#*not ok }"
			failed=$((failed + 1))
		fi ;;
	esac
done <<EOF2
$(tr -d '\r' < "$tmp/console.log" | grep -a '^# .*\.rec: ')
EOF2
want=$(ls "$init/rec" | wc -l)
if [ $((passed + failed)) -ne "$want" ] || ! grep -aq '^# done' "$tmp/console.log"; then
	echo "FAIL: $((passed + failed)) of $want records reported; the console:"
	tail -n 30 "$tmp/console.log"
	failed=$((failed + want - passed - failed))
fi
if [ "$stress_runs" -gt 0 ]; then
	if sh "$root/scripts/ktest_check.sh" "$tmp/console.log" "$stress_runs"
	then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
fi
echo "ktest: $calls HAL calls compared in the kernel, $params hal_param" \
     "answers against the kernel's params= parser"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
