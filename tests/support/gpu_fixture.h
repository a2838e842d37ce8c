/* What the GPU model's tests share (test_gpu*.c): a GPU driven directly
 * with a test-owned clock, its completions and spans recorded. */
#ifndef GS_TESTS_GPU_FIXTURE_H
#define GS_TESTS_GPU_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>

#include "gpu_model/gpu.h"
#include "gpu_model/ring.h"

#define US GS_NS_PER_US
#define MS GS_NS_PER_MS

struct span_rec {
	uint8_t engine, kind;
	uint32_t chan;
	gs_time_t start, end;
};

struct mock {
	struct gs_evq q;
	struct gs_gpu *gpu;
	GArray *spans;
	/* refill: on completion, write one more command of this length */
	gs_time_t refill[8];
	uint64_t completions[8];
	uint64_t last_serial[8];
	bool out_of_order;    /* a channel completed commands out of order */
};

static inline void on_complete(void *ctx, struct gs_channel *ch,
			const struct gs_cmd *cmd)
{
	struct mock *m = ctx;

	m->completions[ch->id]++;
	if (ch->id < 8) {
		m->out_of_order |= cmd->serial <= m->last_serial[ch->id];
		m->last_serial[ch->id] = cmd->serial;
	}
	if (ch->id < 8 && m->refill[ch->id]) {
		gs_chan_write(ch, m->refill[ch->id], GS_ENGINE_COMPUTE, 0, 0);
		gs_chan_doorbell(ch);
	}
}

static inline void on_span(void *ctx, const struct gs_gpu *gpu, uint8_t engine,
		    enum gs_span_kind kind, const struct gs_channel *ch,
		    gs_time_t start, gs_time_t end)
{
	struct mock *m = ctx;
	struct span_rec s = { engine, (uint8_t)kind,
			      ch ? ch->id : GS_CHAN_NONE, start, end };
	(void)gpu;
	g_array_append_val(m->spans, s);
}

static inline struct mock *mock_new(const char *preset, gs_time_t ctx_switch)
{
	struct mock *m = g_new0(struct mock, 1);
	struct gs_gpu_config cfg;
	struct gs_gpu_hooks hooks = { .ctx = m, .cmd_complete = on_complete,
				      .span = on_span };

	assert_int_equal(gs_gpu_preset(preset, &cfg), 0);
	cfg.ctx_switch = ctx_switch;
	cfg.max_channels = 16;
	gs_evq_init(&m->q);
	m->gpu = gs_gpu_new(&cfg, 0, &m->q, &hooks);
	m->spans = g_array_new(FALSE, FALSE, sizeof(struct span_rec));
	return m;
}

static inline void mock_free(struct mock *m)
{
	gs_gpu_free(m->gpu);
	gs_evq_destroy(&m->q);
	g_array_free(m->spans, TRUE);
	g_free(m);
}

static inline void run_until(struct mock *m, gs_time_t t)
{
	while (gs_evq_peek_time(&m->q) <= t)
		gs_evq_step(&m->q);
	if (m->q.now < t)
		m->q.now = t;
}

static inline void submit(struct gs_channel *ch, gs_time_t len, uint8_t engine)
{
	assert_true(gs_chan_write(ch, len, engine, GS_CMD_FENCE, 0) > 0);
	gs_chan_doorbell(ch);
}

/* Runs (not switches) in order, as channel ids. */
static inline GArray *run_order(struct mock *m)
{
	GArray *ids = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	guint i;

	for (i = 0; i < m->spans->len; i++) {
		struct span_rec *s = &g_array_index(m->spans, struct span_rec, i);

		if (s->kind == GS_SPAN_RUN)
			g_array_append_val(ids, s->chan);
	}
	return ids;
}

#endif
