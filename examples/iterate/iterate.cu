// iterate: one implicit (backward-Euler) time step of the 1-D heat equation
// u_t = u_xx, solved by Jacobi relaxation, with fixed boundary values:
//   (1 + 2r) u_i - r (u_{i-1} + u_{i+1}) = uold_i,   r = dt / h^2.
// iterate.c drives these kernels from the host and mirrors their float
// arithmetic exactly (see jacobi_cpu there); change them together.
// PTX: nvcc -ptx -arch=sm_75.

// One Jacobi sweep: unew from u; uold is the field at the previous time step.
// inv is 1 / (1 + 2r), rounded to float by the host. nvcc contracts
// uold + r * s into one fma.rn.f32.
extern "C" __global__ void jacobi(const float *uold, const float *u, float *unew,
				  float r, float inv, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= n)
		return;
	if (i == 0 || i == n - 1)
		unew[i] = u[i];
	else
		unew[i] = (uold[i] + r * (u[i - 1] + u[i + 1])) * inv;
}

// *maxbits = max(*maxbits, |unew[i] - u[i]|) over all i. The bit patterns of
// non-negative floats order like unsigned integers, so an integer atomicMax
// on them is a float max. The host zeroes *maxbits before each launch.
extern "C" __global__ void maxchange(const float *u, const float *unew,
				     unsigned *maxbits, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		atomicMax(maxbits, __float_as_uint(fabsf(unew[i] - u[i])));
}
