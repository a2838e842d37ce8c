/* What one of the results' file writers (a gs_results_fill_fn:
 * summary.json, tasks.csv, series.csv) writes for r, as text to free(),
 * the writer's success asserted: the tests compare files as strings. */
#ifndef GS_TESTS_FILL_TEXT_H
#define GS_TESTS_FILL_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <glib.h>

#include "sim/results/results_priv.h"

/* not inlined (and a static function of a header, unused in some
 * tests): inlined, gcc takes the memstream's buffer for the local
 * `text` and warns of a dangling pointer at the caller */
static G_GNUC_UNUSED G_GNUC_NO_INLINE char *fill_text(gs_results_fill_fn fill,
						   const struct gs_results *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_true(fill(r, f, NULL));
	fclose(f);
	return text;
}

#endif
