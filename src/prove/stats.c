// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --prove: the interval of a ratio of two mean throughputs.
 *
 * The two layouts' runs are independent samples A (before) and B (after)
 * with unequal variances, so the interval is Welch's: on the logarithm of
 * the ratio of means, whose variance the delta method gives as
 *   v = sA^2 / (nA mA^2) + sB^2 / (nB mB^2)
 * (the squared relative standard errors of the two means), with the
 * Welch-Satterthwaite degrees of freedom
 *   df = v^2 / ((sA^2/(nA mA^2))^2 / (nA-1) + (sB^2/(nB mB^2))^2 / (nB-1)),
 * and the interval ratio * exp(+-t(0.975, df) * sqrt(v)). Working on the
 * logarithm keeps the interval positive and symmetric in the direction of
 * the comparison (before/after gives the reciprocal interval).
 */
#include <math.h>

#include "prove/prove.h"

/* t(0.975, df) for df = 1..30. */
static const double t_table[30] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double ll_t975(double df)
{
	const double z = 1.959963985;
	double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;

	if (!(df >= 1))
		return t_table[0];
	if (df <= 30)
		return t_table[(int)df - 1];	/* rounded down: the wider interval */
	/* Cornish-Fisher expansion in 1/df: within 1e-4 of the exact value above 30. */
	return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df) +
	       (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df * df * df);
}

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
	double m = 0, s = 0;

	for (size_t i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	*mean = m;
	*var = s / (double)(n - 1);
}

bool ll_welch_ratio(const double *a, size_t na, const double *b, size_t nb, double *ratio,
		    double *low, double *high, double *df)
{
	double ma, va, mb, vb, ra, rb, v, t, half;

	if (na < 2 || nb < 2)
		return false;
	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	if (!(ma > 0) || !(mb > 0))
		return false;
	ra = va / ((double)na * ma * ma);
	rb = vb / ((double)nb * mb * mb);
	v = ra + rb;
	*ratio = mb / ma;
	if (!(v > 0)) {
		*low = *high = *ratio;
		*df = INFINITY;
		return true;
	}
	*df = v * v / (ra * ra / (double)(na - 1) + rb * rb / (double)(nb - 1));
	t = ll_t975(*df);
	half = t * sqrt(v);
	*low = *ratio * exp(-half);
	*high = *ratio * exp(half);
	return true;
}

/*
 * Faster or slower when the interval excludes 1; unchanged when it holds 1
 * and no change beyond 10% either way; otherwise the noise decides.
 */
enum ll_prove_outcome ll_prove_outcome_of(double low, double high, bool measured)
{
	if (!measured)
		return LL_PROVE_NOISE;
	if (low > 1)
		return LL_PROVE_FASTER;
	if (high < 1)
		return LL_PROVE_SLOWER;
	if (low >= 0.9 && high <= 1.1)
		return LL_PROVE_UNCHANGED;
	return LL_PROVE_NOISE;
}
