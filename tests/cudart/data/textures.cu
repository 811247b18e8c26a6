// Texture and surface objects end to end, for tests/cudart/nvcc.sh: 1-D,
// 2-D, 3-D and layered textures over arrays, pitched and linear memory;
// point and linear filtering, each addressing mode, normalized coordinates,
// element and normalized-float reads of 8/16/32-bit and half channels,
// tex2Dgather, tex2DLod/Grad, txq/suq, and surfaces read and written with
// each out-of-range mode. A host reference written from the CUDA
// programming guide's texture-fetching appendix checks every result; the
// program prints "textures: N checks, M mismatches" and exits 1 on any.
// With an argument it ends with a .trap surface write out of range and
// prints what cudaDeviceSynchronize returns.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>

#define N 96 /* coordinates per test */

__global__ void k1d(cudaTextureObject_t t, const float *x, float4 *o) { int i = threadIdx.x; o[i] = tex1D<float4>(t, x[i]); }
__global__ void k2d(cudaTextureObject_t t, const float2 *c, float4 *o) { int i = threadIdx.x; o[i] = tex2D<float4>(t, c[i].x, c[i].y); }
__global__ void k3d(cudaTextureObject_t t, const float4 *c, float4 *o)
{
	int i = threadIdx.x;
	o[i] = tex3D<float4>(t, c[i].x, c[i].y, c[i].z);
}
__global__ void kfetch(cudaTextureObject_t t, const int *x, float4 *o) { int i = threadIdx.x; o[i] = tex1Dfetch<float4>(t, x[i]); }
__global__ void k2di(cudaTextureObject_t t, const float2 *c, int4 *o) { int i = threadIdx.x; o[i] = tex2D<int4>(t, c[i].x, c[i].y); }
__global__ void klayer(cudaTextureObject_t t1, cudaTextureObject_t t2, const float4 *c, float4 *o)
{
	int i = threadIdx.x;
	o[2 * i] = tex1DLayered<float4>(t1, c[i].x, (int)c[i].w);
	o[2 * i + 1] = tex2DLayered<float4>(t2, c[i].x, c[i].y, (int)c[i].w);
}
__global__ void kgather(cudaTextureObject_t t, const float2 *c, float4 *o)
{
	int i = threadIdx.x;
	o[4 * i] = tex2Dgather<float4>(t, c[i].x, c[i].y, 0);
	o[4 * i + 1] = tex2Dgather<float4>(t, c[i].x, c[i].y, 1);
	o[4 * i + 2] = tex2Dgather<float4>(t, c[i].x, c[i].y, 2);
	o[4 * i + 3] = tex2Dgather<float4>(t, c[i].x, c[i].y, 3);
}
__global__ void klod(cudaTextureObject_t t, const float2 *c, float4 *o)
{
	int i = threadIdx.x;
	o[2 * i] = tex2DLod<float4>(t, c[i].x, c[i].y, 1.5f);
	o[2 * i + 1] = tex2DGrad<float4>(t, c[i].x, c[i].y, make_float2(2.f, 0.f), make_float2(0.f, 3.f));
}
__global__ void kquery(cudaTextureObject_t t, cudaSurfaceObject_t s, int *o)
{
	int v[9];
	asm("txq.width.b32 %0, [%1];" : "=r"(v[0]) : "l"(t));
	asm("txq.height.b32 %0, [%1];" : "=r"(v[1]) : "l"(t));
	asm("txq.channel_data_type.b32 %0, [%1];" : "=r"(v[2]) : "l"(t));
	asm("txq.channel_order.b32 %0, [%1];" : "=r"(v[3]) : "l"(t));
	asm("txq.normalized_coords.b32 %0, [%1];" : "=r"(v[4]) : "l"(t));
	asm("txq.filter_mode.b32 %0, [%1];" : "=r"(v[5]) : "l"(t));
	asm("txq.addr_mode_1.b32 %0, [%1];" : "=r"(v[6]) : "l"(t));
	asm("suq.width.b32 %0, [%1];" : "=r"(v[7]) : "l"(s));
	asm("suq.depth.b32 %0, [%1];" : "=r"(v[8]) : "l"(s));
	for (int k = 0; k < 9; k++)
		o[k] = v[k];
}
// Surfaces: a 2-D float surface copied element by element with offsets, so
// that some reads fall outside (zero and clamp modes), into a 2-D uint2
// surface; a 3-D short surface and layered ones written then read back.
__global__ void ksurf(cudaSurfaceObject_t in, cudaSurfaceObject_t out2, cudaSurfaceObject_t s3, cudaSurfaceObject_t l1,
                      cudaSurfaceObject_t l2, float *o)
{
	int x = threadIdx.x, y = blockIdx.x;
	float a = surf2Dread<float>(in, (x - 2) * 4, y - 1, cudaBoundaryModeZero);
	float b = surf2Dread<float>(in, (x + 3) * 4, y + 2, cudaBoundaryModeClamp);
	surf2Dwrite(make_uint2(__float_as_uint(a), __float_as_uint(b)), out2, x * 8, y);
	surf2Dwrite(make_uint2(7u, 7u), out2, (x + 100) * 8, y, cudaBoundaryModeZero); // outside: ignored
	surf3Dwrite((short)(x * 100 + y), s3, x * 2, y % 3, y / 3);
	surf1DLayeredwrite((unsigned char)(x + y), l1, x, y);
	surf2DLayeredwrite(make_float4(x, y, x + y, x * y), l2, x * 16, y % 2, y / 2);
	__syncthreads();
	int i = y * blockDim.x + x;
	o[4 * i] = surf3Dread<short>(s3, ((x + 1) % blockDim.x) * 2, y % 3, y / 3);
	o[4 * i + 1] = surf1DLayeredread<unsigned char>(l1, x, y);
	float4 f = surf2DLayeredread<float4>(l2, x * 16, y % 2, y / 2);
	o[4 * i + 2] = f.z;
	o[4 * i + 3] = surf1DLayeredread<unsigned char>(l1, (x + 40) * 1, y, cudaBoundaryModeClamp);
}
__global__ void ktrap(cudaSurfaceObject_t s) { surf2Dwrite(1.0f, s, 4 * 1000, 0, cudaBoundaryModeTrap); }

/* ---------------------------------------------------------------- the host reference */
struct Tex {
	int w, h, d;         /* d: layers when layered */
	int nch, bits, kind; /* kind: 0 signed, 1 unsigned, 2 float */
	bool layered, linmem;
	const void *data;    /* packed rows */
	size_t pitch;        /* bytes per row */
	cudaTextureDesc td;
};

static float chan(const Tex &t, int x, int y, int z, int c, bool *isint, uint32_t *raw)
{
	const uint8_t *p = (const uint8_t *)t.data + ((size_t)z * t.h + y) * t.pitch + (size_t)x * t.nch * t.bits / 8;
	*isint = false;
	if (c >= t.nch) {
		*raw = c == 3;
		*isint = t.kind != 2 && t.td.readMode == cudaReadModeElementType;
		return c == 3 ? 1.f : 0.f;
	}
	p += c * t.bits / 8;
	if (t.kind == 2) {
		if (t.bits == 16) {
			__half h;
			memcpy(&h, p, 2);
			return __half2float(h);
		}
		float f;
		memcpy(&f, p, 4);
		return f;
	}
	int64_t v = t.bits == 8 ? (t.kind ? (int64_t)p[0] : (int64_t)(int8_t)p[0])
	            : t.bits == 16 ? (t.kind ? (int64_t)*(const uint16_t *)p : (int64_t)*(const int16_t *)p)
	                           : (t.kind ? (int64_t)*(const uint32_t *)p : (int64_t)*(const int32_t *)p);
	*raw = (uint32_t)v;
	if (t.td.readMode == cudaReadModeNormalizedFloat) {
		float m = t.kind ? (float)((1u << t.bits) - 1) : (float)((1u << (t.bits - 1)) - 1);
		float f = (float)v / m;
		return f < -1.f ? -1.f : f;
	}
	*isint = true;
	return 0.f;
}

/* the index of texel i on an axis of n texels, -1 for the border */
static int64_t addr(const Tex &t, int64_t i, int n, int mode)
{
	if (t.linmem)
		return i < 0 || i >= n ? -1 : i;
	if (!t.td.normalizedCoords && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror))
		mode = cudaAddressModeClamp;
	if (mode == cudaAddressModeWrap)
		return ((i % n) + n) % n;
	if (mode == cudaAddressModeMirror) {
		int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
		return m < n ? m : 2 * n - 1 - m;
	}
	if (mode == cudaAddressModeClamp)
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	return i < 0 || i >= n ? -1 : i;
}

/* texel (i, j, k) after addressing: 4 components as floats or raw ints */
static void texel(const Tex &t, const int64_t *ijk, int dims, int layer, float f[4], uint32_t u[4], bool *isint)
{
	int size[3] = {t.w, t.h, t.d};
	int64_t v[3] = {0, 0, layer};
	for (int a = 0; a < dims; a++) {
		v[a] = addr(t, ijk[a], size[a], t.td.addressMode[a]);
		if (v[a] < 0) {
			for (int c = 0; c < 4; c++) {
				f[c] = t.linmem ? 0.f : t.td.borderColor[c];
				u[c] = (uint32_t)(int32_t)f[c];
			}
			*isint = t.kind != 2 && t.td.readMode == cudaReadModeElementType;
			return;
		}
	}
	for (int c = 0; c < 4; c++)
		f[c] = chan(t, (int)v[0], (int)v[1], (int)v[2], c, isint, &u[c]);
	*isint = t.kind != 2 && t.td.readMode == cudaReadModeElementType;
}

/* one fetch: coordinates c[dims] (floats), layer; r[4] as 32-bit words */
static void fetch(const Tex &t, const float *c, int dims, int layer, uint32_t r[4], bool intcoord)
{
	bool lin = !intcoord && t.td.filterMode == cudaFilterModeLinear;
	int size[3] = {t.w, t.h, t.d};
	int64_t i0[3];
	float a[3];
	for (int d = 0; d < dims; d++) {
		float x = c[d];
		if (!intcoord && t.td.normalizedCoords)
			x *= size[d];
		if (lin)
			x -= 0.5f;
		float fl = floorf(x);
		i0[d] = (int64_t)fl;
		a[d] = lin ? roundf((x - fl) * 256.f) / 256.f : 0.f;
	}
	float acc[4] = {0, 0, 0, 0}, f[4];
	uint32_t u[4];
	bool isint = false;
	for (int k = 0; k < (lin ? 1 << dims : 1); k++) {
		int64_t ijk[3];
		float w = 1.f;
		for (int d = 0; d < dims; d++) {
			int b = (k >> d) & 1;
			ijk[d] = i0[d] + b;
			w *= b ? a[d] : 1.f - a[d];
		}
		texel(t, ijk, dims, layer, f, u, &isint);
		for (int ch = 0; ch < 4; ch++)
			acc[ch] += w * f[ch];
	}
	for (int ch = 0; ch < 4; ch++) {
		float v = lin ? acc[ch] : f[ch];
		if (isint)
			r[ch] = u[ch];
		else
			memcpy(&r[ch], &v, 4);
	}
}

static int checks, bad;
static void expect(const char *what, int i, const uint32_t *got, const uint32_t *want, int n, bool approx)
{
	for (int k = 0; k < n; k++) {
		checks++;
		float g, w;
		memcpy(&g, &got[k], 4);
		memcpy(&w, &want[k], 4);
		bool ok = got[k] == want[k] || (approx && fabsf(g - w) <= 1e-5f * fmaxf(1.f, fabsf(w)));
		if (!ok && bad++ < 20)
			printf("mismatch %s [%d].%d: got 0x%08x (%g), want 0x%08x (%g)\n", what, i, k, got[k], g, want[k], w);
	}
}

static uint32_t rng = 12345;
static float frand(float lo, float hi)
{
	rng = rng * 1664525u + 1013904223u;
	return lo + (hi - lo) * (float)(rng >> 8) / 16777216.f;
}

template <typename T> static T *dev(const T *h, size_t n)
{
	T *d;
	cudaMalloc(&d, n * sizeof(T));
	cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
	return d;
}
template <typename T> static void back(T *h, const T *d, size_t n) { cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost); }

static cudaTextureDesc tdesc(int mode, int filter, int read, int norm)
{
	cudaTextureDesc td;
	memset(&td, 0, sizeof td);
	for (int a = 0; a < 3; a++)
		td.addressMode[a] = (cudaTextureAddressMode)mode;
	td.filterMode = (cudaTextureFilterMode)filter;
	td.readMode = (cudaTextureReadMode)read;
	td.normalizedCoords = norm;
	td.borderColor[0] = 0.25f, td.borderColor[1] = -0.5f, td.borderColor[2] = 2.f, td.borderColor[3] = 1.f;
	return td;
}

static cudaTextureObject_t make_tex(const Tex &t, cudaArray_t arr)
{
	cudaResourceDesc rd;
	memset(&rd, 0, sizeof rd);
	rd.resType = cudaResourceTypeArray;
	rd.res.array.array = arr;
	cudaTextureObject_t o = 0;
	cudaError_t e = cudaCreateTextureObject(&o, &rd, &t.td, NULL);
	if (e != cudaSuccess)
		printf("cudaCreateTextureObject: %s\n", cudaGetErrorName(e));
	return o;
}

/* the 2-D cases: a float4 texture, a uchar4 one read normalized, a short2
 * one read normalized, a half one, over each mode, filter and coordinate kind */
static void test2d(void)
{
	enum { W = 7, H = 5 };
	static float4 f4[H][W];
	static uchar4 u4[H][W];
	static short2 s2[H][W];
	static __half h1[H][W];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			f4[y][x] = make_float4(x + 10 * y, x * 0.5f - y, (float)(x * y), -1.f - x);
			u4[y][x] = make_uchar4(x * 37, y * 51, (x * y * 13) & 255, 255 - x);
			s2[y][x] = make_short2((short)(x * 9000 - 30000), (short)(-y * 8000 + 100));
			h1[y][x] = __float2half(x * 0.25f + y);
		}
	struct { const void *p; cudaChannelFormatDesc cd; int nch, bits, kind; size_t tb; } fmt[] = {
		{f4, cudaCreateChannelDesc<float4>(), 4, 32, 2, 16},
		{u4, cudaCreateChannelDesc<uchar4>(), 4, 8, 1, 4},
		{s2, cudaCreateChannelDesc<short2>(), 2, 16, 0, 4},
		{h1, cudaCreateChannelDescHalf(), 1, 16, 2, 2}};
	float2 c[N];
	float2 *dc;
	float4 *dout, out[N];
	cudaMalloc(&dc, sizeof c);
	cudaMalloc(&dout, sizeof out);
	for (int f = 0; f < 4; f++) {
		cudaArray_t arr;
		cudaMallocArray(&arr, &fmt[f].cd, W, H);
		cudaMemcpy2DToArray(arr, 0, 0, fmt[f].p, W * fmt[f].tb, W * fmt[f].tb, H, cudaMemcpyHostToDevice);
		for (int mode = 0; mode < 4; mode++)
			for (int filter = 0; filter < 2; filter++)
				for (int norm = 0; norm < 2; norm++) {
					Tex t = {W, H, 1, fmt[f].nch, fmt[f].bits, fmt[f].kind, false, false, fmt[f].p, W * fmt[f].tb,
					         tdesc(mode, filter, fmt[f].kind == 2 ? 0 : 1, norm)};
					for (int i = 0; i < N; i++) {
						c[i] = norm ? make_float2(frand(-1.3f, 2.3f), frand(-1.3f, 2.3f))
						            : make_float2(frand(-3.f, W + 3.f), frand(-3.f, H + 3.f));
						if (i < 8) /* texel centres and edges */
							c[i] = make_float2((i + 0.5f) / (norm ? W : 1), (i % 3) / (norm ? (float)H : 1.f));
					}
					cudaTextureObject_t o = make_tex(t, arr);
					cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice);
					k2d<<<1, N>>>(o, dc, dout);
					back(out, dout, N);
					char what[64];
					snprintf(what, sizeof what, "2d fmt %d mode %d filter %d norm %d", f, mode, filter, norm);
					for (int i = 0; i < N; i++) {
						uint32_t want[4];
						fetch(t, &c[i].x, 2, 0, want, false);
						expect(what, i, (const uint32_t *)&out[i], want, 4, filter == 1);
					}
					if (f == 0 && mode == 1 && filter == 1 && norm == 0) { /* the same texture: gather, lod */
						float4 g[4 * N];
						float4 *dg;
						cudaMalloc(&dg, sizeof g);
						kgather<<<1, N>>>(o, dc, dg);
						back(g, dg, 4 * N);
						for (int i = 0; i < N; i++)
							for (int comp = 0; comp < 4; comp++) {
								static const int di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
								uint32_t want[4];
								for (int k = 0; k < 4; k++) {
									float fl[4];
									uint32_t u[4];
									bool isint;
									int64_t ijk[2] = {(int64_t)floorf(c[i].x - 0.5f) + di[k],
									                  (int64_t)floorf(c[i].y - 0.5f) + dj[k]};
									texel(t, ijk, 2, 0, fl, u, &isint);
									memcpy(&want[k], &fl[comp], 4);
								}
								expect("gather", i, (const uint32_t *)&g[4 * i + comp], want, 4, false);
							}
						klod<<<1, N>>>(o, dc, dg);
						back(g, dg, 2 * N);
						for (int i = 0; i < N; i++) {
							uint32_t want[4];
							fetch(t, &c[i].x, 2, 0, want, false);
							expect("lod", i, (const uint32_t *)&g[2 * i], want, 4, true);
							expect("grad", i, (const uint32_t *)&g[2 * i + 1], want, 4, true);
						}
						cudaFree(dg);
					}
					cudaDestroyTextureObject(o);
				}
		cudaFreeArray(arr);
	}
	cudaFree(dc);
	cudaFree(dout);
}

/* 1-D over an array (float2, normalized wrap/mirror), linear memory
 * (tex1Dfetch), 3-D, layered, and int4 element reads over pitched memory */
static void test_other(void)
{
	enum { W = 9 };
	static float2 a1[W];
	for (int x = 0; x < W; x++)
		a1[x] = make_float2(x * 1.5f, 100.f - x);
	cudaChannelFormatDesc cd2 = cudaCreateChannelDesc<float2>();
	cudaArray_t arr;
	cudaMallocArray(&arr, &cd2, W, 0);
	cudaMemcpyToArray(arr, 0, 0, a1, sizeof a1, cudaMemcpyHostToDevice);
	float x[N], *dx;
	float4 out[2 * N], *dout;
	cudaMalloc(&dx, sizeof x);
	cudaMalloc(&dout, sizeof out);
	for (int mode = 0; mode < 4; mode++)
		for (int filter = 0; filter < 2; filter++) {
			Tex t = {W, 1, 1, 2, 32, 2, false, false, a1, sizeof a1, tdesc(mode, filter, 0, 1)};
			for (int i = 0; i < N; i++)
				x[i] = frand(-2.f, 3.f);
			cudaTextureObject_t o = make_tex(t, arr);
			cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
			k1d<<<1, N>>>(o, dx, dout);
			back(out, dout, N);
			for (int i = 0; i < N; i++) {
				uint32_t want[4];
				fetch(t, &x[i], 1, 0, want, false);
				expect("1d", i, (const uint32_t *)&out[i], want, 4, filter == 1);
			}
			cudaDestroyTextureObject(o);
		}
	float2 back1[W];
	cudaMemcpyFromArray(back1, arr, 0, 0, sizeof back1, cudaMemcpyDeviceToHost);
	expect("cudaMemcpyFromArray", 0, (const uint32_t *)back1, (const uint32_t *)a1, 2 * W, false);
	cudaFreeArray(arr);

	/* tex1Dfetch on linear memory: out of range reads zeros */
	{
		static float4 l[W];
		for (int i = 0; i < W; i++)
			l[i] = make_float4(i, -i, 2 * i, 0.5f);
		float4 *lin = dev(l, W);
		cudaResourceDesc rd;
		memset(&rd, 0, sizeof rd);
		rd.resType = cudaResourceTypeLinear;
		rd.res.linear.devPtr = lin;
		rd.res.linear.desc = cudaCreateChannelDesc<float4>();
		rd.res.linear.sizeInBytes = sizeof l;
		cudaTextureDesc td = tdesc(1, 0, 0, 0);
		cudaTextureObject_t o;
		cudaCreateTextureObject(&o, &rd, &td, NULL);
		int xi[N], *dxi;
		for (int i = 0; i < N; i++)
			xi[i] = i % 13 - 2;
		dxi = dev(xi, N);
		kfetch<<<1, N>>>(o, dxi, dout);
		back(out, dout, N);
		Tex t = {W, 1, 1, 4, 32, 2, false, true, l, sizeof l, td};
		for (int i = 0; i < N; i++) {
			uint32_t want[4];
			float c = (float)xi[i];
			fetch(t, &c, 1, 0, want, true);
			expect("tex1Dfetch", i, (const uint32_t *)&out[i], want, 4, false);
		}
		cudaResourceDesc rb;
		cudaTextureDesc tb;
		cudaGetTextureObjectResourceDesc(&rb, o);
		cudaGetTextureObjectTextureDesc(&tb, o);
		checks += 2;
		if (rb.resType != cudaResourceTypeLinear || rb.res.linear.devPtr != lin || tb.addressMode[0] != 1)
			bad++, printf("mismatch: the descriptions cudaGetTextureObject*Desc give back\n");
		cudaDestroyTextureObject(o);
		cudaFree(lin);
		cudaFree(dxi);
	}

	/* 3-D: a float 6x5x4 array by cudaMemcpy3D, point and linear, clamp and border */
	{
		enum { X = 6, Y = 5, Z = 4 };
		static float v[Z][Y][X], vb[Z][Y][X];
		for (int z = 0; z < Z; z++)
			for (int y = 0; y < Y; y++)
				for (int xx = 0; xx < X; xx++)
					v[z][y][xx] = xx + 10.f * y + 100.f * z;
		cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
		cudaArray_t a3;
		cudaMalloc3DArray(&a3, &cd, make_cudaExtent(X, Y, Z), 0);
		cudaMemcpy3DParms p;
		memset(&p, 0, sizeof p);
		p.srcPtr = make_cudaPitchedPtr(v, X * sizeof(float), X, Y);
		p.dstArray = a3;
		p.extent = make_cudaExtent(X, Y, Z);
		p.kind = cudaMemcpyHostToDevice;
		cudaMemcpy3D(&p);
		memset(&p, 0, sizeof p);
		p.srcArray = a3;
		p.dstPtr = make_cudaPitchedPtr(vb, X * sizeof(float), X, Y);
		p.extent = make_cudaExtent(X, Y, Z);
		p.kind = cudaMemcpyDeviceToHost;
		cudaMemcpy3D(&p);
		expect("cudaMemcpy3D", 0, (const uint32_t *)vb, (const uint32_t *)v, X * Y * Z, false);
		cudaChannelFormatDesc gd;
		cudaExtent ge;
		unsigned gf = 9;
		cudaArrayGetInfo(&gd, &ge, &gf, a3);
		checks++;
		if (gd.x != 32 || gd.y || gd.f != cudaChannelFormatKindFloat || ge.width != X || ge.height != Y || ge.depth != Z || gf)
			bad++, printf("mismatch: cudaArrayGetInfo\n");
		float4 c[N], *dc4;
		cudaMalloc(&dc4, sizeof c);
		for (int mode = 1; mode < 4; mode += 2)
			for (int filter = 0; filter < 2; filter++) {
				Tex t = {X, Y, Z, 1, 32, 2, false, false, v, X * sizeof(float), tdesc(mode, filter, 0, 0)};
				for (int i = 0; i < N; i++)
					c[i] = make_float4(frand(-2.f, X + 2.f), frand(-2.f, Y + 2.f), frand(-2.f, Z + 2.f), 0.f);
				cudaTextureObject_t o = make_tex(t, a3);
				cudaMemcpy(dc4, c, sizeof c, cudaMemcpyHostToDevice);
				k3d<<<1, N>>>(o, dc4, dout);
				back(out, dout, N);
				for (int i = 0; i < N; i++) {
					uint32_t want[4];
					fetch(t, &c[i].x, 3, 0, want, false);
					expect("3d", i, (const uint32_t *)&out[i], want, 4, filter == 1);
				}
				cudaDestroyTextureObject(o);
			}
		cudaFreeArray(a3);

		/* layered: 1-D (9 x 3 layers) and 2-D (6x5 x 3 layers) of float */
		static float l1[3][9], l2[3][5][6];
		for (int l = 0; l < 3; l++) {
			for (int i = 0; i < 9; i++)
				l1[l][i] = l * 1000.f + i;
			for (int y = 0; y < 5; y++)
				for (int xx = 0; xx < 6; xx++)
					l2[l][y][xx] = l * 1000.f + y * 10 + xx;
		}
		cudaArray_t la1, la2;
		cudaMalloc3DArray(&la1, &cd, make_cudaExtent(9, 0, 3), cudaArrayLayered);
		cudaMalloc3DArray(&la2, &cd, make_cudaExtent(6, 5, 3), cudaArrayLayered);
		cudaMemcpyToArray(la1, 0, 0, l1, sizeof l1, cudaMemcpyHostToDevice);
		cudaMemcpyToArray(la2, 0, 0, l2, sizeof l2, cudaMemcpyHostToDevice);
		Tex t1 = {9, 1, 3, 1, 32, 2, true, false, l1, 9 * 4, tdesc(1, 1, 0, 0)};
		Tex t2 = {6, 5, 3, 1, 32, 2, true, false, l2, 6 * 4, tdesc(3, 0, 0, 0)};
		cudaTextureObject_t o1 = make_tex(t1, la1), o2 = make_tex(t2, la2);
		for (int i = 0; i < N; i++)
			c[i] = make_float4(frand(-1.f, 10.f), frand(-1.f, 6.f), 0.f, (float)(i % 5 - 1));
		cudaMemcpy(dc4, c, sizeof c, cudaMemcpyHostToDevice);
		klayer<<<1, N>>>(o1, o2, dc4, dout);
		back(out, dout, 2 * N);
		for (int i = 0; i < N; i++) {
			uint32_t want[4];
			int layer = (int)c[i].w < 0 ? 0 : (int)c[i].w > 2 ? 2 : (int)c[i].w;
			fetch(t1, &c[i].x, 1, layer, want, false);
			expect("layered 1d", i, (const uint32_t *)&out[2 * i], want, 4, true);
			fetch(t2, &c[i].x, 2, layer, want, false);
			expect("layered 2d", i, (const uint32_t *)&out[2 * i + 1], want, 4, false);
		}
		cudaDestroyTextureObject(o1);
		cudaDestroyTextureObject(o2);
		cudaFreeArray(la1);
		cudaFreeArray(la2);
		cudaFree(dc4);
	}

	/* int4 element reads over pitched memory (point, unnormalized, border) */
	{
		enum { PW = 5, PH = 4 };
		static int4 pi[PH][PW];
		for (int y = 0; y < PH; y++)
			for (int xx = 0; xx < PW; xx++)
				pi[y][xx] = make_int4(xx - 70000 * y, y, -xx, xx * y * 1000000);
		int4 *pd;
		size_t pitch;
		cudaMallocPitch((void **)&pd, &pitch, PW * sizeof(int4), PH);
		cudaMemcpy2D(pd, pitch, pi, sizeof pi[0], sizeof pi[0], PH, cudaMemcpyHostToDevice);
		cudaResourceDesc rd;
		memset(&rd, 0, sizeof rd);
		rd.resType = cudaResourceTypePitch2D;
		rd.res.pitch2D.devPtr = pd;
		rd.res.pitch2D.desc = cudaCreateChannelDesc<int4>();
		rd.res.pitch2D.width = PW;
		rd.res.pitch2D.height = PH;
		rd.res.pitch2D.pitchInBytes = pitch;
		Tex t = {PW, PH, 1, 4, 32, 0, false, false, pi, sizeof pi[0], tdesc(3, 0, 0, 0)};
		cudaTextureObject_t o;
		cudaCreateTextureObject(&o, &rd, &t.td, NULL);
		float2 c[N], *dc;
		int4 got[N], *dgot;
		for (int i = 0; i < N; i++)
			c[i] = make_float2(frand(-2.f, PW + 2.f), frand(-2.f, PH + 2.f));
		dc = dev(c, N);
		cudaMalloc(&dgot, sizeof got);
		k2di<<<1, N>>>(o, dc, dgot);
		back(got, dgot, N);
		for (int i = 0; i < N; i++) {
			uint32_t want[4];
			fetch(t, &c[i].x, 2, 0, want, false);
			expect("int4 pitch2D", i, (const uint32_t *)&got[i], want, 4, false);
		}
		/* txq and suq on it and on a surface */
		cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
		cudaArray_t sa;
		cudaMalloc3DArray(&sa, &cd, make_cudaExtent(11, 3, 2), cudaArraySurfaceLoadStore);
		cudaResourceDesc sr;
		memset(&sr, 0, sizeof sr);
		sr.resType = cudaResourceTypeArray;
		sr.res.array.array = sa;
		cudaSurfaceObject_t so;
		cudaCreateSurfaceObject(&so, &sr);
		int q[9], *dq;
		cudaMalloc(&dq, sizeof q);
		kquery<<<1, 1>>>(o, so, dq);
		back(q, dq, 9);
		const uint32_t wq[9] = {PW, PH, 0x10D9 /* CL_SIGNED_INT32 */, 0x10B5 /* CL_RGBA */, 0, 0, 3, 11, 2};
		expect("txq/suq", 0, (const uint32_t *)q, wq, 9, false);
		cudaDestroySurfaceObject(so);
		cudaFreeArray(sa);
		cudaDestroyTextureObject(o);
		cudaFree(pd);
		cudaFree(dc);
		cudaFree(dgot);
		cudaFree(dq);
	}
	cudaFree(dx);
	cudaFree(dout);
}

static cudaSurfaceObject_t surface(cudaArray_t a)
{
	cudaResourceDesc rd;
	memset(&rd, 0, sizeof rd);
	rd.resType = cudaResourceTypeArray;
	rd.res.array.array = a;
	cudaSurfaceObject_t s = 0;
	cudaCreateSurfaceObject(&s, &rd);
	return s;
}

static void test_surf(bool trap)
{
	enum { SW = 12, SH = 6 };
	static float in[SH][SW];
	for (int y = 0; y < SH; y++)
		for (int x = 0; x < SW; x++)
			in[y][x] = x + 100.f * y;
	cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>(), cu2 = cudaCreateChannelDesc<uint2>(),
	                      cs = cudaCreateChannelDesc<short>(), cb = cudaCreateChannelDesc<unsigned char>(),
	                      c4 = cudaCreateChannelDesc<float4>();
	cudaArray_t ain, aout, a3, al1, al2;
	cudaMallocArray(&ain, &cf, SW, SH, cudaArraySurfaceLoadStore);
	cudaMallocArray(&aout, &cu2, SW, SH, cudaArraySurfaceLoadStore);
	cudaMalloc3DArray(&a3, &cs, make_cudaExtent(SW, 3, 2), cudaArraySurfaceLoadStore);
	cudaMalloc3DArray(&al1, &cb, make_cudaExtent(SW, 0, SH), cudaArraySurfaceLoadStore | cudaArrayLayered);
	cudaMalloc3DArray(&al2, &c4, make_cudaExtent(SW, 2, 3), cudaArraySurfaceLoadStore | cudaArrayLayered);
	cudaMemcpy2DToArray(ain, 0, 0, in, sizeof in[0], sizeof in[0], SH, cudaMemcpyHostToDevice);
	cudaSurfaceObject_t sin = surface(ain), sout = surface(aout), s3 = surface(a3), sl1 = surface(al1), sl2 = surface(al2);
	float *dout, out[4 * SW * SH];
	cudaMalloc(&dout, sizeof out);
	ksurf<<<SH, SW>>>(sin, sout, s3, sl1, sl2, dout);
	back(out, dout, 4 * SW * SH);
	static uint32_t got2[SH][SW][2];
	cudaMemcpy2DFromArray(got2, sizeof got2[0], aout, 0, 0, sizeof got2[0], SH, cudaMemcpyDeviceToHost);
	for (int y = 0; y < SH; y++)
		for (int x = 0; x < SW; x++) {
			int ax = x - 2, ay = y - 1, bx = x + 3 > SW - 1 ? SW - 1 : x + 3, by = y + 2 > SH - 1 ? SH - 1 : y + 2;
			float a = ax < 0 || ay < 0 ? 0.f : in[ay][ax], b = in[by][bx];
			uint32_t want[2];
			memcpy(&want[0], &a, 4);
			memcpy(&want[1], &b, 4);
			expect("surf2D zero/clamp", y * SW + x, got2[y][x], want, 2, false);
			float w4[4] = {(float)(short)(((x + 1) % SW) * 100 + y), (float)(unsigned char)(x + y), (float)(x + y),
			               (float)(unsigned char)(SW - 1 + y)};
			uint32_t wb[4];
			memcpy(wb, w4, sizeof wb);
			expect("surf3D/layered", y * SW + x, (const uint32_t *)&out[4 * (y * SW + x)], wb, 4, false);
		}
	if (trap) {
		ktrap<<<1, 1>>>(sout);
		cudaError_t e = cudaDeviceSynchronize();
		printf("trap: %d %s\n", (int)e, cudaGetErrorName(e));
		return;
	}
	cudaDestroySurfaceObject(sin);
	cudaDestroySurfaceObject(sout);
	cudaDestroySurfaceObject(s3);
	cudaDestroySurfaceObject(sl1);
	cudaDestroySurfaceObject(sl2);
	cudaFreeArray(ain);
	cudaFreeArray(aout);
	cudaFreeArray(a3);
	cudaFreeArray(al1);
	cudaFreeArray(al2);
	cudaFree(dout);
}

int main(int argc, char **argv)
{
	test2d();
	test_other();
	test_surf(argc > 1);
	cudaError_t e = cudaGetLastError();
	printf("textures: %d checks, %d mismatches, last error %s\n", checks, bad, cudaGetErrorName(e));
	return bad || (argc == 1 && e != cudaSuccess);
}
