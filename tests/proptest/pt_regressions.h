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

/* Drawn --classic: found before the generator's second stream. */
extern const struct pt_regression pt_regressions[];
extern const size_t pt_n_regressions;
/* Drawn with the second stream. */
extern const struct pt_regression pt_regressions_more[];
extern const size_t pt_n_regressions_more;

#endif
