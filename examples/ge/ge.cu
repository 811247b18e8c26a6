// ge: Gaussian elimination without pivoting on a dense n x n system A x = b
// (the shape of GUFI's GE, Table I). For each pivot t the host launches
// Fan1 (the multipliers of column t) then Fan2 (row t, scaled, is subtracted
// from every row below it); back substitution runs on the host. ge.c drives
// these kernels and mirrors their float arithmetic exactly.
// PTX: nvcc -ptx -arch=sm_75 ge.cu -o ge.ptx

// m[i][t] = a[i][t] / a[t][t] for the rows i below the pivot, one thread
// per row.
__global__ void Fan1(float *m, float *a, int n, int t)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;

	if (r >= n - 1 - t)
		return;
	int row = t + 1 + r;
	m[row * n + t] = a[row * n + t] / a[t * n + t];
}

// a[i][j] -= m[i][t] * a[t][j] for the rows i below the pivot and the
// columns j from t on, one thread per element (x: row, y: column); the
// threads of column t also update b. Nothing written here is read by
// another thread of the same launch: row t and m are only read. nvcc
// contracts each update into one fma.rn.f32 with the product negated.
// j1 is unused, as in the original's interface.
__global__ void Fan2(float *m, float *a, float *b, int n, int j1, int t)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	int c = blockIdx.y * blockDim.y + threadIdx.y;

	if (r >= n - 1 - t || c >= n - t)
		return;
	int row = t + 1 + r, col = t + c;
	float mult = m[row * n + t];
	a[row * n + col] -= mult * a[t * n + col];
	if (c == 0)
		b[row] -= mult * b[t];
}
