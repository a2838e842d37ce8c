/* The import model written as a scenario of `trace` tasks, with one CSV per
 * task (workloads/REFERENCE.md, sections `trace` and `import`). */
#include "sim/import/import_write.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "base/event.h"
#include "gpu_model/gpu_config.h"
#include "workloads/file_read.h"

/* A scenario duration, a trace row's time and its duration are each at most
 * one day (workloads/REFERENCE.md, "Values"). */
#define MAX_DURATION_NS (86400ULL * GS_NS_PER_S)

/* What the scenario names when the command line does not say: `direct`
 * (no OS scheduler: the GPU's own round-robin, which is what ran the
 * recording) and `volta`, the newest preset, closest to the GPUs that
 * CUDA profilers record today. */
#define DEFAULT_POLICY "direct"
#define DEFAULT_PRESET "volta"

static void file_free(gpointer p)
{
	struct gs_import_file *f = p;

	g_free(f->path);
	g_free(f->text);
	g_free(f);
}

GPtrArray *gs_import_files_new(void)
{
	return g_ptr_array_new_with_free_func(file_free);
}

static void add_file(GPtrArray *files, char *path, char *text)
{
	struct gs_import_file *f = g_new0(struct gs_import_file, 1);

	f->path = path;
	f->text = text;
	g_ptr_array_add(files, f);
}

/* Orders the jobs of a task by submission; equal times keep the order the
 * importer added them in (the file's order), so the output is the same on
 * every C library. */
static gint by_submission(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct gs_import_job *jobs = data;
	guint i = *(const guint *)a, j = *(const guint *)b;

	if (jobs[i].submit_ns != jobs[j].submit_ns)
		return jobs[i].submit_ns < jobs[j].submit_ns ? -1 : 1;
	return i < j ? -1 : i > j;
}

static GArray *sorted_order(const struct gs_import_task *task)
{
	GArray *order = g_array_sized_new(FALSE, FALSE, sizeof(guint),
					  task->jobs->len);
	guint i;

	for (i = 0; i < task->jobs->len; i++)
		g_array_append_val(order, i);
	g_array_sort_with_data(order, by_submission, task->jobs->data);
	return order;
}

/* The first submission and the last end over all tasks, and the GPU time
 * of every job together; false at a job a trace row cannot hold. */
static bool measure(const struct gs_import *imp, guint64 *first,
		    guint64 *last_end, guint64 *work, GError **error)
{
	guint t, i;

	*first = G_MAXUINT64;
	*last_end = 0;
	*work = 0;
	for (t = 0; t < imp->tasks->len; t++) {
		const struct gs_import_task *task = imp->tasks->pdata[t];

		for (i = 0; i < task->jobs->len; i++) {
			const struct gs_import_job *j = &g_array_index(
				task->jobs, struct gs_import_job, i);

			if (j->duration_ns > MAX_DURATION_NS) {
				gs_import_error_at(imp, j->origin, error,
						   GS_IMPORT_ERROR_LIMIT,
						   "a GPU job of %" G_GUINT64_FORMAT
						   " ns: a trace row's duration is at most one day",
						   j->duration_ns);
				return false;
			}
			*first = MIN(*first, j->submit_ns);
			*last_end = MAX(*last_end,
					j->submit_ns + j->duration_ns);
			*work += j->duration_ns;
		}
	}
	return true;
}

/* A key of the recording in a comment: one line, printable ASCII. */
static void append_comment(GString *s, const char *text)
{
	const char *p;

	for (p = text; *p; p++)
		g_string_append_c(s, g_ascii_isprint(*p) ? *p : '?');
}

/* The task's CSV: one row per job in submission order. Times are whole
 * nanoseconds from the recording's first submission. */
static char *task_csv(const struct gs_import *imp,
		      const struct gs_import_task *task, guint64 first)
{
	g_autoptr(GArray) order = sorted_order(task);
	GString *s = g_string_new(NULL);
	guint i;

	g_string_append_printf(s, "# %s, process ", imp->format);
	append_comment(s, task->key);
	g_string_append_printf(s, ": %u job%s; times and durations in "
			       "nanoseconds\n", task->jobs->len,
			       task->jobs->len == 1 ? "" : "s");
	g_string_append(s, "time,channel,engine,duration\n");
	for (i = 0; i < order->len; i++) {
		const struct gs_import_job *j = &g_array_index(
			task->jobs, struct gs_import_job,
			g_array_index(order, guint, i));

		g_string_append_printf(s, "%" G_GUINT64_FORMAT ",%u,%s,%"
				       G_GUINT64_FORMAT "\n",
				       j->submit_ns - first, j->channel,
				       j->copy ? "copy" : "compute",
				       j->duration_ns);
	}
	return g_string_free(s, FALSE);
}

/* "out/run.yaml" -> "run": what the CSVs are named after. */
static char *stem_of(const char *path)
{
	g_autofree char *base = g_path_get_basename(path);
	char *dot = strrchr(base, '.');

	if (dot && dot != base)
		*dot = '\0';
	return g_strdup(base);
}

/* What the simulated GPU adds to each job beyond its recorded duration at
 * most once when jobs are not preempted again and again: a context switch
 * to its channel (with the save of a preempted context), the lag of the
 * host-visible fence, the completion interrupt and a status read
 * (gpu_model/presets.c). */
static guint64 per_job_cost(const char *preset)
{
	struct gs_gpu_config cfg;

	if (gs_gpu_preset(preset, &cfg) < 0)
		return 0;
	return cfg.ctx_switch + cfg.preempt_save + cfg.ref_writeback +
	       cfg.irq_latency + cfg.mmio_read;
}

/* The scenario's default duration: the last job's end plus the GPU time
 * of all jobs and each job's fixed costs on the simulated GPU. A
 * work-conserving policy finishes every job by then even if it ran them
 * one after another, and the run ends as soon as every trace task has
 * finished, so the margin costs no simulated time. */
static guint64 default_duration(guint64 span, guint64 work, guint64 jobs,
				const char *preset)
{
	return span + work + jobs * per_job_cost(preset);
}

static void yaml_header(GString *y, const struct gs_import *imp,
			const struct gs_import_counts *c)
{
	g_autofree char *source = g_path_get_basename(imp->source);

	g_string_append_printf(y, "# Imported by `gpusim import %s` from %s: "
			       "%u task%s, %u channel%s, %" G_GUINT64_FORMAT
			       " GPU jobs over %" G_GUINT64_FORMAT " ns.\n",
			       imp->format, source, c->tasks,
			       c->tasks == 1 ? "" : "s", c->channels,
			       c->channels == 1 ? "" : "s", c->jobs,
			       c->span_ns);
	g_string_append(y, "# One trace task per process, one channel per "
			"stream; times from the\n# recording's first "
			"submission (workloads/REFERENCE.md, `import`).\n");
	/* what the recording held that is not in the scenario */
	for (guint i = 0; i < imp->notes->len; i++)
		g_string_append_printf(y, "# Note: %s\n",
				       (const char *)imp->notes->pdata[i]);
}

static char *scenario_yaml(const struct gs_import *imp,
			   const struct gs_import_write_options *opt,
			   const struct gs_import_counts *c, const char *stem,
			   char **csv_names)
{
	GString *y = g_string_new(NULL);
	guint t, k;

	yaml_header(y, imp, c);
	g_string_append_printf(y, "name: \"%s\"\nseed: 1\nduration: %"
			       G_GUINT64_FORMAT "ns\n", stem, c->duration_ns);
	g_string_append_printf(y, "gpu:\n  preset: %s\npolicy:\n  name: %s\n"
			       "tasks:\n",
			       opt->preset ? opt->preset : DEFAULT_PRESET,
			       opt->policy ? opt->policy : DEFAULT_POLICY);
	for (t = 0; t < imp->tasks->len; t++) {
		const struct gs_import_task *task = imp->tasks->pdata[t];

		if (!csv_names[t])
			continue;
		g_string_append_printf(y, "  - name: \"%s\"\n", task->name);
		g_string_append(y, "    # process ");
		append_comment(y, task->key);
		g_string_append(y, "; channels:");
		for (k = 0; k < task->channels->len; k++) {
			g_string_append_printf(y, " %u = ", k);
			append_comment(y, task->channels->pdata[k]);
			if (k + 1 < task->channels->len)
				g_string_append_c(y, ',');
		}
		g_string_append_printf(y, "\n    channels: %u\n    behavior:\n"
				       "      trace: {file: \"%s\"}\n",
				       task->channels->len, csv_names[t]);
	}
	return g_string_free(y, FALSE);
}

bool gs_import_render(const struct gs_import *imp,
		      const struct gs_import_write_options *opt,
		      GPtrArray *files, struct gs_import_counts *counts,
		      GError **error)
{
	g_autofree char *dir = g_path_get_dirname(opt->out);
	g_autofree char *stem = stem_of(opt->out);
	g_auto(GStrv) csv_names = NULL;
	guint64 first, last_end, work;
	guint t;

	memset(counts, 0, sizeof(*counts));
	if (!imp->jobs) {
		gs_import_error_at(imp, 0, error, GS_IMPORT_ERROR_EMPTY,
				   "no GPU job in the recording");
		return false;
	}
	if (!measure(imp, &first, &last_end, &work, error))
		return false;
	counts->jobs = imp->jobs;
	counts->span_ns = last_end - first;
	counts->duration_ns = opt->duration_ns ? opt->duration_ns :
			      default_duration(counts->span_ns, work,
						       imp->jobs,
						       opt->preset ? opt->preset :
						       DEFAULT_PRESET);
	if (counts->span_ns > MAX_DURATION_NS ||
	    counts->duration_ns > MAX_DURATION_NS) {
		gs_import_error_at(imp, 0, error, GS_IMPORT_ERROR_LIMIT,
				   "the scenario would last %" G_GUINT64_FORMAT
				   " ns (recording and margin): a scenario "
				   "lasts at most one day",
				   MAX(counts->span_ns, counts->duration_ns));
		return false;
	}
	csv_names = g_new0(char *, imp->tasks->len + 1);
	for (t = 0; t < imp->tasks->len; t++) {
		const struct gs_import_task *task = imp->tasks->pdata[t];
		char *text;

		/* a process seen without a GPU job has nothing to replay */
		if (!task->jobs->len)
			continue;
		counts->tasks++;
		counts->channels += task->channels->len;
		csv_names[t] = g_strdup_printf("%s.%s.csv", stem, task->name);
		text = task_csv(imp, task, first);
		if (strlen(text) > GS_MAX_INPUT_BYTES) {
			gs_import_error_at(imp, 0, error,
					   GS_IMPORT_ERROR_LIMIT,
					   "process %s: its trace CSV would be "
					   "larger than the %zu bytes gpusim "
					   "reads of a file",
					   task->key, GS_MAX_INPUT_BYTES);
			g_free(text);
			return false;
		}
		add_file(files, g_build_filename(dir, csv_names[t], NULL),
			 text);
	}
	add_file(files, g_strdup(opt->out),
		 scenario_yaml(imp, opt, counts, stem, csv_names));
	return true;
}

static char *temp_name(const char *path)
{
	return g_strdup_printf("%s.tmp-import", path);
}

static void remove_temps(GPtrArray *files, guint n)
{
	guint i;

	for (i = 0; i < n; i++) {
		const struct gs_import_file *f = files->pdata[i];
		g_autofree char *tmp = temp_name(f->path);

		g_unlink(tmp);
	}
}

bool gs_import_files_write(GPtrArray *files, GError **error)
{
	guint i;

	for (i = 0; i < files->len; i++) {
		const struct gs_import_file *f = files->pdata[i];
		g_autofree char *tmp = temp_name(f->path);

		if (!g_file_set_contents(tmp, f->text, -1, error)) {
			remove_temps(files, i);
			return false;
		}
	}
	for (i = 0; i < files->len; i++) {
		const struct gs_import_file *f = files->pdata[i];
		g_autofree char *tmp = temp_name(f->path);
		int err;

		if (!g_rename(tmp, f->path))
			continue;
		err = errno;
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
			    "%s: cannot rename to it: %s", f->path,
			    g_strerror(err));
		/* the CSVs renamed so far are harmless without the scenario */
		remove_temps(files, files->len);
		return false;
	}
	return true;
}
