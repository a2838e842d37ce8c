/* NEON Table 1 (Menychtas et al., ASPLOS'14): round time and mean request
 * size of each benchmark alone on a Kepler GTX670. The two compute+graphics
 * apps report one request size per channel. */
#include "workloads/apps.h"

#include <glib.h>

#define US GS_NS_PER_US

const struct gs_app_desc gs_apps[] = {
	{ "BinarySearch", "Searching", 161 * US, { 57 * US, 0 }, 1 },
	{ "BitonicSort", "Sorting", 1292 * US, { 202 * US, 0 }, 1 },
	{ "DCT", "Compression", 197 * US, { 66 * US, 0 }, 1 },
	{ "EigenValue", "Algebra", 163 * US, { 56 * US, 0 }, 1 },
	{ "FastWalshTransform", "Encryption", 310 * US, { 119 * US, 0 }, 1 },
	{ "FFT", "Signal Processing", 268 * US, { 48 * US, 0 }, 1 },
	{ "FloydWarshall", "Graph Analysis", 5631 * US, { 141 * US, 0 }, 1 },
	{ "LUDecomposition", "Algebra", 1490 * US, { 308 * US, 0 }, 1 },
	{ "MatrixMulDouble", "Algebra", 12628 * US, { 637 * US, 0 }, 1 },
	{ "MatrixMultiplication", "Algebra", 3788 * US, { 436 * US, 0 }, 1 },
	{ "MatrixTranspose", "Algebra", 1153 * US, { 284 * US, 0 }, 1 },
	{ "PrefixSum", "Data Processing", 157 * US, { 55 * US, 0 }, 1 },
	{ "RadixSort", "Sorting", 8082 * US, { 210 * US, 0 }, 1 },
	{ "Reduction", "Data Processing", 1147 * US, { 282 * US, 0 }, 1 },
	{ "ScanLargeArrays", "Data Processing", 197 * US, { 72 * US, 0 }, 1 },
	{ "glxgears", "Graphics", 72 * US, { 37 * US, 0 }, 1 },
	{ "oclParticles", "Physics/Graphics", 2006 * US, { 12 * US, 302 * US },
	  2 },
	{ "simpleTexture3D", "Texturing/Graphics", 2472 * US,
	  { 108 * US, 171 * US }, 2 },
};

const uint32_t gs_n_apps = G_N_ELEMENTS(gs_apps);

const struct gs_app_desc *gs_app_find(const char *name)
{
	uint32_t i;

	for (i = 0; name && i < gs_n_apps; i++)
		if (!g_ascii_strcasecmp(gs_apps[i].name, name))
			return &gs_apps[i];
	return NULL;
}
