// lps: GUFI's LPS (the ispass2009 LPS benchmark's algorithm, after Giles'
// laplace3d, written anew): one Jacobi sweep of the 3-D Laplace equation on
// an NX x NY x NZ grid with fixed (Dirichlet) boundary values: every interior
// point becomes the mean of its six neighbours.
// A 32 x 4 CTA owns a column of the grid and marches through it in z. Its
// current xy-plane, with a one-point halo in x and y, sits in shared memory
// (the x/y neighbours come from other threads); the z neighbours stay in
// each thread's registers as it advances. lps.c mirrors the float
// arithmetic exactly (see sweep_cpu there); change them together.
// PTX: nvcc -ptx -arch=sm_75.

#define BLOCK_X 32
#define BLOCK_Y 4
// Halo points of a plane tile: two rows of BLOCK_X, two columns of BLOCK_Y.
#define NHALO (2 * BLOCK_X + 2 * BLOCK_Y)

// Point (i, j, k) is u[i + j * pitch + k * pitch * NY]; pitch >= NX.
__global__ void GPU_laplace3d(int NX, int NY, int NZ, int pitch, float *d_u1, float *d_u2)
{
	__shared__ float plane[BLOCK_Y + 2][BLOCK_X + 2];

	const float sixth = 1.0f / 6.0f;
	int tx = threadIdx.x, ty = threadIdx.y;
	int i = blockIdx.x * BLOCK_X + tx;
	int j = blockIdx.y * BLOCK_Y + ty;
	long stride = (long)pitch * NY;  // one xy-plane
	int active = i < NX && j < NY;
	int interior = i > 0 && i < NX - 1 && j > 0 && j < NY - 1;
	long ind = i + (long)j * pitch;

	// The first NHALO threads each also load one halo point per plane:
	// rows above and below the tile, then the columns left and right of it.
	int t = tx + ty * BLOCK_X;
	int hx = 0, hy = 0, halo = 0;
	long hind = 0;
	if (t < NHALO) {
		if (t < 2 * BLOCK_X) {
			hx = t % BLOCK_X;
			hy = t < BLOCK_X ? -1 : BLOCK_Y;
		} else {
			hx = (t - 2 * BLOCK_X) % 2 ? BLOCK_X : -1;
			hy = (t - 2 * BLOCK_X) / 2;
		}
		int gi = blockIdx.x * BLOCK_X + hx, gj = blockIdx.y * BLOCK_Y + hy;
		halo = gi >= 0 && gi < NX && gj >= 0 && gj < NY;
		hind = gi + (long)gj * pitch;
	}

	float below = 0.0f, here = 0.0f, above = 0.0f;
	if (active) {
		here = d_u1[ind];
		if (NZ > 1)
			above = d_u1[ind + stride];
	}
	for (int k = 0; k < NZ; k++) {
		__syncthreads();  // everyone is done with the previous plane
		if (active)
			plane[ty + 1][tx + 1] = here;
		if (halo)
			plane[hy + 1][hx + 1] = d_u1[hind + k * stride];
		__syncthreads();

		if (active) {
			float u2;
			if (interior && k > 0 && k < NZ - 1)
				u2 = (plane[ty + 1][tx] + plane[ty + 1][tx + 2] + plane[ty][tx + 1] +
				      plane[ty + 2][tx + 1] + below + above) * sixth;
			else
				u2 = here;
			d_u2[ind + k * stride] = u2;
			below = here;
			here = above;
			if (k + 2 < NZ)
				above = d_u1[ind + (k + 2) * stride];
		}
	}
}
