// km: k-means clustering (the shape of GUFI's KM, Table I). invert_mapping
// transposes the points once into feature-major order; then the host runs
// Lloyd's iterations: kmeansPoint assigns every point to its nearest centre
// (squared Euclidean distance), the host averages each cluster's points into
// its new centre, until no point changes cluster. km.c drives these kernels
// and mirrors their float arithmetic exactly.
// PTX: nvcc -ptx -arch=sm_75 km.cu -o km.ptx

#include <float.h>

// output[f][p] = input[p][f]: one thread per point, so that in kmeansPoint
// the threads of a warp read consecutive addresses for each feature.
__global__ void invert_mapping(float *input, float *output, int npoints, int nfeatures)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;

	if (p >= npoints)
		return;
	for (int f = 0; f < nfeatures; f++)
		output[f * npoints + p] = input[p * nfeatures + f];
}

// membership[p] = the index of the centre nearest to point p (the first one
// on a tie), one thread per point on a 2-D grid of 1-D blocks. features is
// feature-major (invert_mapping's output), clusters centre-major. Each
// distance is accumulated feature by feature; nvcc contracts the step into
// one fma.rn.f32 of the difference with itself. block_clusters and
// block_deltas are the original's per-block partial results, which its
// default build leaves unused; they stay in the interface, unused.
__global__ void kmeansPoint(float *features, int nfeatures, int npoints, int nclusters,
			    int *membership, float *clusters, float *block_clusters,
			    int *block_deltas)
{
	int block = blockIdx.y * gridDim.x + blockIdx.x;
	int p = block * blockDim.x + threadIdx.x;

	if (p >= npoints)
		return;
	int best = 0;
	float best_dist = FLT_MAX;
	for (int c = 0; c < nclusters; c++) {
		float dist = 0.0f;
		for (int f = 0; f < nfeatures; f++) {
			float d = features[f * npoints + p] - clusters[c * nfeatures + f];
			dist += d * d;
		}
		if (dist < best_dist) {
			best_dist = dist;
			best = c;
		}
	}
	membership[p] = best;
}
