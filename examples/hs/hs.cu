// hs: GUFI's HS (Rodinia HotSpot's algorithm, written anew): transient
// temperature of a chip on a grid_rows x grid_cols floor plan, explicit
// Euler steps of a 5-point RC stencil with the power dissipated per cell.
// Ghost-zone ("pyramid") blocking: a 16x16 CTA loads a 16x16 tile of
// temperature and power into shared memory and takes `iteration` steps in
// it, each step shrinking the valid region by one cell on every side, so a
// CTA writes only its inner (16 - 2*iteration)^2 cells; neighbouring CTAs
// overlap by 2*iteration cells. Cells on the chip's edge use their own
// temperature for the missing neighbour. hs.c mirrors the float arithmetic
// exactly (see step_cpu there); change them together.
// PTX: nvcc -ptx -arch=sm_75.

#define BLOCK_SIZE 16
#define AMB_TEMP 80.0f

#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

__global__ void calculate_temp(int iteration, float *power, float *temp_src,
			       float *temp_dst, int grid_cols, int grid_rows,
			       int border_cols, int border_rows, float Cap,
			       float Rx, float Ry, float Rz, float step)
{
	__shared__ float temp_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
	__shared__ float power_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
	__shared__ float temp_t[BLOCK_SIZE][BLOCK_SIZE];

	int tx = threadIdx.x, ty = threadIdx.y;
	float step_div_cap = step / Cap;
	float rx_1 = 1.0f / Rx, ry_1 = 1.0f / Ry, rz_1 = 1.0f / Rz;

	// The cells this CTA computes, and the tile (with its halo) it loads.
	int small_rows = BLOCK_SIZE - 2 * iteration;
	int small_cols = BLOCK_SIZE - 2 * iteration;
	int tile_y0 = small_rows * blockIdx.y - border_rows;
	int tile_x0 = small_cols * blockIdx.x - border_cols;
	int tile_y1 = tile_y0 + BLOCK_SIZE - 1;
	int tile_x1 = tile_x0 + BLOCK_SIZE - 1;
	int y = tile_y0 + ty, x = tile_x0 + tx;
	int index = grid_cols * y + x;

	if (IN_RANGE(y, 0, grid_rows - 1) && IN_RANGE(x, 0, grid_cols - 1)) {
		temp_on_cuda[ty][tx] = temp_src[index];
		power_on_cuda[ty][tx] = power[index];
	}
	__syncthreads();

	// The part of the tile that lies on the chip.
	int valid_y0 = tile_y0 < 0 ? -tile_y0 : 0;
	int valid_y1 = tile_y1 > grid_rows - 1 ? BLOCK_SIZE - 1 - (tile_y1 - grid_rows + 1) : BLOCK_SIZE - 1;
	int valid_x0 = tile_x0 < 0 ? -tile_x0 : 0;
	int valid_x1 = tile_x1 > grid_cols - 1 ? BLOCK_SIZE - 1 - (tile_x1 - grid_cols + 1) : BLOCK_SIZE - 1;

	int n = ty - 1 < valid_y0 ? valid_y0 : ty - 1;
	int s = ty + 1 > valid_y1 ? valid_y1 : ty + 1;
	int w = tx - 1 < valid_x0 ? valid_x0 : tx - 1;
	int e = tx + 1 > valid_x1 ? valid_x1 : tx + 1;

	bool computed = false;
	for (int i = 0; i < iteration; i++) {
		computed = false;
		if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
		    IN_RANGE(tx, valid_x0, valid_x1) && IN_RANGE(ty, valid_y0, valid_y1)) {
			float c = temp_on_cuda[ty][tx];
			computed = true;
			temp_t[ty][tx] = c + step_div_cap * (power_on_cuda[ty][tx] +
				(temp_on_cuda[s][tx] + temp_on_cuda[n][tx] - 2.0f * c) * ry_1 +
				(temp_on_cuda[ty][e] + temp_on_cuda[ty][w] - 2.0f * c) * rx_1 +
				(AMB_TEMP - c) * rz_1);
		}
		__syncthreads();
		if (i == iteration - 1)
			break;
		if (computed)
			temp_on_cuda[ty][tx] = temp_t[ty][tx];
		__syncthreads();
	}
	if (computed)
		temp_dst[index] = temp_t[ty][tx];
}
