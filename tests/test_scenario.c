/* Whole scenarios through loader, host model, GPU model and results:
 * round-robin unfairness (NEON Fig. 6, direct), determinism, blocking on a
 * full ring, round limits, multi-GPU placement, ground-truth invariants. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "sim/host/sim_internal.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"

static struct gs_scenario *load(const char *yaml)
{
	GError *err = NULL;
	struct gs_scenario *sc =
		gs_scenario_load_data("test.yaml", yaml, strlen(yaml), NULL, 0,
				      &err);

	if (!sc)
		fail_msg("load failed: %s", err->message);
	return sc;
}

static void run(const char *yaml, bool standalone, struct gs_results *r)
{
	struct gs_scenario *sc = load(yaml);
	struct gs_sim_options opt = { .timeline = true,
				      .standalone_runs = standalone,
				      .check_invariants = true };
	GError *err = NULL;

	gs_results_init(r);
	if (!gs_run_scenario(sc, &opt, r, &err))
		fail_msg("%s", err->message);
	gs_scenario_free(sc);
}

static const char *const two_throttles =
	"name: fig6\nseed: 1\nduration: 2s\n"
	"gpu: {preset: kepler}\npolicy: {name: direct}\n"
	"tasks:\n"
	"  - name: short\n    behavior: {throttle: {kernel: 100us}}\n"
	"  - name: long\n    behavior: {throttle: {kernel: 1000us}}\n";

static void test_round_robin_gives_share_in_request_ratio(void **state)
{
	struct gs_results r;
	(void)state;

	run(two_throttles, true, &r);
	assert_int_equal(r.n_tasks, 2);
	assert_true(fabs(r.tasks[0].gpu_share - 1.0 / 11) < 0.02);
	assert_true(fabs(r.tasks[1].gpu_share - 10.0 / 11) < 0.02);
	/* the short task waits for a long request after each of its own */
	assert_true(r.tasks[0].slowdown > 8);
	assert_true(r.tasks[1].slowdown < 1.3);
	assert_true(fabs(r.tasks[0].gpu_share + r.tasks[1].gpu_share - 1) <
		    1e-12);
	assert_int_equal(r.sim_time_ns, 2 * GS_NS_PER_S);
	gs_results_clear(&r);
}

static const char *const jittery =
	"duration: 200ms\nseed: %u\n"
	"tasks:\n"
	"  - name: a\n    behavior: {throttle: {kernel: {exponential: 80us},"
	" sleep: {uniform: [10us, 90us]}}}\n"
	"  - name: b\n    count: 3\n"
	"    behavior: {throttle: {kernel: {normal: {mean: 200us, stddev: 50us}}}}\n";

static void test_same_seed_same_run_other_seed_differs(void **state)
{
	struct gs_results r1, r2, r3;
	char *y1 = g_strdup_printf(jittery, 5), *y2 = g_strdup_printf(jittery, 6);
	uint32_t i;
	(void)state;

	run(y1, false, &r1);
	run(y1, false, &r2);
	run(y2, false, &r3);
	assert_true(r1.events > 1000);
	assert_int_equal(r1.events, r2.events);
	assert_int_equal(r1.event_checksum, r2.event_checksum);
	for (i = 0; i < r1.n_tasks; i++)
		assert_int_equal(r1.tasks[i].gpu_time_ns, r2.tasks[i].gpu_time_ns);
	assert_int_equal(r1.spans->len, r2.spans->len);
	assert_memory_equal(r1.spans->data, r2.spans->data,
			    r1.spans->len * sizeof(struct gs_span));
	assert_true(r1.event_checksum != r3.event_checksum);
	gs_results_clear(&r1);
	gs_results_clear(&r2);
	gs_results_clear(&r3);
	g_free(y1);
	g_free(y2);
}

/* A task's random stream does not depend on the other tasks. */
static void test_adding_a_task_keeps_other_streams(void **state)
{
	const char *alone =
		"duration: 50ms\ngpu: {max_channels: 64}\ntasks:\n"
		"  - name: a\n    gpu: 0\n    behavior: {throttle: {kernel:"
		" {uniform: [10us, 90us]}}}\n";
	const char *with_b =
		"duration: 50ms\nnode: {gpus: 2, gpu: {max_channels: 64}}\n"
		"tasks:\n"
		"  - name: b\n    gpu: 1\n    behavior: {throttle: {kernel:"
		" {uniform: [10us, 90us]}}}\n"
		"  - name: a\n    gpu: 0\n    behavior: {throttle: {kernel:"
		" {uniform: [10us, 90us]}}}\n";
	struct gs_results r1, r2;
	(void)state;

	run(alone, false, &r1);
	run(with_b, false, &r2);
	/* a is alone on GPU 0 in both runs: identical GPU time */
	assert_string_equal(r2.tasks[1].name, "a");
	assert_int_equal(r1.tasks[0].gpu_time_ns, r2.tasks[1].gpu_time_ns);
	assert_int_equal(r1.tasks[0].rounds, r2.tasks[1].rounds);
	assert_true(r2.tasks[0].gpu_time_ns != r2.tasks[1].gpu_time_ns);
	gs_results_clear(&r1);
	gs_results_clear(&r2);
}

/* A non-blocking task fills its ring and blocks; it never has more than
 * ring_entries - 1 commands queued. */
static void test_full_ring_blocks_the_task(void **state)
{
	const char *y =
		"duration: 20ms\ngpu: {ring_entries: 8}\n"
		"host: {launch: 1us, doorbell: 0}\n"
		"tasks:\n"
		"  - name: flood\n    behavior: {throttle: {kernel: 100us,"
		" blocking: false}}\n";
	struct gs_results r;
	(void)state;

	run(y, true, &r);
	/* GPU saturated: ~200 commands ran in 20 ms, rounds (launches) can
	 * only run ahead by the ring's capacity plus the one running and one
	 * held by the dispatcher */
	assert_true(r.tasks[0].gpu_time_ns >= 19 * GS_NS_PER_MS);
	assert_true(r.tasks[0].rounds <= 200 + 7 + 2);
	assert_true(r.tasks[0].rounds >= 195);
	gs_results_clear(&r);
}

static void test_round_limit_ends_the_run(void **state)
{
	const char *y =
		"duration: 10s\ntasks:\n"
		"  - name: a\n    rounds: 10\n    behavior: {throttle: {kernel:"
		" 100us, sleep: 50us}}\n";
	struct gs_results r;
	(void)state;

	run(y, true, &r);
	assert_int_equal(r.tasks[0].rounds, 10);
	assert_true(r.sim_time_ns < 5 * GS_NS_PER_MS);
	assert_int_equal(r.tasks[0].gpu_time_ns, 1000 * GS_NS_PER_US);
	/* alone and shared are the same run: slowdown 1 */
	assert_true(fabs(r.tasks[0].slowdown - 1.0) < 1e-9);
	assert_true(fabs(r.metrics.jain_index - 1.0) < 1e-9);
	gs_results_clear(&r);
}

/* Found by fuzzing the --set paths: the series sampler summed a task's
 * channels with an 8-bit index, so a task with more than 255 channels
 * looped forever at the first sample. The alarm turns a hang into a
 * failure (it is a watchdog, not a speed limit). */
static void test_task_with_many_channels_is_sampled(void **state)
{
	const char *y =
		"duration: 5ms\noutput: {series_interval: 1ms}\ntasks:\n"
		"  - name: wide\n    channels: 300\n"
		"    behavior: {throttle: {kernel: 100us}}\n";
	struct gs_results r;
	(void)state;

	alarm(60);
	run(y, false, &r);
	alarm(0);
	assert_true(r.sim_time_ns >= 5 * GS_NS_PER_MS);
	assert_true(r.tasks[0].gpu_time_ns > 4 * GS_NS_PER_MS);
	gs_results_clear(&r);
}

static void test_tasks_spread_over_gpus(void **state)
{
	const char *y =
		"duration: 100ms\nnode: {gpus: 2}\ntasks:\n"
		"  - name: t\n    count: 4\n    behavior: {throttle: {kernel:"
		" 500us}}\n";
	struct gs_results r;
	uint32_t i;
	(void)state;

	run(y, false, &r);
	assert_int_equal(r.n_tasks, 4);
	assert_string_equal(r.tasks[3].name, "t#3");
	for (i = 0; i < 4; i++) {
		assert_int_equal(r.tasks[i].gpu, i % 2);
		assert_true(fabs(r.tasks[i].gpu_share - 0.25) < 0.01);
	}
	gs_results_clear(&r);
}

/* Ground truth adds up: task GPU time = compute engine busy time. */
static void test_gpu_time_adds_up_to_busy_time(void **state)
{
	struct gs_results r;
	uint64_t sum = 0;
	uint32_t i;
	double busy;
	(void)state;

	run(two_throttles, false, &r);
	for (i = 0; i < r.n_tasks; i++)
		sum += r.tasks[i].gpu_time_ns;
	busy = r.metrics.gpu_utilization * (double)r.sim_time_ns;
	/* busy counts finished commands; sum includes the running one */
	assert_true(fabs((double)sum - busy) <= 1000.0 * GS_NS_PER_US);
	assert_true(r.metrics.gpu_utilization > 0.9);
	assert_true(r.metrics.ctx_switches > 1500);
	gs_results_clear(&r);
}

static void test_app_against_long_throttle(void **state)
{
	const char *y =
		"duration: 1s\ntasks:\n"
		"  - name: dct\n    behavior: {app: DCT}\n"
		"  - name: throttle\n    behavior: {throttle: {kernel: 1700us}}\n";
	struct gs_results r;
	(void)state;

	run(y, true, &r);
	/* NEON Fig. 6, direct: more than 10x for DCT */
	assert_true(r.tasks[0].slowdown > 10);
	assert_true(r.tasks[1].slowdown < 1.2);
	assert_true(r.metrics.jain_index < 0.7);
	gs_results_clear(&r);
}

/* NEON 3.1/3.3: a request that runs past kill_after gets its task killed;
 * its channel is torn down and the others go on. The tasks queued behind
 * the stuck request show no progress either, and must not be killed with
 * it (dfq once killed them too). */
static void endless_kernel_killed(const char *policy)
{
	char *y = g_strdup_printf(
		"duration: 2s\npolicy: {name: %s, params: {kill_after: 200ms}}\n"
		"tasks:\n"
		"  - name: endless\n    start: 10ms\n"
		"    behavior: {throttle: {kernel: 1000s}}\n"
		"  - name: a\n    behavior: {throttle: {kernel: 100us}}\n"
		"  - name: b\n    behavior: {throttle: {kernel: 300us}}\n",
		policy);
	struct gs_results r;

	run(y, false, &r);
	assert_true(r.tasks[0].killed);
	assert_false(r.tasks[1].killed);
	assert_false(r.tasks[2].killed);
	/* the endless kernel held the GPU for about kill_after, no more */
	assert_true(r.tasks[0].gpu_time_ns >= 150 * GS_NS_PER_MS);
	assert_true(r.tasks[0].gpu_time_ns < 350 * GS_NS_PER_MS);
	/* the others shared the rest of the two seconds */
	assert_true(r.tasks[1].gpu_time_ns + r.tasks[2].gpu_time_ns >
		    1400 * GS_NS_PER_MS);
	assert_true(r.tasks[1].rounds > 1000);
	gs_results_clear(&r);
	g_free(y);
}

static void test_timeslice_kills_an_endless_kernel(void **state)
{
	(void)state;
	endless_kernel_killed("timeslice");
}

static void test_dfq_kills_an_endless_kernel_only(void **state)
{
	(void)state;
	endless_kernel_killed("dfq");
}

/* ---- a VM's own scheduler (vms[].scheduler) ----------------------- */

/* No scheduler on the host: the VM's own dfq, a separate instance that
 * sees only the VM's tasks, shares the GPU between a 100us and a 1ms task
 * as flat dfq would; without it the GPU's round robin gives 1:10. */
static const char *const vm_guest_dfq =
	"duration: 2s\nseed: 1\ngpu: {preset: kepler}\npolicy: direct\n"
	"vms: [{name: v%s}]\n"
	"tasks:\n"
	"  - {name: short, vm: v, behavior: {throttle: {kernel: 100us}}}\n"
	"  - {name: long, vm: v, behavior: {throttle: {kernel: 1ms}}}\n";

static void test_vm_scheduler_schedules_its_tasks(void **state)
{
	g_autofree char *with = g_strdup_printf(vm_guest_dfq,
						", scheduler: dfq");
	g_autofree char *without = g_strdup_printf(vm_guest_dfq, "");
	struct gs_results r;
	(void)state;

	run(without, false, &r);
	assert_true(r.tasks[0].gpu_share < 0.15);
	assert_true(isnan(r.metrics.accounting_error));
	assert_int_equal(r.n_vms, 1);
	assert_null(r.vms[0].scheduler);
	gs_results_clear(&r);
	run(with, false, &r);
	assert_true(fabs(r.tasks[0].gpu_share - 0.5) < 0.06);
	/* the guest's accounting and CPU time are its own */
	assert_true(r.tasks[0].accounted_gpu_time_ns > 0);
	assert_string_equal(r.vms[0].name, "v");
	assert_string_equal(r.vms[0].scheduler, "dfq");
	assert_true(r.vms[0].scheduler_cpu > 0);
	assert_true(r.vms[0].scheduler_cpu <= r.metrics.policy_cpu_overhead);
	assert_true(fabs(r.vms[0].gpu_share - 1) < 1e-9);
	/* the host's policy (direct) never shadows it */
	assert_true(r.vms[0].host_shadowed == 0);
	gs_results_clear(&r);
}

/* Nested hdfq on the host gives each VM its half; inside vm2 the guest
 * policy decides: timeslice splits vm2's half between t2 and t3. Three
 * levels: vmA's own nested hdfq treats vmB as one entity and vmB's
 * timeslice splits its part: 1/2, 1/4, 1/8, 1/8. */
static const char *const vm_tree_nested =
	"duration: 3s\nseed: 1\ngpu: {preset: kepler}\n"
	"policy: {name: hdfq, params: {nested: true}}\n"
	"vms:\n"
	"  - name: vmA\n    scheduler: {name: hdfq, params: {nested: true}}\n"
	"    vms: [{name: vmB, scheduler: timeslice}]\n"
	"tasks:\n"
	"  - {name: t0, behavior: {throttle: {kernel: 500us}}}\n"
	"  - {name: t1, vm: vmA, behavior: {throttle: {kernel: 500us}}}\n"
	"  - {name: t2, vm: vmB, behavior: {throttle: {kernel: 500us}}}\n"
	"  - {name: t3, vm: vmB, behavior: {throttle: {kernel: 500us}}}\n";

static void test_vm_schedulers_nest(void **state)
{
	const double want[] = { 0.5, 0.25, 0.125, 0.125 };
	struct gs_results r;
	uint32_t i;
	(void)state;

	run(vm_tree_nested, false, &r);
	for (i = 0; i < 4; i++)
		if (fabs(r.tasks[i].gpu_share - want[i]) > 0.03)
			fail_msg("%s: share %.3f, want %.3f", r.tasks[i].name,
				 r.tasks[i].gpu_share, want[i]);
	assert_string_equal(r.vms[1].name, "vmB");
	assert_string_equal(r.vms[1].scheduler, "timeslice");
	assert_true(fabs(r.vms[0].gpu_share - 0.5) < 0.03);
	/* the host's nested hdfq stops vmA (and vmB in it) by shadowing */
	assert_true(r.vms[0].host_shadowed > 0.1);
	gs_results_clear(&r);
}

/* Only the ratio of weights matters, under dfq and loga: three equal
 * saturating throttles with weights 1:2:4, 10:20:40 and 100:200:400 get
 * the same shares (within 0.005: the runs differ only in integer
 * rounding), near 1/7, 2/7, 4/7 (within 0.03: both sample and deny per
 * interval, so shares are approximate; measured 0.151/0.295/0.554 for
 * dfq). Unnormalised vtimes gave dfq 0.16/0.31/0.53, 0.32/0.34/0.34 and
 * 1/3 each. */
static void test_weight_scale_leaves_shares(void **state)
{
	static const char *const policies[] = { "dfq", "loga" };
	unsigned p, k, i;
	(void)state;

	for (p = 0; p < 2; p++) {
		double first[3] = { 0 };

		for (k = 1; k <= 100; k *= 10) {
			g_autofree char *yaml = g_strdup_printf(
				"duration: 5s\npolicy: {name: %s}\ntasks:\n"
				"  - {name: a, weight: %u, behavior: "
				"{throttle: {kernel: 500us}}}\n"
				"  - {name: b, weight: %u, behavior: "
				"{throttle: {kernel: 500us}}}\n"
				"  - {name: c, weight: %u, behavior: "
				"{throttle: {kernel: 500us}}}\n",
				policies[p], k, 2 * k, 4 * k);
			struct gs_results r;

			run(yaml, false, &r);
			for (i = 0; i < 3; i++) {
				double share = r.tasks[i].gpu_share;

				if (k == 1)
					first[i] = share;
				assert_true(fabs(share - first[i]) < 0.005);
				assert_true(fabs(share - (1 << i) / 7.0) <
					    0.03);
			}
			gs_results_clear(&r);
		}
	}
}

/* Work still running when the run ends counts in every figure built from
 * GPU time: a 20 ms kernel cut by a 10 ms run (launch costs 30 us) gave
 * the task 9.97 ms of GPU time and share 1, but utilisation 0 and idle
 * power all along. */
static void test_work_in_progress_counts_in_utilisation(void **state)
{
	struct gs_results r;
	double busy_s, energy;
	(void)state;

	run("duration: 10ms\ngpu: {preset: kepler, idle_watts: 15, "
	    "active_watts: 170}\ntasks:\n  - name: a\n    behavior: "
	    "{throttle: {kernel: 20ms}}\n", false, &r);
	assert_int_equal(r.tasks[0].rounds, 0);
	assert_true(r.tasks[0].gpu_time_ns > 9 * GS_NS_PER_MS);
	assert_true(fabs(r.metrics.gpu_utilization -
			 (double)r.tasks[0].gpu_time_ns / (10 * GS_NS_PER_MS)) <
		    1e-12);
	busy_s = (double)r.tasks[0].gpu_time_ns * 1e-9;
	energy = 170.0 * busy_s + 15.0 * (0.010 - busy_s);
	assert_true(fabs(r.metrics.energy_j - energy) < 1e-9);
	gs_results_clear(&r);
}

/* Generated scenario 159's shape on volta with one-slot rings: two tasks
 * that run rounds of commands with short pauses, beside two blocking
 * throttles. The dispatcher moved the round's front to a channel of the
 * current group that had rejoined at the end of the round, so the two
 * round tasks took turns for ever and the throttles, their commands
 * published, waited for ever (the invariant 'no work waits for ever'
 * now reports that; run() fails on a violation). */
static void test_timeslice_round_reaches_every_task(void **state)
{
	struct gs_results r;
	uint32_t i;
	(void)state;

	run("duration: 100ms\n"
	    "gpu: {preset: volta, ring_entries: 2, dispatch_batch: 2}\n"
	    "tasks:\n"
	    "  - name: five\n    behavior:\n      script:\n"
	    "        - repeat: {count: forever, steps: [{repeat: {count: 5, "
	    "steps: [{launch: {kernel: 200us}}]}}, wait, {cpu: 10us}, "
	    "round]}\n"
	    "  - name: three\n    behavior:\n      script:\n"
	    "        - repeat: {count: forever, steps: [{repeat: {count: 3, "
	    "steps: [{launch: {kernel: 45us}}]}}, wait, {cpu: 40us}, "
	    "round]}\n"
	    "  - name: a\n    start: 1ms\n"
	    "    behavior: {throttle: {kernel: 100us, sleep: 0ns}}\n"
	    "  - name: b\n    start: 1ms\n"
	    "    behavior: {throttle: {kernel: 100us, sleep: 0ns}}\n",
	    false, &r);
	/* each task has a turn of about one slice (1024 us) per round of
	 * four: every one completes dozens of rounds in 100 ms */
	for (i = 0; i < r.n_tasks; i++)
		assert_true(r.tasks[i].rounds >= 10);
	gs_results_clear(&r);
}

static struct gs_sim *run_sim(const char *yaml, struct gs_scenario **sc)
{
	struct gs_sim_options opt = { .timeline = false };
	GError *err = NULL;
	struct gs_sim *sim;

	*sc = load(yaml);
	sim = gs_sim_new(*sc, &opt, &err);
	assert_non_null(sim);
	gs_sim_run(sim, NULL);
	return sim;
}

/* 'no work waits for ever': a channel with published work that nothing
 * will fetch (the GPU idle, the dispatcher not due), and one the round
 * has passed more often than there were channels in it. */
static void test_invariant_catches_waiting_work(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = run_sim(
		"duration: 20ms\ngpu: {preset: kepler}\ntasks:\n"
		"  - name: a\n    count: 2\n    behavior:"
		" {throttle: {kernel: 1ms, sleep: 0ns, blocking: false}}\n", &sc);
	struct gs_dispatcher *d = &sim->gpus[0]->disp;
	struct gs_channel *ch = d->cursor;
	char *err;
	(void)state;

	assert_null(gs_sim_check_invariants(sim));
	/* two tasks that fill their rings: both wait in the round */
	assert_int_equal(d->pending, 2);
	assert_int_equal(ch->wait_bound, 2);
	ch->wait_from = d->front_moves - ch->wait_bound - 1;
	err = gs_sim_check_invariants(sim);
	assert_non_null(err);
	assert_non_null(strstr(err, "'no work waits for ever'"));
	assert_non_null(strstr(err, "passed over 3 times with work (2 "
				    "channels were in the round)"));
	g_free(err);
	ch->wait_from = d->front_moves;
	assert_null(gs_sim_check_invariants(sim));
	gs_sim_free(sim);
	gs_scenario_free(sc);

	sim = run_sim("duration: 20ms\ngpu: {preset: kepler}\ntasks:\n"
		      "  - name: a\n    behavior:"
		      " {throttle: {kernel: 1ms, sleep: 15ms}}\n", &sc);
	d = &sim->gpus[0]->disp;
	ch = sim->tasks[0].chans[0].ch;
	assert_null(gs_sim_check_invariants(sim));
	/* the task sleeps, the GPU is idle: published work now would wait
	 * for ever, since no doorbell woke the dispatcher */
	ch->rr_linked = true;
	ch->rr_next = ch->rr_prev = ch;
	d->cursor = ch;
	d->pending = 1;
	err = gs_sim_check_invariants(sim);
	assert_non_null(err);
	assert_non_null(strstr(err, "the GPU is idle and the dispatcher not "
				    "due to run"));
	g_free(err);
	ch->rr_linked = false;
	ch->rr_next = ch->rr_prev = NULL;
	d->cursor = NULL;
	d->pending = 0;
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* A job's kernels (half the cores) beside an ordinary task's commands
 * on one GPU: the command fills the cores when alone, so the two share
 * them as demands 0.5 and 1 (shared.c), each at 1 / 1.5 of full speed:
 * the task gets about 2/3 of the GPU's work, the job 1/3, and together
 * never more than the time that passed. The commands ran at full speed
 * beside the job, and utilisation reached 1.33. */
static void test_job_and_engine_commands_share_the_cores(void **state)
{
	struct gs_results r;
	double task, job;
	(void)state;

	run("duration: 600ms\nnode: {gpus: 1}\npolicy: {name: direct}\n"
	    "tasks:\n"
	    "  - {name: job, behavior: {job: {demand: 50%, kernel: 10ms, "
	    "length: 10s}}}\n"
	    "  - {name: task, behavior: {throttle: {kernel: 10ms, "
	    "sleep: 0ns}}}\n", false, &r);
	job = (double)r.tasks[0].gpu_time_ns / (600 * GS_NS_PER_MS);
	task = (double)r.tasks[1].gpu_time_ns / (600 * GS_NS_PER_MS);
	assert_true(r.metrics.gpu_utilization <= 1 + 1e-9);
	assert_true(r.metrics.gpu_utilization > 0.99);
	assert_true(fabs(task - 2.0 / 3) < 0.02);
	assert_true(fabs(job - 1.0 / 3) < 0.02);
	gs_results_clear(&r);
}

/* The invariant: the cores' users together do at most one GPU's work. */
static void test_invariant_catches_overused_cores(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = run_sim(
		"duration: 100ms\nnode: {gpus: 1}\ntasks:\n"
		"  - {name: job, behavior: {job: {demand: 50%, kernel: 10ms, "
		"length: 10s}}}\n"
		"  - {name: task, behavior: {throttle: {kernel: 10ms}}}\n", &sc);
	struct gs_shared *sh = &sim->gpus[0]->shared;
	char *err;
	(void)state;

	assert_null(gs_sim_check_invariants(sim));
	/* a third of the time more for the job: more than the time left */
	sh->work_ns += 40 * GS_NS_PER_MS;
	sim->tasks[0].gpu_time += 40 * GS_NS_PER_MS;
	err = gs_sim_check_invariants(sim);
	assert_non_null(err);
	assert_non_null(strstr(err, "'engine time <= elapsed'"));
	assert_non_null(strstr(err, "of the cores in 100000000 ns"));
	g_free(err);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* drr measures a batch with the engines' busy counters: a copy costs
 * what a kernel of the same length costs. Measured with the compute
 * engine's counter alone, copies cost nothing, the estimates fell to
 * nothing and every batch waited for the tick: the copy task did 400 ms
 * of work where the compute task did 667 ms. */
static void test_drr_measures_copies(void **state)
{
	static const char *const engines[] = { "compute", "copy" };
	struct gs_results r;
	double work[2];
	uint32_t i;
	(void)state;

	for (i = 0; i < 2; i++) {
		char *yaml = g_strdup_printf(
			"duration: 1s\ngpu: {preset: kepler}\n"
			"policy: {name: drr}\ntasks:\n  - {name: t, behavior: "
			"{throttle: {kernel: 200us, sleep: 0ns, engine: %s}}}\n",
			engines[i]);

		run(yaml, false, &r);
		work[i] = (double)r.tasks[0].gpu_time_ns;
		/* and drr's accounting agrees with the ground truth */
		assert_true(fabs((double)r.tasks[0].accounted_gpu_time_ns -
				 work[i]) < 0.01 * work[i]);
		gs_results_clear(&r);
		g_free(yaml);
	}
	assert_true(fabs(work[1] - work[0]) < 0.005 * work[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_robin_gives_share_in_request_ratio),
		cmocka_unit_test(test_same_seed_same_run_other_seed_differs),
		cmocka_unit_test(test_adding_a_task_keeps_other_streams),
		cmocka_unit_test(test_full_ring_blocks_the_task),
		cmocka_unit_test(test_round_limit_ends_the_run),
		cmocka_unit_test(test_task_with_many_channels_is_sampled),
		cmocka_unit_test(test_tasks_spread_over_gpus),
		cmocka_unit_test(test_gpu_time_adds_up_to_busy_time),
		cmocka_unit_test(test_app_against_long_throttle),
		cmocka_unit_test(test_timeslice_kills_an_endless_kernel),
		cmocka_unit_test(test_dfq_kills_an_endless_kernel_only),
		cmocka_unit_test(test_vm_scheduler_schedules_its_tasks),
		cmocka_unit_test(test_vm_schedulers_nest),
		cmocka_unit_test(test_weight_scale_leaves_shares),
		cmocka_unit_test(test_work_in_progress_counts_in_utilisation),
		cmocka_unit_test(test_timeslice_round_reaches_every_task),
		cmocka_unit_test(test_invariant_catches_waiting_work),
		cmocka_unit_test(test_job_and_engine_commands_share_the_cores),
		cmocka_unit_test(test_invariant_catches_overused_cores),
		cmocka_unit_test(test_drr_measures_copies),
	};
	return cmocka_run_group_tests_name("scenario", tests, NULL, NULL);
}
