/* See summary_parts.h. */
#include "sim/results/summary_parts.h"

#include <string.h>

struct gs_summary_parts {
	const struct gs_results *r;
	uint32_t part_tasks, n_parts;
	/* how many parts a helper may be ahead of the file: what it holds
	 * encoded (0: no bound) */
	uint32_t window;
	/* the file's writer at the tasks array's start: depth and counts */
	struct gs_jsonw at;
	GMutex lock;
	GCond cond;     /* a part done, a part written, or closed */
	uint32_t next;  /* the first part not taken yet (parts in order) */
	uint32_t written; /* parts in the file so far */
	gboolean closed;  /* no more parts are wanted */
	GString **text; /* a helper's part, once done[i] */
	gboolean *done;
	/* texts written to the file, kept for the next parts: a part of
	 * 1,024 tasks is about 850 KB, and growing a fresh GString to that
	 * by doubling copied it once more (realloc's memcpy was 55 M
	 * instructions at 65,536 tasks) */
	GPtrArray *spare;
	gsize longest; /* the longest part so far: a new text's size */
};

struct gs_summary_parts *gs_summary_parts_new(const struct gs_results *r,
					      uint32_t part_tasks,
					      uint32_t window)
{
	struct gs_summary_parts *sp = g_new0(struct gs_summary_parts, 1);
	g_autoptr(GString) head = g_string_new(NULL);

	sp->r = r;
	sp->part_tasks = MAX(part_tasks, 1u);
	sp->window = window;
	sp->n_parts = (uint32_t)(((uint64_t)r->n_tasks + sp->part_tasks - 1) /
				 sp->part_tasks);
	/* the state after the head, from a head written aside (a few
	 * hundred bytes), rather than assumed */
	gs_jsonw_init(&sp->at, NULL);
	sp->at.mem = head;
	gs_summary_head(&sp->at, r);
	sp->at.mem = NULL;
	g_mutex_init(&sp->lock);
	g_cond_init(&sp->cond);
	sp->text = g_new0(GString *, sp->n_parts);
	sp->done = g_new0(gboolean, sp->n_parts);
	sp->spare = g_ptr_array_new();
	return sp;
}

void gs_summary_parts_free(struct gs_summary_parts *sp)
{
	uint32_t i;

	if (!sp)
		return;
	for (i = 0; i < sp->n_parts; i++)
		if (sp->text[i])
			g_string_free(sp->text[i], TRUE);
	for (i = 0; i < sp->spare->len; i++)
		g_string_free(g_ptr_array_index(sp->spare, i), TRUE);
	g_ptr_array_free(sp->spare, TRUE);
	g_free(sp->text);
	g_free(sp->done);
	g_mutex_clear(&sp->lock);
	g_cond_clear(&sp->cond);
	g_free(sp);
}

static uint32_t part_from(const struct gs_summary_parts *sp, uint32_t i)
{
	return i * sp->part_tasks;
}

static uint32_t part_to(const struct gs_summary_parts *sp, uint32_t i)
{
	return (uint32_t)MIN((uint64_t)(i + 1) * sp->part_tasks,
			     sp->r->n_tasks);
}

/* The array's element count as the file's writer has it at part i's
 * start: all that decides whether its first task follows a comma. */
static void at_part(struct gs_jsonw *w, const struct gs_summary_parts *sp,
		    uint32_t i)
{
	w->open[w->depth - 1].n = part_from(sp, i);
}

/* Whether a helper may take the next part now (sp->lock held): parts
 * are left, and it would be at most window parts ahead of the file. */
static gboolean may_take(const struct gs_summary_parts *sp)
{
	return sp->next < sp->n_parts &&
	       (!sp->window || sp->next < sp->written + sp->window);
}

/* An empty text for a part (sp->lock held): a spare one, or a new one
 * of the longest part's size and a little more. */
static GString *take_text(struct gs_summary_parts *sp)
{
	if (sp->spare->len) {
		GString *text = g_ptr_array_steal_index_fast(
			sp->spare, sp->spare->len - 1);

		g_string_truncate(text, 0);
		return text;
	}
	return g_string_sized_new(MAX(sp->longest + sp->longest / 16, 1024));
}

void gs_summary_parts_encode(struct gs_summary_parts *sp, uint32_t i)
{
	struct gs_jsonw w;
	GString *text;

	g_mutex_lock(&sp->lock);
	text = take_text(sp);
	g_mutex_unlock(&sp->lock);
	gs_jsonw_init_part(&w, text, &sp->at);
	at_part(&w, sp, i);
	gs_summary_tasks(&w, sp->r, part_from(sp, i), part_to(sp, i));
	gs_jsonw_finish(&w);
	g_mutex_lock(&sp->lock);
	sp->text[i] = text;
	sp->done[i] = TRUE;
	sp->longest = MAX(sp->longest, text->len);
	g_cond_broadcast(&sp->cond);
	g_mutex_unlock(&sp->lock);
}

uint32_t gs_summary_parts_take(struct gs_summary_parts *sp)
{
	uint32_t i = GS_SUMMARY_PART_NONE;

	g_mutex_lock(&sp->lock);
	if (!sp->closed && may_take(sp))
		i = sp->next++;
	g_mutex_unlock(&sp->lock);
	return i;
}

/* Takes the next part (sp->lock held, may_take(sp) true) and encodes it
 * with the lock released; held again on return. */
static void encode_next(struct gs_summary_parts *sp)
{
	uint32_t i = sp->next++;

	g_mutex_unlock(&sp->lock);
	gs_summary_parts_encode(sp, i);
	g_mutex_lock(&sp->lock);
}

void gs_summary_parts_help(struct gs_summary_parts *sp)
{
	g_mutex_lock(&sp->lock);
	for (;;) {
		while (!sp->closed && sp->next < sp->n_parts && !may_take(sp))
			g_cond_wait(&sp->cond, &sp->lock);
		if (sp->closed || !may_take(sp))
			break;
		encode_next(sp);
	}
	g_mutex_unlock(&sp->lock);
}

void gs_summary_parts_close(struct gs_summary_parts *sp)
{
	g_mutex_lock(&sp->lock);
	sp->closed = TRUE;
	g_cond_broadcast(&sp->cond);
	g_mutex_unlock(&sp->lock);
}

uint32_t gs_summary_parts_taken(struct gs_summary_parts *sp)
{
	uint32_t n;

	g_mutex_lock(&sp->lock);
	n = sp->next;
	g_mutex_unlock(&sp->lock);
	return n;
}

/* Part i is in the file: a helper held back by the window may go on. */
static void part_written(struct gs_summary_parts *sp, uint32_t i)
{
	g_mutex_lock(&sp->lock);
	sp->written = i + 1;
	g_cond_broadcast(&sp->cond);
	g_mutex_unlock(&sp->lock);
}

gboolean gs_summary_parts_fill(struct gs_summary_parts *sp, FILE *f,
			       GError **error)
{
	struct gs_jsonw w;
	uint32_t i;

	(void)error;
	gs_jsonw_init(&w, f);
	gs_summary_head(&w, sp->r);
	for (i = 0; i < sp->n_parts; i++) {
		GString *text;

		g_mutex_lock(&sp->lock);
		if (i == sp->next) { /* not taken: this thread's */
			sp->next = i + 1;
			g_mutex_unlock(&sp->lock);
			gs_summary_tasks(&w, sp->r, part_from(sp, i),
					 part_to(sp, i));
			part_written(sp, i);
			continue;
		}
		/* another thread's part, still being encoded: take the
		 * next ones meanwhile, as a helper would, rather than wait
		 * (at 65,536 tasks this thread was idle a third of its time
		 * here) */
		while (!sp->done[i]) {
			if (may_take(sp))
				encode_next(sp);
			else
				g_cond_wait(&sp->cond, &sp->lock);
		}
		text = sp->text[i];
		sp->text[i] = NULL;
		g_mutex_unlock(&sp->lock);
		/* the writer's bytes so far, then the part's, in order */
		gs_jsonw_finish(&w);
		fwrite(text->str, 1, text->len, f);
		g_mutex_lock(&sp->lock);
		g_ptr_array_add(sp->spare, text);
		g_mutex_unlock(&sp->lock);
		at_part(&w, sp, i + 1);
		part_written(sp, i);
	}
	gs_summary_tail(&w, sp->r);
	fputc('\n', f);
	gs_summary_parts_close(sp);
	return TRUE;
}
