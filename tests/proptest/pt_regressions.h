/* Generated cases that once failed a property test, run on every `make
 * test` whatever PROPTEST_N says (pt_regressions.c lists them with what
 * they found). */
#ifndef GS_PT_REGRESSIONS_H
#define GS_PT_REGRESSIONS_H

#include <stddef.h>
#include <glib.h>
#include <stdint.h>

struct pt_regression {
	uint64_t seed;
	const char *policy;
	const char *preset;
	const char *found;    /* the defect, and what became of it */
};

/* The cases found with one edition of the generator (enum
 * gs_gen_edition), drawn as that edition draws them. */
struct pt_regression_list {
	unsigned edition;
	const struct pt_regression *cases;
	size_t n;
};

extern const struct pt_regression_list pt_regression_lists[];
extern const size_t pt_n_regression_lists;

#endif
