/* timeline.pftrace's encoder knows which span tracks it has described
 * (pf_enc_track_described): a channel's at its first mark or span, any
 * track at pf_enc_span_track(), per GPU and kind; the run's end labels
 * only the tracks the cap left without a descriptor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "sim/results/pftrace_enc.h"

static void test_tracks_described(void **state)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	struct pf_enc e;
	const struct gs_cmd_mark m = { .t = 10, .serial = 1, .gpu = 1,
				       .channel = 3, .task_name = 0,
				       .kind = GS_MARK_SUBMIT };
	const struct gs_span sp = { .start = 10, .end = 20, .gpu = 0,
				    .track_kind = GS_TRACK_CHANNEL,
				    .track = 7, .name = 0, .category = 0 };
	(void)state;

	assert_non_null(f);
	pf_enc_init(&e, f);
	pf_enc_add_name(&e, "dct");
	assert_false(pf_enc_track_described(&e, 1, GS_TRACK_CHANNEL, 3));
	/* a channel's first mark describes its span track */
	pf_enc_marks(&e, &m, 1);
	assert_true(pf_enc_track_described(&e, 1, GS_TRACK_CHANNEL, 3));
	assert_false(pf_enc_track_described(&e, 1, GS_TRACK_CHANNEL, 4));
	assert_false(pf_enc_track_described(&e, 0, GS_TRACK_CHANNEL, 3));
	assert_false(pf_enc_track_described(&e, 1, GS_TRACK_ENGINE, 3));
	/* as does its first span */
	pf_enc_spans(&e, &sp, 1);
	assert_true(pf_enc_track_described(&e, 0, GS_TRACK_CHANNEL, 7));
	/* and any track its describing call */
	assert_false(pf_enc_track_described(&e, 1, GS_TRACK_POLICY, 0));
	pf_enc_span_track(&e, 1, GS_TRACK_POLICY, 0, "policy direct");
	assert_true(pf_enc_track_described(&e, 1, GS_TRACK_POLICY, 0));
	assert_false(pf_enc_track_described(&e, 1, GS_TRACK_ENGINE, 0));
	pf_enc_clear(&e);
	fclose(f);
	assert_true(size > 0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracks_described),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
