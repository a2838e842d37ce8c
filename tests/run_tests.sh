#!/bin/sh
# Runs every cmocka test binary in $1, then the command-line and golden
# tests and the figure pipeline (plots_test.sh) against the gpusim binary
# $2, and prints one closing line.
dir=${1:-build/tests}
gpusim=${2:-./gpusim}
passed=0
failed=0
# The example policy modules `make` builds beside gpusim, for the unit
# tests that load every shipped scenario (configs/beyond/wrr_weights.yaml)
GPUSIM_POLICY_PATH=$(dirname "$gpusim")/policy-modules${GPUSIM_POLICY_PATH:+:$GPUSIM_POLICY_PATH}
export GPUSIM_POLICY_PATH
for t in "$dir"/test_*; do
	[ -x "$t" ] || continue
	echo "== $(basename "$t")"
	if "$t"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAILED: $(basename "$t")"
	fi
done
for script in cli_test.sh input_test.sh golden_test.sh sweep_test.sh \
	      plots_test.sh interrupt_test.sh generate_test.sh \
	      repro_reduce_test.sh repro_share_test.sh \
	      repro_sweep_task_test.sh drm_plots_test.sh \
	      repro_reference_test.sh record_hal_test.sh \
	      replay_test.sh policy_module_test.sh compare_test.sh \
	      install_test.sh pftrace_test.sh policy_module_cli_test.sh \
	      import_test.sh repro_marked_test.sh ktest_check_test.sh \
	      repro_seed_test.sh \
	      bench_queue_test.sh \
	      bench_phases_test.sh \
	      bench_sweep_test.sh \
	      parallel_write_test.sh \
	      stream_write_test.sh \
	      no_threads_test.sh \
	      sweep_order_test.sh \
	      sweep_overlap_test.sh \
	      sweep_summary_test.sh; do
	echo "== $script"
	if sh "$(dirname "$0")/$script" "$gpusim"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAILED: $script"
	fi
done
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
