// texscale: bilinear upscaling of a W x H float image read through a texture
// object (normalized coordinates, linear filtering, clamp addressing): each
// thread writes one pixel of the (S*W) x (S*H) result. The host program is
// texscale.c (the simcore API). PTX: nvcc -ptx -arch=sm_75 texscale.cu.

__global__ void upscale(cudaTextureObject_t img, float *out, int ow, int oh)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;

	if (x < ow && y < oh)
		out[y * ow + x] = tex2D<float>(img, (x + 0.5f) / ow, (y + 0.5f) / oh);
}
