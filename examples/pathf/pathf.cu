// pathf: GUFI's PATHF (Rodinia PathFinder's algorithm, written anew):
// dynamic programming over a rows x cols grid of weights. A path starts
// anywhere in row 0 and each step goes to the next row straight ahead or
// one column left or right; cost[r][x] = wall[r][x] + min(cost[r-1][x-1],
// cost[r-1][x], cost[r-1][x+1]), a missing column (the grid's edge)
// standing for nothing. The last row's costs are the result.
// Ghost-zone ("pyramid") blocking: a 256-thread CTA loads 256 costs of a
// row into shared memory and advances `iteration` rows there, its valid
// region shrinking by one column per side each row, then writes its inner
// 256 - 2*iteration columns; neighbouring CTAs overlap by 2*border columns.
// PTX: nvcc -ptx -arch=sm_75.

#define BLOCK_SIZE 256
#define HALO 1

#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

// gpuWall holds rows 1..rows-1 of the weights (row r at (r - 1) * cols);
// gpuSrc is the cost row startStep, gpuResults gets row startStep + iteration.
__global__ void dynproc_kernel(int iteration, int *gpuWall, int *gpuSrc, int *gpuResults,
			       int cols, int rows, int startStep, int border)
{
	__shared__ int prev[BLOCK_SIZE];
	__shared__ int result[BLOCK_SIZE];

	int tx = threadIdx.x;
	int small_cols = BLOCK_SIZE - iteration * HALO * 2;
	int tile_x0 = small_cols * blockIdx.x - border;
	int tile_x1 = tile_x0 + BLOCK_SIZE - 1;
	int x = tile_x0 + tx;

	// The part of the tile that lies on the grid.
	int valid_x0 = tile_x0 < 0 ? -tile_x0 : 0;
	int valid_x1 = tile_x1 > cols - 1 ? BLOCK_SIZE - 1 - (tile_x1 - cols + 1) : BLOCK_SIZE - 1;
	int w = tx - 1 < valid_x0 ? valid_x0 : tx - 1;
	int e = tx + 1 > valid_x1 ? valid_x1 : tx + 1;
	bool valid = IN_RANGE(tx, valid_x0, valid_x1);

	if (IN_RANGE(x, 0, cols - 1))
		prev[tx] = gpuSrc[x];
	__syncthreads();

	bool computed = false;
	for (int i = 0; i < iteration; i++) {
		computed = false;
		if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && valid) {
			int best = min(prev[w], prev[tx]);
			best = min(best, prev[e]);
			computed = true;
			result[tx] = best + gpuWall[cols * (startStep + i) + x];
		}
		__syncthreads();
		if (i == iteration - 1)
			break;
		if (computed)
			prev[tx] = result[tx];
		__syncthreads();
	}
	if (computed)
		gpuResults[x] = result[tx];
}
