/* A channel slot's rare fields (struct gs_channel_rare: the preemption's
 * saved commands, out-of-order fences, the credit limit) live in a block
 * allocated only when one is first needed, so that the 65,536 slots of
 * `gpusim bench`'s memory point stay small (issue 20, goal 3). These
 * tests pin when the block exists and that a reused slot starts without
 * its predecessor's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <glib.h>

#include "gpu_model/gpu.h"

#define MS GS_NS_PER_MS

/* The slot's size as measured when the block was split off (200 bytes
 * before): a field added to every slot should be a decision, not an
 * accident, since each byte is 64 KB at 65,536 channels. */
#define CHANNEL_SLOT_BYTES 176

struct rig {
	struct gs_evq q;
	struct gs_gpu *gpu;
};

static void on_complete(void *ctx, struct gs_channel *ch,
			const struct gs_cmd *cmd)
{
	(void)ctx;
	(void)cmd;
	gs_chan_return_credits(ch);
}

static void rig_init(struct rig *r, uint32_t max_channels)
{
	struct gs_gpu_config cfg;
	struct gs_gpu_hooks hooks = { .ctx = r, .cmd_complete = on_complete };

	assert_int_equal(gs_gpu_preset("kepler", &cfg), 0);
	cfg.max_channels = max_channels;
	gs_evq_init(&r->q);
	r->gpu = gs_gpu_new(&cfg, 0, &r->q, &hooks);
}

static void rig_fini(struct rig *r)
{
	gs_gpu_free(r->gpu);
	gs_evq_destroy(&r->q);
}

static void write_and_run(struct rig *r, struct gs_channel *ch, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		assert_true(gs_chan_write(ch, 1 * MS, GS_ENGINE_COMPUTE,
					  GS_CMD_FENCE, 0) > 0);
	gs_chan_doorbell(ch);
	while (gs_evq_step(&r->q))
		;
}

static void test_slot_size(void **state)
{
	(void)state;
	assert_true(sizeof(struct gs_channel) <= CHANNEL_SLOT_BYTES);
}

/* In-order commands on one engine without a limit: no block at all, and
 * the readers give what the fields held before (zero). */
static void test_plain_channel_has_no_block(void **state)
{
	struct rig r;
	struct gs_channel *ch;
	(void)state;

	rig_init(&r, 2);
	ch = gs_gpu_channel_open(r.gpu, 0, NULL);
	gs_chan_set_credit_limit(ch, 0);
	write_and_run(&r, ch, 3);
	assert_int_equal(ch->completed, 3);
	assert_int_equal(ch->fence_value, 3);
	assert_null(ch->rare);
	assert_int_equal(gs_chan_saved_len(ch), 0);
	assert_int_equal(gs_chan_credit_held(ch), 0);
	assert_int_equal(gs_chan_credit_limit(ch), 0);
	rig_fini(&r);
}

/* A credit limit makes the block; the limit still holds commands back
 * (two of three wait behind a limit of one until credits return). */
static void test_credit_limit_makes_block(void **state)
{
	struct rig r;
	struct gs_channel *ch;
	uint32_t i;
	(void)state;

	rig_init(&r, 2);
	ch = gs_gpu_channel_open(r.gpu, 0, NULL);
	gs_chan_set_credit_limit(ch, 1);
	assert_non_null(ch->rare);
	assert_int_equal(gs_chan_credit_limit(ch), 1);
	for (i = 0; i < 3; i++)
		assert_true(gs_chan_write(ch, 1 * MS, GS_ENGINE_COMPUTE,
					  GS_CMD_FENCE, 0) > 0);
	gs_chan_doorbell(ch);
	assert_int_equal(gs_chan_credit_held(ch), 2);
	assert_int_equal(ch->submitted, 1);
	while (gs_evq_step(&r.q))
		;
	assert_int_equal(ch->completed, 3);
	assert_int_equal(gs_chan_credit_held(ch), 0);
	rig_fini(&r);
}

/* A slot closed and opened again starts without its predecessor's block:
 * no credit limit carried over, nothing saved. */
static void test_reused_slot_starts_without_block(void **state)
{
	struct rig r;
	struct gs_channel *ch;
	uint32_t id;
	(void)state;

	rig_init(&r, 1);
	ch = gs_gpu_channel_open(r.gpu, 0, NULL);
	id = ch->id;
	gs_chan_set_credit_limit(ch, 1);
	write_and_run(&r, ch, 2);
	gs_gpu_channel_close(ch);
	ch = gs_gpu_channel_open(r.gpu, 1, NULL);
	assert_non_null(ch);
	assert_int_equal(ch->id, id);
	assert_null(ch->rare);
	/* no limit now: both published at the doorbell */
	assert_true(gs_chan_write(ch, 1 * MS, GS_ENGINE_COMPUTE,
				  GS_CMD_FENCE, 0) > 0);
	assert_true(gs_chan_write(ch, 1 * MS, GS_ENGINE_COMPUTE,
				  GS_CMD_FENCE, 0) > 0);
	gs_chan_doorbell(ch);
	assert_int_equal(ch->submitted, 2);
	rig_fini(&r);
}

/* A fence that completes ahead of an older command on another engine is
 * remembered in the block, and the counter waits for the older one. */
static void test_fence_ahead_in_block(void **state)
{
	struct rig r;
	struct gs_channel *ch;
	(void)state;

	rig_init(&r, 2);
	ch = gs_gpu_channel_open(r.gpu, 0, NULL);
	assert_true(gs_chan_write(ch, 10 * MS, GS_ENGINE_COMPUTE,
				  GS_CMD_FENCE, 0) > 0);
	assert_true(gs_chan_write(ch, 1 * MS, GS_ENGINE_COPY, GS_CMD_FENCE,
				  0) > 0);
	gs_chan_doorbell(ch);
	while (ch->completed < 1 && gs_evq_step(&r.q))
		;
	/* the copy (serial 2) finished first: held back, in the block */
	assert_int_equal(ch->fence_value, 0);
	assert_non_null(ch->rare);
	assert_non_null(ch->rare->fence_ahead);
	while (gs_evq_step(&r.q))
		;
	assert_int_equal(ch->fence_value, 2);
	rig_fini(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slot_size),
		cmocka_unit_test(test_plain_channel_has_no_block),
		cmocka_unit_test(test_credit_limit_makes_block),
		cmocka_unit_test(test_reused_slot_starts_without_block),
		cmocka_unit_test(test_fence_ahead_in_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
