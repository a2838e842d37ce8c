#!/bin/sh
# gpusim sweep as a user meets it: results that do not depend on -j,
# resuming after an interruption, jobs for GNU parallel and Slurm, and
# --collect. Usage: tests/sweep_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
case $GPUSIM in /*) ;; *) GPUSIM=$(pwd)/$GPUSIM ;; esac
. "$(dirname "$0")/check_lib.sh"

cat >"$tmp/grid.yaml" <<'YAML'
name: grid
duration: 300ms
output: {timeline: false}
policy: {name: direct}
tasks:
  - name: app
    behavior: {app: DCT}
  - name: throttle
    behavior: {throttle: {kernel: 300us}}
sweep:
  policy.name: [direct, dfq, timeslice]
  tasks.1.behavior.throttle.kernel: [19us, {uniform: [100us, 500us]}]
  seeds: [1, 2]
YAML
n=12

check "sweep -j1 runs every point" sh -c \
	"$GPUSIM sweep $tmp/grid.yaml -j1 --out $tmp/j1 > $tmp/j1.txt &&
	 grep -q '12 points, 12 run now, 0 already finished, 0 missing' $tmp/j1.txt &&
	 test \$(ls $tmp/j1/points | wc -l) -eq $n &&
	 test \$(wc -l < $tmp/j1/sweep.csv) -eq $((n + 1))"
check "each point has the usual outputs and point.json" sh -c \
	"for d in $tmp/j1/points/*; do
	   test -s \$d/summary.json && test -s \$d/tasks.csv &&
	   test -s \$d/series.csv && test -s \$d/point.json || exit 1; done"
check "sweep.csv has the swept values, metrics and per-task columns" sh -c \
	"head -1 $tmp/j1/sweep.csv | grep -q '^point,seed,policy.name,tasks.1.behavior.throttle.kernel,policy_name,.*jain_index,.*app.slowdown,.*throttle.gpu_share' &&
	 grep -q '^dfq_19us_s2,2,dfq,19us,dfq,' $tmp/j1/sweep.csv"
# every point's files too: at -j2 on two cores the workers collect and
# write without helper threads (gs_sweep_worker_threads), at -j1 with
check "-j2 gives a byte-identical sweep.csv, manifest and points" sh -c \
	"$GPUSIM sweep $tmp/grid.yaml -j2 -q --out $tmp/j2 &&
	 cmp $tmp/j1/sweep.csv $tmp/j2/sweep.csv &&
	 cmp $tmp/j1/manifest.json $tmp/j2/manifest.json &&
	 diff -r $tmp/j1/points $tmp/j2/points"
# The three policies of a (kernel, seed) share the throttle's standalone
# run, and the six points of a seed the app's, which no axis but the seed
# touches: 2 + 4 runs made once, by workers of their own, for 12 points'
# two definitions, and every point the same bytes as when it makes its
# own (--point runs one point, which shares nothing).
check "the points share their standalone runs across policies and kernels" sh -c \
	"grep -q '(6 standalone runs made once for 24 points. tasks)' $tmp/j1.txt"
check "each point as when run alone with --point, which shares nothing" sh -c \
	"for p in \$(ls $tmp/j1/points); do
	   $GPUSIM sweep $tmp/grid.yaml -q --out $tmp/each --point \$p || exit 1
	 done && diff -r $tmp/j1/points $tmp/each/points"
# A standalone run is one replica: the throttle's count does not reach
# it, so both definitions' runs are made once for all four points.
sed '/^sweep:/,$d' "$tmp/grid.yaml" >"$tmp/counts.yaml"
printf 'sweep:\n  policy.name: [direct, dfq]\n  tasks.1.count: [1, 3]\n' \
	>>"$tmp/counts.yaml"
check "a definition's count does not split its standalone run" sh -c \
	"$GPUSIM sweep $tmp/counts.yaml -j2 --out $tmp/counts > $tmp/counts.txt &&
	 grep -q '(2 standalone runs made once for 8 points. tasks)' $tmp/counts.txt &&
	 for p in \$(ls $tmp/counts/points); do
	   $GPUSIM sweep $tmp/counts.yaml -q --out $tmp/counts1 --point \$p || exit 1
	 done && diff -r $tmp/counts/points $tmp/counts1/points"
check "shared workers that fail leave their points to make the runs" sh -c \
	"GPUSIM_FAIL_SHARED_RUNS=1 $GPUSIM sweep $tmp/grid.yaml -j2 --out $tmp/nosh > $tmp/nosh.txt &&
	 grep -q '12 run now, 0 already finished, 0 missing; [^(]*\$' $tmp/nosh.txt &&
	 diff -r $tmp/j1/points $tmp/nosh/points && cmp $tmp/j1/sweep.csv $tmp/nosh/sweep.csv"
check "a point equals gpusim run with the same overrides" sh -c \
	"$GPUSIM run $tmp/grid.yaml -q --no-timeline --out $tmp/one --set policy.name=dfq \
	   --set tasks.1.behavior.throttle.kernel=19us --seed 2 2>/dev/null &&
	 cmp $tmp/one/tasks.csv $tmp/j1/points/dfq_19us_s2/tasks.csv"
check "the manifest records config hash, version, seeds" sh -c \
	"grep -q '\"config_hash\" : \"[0-9a-f]\\{64\\}\"' $tmp/j1/manifest.json &&
	 grep -q '\"gpusim_version\"' $tmp/j1/manifest.json &&
	 grep -q '\"seed\" : 2' $tmp/j1/manifest.json"

# Resume: a point without point.json (interrupted while writing) and a
# missing folder are run again; nothing else is.
cp -r "$tmp/j1" "$tmp/re"
rm "$tmp/re/points/dfq_19us_s1/point.json"
rm -r "$tmp/re/points/timeslice_uniform-100us-500us_s2-"*
check "a rerun runs only unfinished points" sh -c \
	"$GPUSIM sweep $tmp/grid.yaml -j2 --out $tmp/re > $tmp/re.txt &&
	 grep -q '2 run now, 10 already finished' $tmp/re.txt &&
	 cmp $tmp/j1/sweep.csv $tmp/re/sweep.csv"
check "a rerun of a finished sweep runs nothing" sh -c \
	"$GPUSIM sweep $tmp/grid.yaml --out $tmp/re | grep -q '0 run now, 12 already finished'"
check "another --set makes every point stale" sh -c \
	"$GPUSIM sweep $tmp/grid.yaml -j2 --out $tmp/re --set duration=200ms |
	 grep -q '12 run now, 0 already finished'"

# Kill a sweep and its workers mid-way: every point.json left is a
# complete point, and the rerun keeps them and completes the same table.
sed 's/duration: 300ms/duration: 40s/' "$tmp/grid.yaml" >"$tmp/long.yaml"
setsid "$GPUSIM" sweep "$tmp/long.yaml" -j1 -q --out "$tmp/killed" \
	>/dev/null 2>&1 &
pid=$!
tries=0 # kill once the first point is finished
while [ "$tries" -lt 300 ] &&
      ! ls "$tmp"/killed/points/*/point.json >/dev/null 2>&1; do
	sleep 0.1
	tries=$((tries + 1))
done
kill -9 "-$pid" 2>/dev/null
wait "$pid" 2>/dev/null
kept=$(ls "$tmp"/killed/points/*/point.json 2>/dev/null | wc -l)
check "the kill left $kept of $n points finished" test "$kept" -ge 1 -a "$kept" -lt "$n"
check "after a kill, finished points are complete" sh -c \
	"for f in $tmp/killed/points/*/point.json; do
	   [ -e \"\$f\" ] || continue; d=\$(dirname \$f)
	   test -s \$d/summary.json && test -s \$d/tasks.csv && test -s \$d/series.csv || exit 1
	 done"
check "the rerun after a kill keeps the $kept finished points" sh -c \
	"$GPUSIM sweep $tmp/long.yaml -j2 --out $tmp/killed > $tmp/k.txt &&
	 grep -q '$((n - kept)) run now, $kept already finished' $tmp/k.txt &&
	 $GPUSIM sweep $tmp/long.yaml -j2 -q --out $tmp/fresh &&
	 cmp $tmp/killed/sweep.csv $tmp/fresh/sweep.csv"
check "the rerun removed what the killed workers left" sh -c \
	"! find $tmp/killed -name '.*tmp*' | grep ."

# Jobs for other machines.
check "--emit-jobs prints one absolute command per point" sh -c \
	"$GPUSIM sweep $tmp/grid.yaml --emit-jobs --out $tmp/par > $tmp/jobs &&
	 test \$(wc -l < $tmp/jobs) -eq $n && ! test -e $tmp/par &&
	 grep -q \"^/.* sweep $tmp/grid.yaml --out $tmp/par -q --point dfq_19us_s1\\$\" $tmp/jobs"
check "--point runs one point only" sh -c \
	"$GPUSIM sweep $tmp/grid.yaml --out $tmp/pt --point 3 -q &&
	 test \$(ls $tmp/pt/points | wc -l) -eq 1 && test -s $tmp/pt/points/direct_uniform-100us-500us_s2-*/point.json &&
	 ! test -e $tmp/pt/sweep.csv"
check "--collect of an incomplete folder says so and exits 1" sh -c \
	"! $GPUSIM sweep $tmp/grid.yaml --collect $tmp/pt > $tmp/c.txt 2>&1 &&
	 grep -q '11 missing' $tmp/c.txt && test \$(wc -l < $tmp/pt/sweep.csv) -eq 2"
check "--emit-slurm writes an array of all points" sh -c \
	"$GPUSIM sweep $tmp/grid.yaml --emit-slurm -j 4 --out $tmp/sl > $tmp/sl.sh &&
	 grep -q '^#SBATCH --array=0-11%4\$' $tmp/sl.sh &&
	 SLURM_ARRAY_TASK_ID=4 sh $tmp/sl.sh && test -s $tmp/sl/points/dfq_19us_s1/point.json"
check "--emit-slurm logs into DIR/logs, which it creates" sh -c \
	"grep -q '^#SBATCH --output=$tmp/sl/logs/%A_%a.out\$' $tmp/sl.sh && test -d $tmp/sl/logs"
check "--emit-slurm on a started folder submits only the unfinished points" sh -c \
	"$GPUSIM sweep $tmp/grid.yaml --emit-slurm -j 4 --out $tmp/pt > $tmp/pt.sh &&
	 grep -q '^#SBATCH --array=0-2,4-11%4\$' $tmp/pt.sh"
check "--emit-slurm on a finished folder submits nothing" sh -c \
	"$GPUSIM sweep $tmp/grid.yaml --emit-slurm --out $tmp/j1 > $tmp/none.sh 2> $tmp/none.txt &&
	 ! test -s $tmp/none.sh && grep -q 'all 12 points .* are finished; nothing to submit' $tmp/none.txt"
check "the script's --collect line repeats --set and --no-timeline" sh -c \
	"$GPUSIM sweep $tmp/grid.yaml --emit-slurm --out $tmp/sl2 --set duration=200ms --no-timeline > $tmp/sl2.sh &&
	 grep -q '^#   /.* sweep $tmp/grid.yaml --collect $tmp/sl2 --set duration=200ms --no-timeline\$' $tmp/sl2.sh &&
	 grep -q '^exec .* --out $tmp/sl2 --set duration=200ms --no-timeline -q --point \"\$SLURM_ARRAY_TASK_ID\"\$' $tmp/sl2.sh"
cp -r "$tmp/j1" "$tmp/keep"
rm -r "$tmp/keep/points/dfq_19us_s1"
check "--collect does not replace a table with a smaller one" sh -c \
	"! $GPUSIM sweep $tmp/grid.yaml -q --collect $tmp/keep 2> $tmp/keep.txt &&
	 grep -q 'sweep.csv has 12 rows, the finished points would make 11; keeping it (--force' $tmp/keep.txt &&
	 cmp $tmp/j1/sweep.csv $tmp/keep/sweep.csv && cmp $tmp/j1/manifest.json $tmp/keep/manifest.json"
check "--collect with another --set keeps the table and manifest" sh -c \
	"! $GPUSIM sweep $tmp/grid.yaml -q --collect $tmp/j1 --set duration=200ms 2> $tmp/keep2.txt &&
	 grep -q 'keeping it' $tmp/keep2.txt &&
	 cmp $tmp/j1/sweep.csv $tmp/j2/sweep.csv && cmp $tmp/j1/manifest.json $tmp/j2/manifest.json"
check "--collect keeps a manifest of another configuration" sh -c \
	"$GPUSIM sweep $tmp/grid.yaml -q -j2 --out $tmp/other --set duration=200ms &&
	 rm $tmp/other/sweep.csv && cp $tmp/other/manifest.json $tmp/other.json &&
	 ! $GPUSIM sweep $tmp/grid.yaml -q --collect $tmp/other 2> $tmp/other.txt &&
	 grep -q 'manifest.json was written for another configuration' $tmp/other.txt &&
	 cmp $tmp/other.json $tmp/other/manifest.json && ! test -e $tmp/other/sweep.csv"
check "--collect --force replaces it" sh -c \
	"! $GPUSIM sweep $tmp/grid.yaml -q --force --collect $tmp/keep 2>/dev/null &&
	 test \$(wc -l < $tmp/keep/sweep.csv) -eq 12"
cp -r "$tmp/j1" "$tmp/endless"
ln -sf /dev/zero "$tmp/endless/sweep.csv"
check "--collect reads the old table bounded (/dev/zero) and keeps it" sh -c \
	"! timeout 20 $GPUSIM sweep $tmp/grid.yaml -q --collect $tmp/endless 2> $tmp/endless.txt &&
	 grep -q 'sweep.csv: larger than' $tmp/endless.txt && test -L $tmp/endless/sweep.csv"
check "--collect of a folder that does not exist exits 2, creates nothing" sh -c \
	"$GPUSIM sweep $tmp/grid.yaml --collect $tmp/nowhere 2> $tmp/nw.txt; test \$? -eq 2 &&
	 grep -q 'no such folder' $tmp/nw.txt && ! test -e $tmp/nowhere"
for j in 0 -1 x 2000 ''; do
	check "sweep -j '$j' is refused (exit 2)" sh -c \
		"$GPUSIM sweep $tmp/grid.yaml -q -j '$j' --out $tmp/jj 2> $tmp/jj.txt; test \$? -eq 2 &&
		 grep -q -- '-j expects a number from 1 to 1024' $tmp/jj.txt && ! test -e $tmp/jj"
done
check "--force without --collect is refused" expect_status 2 "$GPUSIM" sweep "$tmp/grid.yaml" -q --force --out "$tmp/jj"
check "sweep -j0 is refused too" expect_status 2 "$GPUSIM" sweep "$tmp/grid.yaml" -q -j0 --out "$tmp/jj"
if command -v parallel >/dev/null 2>&1; then
	check "jobs run by GNU parallel collect to the same sweep.csv" sh -c \
		"parallel -j2 < $tmp/jobs &&
		 $GPUSIM sweep $tmp/grid.yaml -q --collect $tmp/par &&
		 cmp $tmp/j1/sweep.csv $tmp/par/sweep.csv"
	echo : >"$tmp/hosts"
	check "jobs run through parallel --sshloginfile collect the same" sh -c \
		"parallel --sshloginfile $tmp/hosts -j2 < $tmp/jobs &&
		 $GPUSIM sweep $tmp/grid.yaml -q --collect $tmp/par &&
		 cmp $tmp/j1/sweep.csv $tmp/par/sweep.csv"
else
	echo "skip: GNU parallel is not installed"
fi

cat >"$tmp/count.yaml" <<'YAML'
duration: 100ms
output: {timeline: false}
tasks:
  - name: app
    behavior: {app: DCT}
  - name: t
    behavior: {throttle: {kernel: 100us}}
sweep:
  tasks.1.count: [1, 2]
YAML
check "points with different tasks share one header, empty where absent" sh -c \
	"$GPUSIM sweep $tmp/count.yaml -j2 -q --out $tmp/count &&
	 head -1 $tmp/count/sweep.csv | grep -q ',t.gpu_share,.*,t#1.gpu_share,' &&
	 test \$(awk -F, 'NR == 2 { print NF }' $tmp/count/sweep.csv) -eq \$(awk -F, 'NR == 1 { print NF }' $tmp/count/sweep.csv) &&
	 grep -q '^1_s1,.*,,,,,,,\$' $tmp/count/sweep.csv"

check "a sweep error is positioned, exits 2 and writes nothing" sh -c \
	"sed 's/\\[direct, dfq, timeslice\\]/[direct, dfk]/' $tmp/grid.yaml > $tmp/bad.yaml;
	 $GPUSIM sweep $tmp/bad.yaml --out $tmp/bad 2> $tmp/bad.txt; test \$? -eq 2 &&
	 grep -q 'bad.yaml:11:25: sweep policy.name: ' $tmp/bad.txt && ! test -e $tmp/bad"
check "run on a sweep file runs the base scenario and says so" sh -c \
	"$GPUSIM run $tmp/grid.yaml -q --out $tmp/base 2> $tmp/note.txt &&
	 grep -q 'sweep block; running its base scenario' $tmp/note.txt &&
	 grep -q '\"policy\" : \"direct\"' $tmp/base/summary.json"
check "validate counts the points" sh -c \
	"$GPUSIM validate $tmp/grid.yaml | grep -q 'sweep of 12 points'"

echo "sweep: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
