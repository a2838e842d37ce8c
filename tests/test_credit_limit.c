/* A channel's credit limit (the task key max_inflight): at most that many
 * of its commands on the hardware, the rest held in the ring unpublished
 * and published as completions return credits, oldest first; a shadow
 * queue's commands stay behind the held ones. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <glib.h>

#include "gpu_model/gpu.h"

#define US GS_NS_PER_US
#define MS GS_NS_PER_MS

struct rig {
	struct gs_evq q;
	struct gs_gpu *gpu;
	uint32_t max_on_hw;   /* most commands seen published, not done */
	uint64_t last_serial;
	bool out_of_order;
};

/* What the host does on a completion: return the credit. */
static void on_complete(void *ctx, struct gs_channel *ch,
			const struct gs_cmd *cmd)
{
	struct rig *r = ctx;

	r->out_of_order |= cmd->serial <= r->last_serial;
	r->last_serial = cmd->serial;
	gs_chan_return_credits(ch);
}

static struct rig *rig_new(void)
{
	struct rig *r = g_new0(struct rig, 1);
	struct gs_gpu_config cfg;
	struct gs_gpu_hooks hooks = { .ctx = r, .cmd_complete = on_complete };

	assert_int_equal(gs_gpu_preset("kepler", &cfg), 0);
	cfg.ctx_switch = 0;
	cfg.max_channels = 4;
	gs_evq_init(&r->q);
	r->gpu = gs_gpu_new(&cfg, 0, &r->q, &hooks);
	return r;
}

static void rig_free(struct rig *r)
{
	gs_gpu_free(r->gpu);
	gs_evq_destroy(&r->q);
	g_free(r);
}

static uint32_t on_hw(const struct gs_channel *ch)
{
	return (uint32_t)(ch->submitted - ch->completed);
}

static void run_until(struct rig *r, struct gs_channel *ch, gs_time_t t)
{
	while (gs_evq_peek_time(&r->q) <= t) {
		gs_evq_step(&r->q);
		if (on_hw(ch) > r->max_on_hw)
			r->max_on_hw = on_hw(ch);
	}
}

static struct gs_channel *write_n(struct rig *r, uint32_t limit, uint32_t n)
{
	struct gs_channel *ch = gs_gpu_channel_open(r->gpu, 0, NULL);
	uint32_t i;

	gs_chan_set_credit_limit(ch, limit);
	for (i = 0; i < n; i++)
		assert_true(gs_chan_write(ch, 1 * MS, GS_ENGINE_COMPUTE,
					  GS_CMD_FENCE, 0) > 0);
	return ch;
}

/* Three 1 ms commands under a limit of one run back to back, one at a
 * time on the hardware; the last is done at 3 ms. */
static void test_limit_one(void **state)
{
	struct rig *r = rig_new();
	struct gs_channel *ch = write_n(r, 1, 3);
	(void)state;

	gs_chan_doorbell(ch);
	assert_int_equal(ch->submitted, 1);
	assert_int_equal(gs_chan_credit_held(ch), 2);
	assert_int_equal(gs_chan_unpublished(ch), 2);
	run_until(r, ch, 1500 * US);
	assert_int_equal(ch->completed, 1);
	assert_int_equal(ch->submitted, 2);
	run_until(r, ch, 10 * MS);
	assert_int_equal(ch->completed, 3);
	assert_int_equal(gs_chan_credit_held(ch), 0);
	assert_int_equal(r->max_on_hw, 1);
	assert_false(r->out_of_order);
	rig_free(r);
}

/* Without a limit the doorbell publishes everything at once. */
static void test_no_limit(void **state)
{
	struct rig *r = rig_new();
	struct gs_channel *ch = write_n(r, 0, 3);
	(void)state;

	gs_chan_doorbell(ch);
	assert_int_equal(ch->submitted, 3);
	assert_int_equal(gs_chan_credit_held(ch), 0);
	run_until(r, ch, 10 * MS);
	assert_int_equal(r->max_on_hw, 3);
	rig_free(r);
}

/* A shadow queue forwards two of four commands under a limit of one: one
 * goes out, one is held, two stay queued; the held one goes out at the
 * first completion, the queued ones only when forwarded. */
static void test_limit_with_shadow_queue(void **state)
{
	struct rig *r = rig_new();
	struct gs_channel *ch = write_n(r, 1, 4);
	(void)state;

	gs_chan_publish(ch, 2);
	assert_int_equal(ch->submitted, 1);
	assert_int_equal(gs_chan_credit_held(ch), 1);
	assert_int_equal(gs_chan_unpublished(ch), 3);
	/* publishing more than the queue holds releases only the queue */
	run_until(r, ch, 10 * MS);
	assert_int_equal(ch->completed, 2);
	assert_int_equal(gs_chan_unpublished(ch), 2);
	gs_chan_publish(ch, 10);
	assert_int_equal(ch->submitted, 3);
	assert_int_equal(gs_chan_credit_held(ch), 1);
	run_until(r, ch, 20 * MS);
	assert_int_equal(ch->completed, 4);
	assert_int_equal(r->max_on_hw, 1);
	assert_false(r->out_of_order);
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limit_one),
		cmocka_unit_test(test_no_limit),
		cmocka_unit_test(test_limit_with_shadow_queue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
