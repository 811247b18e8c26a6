// Carry chains: add.cc/addc.cc/addc (128-bit add), sub.cc/subc.cc/subc (128-bit
// subtract), mad.lo.cc/madc.hi/madc.hi.cc (64x64->128 multiply from 32-bit limbs).

extern "C" __global__ void carry128(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	const unsigned *x = a + 4 * i, *y = b + 4 * i;
	unsigned *o = out + 16 * i;
	unsigned s0, s1, s2, s3, sc, d0, d1, d2, d3, db;

	asm("add.cc.u32 %0, %5, %9;\n\t"
	    "addc.cc.u32 %1, %6, %10;\n\t"
	    "addc.cc.u32 %2, %7, %11;\n\t"
	    "addc.cc.u32 %3, %8, %12;\n\t"
	    "addc.u32 %4, 0, 0;"
	    : "=r"(s0), "=r"(s1), "=r"(s2), "=r"(s3), "=r"(sc)
	    : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]),
	      "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]));
	asm("sub.cc.u32 %0, %5, %9;\n\t"
	    "subc.cc.u32 %1, %6, %10;\n\t"
	    "subc.cc.u32 %2, %7, %11;\n\t"
	    "subc.cc.u32 %3, %8, %12;\n\t"
	    "subc.u32 %4, 0, 0;"
	    : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3), "=r"(db)
	    : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]),
	      "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]));
	o[0] = s0; o[1] = s1; o[2] = s2; o[3] = s3; o[4] = sc;
	o[5] = d0; o[6] = d1; o[7] = d2; o[8] = d3; o[9] = db;

	/* (x1:x0) * (y1:y0) -> p3:p2:p1:p0 */
	unsigned p0, p1, p2, p3;
	asm("mul.lo.u32 %0, %4, %6;\n\t"
	    "mul.hi.u32 %1, %4, %6;\n\t"
	    "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
	    "madc.hi.u32 %2, %4, %7, 0;\n\t"
	    "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
	    "madc.hi.cc.u32 %2, %5, %6, %2;\n\t"
	    "addc.u32 %3, 0, 0;\n\t"
	    "mad.lo.cc.u32 %2, %5, %7, %2;\n\t"
	    "madc.hi.u32 %3, %5, %7, %3;"
	    : "=&r"(p0), "=&r"(p1), "=&r"(p2), "=&r"(p3)
	    : "r"(x[0]), "r"(x[1]), "r"(y[0]), "r"(y[1]));
	o[10] = p0; o[11] = p1; o[12] = p2; o[13] = p3;

	/* 96-bit accumulate with madc.lo.cc: (x2:x1:x0) + x3 * (y2:y1:y0), low 96 bits */
	unsigned q0, q1, q2;
	asm("mad.lo.cc.u32 %0, %6, %3, %7;\n\t"
	    "madc.lo.cc.u32 %1, %6, %4, %8;\n\t"
	    "madc.lo.u32 %2, %6, %5, %9;"
	    : "=&r"(q0), "=&r"(q1), "=&r"(q2)
	    : "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(x[3]),
	      "r"(x[0]), "r"(x[1]), "r"(x[2]));
	o[14] = q0 ^ q2; o[15] = q1;
}
