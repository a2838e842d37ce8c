/* A launch's `content:` mapping: what the command group holds, as a
 * driver could read it from the group (GERM's cost heuristics, Dwarakinath
 * 2008, 4.5 and 4.7.3). The command's engine time stays the launch's
 * `kernel:`; these are only what a policy may estimate it from. */
#include "workloads/config_internal.h"

/* A size in bytes that fits the command's 32-bit field. */
static int content_bytes(struct cfg *c, const yaml_node_t *n,
			 const char *what, uint32_t *out)
{
	uint64_t v;

	if (cfg_bytes(c, n, what, &v) < 0)
		return -1;
	if (v > UINT32_MAX)
		return cfg_error(c, n, "%s: at most 4GiB - 1 in one command group",
				 what);
	*out = (uint32_t)v;
	return 0;
}

int cfg_content(struct cfg *c, const yaml_node_t *map,
		struct gs_cmd_content *out)
{
	static const char *const keys[] = {
		"texture_bytes", "swaps", "vertices", "cmd_bytes", NULL,
	};
	const yaml_node_t *n;

	if (cfg_expect_map(c, map, "content") < 0 ||
	    cfg_map_check(c, map, "content", keys) < 0)
		return -1;
	n = cfg_map_get(c, map, "texture_bytes");
	if (n && content_bytes(c, n, "texture_bytes", &out->texture_bytes) < 0)
		return -1;
	n = cfg_map_get(c, map, "swaps");
	if (n && cfg_u32(c, n, "swaps", 0, UINT32_MAX, &out->swaps) < 0)
		return -1;
	n = cfg_map_get(c, map, "vertices");
	if (n && cfg_u32(c, n, "vertices", 0, UINT32_MAX, &out->vertices) < 0)
		return -1;
	n = cfg_map_get(c, map, "cmd_bytes");
	if (n && content_bytes(c, n, "cmd_bytes", &out->cmd_bytes) < 0)
		return -1;
	return 0;
}
