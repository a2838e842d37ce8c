/* Loading a policy module and the checks every policy passes. */
#include "workloads/policy_module.h"

#include <gmodule.h>
#include <string.h>

#include "policies/param_value.h"

static char *param_problem(const struct gs_param_desc *d, hal_u32 i)
{
	hal_u64 def;

	if (!d->name || !*d->name)
		return g_strdup_printf("parameter %u has no name", i);
	if (d->type > GS_PARAM_BOOL)
		return g_strdup_printf("parameter %s: unknown type %u",
				       d->name, d->type);
	if (!d->def || gs_param_default(d, &def) < 0)
		return g_strdup_printf("parameter %s: malformed default '%s'",
				       d->name, d->def ? d->def : "(none)");
	if (d->type == GS_PARAM_UINT &&
	    (d->max == 0 || d->max > GS_PARAM_UINT_MAX || def > d->max))
		return g_strdup_printf("parameter %s: bound %llu must be from "
				       "1 to 2^32-1 and hold the default",
				       d->name, (unsigned long long)d->max);
	return NULL;
}

char *gs_policy_ops_problem(const struct gs_policy_ops *ops, bool module)
{
	hal_u32 i, j;

	if (module && ops->abi != GS_POLICY_ABI)
		return g_strdup_printf("it was built for policy ABI %u, this "
				       "gpusim has ABI %u: rebuild it against "
				       "this gpusim's policy.h",
				       ops->abi, GS_POLICY_ABI);
	if (!ops->name || !*ops->name)
		return g_strdup("its ops table has no name");
	if (ops->n_params > GS_MAX_PARAMS)
		return g_strdup_printf("%u parameters, more than the %u a "
				       "policy may have", ops->n_params,
				       GS_MAX_PARAMS);
	if (ops->n_params && !ops->params)
		return g_strdup_printf("n_params is %u but there is no params "
				       "table", ops->n_params);
	for (i = 0; i < ops->n_params; i++) {
		char *why = param_problem(&ops->params[i], i);

		if (why)
			return why;
		for (j = 0; j < i; j++)
			if (!strcmp(ops->params[j].name, ops->params[i].name))
				return g_strdup_printf("parameter %s is "
						       "declared twice",
						       ops->params[i].name);
	}
	if (module && gs_policy_find(ops->name))
		return g_strdup_printf("its policy is named '%s', as a "
				       "built-in policy: rename it",
				       ops->name);
	return NULL;
}

/* The folders a bare module name is looked for in, in order. */
static GPtrArray *search_dirs(void)
{
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
	const char *env = g_getenv("GPUSIM_POLICY_PATH");
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *bin = exe ? g_path_get_dirname(exe) : NULL;
	guint i;

	if (env && *env) {
		g_auto(GStrv) parts = g_strsplit(env, ":", -1);

		for (i = 0; parts[i]; i++)
			if (*parts[i])
				g_ptr_array_add(dirs, g_strdup(parts[i]));
	}
	if (bin) {
		g_ptr_array_add(dirs, g_build_filename(bin, "policy-modules",
						       NULL));
		g_autofree char *lib = g_build_filename(bin, "..", "lib",
							"gpusim",
							"policy-modules", NULL);

		g_ptr_array_add(dirs, g_canonicalize_filename(lib, NULL));
	}
	return dirs;
}

/* The file spec names; NULL (reported) when a bare name is not found. */
static char *module_path(const char *spec, const char *dir, GError **error)
{
	g_autoptr(GPtrArray) dirs = NULL;
	g_autofree char *file = NULL;
	g_autoptr(GString) tried = g_string_new("");
	guint i;

	if (strchr(spec, '/')) {
		if (g_path_is_absolute(spec) || !dir || !strcmp(dir, "."))
			return g_strdup(spec);
		return g_canonicalize_filename(spec, dir);
	}
	file = g_str_has_suffix(spec, ".so") ? g_strdup(spec)
					      : g_strconcat(spec, ".so", NULL);
	dirs = search_dirs();
	for (i = 0; i < dirs->len; i++) {
		char *p = g_build_filename(dirs->pdata[i], file, NULL);

		if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
			return p;
		g_free(p);
		g_string_append_printf(tried, "%s%s", i ? ", " : "",
				       (char *)dirs->pdata[i]);
	}
	g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
		    "policy module %s not found (looked in %s; set "
		    "GPUSIM_POLICY_PATH or give a path such as ./%s)", file,
		    tried->len ? tried->str : "no folder", file);
	return NULL;
}

/* gs_policy_NAME for the module file `path`. */
static char *module_symbol(const char *path)
{
	g_autofree char *base = g_path_get_basename(path);
	char *p;

	if (g_str_has_suffix(base, ".so"))
		base[strlen(base) - 3] = '\0';
	for (p = base; *p; p++)
		if (*p == '-')
			*p = '_';
	return g_strconcat("gs_policy_", base, NULL);
}

/* ops table -> the file it was loaded from, for as long as the process
 * lives (modules stay resident); sweeps load points from several threads. */
static GHashTable *loaded_files;
G_LOCK_DEFINE_STATIC(loaded_files);

static void remember_file(gconstpointer ops, const char *path)
{
	G_LOCK(loaded_files);
	if (!loaded_files)
		loaded_files = g_hash_table_new(g_direct_hash, g_direct_equal);
	if (!g_hash_table_contains(loaded_files, ops))
		g_hash_table_insert(loaded_files, (gpointer)ops,
				    g_strdup(path));
	G_UNLOCK(loaded_files);
}

const struct gs_policy_ops *gs_policy_module_load(const char *spec,
						  const char *dir,
						  GError **error)
{
	g_autofree char *path = module_path(spec, dir, error);
	g_autofree char *symbol = NULL, *why = NULL;
	gpointer sym = NULL;
	GModule *mod;

	if (!path)
		return NULL;
	/* G_MODULE_BIND_LOCAL: two modules may both define helpers of the
	 * same name */
	mod = g_module_open(path, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
	if (!mod) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
			    "cannot load policy module %s: %s", path,
			    g_module_error());
		return NULL;
	}
	symbol = module_symbol(path);
	if (!g_module_symbol(mod, symbol, &sym) || !sym) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
			    "policy module %s defines no %s (the ops table "
			    "of a module NAME.so is gs_policy_NAME)", path,
			    symbol);
		g_module_close(mod);
		return NULL;
	}
	why = gs_policy_ops_problem(sym, true);
	if (why) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
			    "policy module %s refused: %s", path, why);
		g_module_close(mod);
		return NULL;
	}
	/* the ops table outlives every scenario that names it */
	g_module_make_resident(mod);
	remember_file(sym, path);
	return sym;
}

const char *gs_policy_module_file(const struct gs_policy_ops *ops)
{
	const char *file;

	G_LOCK(loaded_files);
	file = loaded_files ? g_hash_table_lookup(loaded_files, ops) : NULL;
	G_UNLOCK(loaded_files);
	return file;
}
