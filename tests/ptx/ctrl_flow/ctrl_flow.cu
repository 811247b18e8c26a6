// Control flow under divergence: nested if/else, for/while loops with per-thread
// trip counts, break and continue, early return, a switch, uniform branches (bra.uni).

extern "C" __global__ void flow(const int *in, int *out, int n, int mode)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int t = threadIdx.x;
	if (i >= n)
		return;
	int x = in[i];
	int *o = out + 6 * i;

	if (x % 5 == 0) {		/* early exit for some threads */
		o[0] = -1; o[1] = -2; o[2] = -3; o[3] = -4; o[4] = -5; o[5] = -6;
		return;
	}

	int acc;
	if (t & 1) {
		if (t & 2)
			acc = x * 3;
		else
			acc = x - 7;
	} else {
		if (x > 0) {
			acc = x ^ 0x55;
			if (t & 4)
				acc += 100;
		} else {
			acc = -x;
		}
	}

	int trip = (x & 31) + (t & 7);
	int s = 0;
	for (int k = 0; k < trip; k++) {
		if (k % 3 == 1)
			continue;
		s += k * (t + 1);
		if (s > 500 + x % 100)
			break;
	}

	unsigned v = (unsigned)x % 1000u + 1u;
	int steps = 0;
	while (v != 1 && steps < 150) {
		v = (v & 1) ? 3 * v + 1 : v >> 1;
		steps++;
	}

	int sw;
	switch ((x >> 4) & 7) {
	case 0: sw = 11; break;
	case 2: sw = acc + s; break;
	case 3: sw = s * 2; break;
	case 5: sw = steps - acc; break;
	default: sw = 1000 + ((x >> 4) & 7); break;
	}

	int u = 0;
	if (mode > 0) {			/* uniform across the grid */
		for (int k = 0; k < mode; k++)
			u += (x >> k) & 1;
	} else {
		u = -1;
	}

	o[0] = acc; o[1] = s; o[2] = steps; o[3] = sw; o[4] = u; o[5] = trip;
}
