// Kernels of tex_host.c (the CUDA runtime's texture and surface entry points
// without nvcc): a 2-D fetch, tex1Dfetch on linear memory, and a 3-D surface
// copy that doubles each element. The PTX and fatbinary are committed
// (make-fixtures.sh remakes them).
extern "C" __global__ void tex_fetch(cudaTextureObject_t t, const float2 *c, float4 *o)
{
	int i = threadIdx.x;
	o[i] = tex2D<float4>(t, c[i].x, c[i].y);
}
extern "C" __global__ void tex_linear(cudaTextureObject_t t, float4 *o)
{
	int i = threadIdx.x;
	o[i] = tex1Dfetch<float4>(t, i - 1);
}
extern "C" __global__ void surf_double(cudaSurfaceObject_t in, cudaSurfaceObject_t out)
{
	int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
	int v = surf3Dread<int>(in, x * 4, y, z);
	surf3Dwrite(2 * v, out, x * 4, y, z);
}
