// ms: stable merge sort of (key, value) pairs of 32-bit unsigned integers
// (the shape of GUFI's MS, Table I: the CUDA SDK's merge-sort scheme).
// 1. mergeSortSharedKernel sorts each segment of SEG = 1024 pairs in shared
//    memory, one CTA of SEG / 2 threads per segment.
// 2. Then passes double the sorted run length (stride) until one run is
//    left. Each pass merges every pair of runs A, B (stride long each) by
//    cutting them into elementary intervals of at most SAMPLE pairs from A
//    and SAMPLE from B that can be merged independently:
//    generateSampleRanksKernel  every SAMPLE-th key of A and of B is a
//        sample; each sample gives a cut (a, b): how many of A and of B come
//        before it in the stable merge;
//    mergeRanksAndIndicesKernel the cuts' a (then b) values of A's and B's
//        samples, two sorted lists, merged into one sorted list (run once
//        for the a values, once for the b values: both orders agree);
//    mergeElementaryIntervalsKernel one CTA per interval merges its pieces
//        of A and B in shared memory.
// Stability: an element of A goes before an equal one of B (A's ranks in B
// count the keys strictly before, B's ranks in A count those not after).
// The template argument is the direction (1: ascending; only 1 is used).
// ms.c drives these kernels and checks against a CPU stable sort.
// PTX: nvcc -ptx -arch=sm_75 ms.cu -o ms.ptx

#define SEG 1024   // pairs sorted per CTA by mergeSortSharedKernel
#define SAMPLE 128 // sampling distance, elementary interval bound, CTA size of the merge

// a goes strictly before b in the sort order.
template <unsigned asc> __device__ bool before(unsigned a, unsigned b)
{
	return asc ? a < b : a > b;
}

// How many of the sorted a[0 .. n) go strictly before key (lower bound).
template <unsigned asc> __device__ unsigned rank_before(unsigned key, const unsigned *a, unsigned n)
{
	unsigned lo = 0, hi = n;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (before<asc>(a[mid], key))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

// How many of the sorted a[0 .. n) do not go after key (upper bound).
template <unsigned asc> __device__ unsigned rank_upto(unsigned key, const unsigned *a, unsigned n)
{
	unsigned lo = 0, hi = n;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (before<asc>(key, a[mid]))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

// Sorts segment blockIdx.x (arrayLength = SEG pairs) in shared memory by
// repeated merging of neighbouring runs of width w = 1, 2, 4, ...: thread i
// owns element j = i % w of left run and right run of pair i / w, and puts
// each at j plus its rank in the other run.
template <unsigned asc>
__global__ void mergeSortSharedKernel(unsigned *dstKey, unsigned *dstVal, unsigned *srcKey,
				      unsigned *srcVal, unsigned arrayLength)
{
	__shared__ unsigned key[SEG];
	__shared__ unsigned val[SEG];
	unsigned seg = blockIdx.x * arrayLength, t = threadIdx.x, half = arrayLength / 2;

	key[t] = srcKey[seg + t];
	val[t] = srcVal[seg + t];
	key[t + half] = srcKey[seg + t + half];
	val[t + half] = srcVal[seg + t + half];
	for (unsigned w = 1; w < arrayLength; w *= 2) {
		unsigned j = t % w, base = 2 * (t - j);
		__syncthreads();
		unsigned ka = key[base + j], va = val[base + j];
		unsigned kb = key[base + w + j], vb = val[base + w + j];
		unsigned pa = j + rank_before<asc>(ka, key + base + w, w);
		unsigned pb = j + rank_upto<asc>(kb, key + base, w);
		__syncthreads();
		key[base + pa] = ka;
		val[base + pa] = va;
		key[base + pb] = kb;
		val[base + pb] = vb;
	}
	__syncthreads();
	dstKey[seg + t] = key[t];
	dstVal[seg + t] = val[t];
	dstKey[seg + t + half] = key[t + half];
	dstVal[seg + t + half] = val[t + half];
}

// Thread t handles sample i = t % S of run pair p = t / S, S = stride /
// SAMPLE samples per run: A's sample (key A[i * SAMPLE]) gets the cut
// (i * SAMPLE, its rank in B) at index i of the pair's 2S entries, B's
// sample the cut (its rank in A, i * SAMPLE) at index S + i. N is a
// multiple of 2 * stride. threadCount = N / (2 * SAMPLE).
template <unsigned asc>
__global__ void generateSampleRanksKernel(unsigned *ranksA, unsigned *ranksB, unsigned *srcKey,
					  int stride, int N, int threadCount)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;

	if (t >= (unsigned)threadCount)
		return;
	unsigned s = stride / SAMPLE, i = t % s, p = t / s;
	const unsigned *a = srcKey + p * 2 * stride, *b = a + stride;
	unsigned *ra = ranksA + p * 2 * s, *rb = ranksB + p * 2 * s;
	ra[i] = i * SAMPLE;
	rb[i] = rank_before<asc>(a[i * SAMPLE], b, stride);
	ra[s + i] = rank_upto<asc>(b[i * SAMPLE], a, stride);
	rb[s + i] = i * SAMPLE;
}

// Merges, for every run pair, the two sorted halves of its 2S ranks (A's
// samples', then B's) into d_Limits: thread t places element i = t % S of
// each half at i plus its rank in the other half (the first half first on
// ties). threadCount = N / (2 * SAMPLE).
__global__ void mergeRanksAndIndicesKernel(unsigned *d_Limits, unsigned *d_Ranks, int stride, int N,
					   int threadCount)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;

	if (t >= (unsigned)threadCount)
		return;
	unsigned s = stride / SAMPLE, i = t % s, p = t / s;
	const unsigned *r = d_Ranks + p * 2 * s;
	unsigned *lim = d_Limits + p * 2 * s;
	lim[i + rank_before<1>(r[i], r + s, s)] = r[i];
	lim[i + rank_upto<1>(r[s + i], r, s)] = r[s + i];
}

// CTA k merges elementary interval k % (2S) of run pair k / (2S): A from
// limitsA[k] up to the next cut (or the run's end), B likewise, each piece
// at most SAMPLE long, staged in shared memory and merged by ranks; the
// output starts at the interval's cut a + b in the pair's merged run.
template <unsigned asc>
__global__ void mergeElementaryIntervalsKernel(unsigned *dstKey, unsigned *dstVal, unsigned *srcKey,
					       unsigned *srcVal, unsigned *limitsA,
					       unsigned *limitsB, int stride, int N)
{
	__shared__ unsigned ka[SAMPLE], va[SAMPLE], kb[SAMPLE], vb[SAMPLE];
	__shared__ unsigned ko[2 * SAMPLE], vo[2 * SAMPLE];
	unsigned t = threadIdx.x, ints = 2 * (stride / SAMPLE);
	unsigned k = blockIdx.x % ints, p = blockIdx.x / ints;
	unsigned ia = p * ints + k;
	unsigned a0 = limitsA[ia], b0 = limitsB[ia];
	unsigned a1 = k + 1 < ints ? limitsA[ia + 1] : stride;
	unsigned b1 = k + 1 < ints ? limitsB[ia + 1] : stride;
	unsigned na = a1 - a0, nb = b1 - b0;
	unsigned base = p * 2 * stride;

	if (t < na) {
		ka[t] = srcKey[base + a0 + t];
		va[t] = srcVal[base + a0 + t];
	}
	if (t < nb) {
		kb[t] = srcKey[base + stride + b0 + t];
		vb[t] = srcVal[base + stride + b0 + t];
	}
	__syncthreads();
	if (t < na) {
		unsigned pos = t + rank_before<asc>(ka[t], kb, nb);
		ko[pos] = ka[t];
		vo[pos] = va[t];
	}
	if (t < nb) {
		unsigned pos = t + rank_upto<asc>(kb[t], ka, na);
		ko[pos] = kb[t];
		vo[pos] = vb[t];
	}
	__syncthreads();
	unsigned out = base + a0 + b0;
	if (t < na + nb) {
		dstKey[out + t] = ko[t];
		dstVal[out + t] = vo[t];
	}
	if (t + SAMPLE < na + nb) {
		dstKey[out + t + SAMPLE] = ko[t + SAMPLE];
		dstVal[out + t + SAMPLE] = vo[t + SAMPLE];
	}
}

template __global__ void mergeSortSharedKernel<1u>(unsigned *, unsigned *, unsigned *, unsigned *, unsigned);
template __global__ void generateSampleRanksKernel<1u>(unsigned *, unsigned *, unsigned *, int, int,
						       int);
template __global__ void mergeElementaryIntervalsKernel<1u>(unsigned *, unsigned *, unsigned *, unsigned *,
							    unsigned *, unsigned *, int, int);
