// lud: blocked LU decomposition without pivoting, in place, of an n x n
// matrix (n a multiple of 16): A = L U, L unit lower triangular (stored
// below the diagonal), U upper (the shape of GUFI's LUD, Table I). For each
// diagonal block at `offset` the host launches
//   lud_diagonal   factors the 16 x 16 diagonal block;
//   lud_perimeter  the U blocks to its right and the L blocks below it;
//   lud_internal   the trailing matrix: a -= L-panel * U-panel, tile by tile;
// and, last, lud_diagonal on the final block. Every kernel works on tiles in
// shared memory. lud.c drives these kernels and mirrors their float
// arithmetic exactly (fused where nvcc fuses: see lud.c).
// PTX: nvcc -ptx -arch=sm_75 lud.cu -o lud.ptx

#define BS 16

// One CTA of BS threads factors the diagonal block in shared memory,
// right-looking: for each column k, thread t scales row t's entry of column
// k (the L multiplier), then updates column t of the rows below k.
__global__ void lud_diagonal(float *m, int matrix_dim, int offset)
{
	__shared__ float s[BS][BS];
	int t = threadIdx.x;
	float *base = m + offset * matrix_dim + offset;

	for (int i = 0; i < BS; i++)
		s[i][t] = base[i * matrix_dim + t];
	__syncthreads();
	for (int k = 0; k < BS - 1; k++) {
		if (t > k)
			s[t][k] = s[t][k] / s[k][k];
		__syncthreads();
		if (t > k)
			for (int i = k + 1; i < BS; i++)
				s[i][t] -= s[i][k] * s[k][t];
		__syncthreads();
	}
	for (int i = 1; i < BS; i++)
		base[i * matrix_dim + t] = s[i][t];
}

// CTA b (2 * BS threads) solves the b-th block right of the diagonal block
// (U12 = L11^-1 A12: the first BS threads, one column each, forward
// substitution with the unit lower L11) and the b-th block below it
// (L21 = A21 U11^-1: the other BS threads, one row each). The diagonal block
// and both perimeter blocks are staged in shared memory.
__global__ void lud_perimeter(float *m, int matrix_dim, int offset)
{
	__shared__ float dia[BS][BS];
	__shared__ float row[BS][BS];
	__shared__ float col[BS][BS];
	int t = threadIdx.x;
	int b = (blockIdx.x + 1) * BS;
	float *base = m + offset * matrix_dim + offset;

	if (t < BS) {
		for (int i = 0; i < BS; i++) {
			dia[i][t] = base[i * matrix_dim + t];
			row[i][t] = base[i * matrix_dim + b + t];
		}
	} else {
		int r = t - BS;
		for (int j = 0; j < BS; j++)
			col[r][j] = base[(b + r) * matrix_dim + j];
	}
	__syncthreads();
	if (t < BS) {
		for (int k = 0; k < BS - 1; k++)
			for (int i = k + 1; i < BS; i++)
				row[i][t] -= dia[i][k] * row[k][t];
		for (int i = 1; i < BS; i++)
			base[i * matrix_dim + b + t] = row[i][t];
	} else {
		int r = t - BS;
		for (int j = 0; j < BS; j++) {
			float v = col[r][j];
			for (int p = 0; p < j; p++)
				v -= col[r][p] * dia[p][j];
			col[r][j] = v / dia[j][j];
		}
		for (int j = 0; j < BS; j++)
			base[(b + r) * matrix_dim + j] = col[r][j];
	}
}

// CTA (bx, by) of BS x BS threads updates the trailing block at block row
// by + 1 and block column bx + 1 (past the diagonal block): its L tile (from
// the column panel) and U tile (from the row panel) go to shared memory,
// then each thread subtracts its row-by-column dot product, summed first.
__global__ void lud_internal(float *m, int matrix_dim, int offset)
{
	__shared__ float l[BS][BS];
	__shared__ float u[BS][BS];
	int tx = threadIdx.x, ty = threadIdx.y;
	int r0 = offset + (blockIdx.y + 1) * BS, c0 = offset + (blockIdx.x + 1) * BS;

	l[ty][tx] = m[(r0 + ty) * matrix_dim + offset + tx];
	u[ty][tx] = m[(offset + ty) * matrix_dim + c0 + tx];
	__syncthreads();
	float sum = 0.0f;
	for (int k = 0; k < BS; k++)
		sum += l[ty][k] * u[k][tx];
	m[(r0 + ty) * matrix_dim + c0 + tx] -= sum;
}
