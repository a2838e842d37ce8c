/* loga (LoGA's status-register accounting) against the scripted mock HAL.
 *
 * The mock does not run the poll loop: the test plays the hardware and
 * calls ops->poll_change with each sample that differs from the one
 * before, and ops->poll_end when the loop reaches its `until`. Timer 0 is
 * the end of the sleep phase. Defaults: event_T 1ms per occupied channel,
 * event_X 5. The first channel created starts the first poll phase. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/support/loga_script.h"

/* A context switch under way at `t`: `from` still loaded, `to` loading. */
static void sample_loading(struct mock_hal *m, uint64_t t,
			   struct hal_chan *from, struct hal_chan *to)
{
	struct hal_engine_status st = {
		hal_chan_id(from), hal_chan_id(to), HAL_CTX_LOADING, 0,
	};

	mock_advance(m, t);
	gs_policy_loga.poll_change(mock_sched(m), &st, t);
}

/* ---- phases --------------------------------------------------------- */

static void test_idle_until_first_channel(void **state)
{
	struct mock_hal *m = loga_new(NULL);
	struct hal_task *a;

	(void)state;
	assert_false(mock_poll_active(m, NULL));
	assert_int_equal(mock_timer_when(m, WAKE), MOCK_NEVER);
	mock_advance(m, 3 * MS);
	a = mock_task_add(m, "a", 1);
	assert_false(mock_poll_active(m, NULL));
	mock_chan_add(m, a);
	assert_int_equal(poll_until(m), 4 * MS);
	mock_hal_free(m);
}

/* Poll event_T x channels, then sleep event_X x that; the lengths follow
 * the channel count when each phase starts. */
static void test_phase_lengths_scale_with_channels(void **state)
{
	struct mock_hal *m = loga_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	assert_int_equal(poll_until(m), 1 * MS);   /* started with 1 channel */
	end_poll(m);
	assert_int_equal(mock_timer_when(m, WAKE), 11 * MS); /* 5 x 2ms */
	mock_chan_add(m, a);                       /* 3 channels now */
	wake(m);
	assert_int_equal(poll_until(m), 14 * MS);  /* 3ms */
	end_poll(m);
	assert_int_equal(mock_timer_when(m, WAKE), 29 * MS); /* 15ms */
	mock_task_exit(m, b);                      /* 2 channels left */
	wake(m);
	assert_int_equal(poll_until(m), 31 * MS);
	end_poll(m);
	assert_int_equal(mock_phases(m, "poll"), 3);
	assert_int_equal(mock_phases(m, "sleep"), 2);
	mock_hal_free(m);
}

/* event_X = 0: the next poll phase starts as the last one ends. */
static void test_poll_always(void **state)
{
	const char *p[] = { "event_X=0", NULL };
	struct mock_hal *m = loga_new(p);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);
	int i;

	(void)state;
	for (i = 1; i <= 5; i++) {
		assert_int_equal(poll_until(m), (uint64_t)i * MS);
		/* each loop reports its first sample */
		sample(m, (uint64_t)(i - 1) * MS, ca, 1);
		end_poll(m);
		assert_int_equal(mock_timer_when(m, WAKE), MOCK_NEVER);
	}
	/* a command that runs throughout is charged every phase, exactly */
	assert_int_equal(mock_accounted(m, a), 5 * MS);
	assert_int_equal(mock_phases(m, "sleep"), 0);
	mock_hal_free(m);
}

/* ---- accounting ----------------------------------------------------- */

/* A change of the loaded channel charges the time since the previous
 * change to the previous channel's task; a context load is nobody's. */
static void test_switch_charges_previous_owner(void **state)
{
	const char *p[] = { "event_X=0", NULL };
	struct mock_hal *m = loga_new(p);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	sample(m, 0, ca, 1);
	mock_set_chram(m, ca, HAL_CHRAM_PENDING); /* a has more work */
	sample(m, 300 * US, ca, 0);       /* a's command done, more queued */
	assert_int_equal(mock_accounted(m, a), 0); /* nothing until poll end */
	sample_loading(m, 310 * US, ca, cb); /* switch to b: a's 310us end */
	sample(m, 335 * US, cb, 1);       /* b runs after the 25us load */
	sample(m, 735 * US, ca, 1);       /* back to a: b's 400us end */
	end_poll(m);                      /* a runs to the end: 265us */
	assert_int_equal(mock_accounted(m, a), 575 * US);
	assert_int_equal(mock_accounted(m, b), 400 * US);
	mock_hal_free(m);
}

/* The loaded channel with nothing to do (channel RAM idle) is the GPU
 * idling: nothing is charged; a queued command keeps it charged. */
static void test_idle_channel_not_charged(void **state)
{
	const char *p[] = { "event_X=0", NULL };
	struct mock_hal *m = loga_new(p);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);
	uint64_t reads;

	(void)state;
	sample(m, 0, ca, 1);
	mock_set_chram(m, ca, HAL_CHRAM_IDLE);
	reads = mock_mmio_reads(m);
	sample(m, 200 * US, ca, 0);        /* done, nothing queued */
	assert_int_equal(mock_mmio_reads(m), reads + 1); /* one chram read */
	mock_set_chram(m, ca, HAL_CHRAM_BUSY);
	sample(m, 600 * US, ca, 1);        /* the next command */
	sample(m, 700 * US, NULL, 0);      /* context gone */
	end_poll(m);
	assert_int_equal(mock_accounted(m, a), 300 * US);
	mock_hal_free(m);
}

/* A command longer than the poll phase: no change is seen at all, and the
 * whole phase is charged to the channel running at its end. With the
 * default 1:5 phases the estimate is scaled up to the epoch. */
static void test_long_command_charged_whole_phase(void **state)
{
	struct mock_hal *m = loga_new(NULL);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);

	(void)state;
	end_poll(m);                          /* [0,1ms): nothing seen */
	assert_int_equal(mock_accounted(m, a), 0);
	wake(m);                              /* [6ms,7ms) */
	sample(m, 6 * MS, ca, 1);
	end_poll(m);
	/* 1ms measured in a 1ms poll phase of a 6ms epoch */
	assert_int_equal(mock_accounted(m, a), 6 * MS);
	assert_int_equal(mock_vtime(m, a), 6 * MS);
	mock_hal_free(m);
}

/* ---- virtual time --------------------------------------------------- */

/* After an empty first phase [0,1ms) and a sleep of 10ms (2 channels), the
 * second poll phase [11ms,13ms) sees a busy 1.5ms and b 0.5ms: the epoch
 * since the first decision is 12ms, so delta = t_app / t_total x 12ms. */
static void test_vtime_delta_two_tasks(void **state)
{
	struct mock_hal *m = loga_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks_second_phase(m, &a, &b, &ca, &cb);
	sample(m, 11 * MS, ca, 1);
	sample(m, 12500 * US, cb, 1);
	end_poll(m);
	assert_int_equal(mock_now(m), 13 * MS);
	assert_int_equal(mock_vtime(m, a), 9 * MS);  /* 1.5/2 x 12 */
	assert_int_equal(mock_vtime(m, b), 3 * MS);  /* 0.5/2 x 12 */
	/* accounted: measured x epoch / poll phase = 6x */
	assert_int_equal(mock_accounted(m, a), 9 * MS);
	assert_int_equal(mock_accounted(m, b), 3 * MS);
	/* a is 6ms ahead, less than the next epoch (12ms): not denied */
	assert_false(mock_trap_armed(m, ca));
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	mock_hal_free(m);
}

/* A task not active in the poll phase does not set the system vtime; it
 * is pulled forward to it. */
static void test_inactive_task_not_minimum(void **state)
{
	struct mock_hal *m = loga_new(NULL);
	struct hal_task *a, *b, *c;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	c = mock_task_add(m, "c", 1);
	mock_chan_add(m, c);
	end_poll(m);
	wake(m);                                 /* [16ms,19ms): 3 channels */
	assert_int_equal(mock_now(m), 16 * MS);
	sample(m, 16 * MS, ca, 1);
	sample(m, 18 * MS, cb, 1);
	end_poll(m);                             /* epoch 18ms; c idle */
	assert_int_equal(mock_vtime(m, a), 12 * MS);
	assert_int_equal(mock_vtime(m, b), 6 * MS);
	/* the minimum is b's, not idle c's 0; c is pulled up to it */
	assert_int_equal(mock_vtime(m, c), 6 * MS);
	mock_hal_free(m);
}

/* A task whose command waits behind another's command that outlasts the
 * poll phase is never measured, but it is not idle: channel RAM shows its
 * work pending. It keeps its vtime instead of being pulled up to the
 * hog's, so the hog, ahead by a whole epoch, is denied. (Counting only
 * measured tasks as active, the hog was never denied: the adversarial
 * greedy batcher.) */
static void test_waiting_behind_long_command_is_active(void **state)
{
	struct mock_hal *m = loga_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks_second_phase(m, &a, &b, &ca, &cb);
	mock_set_chram(m, cb, HAL_CHRAM_PENDING);
	sample(m, mock_now(m), ca, 1);    /* a's long command, all along */
	end_poll(m);
	assert_int_equal(mock_vtime(m, a), 12 * MS);
	assert_int_equal(mock_vtime(m, b), 0);
	assert_true(mock_trap_armed(m, ca));
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	assert_false(mock_trap_armed(m, cb));
	mock_hal_free(m);
}

/* Drive one 2ms poll phase (a 12ms epoch) in which a runs all along but
 * for b's `b_ns`, b's command first. */
static void phase_a_hog(struct mock_hal *m, struct hal_chan *ca,
			struct hal_chan *cb, uint64_t b_ns)
{
	uint64_t t;

	wake(m);
	t = mock_now(m);
	sample(m, t, cb, 1);
	sample(m, t + b_ns, ca, 1);
	end_poll(m);
}

/* A task ahead by at least the next epoch (12ms) is denied: trapped, held
 * at its next submission, not released; once the others catch up it is
 * let go. */
static void test_deny_and_release(void **state)
{
	struct mock_hal *m = loga_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;
	uint64_t t;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	end_poll(m);
	phase_a_hog(m, ca, cb, 1 * US);   /* a +11.994ms, b +6us */
	assert_false(mock_trap_armed(m, ca));
	phase_a_hog(m, ca, cb, 1 * US);   /* a 23.976ms ahead of b */
	assert_true(mock_trap_armed(m, ca));
	assert_false(mock_trap_armed(m, cb));
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	assert_true(mock_held(m, a));
	assert_int_equal(mock_submit(m, cb), MOCK_SUBMIT_DIRECT);

	/* held through the sleep and the next poll phase, in which b has
	 * the GPU alone: b +12ms, a (held, so active) +0 */
	wake(m);
	assert_true(mock_held(m, a));
	t = mock_now(m);
	sample(m, t, cb, 1);
	end_poll(m);
	assert_int_equal(mock_vtime(m, a) - mock_vtime(m, b),
			 23976 * US - 12 * MS);
	assert_false(mock_trap_armed(m, ca));
	assert_false(mock_held(m, a));
	assert_int_equal(mock_releases(m, a), 1);
	mock_hal_free(m);
}

/* A denied task that stays held while everybody else goes idle is active
 * (it wants the GPU) and sets the minimum itself: released. */
static void test_denied_alone_released(void **state)
{
	struct mock_hal *m = loga_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	end_poll(m);
	phase_a_hog(m, ca, cb, 1 * US);
	phase_a_hog(m, ca, cb, 1 * US);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	wake(m);
	end_poll(m);                      /* nothing ran; b idle */
	assert_false(mock_held(m, a));
	assert_false(mock_trap_armed(m, ca));
	mock_hal_free(m);
}

static void test_account_only_never_denies(void **state)
{
	const char *p[] = { "account_only=true", NULL };
	struct mock_hal *m = loga_new(p);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;
	int i;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	end_poll(m);
	for (i = 0; i < 4; i++) {
		phase_a_hog(m, ca, cb, 1 * US);
		assert_false(mock_trap_armed(m, ca));
		assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	}
	/* the vtimes still tell */
	assert_true(mock_vtime(m, a) - mock_vtime(m, b) > 40 * MS);
	assert_int_equal(mock_accounted(m, a), 4 * (11994 * US));
	mock_hal_free(m);
}

/* LoGA-CL: the share is by mean time between context switches. In one
 * 2ms phase: a two segments of 600us, b four of 200, 200, 100 and 100us
 * (its channel goes idle twice), 200us idle. Total: a 1.2 / 1.8 of the
 * 12ms epoch; mean segment: 600 / (600 + 150). */
static void phase_segments(struct mock_hal *m, struct hal_chan *ca,
			   struct hal_chan *cb)
{
	uint64_t t;

	wake(m);
	t = mock_now(m);
	mock_set_chram(m, cb, HAL_CHRAM_IDLE);
	sample(m, t, ca, 1);
	sample(m, t + 600 * US, cb, 1);
	sample(m, t + 800 * US, ca, 1);
	sample(m, t + 1400 * US, cb, 1);
	sample(m, t + 1600 * US, cb, 0);   /* b idle */
	sample(m, t + 1700 * US, cb, 1);
	sample(m, t + 1800 * US, cb, 0);   /* b idle */
	sample(m, t + 1900 * US, cb, 1);
	end_poll(m);
}

static void test_metric_total(void **state)
{
	struct mock_hal *m = loga_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	end_poll(m);
	phase_segments(m, ca, cb);
	assert_int_equal(mock_vtime(m, a), 8 * MS);
	assert_int_equal(mock_vtime(m, b), 4 * MS);
	mock_hal_free(m);
}

static void test_metric_mean_segment(void **state)
{
	const char *p[] = { "mean_segment=true", NULL };
	struct mock_hal *m = loga_new(p);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	end_poll(m);
	phase_segments(m, ca, cb);
	assert_int_equal(mock_vtime(m, a), 9600 * US);
	assert_int_equal(mock_vtime(m, b), 2400 * US);
	/* the accounted time is the measured total either way */
	assert_int_equal(mock_accounted(m, a), 6 * 1200 * US);
	assert_int_equal(mock_accounted(m, b), 6 * 600 * US);
	mock_hal_free(m);
}

/* ---- randomised phases ---------------------------------------------- */

/* Each length is drawn from [mean/2, 3 mean/2); over many epochs the means
 * stay at 1ms and 5ms (the mock's random source is a fixed xorshift). */
static void test_randomized_phases_keep_mean(void **state)
{
	const char *p[] = { "randomize=true", NULL };
	struct mock_hal *m = loga_new(p);
	struct hal_task *a = mock_task_add(m, "a", 1);
	const unsigned n = 4000;
	uint64_t poll_sum = 0, sleep_sum = 0, pmin = MOCK_NEVER, pmax = 0;
	uint64_t smin = MOCK_NEVER, smax = 0;
	unsigned i;

	(void)state;
	mock_chan_add(m, a);
	for (i = 0; i < n; i++) {
		uint64_t start = mock_now(m), len, sl;

		len = poll_until(m) - start;
		end_poll(m);
		sl = mock_timer_when(m, WAKE) - mock_now(m);
		poll_sum += len;
		sleep_sum += sl;
		pmin = len < pmin ? len : pmin;
		pmax = len > pmax ? len : pmax;
		smin = sl < smin ? sl : smin;
		smax = sl > smax ? sl : smax;
		wake(m);
	}
	assert_true(pmin >= 500 * US && pmax < 1500 * US);
	assert_true(smin >= 2500 * US && smax < 7500 * US);
	assert_true(pmin < 600 * US && pmax > 1400 * US); /* they do vary */
	assert_true(smin < 3000 * US && smax > 7000 * US);
	assert_true(poll_sum / n > 980 * US && poll_sum / n < 1020 * US);
	assert_true(sleep_sum / n > 4900 * US && sleep_sum / n < 5100 * US);
	mock_hal_free(m);
}

/* ---- tasks and channels going away ---------------------------------- */

/* A task exiting mid-segment is charged what the phase measured so far;
 * the segment closes with its channel and nobody else is charged. */
static void test_task_exit_mid_segment(void **state)
{
	const char *p[] = { "event_X=0", NULL };
	struct mock_hal *m = loga_new(p);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	sample(m, 0, cb, 1);
	sample(m, 100 * US, ca, 1);
	mock_advance(m, 400 * US);
	mock_task_exit(m, a);
	assert_int_equal(mock_accounted(m, a), 300 * US);
	end_poll(m);
	assert_int_equal(mock_accounted(m, b), 100 * US);
	mock_hal_free(m);
}

/* The last channel gone: the thread stops after the phase and waits for
 * a new channel. */
static void test_no_channels_goes_idle(void **state)
{
	struct mock_hal *m = loga_new(NULL);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_task *b;

	(void)state;
	mock_chan_add(m, a);
	mock_task_exit(m, a);
	end_poll(m);
	wake(m);
	assert_int_equal(mock_now(m), 6 * MS);
	assert_int_equal(mock_timer_when(m, WAKE), MOCK_NEVER);
	mock_advance(m, 20 * MS);
	b = mock_task_add(m, "b", 1);
	mock_chan_add(m, b);
	assert_int_equal(poll_until(m), 21 * MS);
	mock_hal_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_until_first_channel),
		cmocka_unit_test(test_phase_lengths_scale_with_channels),
		cmocka_unit_test(test_poll_always),
		cmocka_unit_test(test_switch_charges_previous_owner),
		cmocka_unit_test(test_idle_channel_not_charged),
		cmocka_unit_test(test_long_command_charged_whole_phase),
		cmocka_unit_test(test_vtime_delta_two_tasks),
		cmocka_unit_test(test_inactive_task_not_minimum),
		cmocka_unit_test(test_waiting_behind_long_command_is_active),
		cmocka_unit_test(test_deny_and_release),
		cmocka_unit_test(test_denied_alone_released),
		cmocka_unit_test(test_account_only_never_denies),
		cmocka_unit_test(test_metric_total),
		cmocka_unit_test(test_metric_mean_segment),
		cmocka_unit_test(test_randomized_phases_keep_mean),
		cmocka_unit_test(test_task_exit_mid_segment),
		cmocka_unit_test(test_no_channels_goes_idle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
