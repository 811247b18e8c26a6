// nw: Needleman-Wunsch global alignment scores of two sequences of length
// n (a multiple of 16), the (n+1) x (n+1) score matrix filled tile by tile
// (the shape of GUFI's NW, Table I). The matrix is cut into 16 x 16 tiles;
// the tiles of one anti-diagonal of tiles are independent, so the host
// launches one kernel per tile anti-diagonal, one CTA of 16 threads per
// tile: needle_cuda_shared_1 for the diagonals that grow (1, 2, ... w tiles,
// w = n / 16 = block_width), needle_cuda_shared_2 for those that shrink
// (w - 1, ... 1). In a tile the 16 threads sweep its 31 cell anti-diagonals
// in shared memory. nw.c drives these kernels and checks the matrix against
// a CPU fill.
// PTX: nvcc -ptx -arch=sm_75 nw.cu -o nw.ptx

#define BS 16

// Fills the tile whose top-left interior cell is score[(by*BS + 1) * cols +
// bx*BS + 1]: the tile's substitution scores and its north and west borders
// (already final) go to shared memory, each cell becomes
//   max(nw + ref, west - penalty, north - penalty),
// and the tile is written back.
__device__ void fill_tile(const int *ref, int *score, int cols, int penalty, int bx, int by)
{
	__shared__ int t[BS + 1][BS + 1];
	__shared__ int s[BS][BS];
	int tx = threadIdx.x;
	int first = (by * BS + 1) * cols + bx * BS + 1;

	for (int y = 0; y < BS; y++)
		s[y][tx] = ref[first + y * cols + tx];
	if (tx == 0)
		t[0][0] = score[first - cols - 1];
	t[0][tx + 1] = score[first - cols + tx];
	t[tx + 1][0] = score[first + tx * cols - 1];
	__syncthreads();
	// the upper-left half of the tile's anti-diagonals, then the lower-right
	for (int m = 0; m < 2 * BS - 1; m++) {
		int k = m < BS ? m : 2 * BS - 2 - m; // this diagonal has k + 1 cells
		if (tx <= k) {
			int x = m < BS ? tx + 1 : tx + m - BS + 2;
			int y = m < BS ? m - tx + 1 : BS - tx;
			int best = t[y - 1][x - 1] + s[y - 1][x - 1];
			int w = t[y][x - 1] - penalty, nth = t[y - 1][x] - penalty;
			best = best > w ? best : w;
			t[y][x] = best > nth ? best : nth;
		}
		__syncthreads();
	}
	for (int y = 0; y < BS; y++)
		score[first + y * cols + tx] = t[y + 1][tx + 1];
}

// Tile anti-diagonal i - 1 (i = 1 .. block_width): CTA b fills tile
// (column b, row i - 1 - b).
__global__ void needle_cuda_shared_1(int *referrence, int *matrix_cuda, int cols, int penalty,
				     int i, int block_width)
{
	int b = blockIdx.x;
	fill_tile(referrence, matrix_cuda, cols, penalty, b, i - 1 - b);
}

// Tile anti-diagonal 2 * block_width - 1 - i (i = block_width - 1 .. 1):
// CTA b fills tile (column block_width - i + b, row block_width - 1 - b).
__global__ void needle_cuda_shared_2(int *referrence, int *matrix_cuda, int cols, int penalty,
				     int i, int block_width)
{
	int b = blockIdx.x;
	fill_tile(referrence, matrix_cuda, cols, penalty, block_width - i + b, block_width - 1 - b);
}
