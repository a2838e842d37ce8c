/* dfq (NEON's Disengaged Fair Queueing) against the scripted mock HAL.
 *
 * The test plays the tasks by hand. A "blocking throttle" here submits one
 * request, and when it completes (the test moves the fence) submits the
 * next. Timer 0 is dfq's phase timer (free-run end, sample end), timer 1
 * its poll tick. Default parameters: poll 1ms, sample 5ms, 96 requests,
 * free run 5 x 5ms per sampled task. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/support/mock_hal.h"

extern const struct gs_policy_ops gs_policy_dfq;

#define US MOCK_US
#define MS MOCK_MS
#define PHASE 0
#define POLL 1

/* A dfq instance whose first (empty) episode has run: a free run until
 * 25ms is under way. */
static struct mock_hal *dfq_start(const char *const *params)
{
	struct mock_hal *m = mock_hal_new(&gs_policy_dfq, params);

	mock_advance(m, 0);
	return m;
}

/* Most tests check the paper's literal rules: the free run split by
 * average request size, and a task active if it submitted in the free
 * run. `params` (NULL-terminated, up to 6) come after those. */
static struct mock_hal *dfq_new(const char *const *params)
{
	const char *all[9] = { "charge_by_count=false",
			       "active_at_barrier=false" };
	size_t i;

	for (i = 0; params && params[i]; i++) {
		assert_true(i < 6);
		all[2 + i] = params[i];
	}
	return dfq_start(all);
}

/* Tasks a and b with one channel each. */
static void two_tasks(struct mock_hal *m, struct hal_task **a,
		      struct hal_task **b, struct hal_chan **ca,
		      struct hal_chan **cb)
{
	*a = mock_task_add(m, "a", 1);
	*b = mock_task_add(m, "b", 1);
	*ca = mock_chan_add(m, *a);
	*cb = mock_chan_add(m, *b);
}

static uint64_t outstanding(struct mock_hal *m, struct hal_chan *c)
{
	return mock_submitted(m, c) - hal_fence_read(mock_sched(m), c);
}

/* The sampled task runs a blocking throttle of `req`-long requests; it has
 * one request in flight on entry. Each time it completes, the task submits
 * again, until dfq holds it. Returns how many submissions were allowed. The
 * poll tick dfq arms to move on is run before returning. */
static unsigned run_until_held(struct mock_hal *m, struct hal_chan *c,
			       uint64_t req)
{
	unsigned n = 0;

	for (;;) {
		int v;

		mock_advance(m, mock_now(m) + req);
		mock_complete(m, c, 1);
		v = mock_submit(m, c);
		if (v != GS_SUBMIT_ALLOW) {
			assert_int_equal(v, GS_SUBMIT_HOLD);
			mock_advance(m, mock_now(m));
			return n;
		}
		n++;
	}
}

/* In the free run: finish what was released at its start, then one more
 * request straight to the GPU (so the task is active). */
static void free_run_work(struct mock_hal *m, struct hal_chan *c)
{
	mock_complete(m, c, outstanding(m, c));
	assert_int_equal(mock_submit(m, c), MOCK_SUBMIT_DIRECT);
	mock_complete(m, c, 1);
}

/* A whole cycle for n tasks that are all allowed: work in the free run,
 * then at the barrier (nothing outstanding: no drain) each is sampled in
 * list order as a blocking throttle of req[i]. */
static void cycle(struct mock_hal *m, struct hal_chan **c,
		  const uint64_t *req, unsigned n)
{
	uint64_t barrier = mock_timer_when(m, PHASE);
	unsigned i;

	for (i = 0; i < n; i++)
		free_run_work(m, c[i]);
	mock_advance(m, barrier);
	for (i = 0; i < n; i++) {
		assert_int_equal(mock_submit(m, c[i]), GS_SUBMIT_ALLOW);
		run_until_held(m, c[i], req[i]);
	}
}

/* ---- phases ----------------------------------------------------------- */

/* The paper's standalone case: an episode, then a 25 ms free run even when
 * the request mark ends the sample before 5 ms. */
static void test_single_task_alone(void **state)
{
	struct mock_hal *m = dfq_new(NULL);
	struct hal_task *a;
	struct hal_chan *ca;
	unsigned allowed;

	(void)state;
	assert_int_equal(mock_timer_when(m, PHASE), 25 * MS);
	a = mock_task_add(m, "a", 1);
	ca = mock_chan_add(m, a);
	assert_false(mock_trap_armed(m, ca));      /* free run: disengaged */
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);

	/* barrier at 25ms with a 19us request still in flight: a is the only
	 * task that wants the GPU, so it has it alone already and its sample
	 * starts at once (no drain, no poll), counting that request */
	mock_advance(m, 25 * MS);
	assert_true(mock_trap_armed(m, ca));
	assert_int_equal(mock_phases(m, "free-run"), 1);
	assert_int_equal(mock_phases(m, "drain"), 0);
	assert_int_equal(mock_timer_when(m, PHASE), 30 * MS);
	allowed = run_until_held(m, ca, 19 * US);
	assert_int_equal(allowed, 96);
	assert_int_equal(mock_phases(m, "sample a"), 1);
	/* the sample took 97 x 19us < 5ms; the free run is still 25ms */
	assert_int_equal(mock_now(m), 25 * MS + 97 * 19 * US);
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 25 * MS);
	assert_false(mock_trap_armed(m, ca));
	assert_int_equal(mock_releases(m, a), 1); /* the 97th went through */
	assert_int_equal(mock_timer_when(m, POLL), MOCK_NEVER);
	/* it had the whole first free run (25ms) */
	assert_int_equal(mock_vtime(m, a), 25 * MS);
	mock_hal_free(m);
}

/* A lone task that pipelines, at the end of its sample time with requests
 * out: nobody else wants the GPU, so the free run starts at once (the
 * requests run in it) rather than the GPU idling until a poll tick sees
 * them done; its estimate comes from the completions seen. */
static void test_lone_sample_end_does_not_idle(void **state)
{
	struct mock_hal *m = dfq_new(NULL);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);

	(void)state;
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	mock_advance(m, 25 * MS);
	mock_advance(m, 25 * MS + 100 * US);
	mock_complete(m, ca, 1);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	mock_advance(m, 30 * MS);
	assert_int_equal(mock_phases(m, "sample a"), 1);
	assert_int_equal(mock_timer_when(m, PHASE), 55 * MS);
	assert_false(mock_trap_armed(m, ca));
	assert_int_equal(outstanding(m, ca), 2);
	mock_hal_free(m);
}

/* Two tasks: barrier, drain, sample a then b, free run of 2 x 25 ms. */
static void test_phase_sequence_two_tasks(void **state)
{
	struct mock_hal *m = dfq_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;
	uint64_t t;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(m, cb), MOCK_SUBMIT_DIRECT);
	mock_advance(m, 25 * MS);
	assert_true(mock_trap_armed(m, ca) && mock_trap_armed(m, cb));
	/* both requests finish at 25.5, both tasks submit again: held */
	mock_advance(m, 25 * MS + 500 * US);
	mock_complete(m, ca, 1);
	mock_complete(m, cb, 1);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	mock_advance(m, mock_now(m));
	assert_int_equal(mock_phases(m, "drain"), 1);
	/* a alone for its 5ms sample; b stays held */
	assert_int_equal(mock_releases(m, a), 1);
	assert_true(mock_held(m, b));
	assert_int_equal(mock_timer_when(m, PHASE), 30 * MS + 500 * US);
	/* a runs 2ms requests: 25.5, 27.5, 29.5; at 30.5 the sample is
	 * over and the one in flight finishes at 31.5, seen when a's next
	 * submission is held */
	assert_int_equal(run_until_held(m, ca, 2 * MS), 2);
	assert_int_equal(mock_now(m), 31 * MS + 500 * US);
	assert_int_equal(mock_phases(m, "sample a"), 1);
	/* now b alone */
	assert_true(mock_held(m, a));
	assert_int_equal(mock_releases(m, b), 1);
	assert_int_equal(mock_timer_when(m, PHASE), 36 * MS + 500 * US);
	assert_int_equal(run_until_held(m, cb, 1 * MS), 4);
	t = mock_now(m);
	assert_int_equal(t, 36 * MS + 500 * US);
	assert_int_equal(mock_phases(m, "sample b"), 1);
	/* free run: 5 x 5ms x 2 sampled tasks, both released, disengaged */
	assert_int_equal(mock_timer_when(m, PHASE), t + 50 * MS);
	assert_false(mock_held(m, a) || mock_held(m, b));
	assert_false(mock_trap_armed(m, ca) || mock_trap_armed(m, cb));
	assert_int_equal(mock_phases(m, "free-run"), 1);
	mock_advance(m, t + 50 * MS);
	assert_int_equal(mock_phases(m, "free-run"), 2);
	mock_hal_free(m);
}

static void test_sample_cut_by_request_count(void **state)
{
	const char *const params[] = { "sample_requests=8", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);

	(void)state;
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	mock_complete(m, ca, 1);
	mock_advance(m, 25 * MS);
	/* nothing outstanding: sampling starts at the barrier, and the
	 * empty drain leaves no span */
	assert_int_equal(mock_phases(m, "drain"), 0);
	assert_int_equal(mock_timer_when(m, PHASE), 30 * MS);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	assert_int_equal(run_until_held(m, ca, 100 * US), 7);
	/* 8 requests of 100us: the sample ended at 25.8ms, not 30ms */
	assert_int_equal(mock_now(m), 25 * MS + 800 * US);
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 25 * MS);
	mock_hal_free(m);
}

/* With a cap of one request, the held submission released at the start
 * of the sample is the whole sample. */
static void test_sample_of_one_request(void **state)
{
	const char *const params[] = { "sample_requests=1", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	free_run_work(m, ca);
	free_run_work(m, cb);
	mock_advance(m, 25 * MS);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	assert_int_equal(run_until_held(m, ca, 300 * US), 0);
	/* b: its held submission is released and is its one request */
	assert_int_equal(mock_releases(m, b), 1);
	assert_int_equal(mock_timer_when(m, PHASE), MOCK_NEVER);
	assert_int_equal(run_until_held(m, cb, 100 * US), 0);
	assert_int_equal(mock_vtime(m, a), 18750 * US);
	assert_int_equal(mock_vtime(m, b), 6250 * US);
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);
	mock_hal_free(m);
}

/* measure_episode: free run = factor x (barrier to decision). */
static void test_measure_episode(void **state)
{
	const char *const params[] = { "measure_episode=true",
				       "sample_requests=8", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);
	struct hal_chan *c[1] = { ca };
	const uint64_t req[1] = { 200 * US };

	(void)state;
	cycle(m, c, req, 1);
	/* episode 25ms .. 26.6ms (8 x 200us) */
	assert_int_equal(mock_now(m), 25 * MS + 1600 * US);
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 8 * MS);
	mock_hal_free(m);
}

static void test_drain_waits_for_outstanding(void **state)
{
	struct mock_hal *m = dfq_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	/* a has two requests queued, b one */
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(m, cb), MOCK_SUBMIT_DIRECT);
	mock_advance(m, 25 * MS);
	assert_int_equal(mock_timer_when(m, POLL), 26 * MS);
	mock_complete(m, cb, 1);
	mock_complete(m, ca, 1);
	mock_advance(m, 26 * MS);
	/* a still has one: no sampling yet, next poll at 27 */
	assert_int_equal(mock_phases(m, "drain"), 0);
	assert_int_equal(mock_timer_when(m, POLL), 27 * MS);
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	mock_advance(m, 26 * MS + 500 * US);
	assert_int_equal(mock_phases(m, "drain"), 0);
	assert_int_equal(mock_releases(m, b), 0);
	mock_complete(m, ca, 1);
	/* seen at the next poll */
	mock_advance(m, 27 * MS);
	assert_int_equal(mock_phases(m, "drain"), 1);
	assert_int_equal(mock_releases(m, b), 0); /* a is sampled first */
	assert_int_equal(mock_timer_when(m, PHASE), 32 * MS);
	mock_hal_free(m);
}

/* ---- virtual time ----------------------------------------------------- */

/* a runs 300us requests, b 100us: the 25ms of the first free run are split
 * 3:1; b sets the system vtime; an idle task c is pulled up to it; a task
 * that appears later starts there. */
static void test_vtime_two_tasks_and_idle(void **state)
{
	const char *const params[] = { "sample_requests=4", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_task *b = mock_task_add(m, "b", 1);
	struct hal_task *c = mock_task_add(m, "c", 1);
	struct hal_chan *ch[2] = { mock_chan_add(m, a), mock_chan_add(m, b) };
	const uint64_t req[2] = { 300 * US, 100 * US };
	struct hal_task *d;

	(void)state;
	mock_chan_add(m, c);
	cycle(m, ch, req, 2);
	assert_int_equal(mock_phases(m, "sample c"), 0); /* idle: no sample */
	assert_int_equal(mock_vtime(m, a), 18750 * US);
	assert_int_equal(mock_vtime(m, b), 6250 * US);
	assert_int_equal(mock_vtime(m, c), 6250 * US);
	/* accounted: the free-run share plus the sampled busy time */
	assert_int_equal(mock_accounted(m, a), 18750 * US + 4 * 300 * US);
	assert_int_equal(mock_accounted(m, b), 6250 * US + 4 * 100 * US);
	assert_int_equal(mock_accounted(m, c), 0);
	/* free run for two sampled tasks */
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);

	d = mock_task_add(m, "d", 1);
	assert_int_equal(mock_vtime(m, d), 6250 * US);

	/* next cycle: the 50ms free run is split 3:1 */
	cycle(m, ch, req, 2);
	assert_int_equal(mock_vtime(m, a), 18750 * US + 37500 * US);
	assert_int_equal(mock_vtime(m, b), 6250 * US + 12500 * US);
	/* c and d idle and behind: pulled forward to b */
	assert_int_equal(mock_vtime(m, c), 18750 * US);
	assert_int_equal(mock_vtime(m, d), 18750 * US);
	mock_hal_free(m);
}

/* Default rules. A task is charged the requests it ran in the free run
 * times its sampled size; a task idle at the barrier is not sampled, keeps
 * its estimate, is not charged and is pulled forward, but keeps its slot
 * in the free-run length. */
static void test_default_charge_by_count_and_status_at_barrier(void **state)
{
	const char *const params[] = { "sample_requests=4", NULL };
	struct mock_hal *m = dfq_start(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_task *b = mock_task_add(m, "b", 1);
	struct hal_chan *ca = mock_chan_add(m, a), *cb = mock_chan_add(m, b);

	(void)state;
	/* first free run: one request each, in flight at the barrier */
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(m, cb), MOCK_SUBMIT_DIRECT);
	mock_advance(m, 25 * MS);
	mock_complete(m, ca, 1);
	mock_complete(m, cb, 1);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	mock_advance(m, mock_now(m));            /* drained: sample a */
	run_until_held(m, ca, 300 * US);
	run_until_held(m, cb, 100 * US);          /* then b, then decide */
	assert_int_equal(mock_phases(m, "sample a"), 1);
	assert_int_equal(mock_phases(m, "sample b"), 1);
	/* one request each in the free run: 1 x 300us and 1 x 100us, not the
	 * 25ms free run split 3:1 */
	assert_int_equal(mock_vtime(m, a), 300 * US);
	assert_int_equal(mock_vtime(m, b), 100 * US);
	assert_int_equal(mock_accounted(m, a), 300 * US + 4 * 300 * US);
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);

	/* second free run: a ends it with a request in flight, b idle */
	mock_complete(m, ca, outstanding(m, ca));
	mock_complete(m, cb, outstanding(m, cb));
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	mock_advance(m, mock_timer_when(m, PHASE));
	mock_complete(m, ca, 1);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	mock_advance(m, mock_now(m));
	run_until_held(m, ca, 300 * US);
	assert_int_equal(mock_phases(m, "sample b"), 1); /* not sampled */
	/* a ran 2 requests (its released one and one more): +600us; b is
	 * idle and pulled forward to a, the only active task */
	assert_int_equal(mock_vtime(m, a), 900 * US);
	assert_int_equal(mock_vtime(m, b), 900 * US);
	/* b still wants the GPU: its slot keeps the free run at 50ms */
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);
	mock_hal_free(m);
}

/* By count, tasks cannot together be charged more than the free run. */
static void test_charge_by_count_capped_at_free_run(void **state)
{
	const char *const params[] = { "sample_requests=4", NULL };
	struct mock_hal *m = dfq_start(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);
	int i;

	(void)state;
	/* 200 requests of 300us would be 60ms in a 25ms free run */
	for (i = 0; i < 200; i++) {
		assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
		mock_complete(m, ca, 1);
	}
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	/* alone, its sample starts at the barrier with that request out */
	mock_advance(m, 25 * MS);
	run_until_held(m, ca, 300 * US);
	assert_int_equal(mock_vtime(m, a), 25 * MS);
	mock_hal_free(m);
}

/* The measured request size includes time a sleeping task's request is
 * seen outstanding only up to the next observation (a poll tick). */
static void test_estimate_of_sleeping_task(void **state)
{
	const char *const params[] = { "sample_requests=2", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);

	(void)state;
	free_run_work(m, ca);
	mock_advance(m, 25 * MS);
	/* 100us request at 25.2ms, done at 25.3, seen by the 26ms poll;
	 * next at 27.5, done at 27.6, the task submits again at 27.6 */
	mock_advance(m, 25 * MS + 200 * US);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	mock_advance(m, 25 * MS + 300 * US);
	mock_complete(m, ca, 1);
	mock_advance(m, 27 * MS + 500 * US);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	mock_advance(m, 27 * MS + 600 * US);
	mock_complete(m, ca, 1);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	mock_advance(m, mock_now(m));
	/* busy 800us (25.2 -> 26.0) + 100us, 2 requests: 450us average;
	 * alone, it gets the whole free run in vtime whatever its size */
	assert_int_equal(mock_accounted(m, a), 25 * MS + 900 * US);
	mock_hal_free(m);
}

/* ---- completions the fences do not show yet --------------------------- */

/* The fence the host reads lags the GPU: a blocking task submits again
 * before its last request shows complete. Held at the barrier, its
 * channel's RAM status says whether anything is left to run. Task b ran
 * in the free run, so a must really be drained before its sample. */
static void run_held_on_lagging_fence(const char *const *params,
				      uint32_t chram, int ends_drain)
{
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_task *b = mock_task_add(m, "b", 1);
	struct hal_chan *ca = mock_chan_add(m, a);
	struct hal_chan *cb = mock_chan_add(m, b);
	uint64_t reads;

	assert_int_equal(mock_submit(m, cb), MOCK_SUBMIT_DIRECT);
	mock_complete(m, cb, 1);
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	mock_advance(m, 25 * MS);
	mock_set_chram(m, ca, chram);
	reads = mock_mmio_reads(m);
	mock_advance(m, 25 * MS + 100 * US);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	mock_advance(m, mock_now(m));
	if (ends_drain) {
		assert_int_equal(mock_mmio_reads(m), reads + 1);
		assert_int_equal(mock_phases(m, "drain"), 1);
		assert_int_equal(mock_releases(m, a), 1);
	} else {
		assert_int_equal(mock_phases(m, "drain"), 0);
		assert_int_equal(mock_releases(m, a), 0);
		/* the fence catches up; the next poll sees it */
		mock_complete(m, ca, 1);
		mock_advance(m, 26 * MS);
		assert_int_equal(mock_phases(m, "drain"), 1);
		assert_int_equal(mock_releases(m, a), 1);
	}
	mock_hal_free(m);
}

static void test_held_on_idle_channel_ends_drain(void **state)
{
	(void)state;
	run_held_on_lagging_fence(NULL, HAL_CHRAM_IDLE, 1);
}

static void test_held_with_work_queued_waits_for_fence(void **state)
{
	(void)state;
	/* a task that pipelines: its channel still has work */
	run_held_on_lagging_fence(NULL, HAL_CHRAM_PENDING, 0);
}

static void test_check_chram_off_waits_for_fence(void **state)
{
	const char *const params[] = { "check_chram=false", NULL };

	(void)state;
	run_held_on_lagging_fence(params, HAL_CHRAM_IDLE, 0);
}

/* The same at the end of a sample: the held submission of an idle
 * channel ends the sample at once, and the request it shows done counts;
 * otherwise the poll tick sees the completion, 800us later. */
static void run_sample_end_on_lagging_fence(uint32_t chram, uint64_t busy)
{
	const char *const params[] = { "sample_requests=2", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);

	free_run_work(m, ca);
	mock_advance(m, 25 * MS);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	mock_advance(m, 25 * MS + 100 * US);
	mock_complete(m, ca, 1);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	/* done at 25.2ms; the fence does not show it yet */
	mock_set_chram(m, ca, chram);
	mock_advance(m, 25 * MS + 200 * US);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	mock_advance(m, mock_now(m));
	if (chram != HAL_CHRAM_IDLE) {
		assert_int_equal(mock_phases(m, "sample a"), 0);
		mock_complete(m, ca, 1);
		mock_advance(m, 26 * MS);
	}
	assert_int_equal(mock_phases(m, "sample a"), 1);
	assert_int_equal(mock_accounted(m, a), 25 * MS + busy);
	mock_hal_free(m);
}

static void test_sample_ends_at_held_submission_on_idle_channel(void **state)
{
	(void)state;
	run_sample_end_on_lagging_fence(HAL_CHRAM_IDLE, 200 * US);
}

static void test_sample_end_waits_for_fence_when_busy(void **state)
{
	(void)state;
	run_sample_end_on_lagging_fence(HAL_CHRAM_BUSY, 1 * MS);
}

/* ---- deny ------------------------------------------------------------- */

/* a (300us) pulls ahead of b (100us) by 12.5, 37.5, 62.5 ms after three
 * cycles; at 62.5 >= the 50 ms free run it is denied: its channel stays
 * trapped and its submissions are held. While denied it is not sampled
 * nor charged; b alone is charged the next free run, and a is let go. */
static void run_deny(void **state, int account_only)
{
	const char *const deny[] = { "sample_requests=4", NULL };
	const char *const acct[] = { "sample_requests=4", "account_only=true",
				     NULL };
	struct mock_hal *m = dfq_new(account_only ? acct : deny);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;
	struct hal_chan *ch[2];
	const uint64_t req[2] = { 300 * US, 100 * US };
	uint64_t barrier;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	ch[0] = ca;
	ch[1] = cb;
	cycle(m, ch, req, 2);
	cycle(m, ch, req, 2);
	assert_false(mock_trap_armed(m, ca));
	cycle(m, ch, req, 2);
	assert_int_equal(mock_vtime(m, a), 93750 * US);
	assert_int_equal(mock_vtime(m, b), 31250 * US);
	if (account_only) {
		assert_false(mock_trap_armed(m, ca));
		assert_false(mock_held(m, a));
		mock_hal_free(m);
		return;
	}
	assert_true(mock_trap_armed(m, ca));
	assert_false(mock_trap_armed(m, cb));
	assert_true(mock_held(m, a));            /* its held submit stays */
	assert_false(mock_held(m, b));
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);

	/* the denied free run: b runs, a waits */
	barrier = mock_timer_when(m, PHASE);
	free_run_work(m, cb);
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_HELD);
	mock_advance(m, barrier);
	/* only b is sampled */
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_ALLOW);
	run_until_held(m, cb, 100 * US);
	assert_int_equal(mock_phases(m, "sample a"), 3);
	assert_int_equal(mock_phases(m, "sample b"), 4);
	/* b charged all 50 ms: 81.25 vs a's 93.75, lead 12.5: a released;
	 * the denied task still counts a slot: free run 50 ms */
	assert_int_equal(mock_vtime(m, a), 93750 * US);
	assert_int_equal(mock_vtime(m, b), 81250 * US);
	assert_false(mock_held(m, a));
	assert_false(mock_trap_armed(m, ca));
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);
	mock_hal_free(m);
}

static void test_deny_ahead_and_release_later(void **state)
{
	run_deny(state, 0);
}

static void test_account_only_never_denies(void **state)
{
	run_deny(state, 1);
}

/* ---- task lifetime ---------------------------------------------------- */

static void test_task_exit_mid_sample(void **state)
{
	struct mock_hal *m = dfq_new(NULL);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_task *b = mock_task_add(m, "b", 1);
	struct hal_task *c = mock_task_add(m, "c", 1);
	struct hal_chan *ca = mock_chan_add(m, a);
	struct hal_chan *cb = mock_chan_add(m, b);
	struct hal_chan *cc = mock_chan_add(m, c);

	(void)state;
	free_run_work(m, ca);
	free_run_work(m, cb);
	free_run_work(m, cc);
	mock_advance(m, 25 * MS);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(m, cc), GS_SUBMIT_HOLD);
	mock_advance(m, 26 * MS + 500 * US);
	mock_task_exit(m, a);                  /* with a request in flight */
	mock_advance(m, mock_now(m));
	assert_int_equal(mock_phases(m, "sample a"), 1);
	/* b's turn at once */
	assert_int_equal(mock_releases(m, b), 1);
	assert_true(mock_held(m, c));
	assert_int_equal(mock_timer_when(m, PHASE), 31 * MS + 500 * US);
	run_until_held(m, cb, 1 * MS);
	assert_int_equal(mock_releases(m, c), 1);
	run_until_held(m, cc, 1 * MS);
	/* free run for the two tasks left */
	assert_int_equal(mock_phases(m, "sample c"), 1);
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);
	assert_false(mock_held(m, b) || mock_held(m, c));
	mock_hal_free(m);
}

static void test_task_exit_while_draining(void **state)
{
	struct mock_hal *m = dfq_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	free_run_work(m, cb);
	mock_advance(m, 25 * MS);
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	mock_advance(m, 25 * MS + 300 * US);
	mock_task_exit(m, a);                  /* a's work is gone with it */
	mock_advance(m, mock_now(m));
	assert_int_equal(mock_phases(m, "drain"), 1);
	assert_int_equal(mock_releases(m, b), 1);
	mock_hal_free(m);
}

/* A request that keeps the drain waiting past kill_after kills its task. */
static void test_kill_after_while_draining(void **state)
{
	const char *const params[] = { "kill_after=10ms", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	free_run_work(m, cb);
	mock_advance(m, 25 * MS);
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	mock_advance(m, 34 * MS);
	assert_false(mock_killed(m, a));
	assert_int_equal(mock_releases(m, b), 0);
	mock_advance(m, 35 * MS);
	assert_true(mock_killed(m, a));
	assert_false(mock_killed(m, b));
	assert_int_equal(mock_releases(m, b), 1);   /* b sampled */
	mock_hal_free(m);
}

/* A task that appears in a free run runs disengaged; one that appears
 * during an episode is trapped and held until its turn. */
static void test_new_task_traps_follow_phase(void **state)
{
	struct mock_hal *m = dfq_new(NULL);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);
	struct hal_task *b;
	struct hal_chan *cb;

	(void)state;
	assert_false(mock_trap_armed(m, ca));
	free_run_work(m, ca);
	mock_advance(m, 25 * MS);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	b = mock_task_add(m, "b", 1);
	cb = mock_chan_add(m, b);
	assert_true(mock_trap_armed(m, cb));
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	run_until_held(m, ca, 1 * MS);
	/* b is sampled after a, though it was not in the free run */
	assert_int_equal(mock_releases(m, b), 1);
	run_until_held(m, cb, 1 * MS);
	/* b did not take part in the free run: a alone is charged it */
	assert_int_equal(mock_vtime(m, a), 25 * MS);
	assert_int_equal(mock_vtime(m, b), 0);
	mock_hal_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_task_alone),
		cmocka_unit_test(test_lone_sample_end_does_not_idle),
		cmocka_unit_test(test_phase_sequence_two_tasks),
		cmocka_unit_test(test_sample_cut_by_request_count),
		cmocka_unit_test(test_sample_of_one_request),
		cmocka_unit_test(test_measure_episode),
		cmocka_unit_test(test_drain_waits_for_outstanding),
		cmocka_unit_test(test_held_on_idle_channel_ends_drain),
		cmocka_unit_test(test_held_with_work_queued_waits_for_fence),
		cmocka_unit_test(test_check_chram_off_waits_for_fence),
		cmocka_unit_test(test_sample_ends_at_held_submission_on_idle_channel),
		cmocka_unit_test(test_sample_end_waits_for_fence_when_busy),
		cmocka_unit_test(test_vtime_two_tasks_and_idle),
		cmocka_unit_test(test_default_charge_by_count_and_status_at_barrier),
		cmocka_unit_test(test_charge_by_count_capped_at_free_run),
		cmocka_unit_test(test_estimate_of_sleeping_task),
		cmocka_unit_test(test_deny_ahead_and_release_later),
		cmocka_unit_test(test_account_only_never_denies),
		cmocka_unit_test(test_task_exit_mid_sample),
		cmocka_unit_test(test_task_exit_while_draining),
		cmocka_unit_test(test_kill_after_while_draining),
		cmocka_unit_test(test_new_task_traps_follow_phase),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
