/* DCUDA Table 1 as a job library. The paper gives names only, plus "around
 * 30 s" alone on a GTX 1080 Ti; the demand (share of the GPU's cores the
 * application's kernels occupy), the kernel length, the run length, the
 * footprint and the host start-up below are our own estimates from what
 * each benchmark does:
 *   - dense compute (MatrixMul, MaxFlops, MD5Hash, S3D, alexnet) fills most
 *     of the GPU: 64-80%;
 *   - streaming kernels (BlackScholes, Triad, Sort, FFT, mnist_cnn,
 *     cifar10) are memory bound with fair occupancy: 40-56%;
 *   - small or irregular work (transpose, Scan, BFS, Reduction, Kmeans,
 *     eigenvalues) and small networks (mnist_mlp, the autoencoders) leave
 *     most cores idle: 16-36%.
 * Kernel lengths are per launch step (a training step, a benchmark pass),
 * 5-30 ms; GPU parts 20-45 s; start-up (context, data, graph building)
 * 0.5 s for the CUDA Samples, 1 s for SHOC, 4 s for TensorFlow. The mean
 * demand is 0.45 GPU, so twenty arrivals 5 s apart keep a node of four
 * GPUs about 70% busy: the paper's medium load, where placement matters
 * most. */
#include "workloads/dcuda_apps.h"

#include <glib.h>

#define MS(x) ((gs_time_t)(x) * GS_NS_PER_MS)
#define S(x) ((gs_time_t)(x) * GS_NS_PER_S)

const struct gs_job_desc gs_jobs[] = {
	{ "MatrixMul", "CUDA Samples", 720, MS(20), S(30), 600, MS(500) },
	{ "BlackScholes", "CUDA Samples", 560, MS(10), S(25), 800, MS(500) },
	{ "eigenvalues", "CUDA Samples", 320, MS(15), S(30), 200, MS(500) },
	{ "transpose", "CUDA Samples", 240, MS(5), S(20), 500, MS(500) },
	{ "Triad", "SHOC", 400, MS(10), S(25), 1200, S(1) },
	{ "MaxFlops", "SHOC", 800, MS(25), S(35), 100, S(1) },
	{ "MD5Hash", "SHOC", 640, MS(20), S(30), 100, S(1) },
	{ "Sort", "SHOC", 480, MS(10), S(25), 1000, S(1) },
	{ "FFT", "SHOC", 520, MS(15), S(30), 1500, S(1) },
	{ "Scan", "SHOC", 280, MS(5), S(20), 700, S(1) },
	{ "S3D", "SHOC", 680, MS(25), S(40), 1800, S(1) },
	{ "BFS", "SHOC", 200, MS(10), S(30), 900, S(1) },
	{ "Reduction", "SHOC", 360, MS(5), S(20), 600, S(1) },
	{ "AutoencoderRunner", "TensorFlow", 240, MS(15), S(35), 1100, S(4) },
	{ "VariationalAutoencoderRunner", "TensorFlow", 280, MS(15), S(35),
	  1200, S(4) },
	{ "mnist_cnn", "TensorFlow", 480, MS(20), S(40), 2000, S(4) },
	{ "mnist_mlp", "TensorFlow", 160, MS(10), S(30), 800, S(4) },
	{ "alexnet", "TensorFlow", 760, MS(30), S(45), 3000, S(4) },
	{ "Kmeans", "TensorFlow", 320, MS(10), S(30), 700, S(4) },
	{ "cifar10", "TensorFlow", 560, MS(25), S(40), 2500, S(4) },
};

const uint32_t gs_n_jobs = G_N_ELEMENTS(gs_jobs);

const struct gs_job_desc *gs_job_find(const char *name)
{
	uint32_t i;

	for (i = 0; i < gs_n_jobs; i++)
		if (!g_ascii_strcasecmp(gs_jobs[i].name, name))
			return &gs_jobs[i];
	return NULL;
}
