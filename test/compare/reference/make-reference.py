#!/usr/bin/python3
"""Reference values for test/compare/statistics.test.ts, computed independently of GCScope's code.

Made with: /usr/bin/python3 test/compare/reference/make-reference.py > test/compare/reference/statistics.json
(Debian bookworm: python3 3.11, python3-scipy 1.10.1, python3-numpy 1.24).

- normal CDF / quantile, log-gamma, regularized incomplete beta: scipy.stats / scipy.special.
- Mann–Whitney U and its p-values: scipy.stats.mannwhitneyu (exact and asymptotic, continuity on).
- Hodges–Lehmann: the median of all n*m differences and the distribution-free interval
  [D_(k+1), D_(nm-k)], k = floor(nm/2 - z*sqrt(nm(n+m+1)/12)), by brute force over numpy's outer difference.
- Rate ratio: scipy.stats.binomtest (p-value, exact Clopper-Pearson interval) transformed to a ratio.
- Bootstrap: (1) an exact replay of GCScope's seeded moving-block bootstrap (mulberry32, written
  here again from its published definition) and (2) SciPy's own percentile bootstrap on the same data
  (its RNG, 20,000 resamples), which an i.i.d. (block length 1) interval must approximate.
- Benjamini-Hochberg: the 15 p-values of Benjamini & Hochberg (1995), section 3.2 (4 rejections at q = 0.05).
"""
import json
import math

import numpy as np
from scipy import special, stats

rng = np.random.default_rng(20261123)


def r(x):
    return [float(v) for v in x]


out = {}

# ---- distributions ---------------------------------------------------------------------------
zs = [-8.0, -5.0, -3.1, -1.96, -0.5, 0.0, 0.3, 1.0, 2.5, 6.0]
out["normalCdf"] = [[z, float(stats.norm.cdf(z))] for z in zs]
ps = [1e-10, 0.001, 0.025, 0.2, 0.5, 0.8, 0.975, 0.999]
out["normalQuantile"] = [[p, float(stats.norm.ppf(p))] for p in ps]
out["logGamma"] = [[x, float(special.gammaln(x))] for x in [0.5, 1.0, 3.7, 10.0, 171.5, 1000.25]]
out["regularizedBeta"] = [[x, a, b, float(special.betainc(a, b, x))] for (x, a, b) in [(0.3, 2.0, 5.0), (0.9, 50.0, 3.0), (0.01, 0.5, 0.5), (0.6, 400.0, 300.0)]]

# ---- Mann-Whitney ----------------------------------------------------------------------------
mwu = []
# Small, no ties: exact.
a = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]
b = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.07, 3.14, 1.28]
res = stats.mannwhitneyu(b, a, alternative="two-sided", method="exact")
mwu.append({"name": "small samples without ties (exact)", "a": a, "b": b, "uB": float(res.statistic), "p": float(res.pvalue), "method": "exact"})
a = [0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46]
b = [1.15, 0.88, 0.90, 0.74, 1.21]
res = stats.mannwhitneyu(b, a, alternative="two-sided", method="exact")
mwu.append({"name": "R's wilcox.test example data (exact)", "a": a, "b": b, "uB": float(res.statistic), "p": float(res.pvalue), "method": "exact"})
# Ties: asymptotic with tie correction.
a = [1, 2, 2, 3, 3, 3, 4, 5, 5, 6, 7, 8]
b = [3, 4, 4, 5, 6, 6, 7, 8, 8, 9, 9, 10, 11]
res = stats.mannwhitneyu(b, a, alternative="two-sided", method="asymptotic", use_continuity=True)
mwu.append({"name": "tied values (normal approximation, tie-corrected)", "a": r(a), "b": r(b), "uB": float(res.statistic), "p": float(res.pvalue), "method": "normal"})
# Larger, pause-like (lognormal), a shifted B.
a = np.round(rng.lognormal(0.0, 0.6, 300), 4)
b = np.round(rng.lognormal(0.15, 0.6, 250), 4)
res = stats.mannwhitneyu(b, a, alternative="two-sided", method="asymptotic", use_continuity=True)
mwu.append({"name": "300 vs 250 lognormal pauses (normal approximation)", "a": r(a), "b": r(b), "uB": float(res.statistic), "p": float(res.pvalue), "method": "normal"})
out["mannWhitney"] = mwu

# ---- Hodges-Lehmann --------------------------------------------------------------------------
hl = []
for case in mwu:
    a = np.array(case["a"])
    b = np.array(case["b"])
    d = np.sort(np.subtract.outer(b, a).ravel())
    nm = len(d)
    z = stats.norm.ppf(0.975)
    k = math.floor(nm / 2 - z * math.sqrt(nm * (len(a) + len(b) + 1) / 12))
    hl.append({"name": case["name"], "shift": float(np.median(d)), "ci": [float(d[k]), float(d[nm - 1 - k])] if k >= 0 else None})
out["hodgesLehmann"] = hl

# ---- rate ratio ------------------------------------------------------------------------------
rates = []
for kA, eA, kB, eB in [(120, 2.5, 60, 2.4), (40, 1.0, 47, 1.1), (3, 0.2, 9, 0.25), (900, 30.0, 2700, 29.0)]:
    n = kA + kB
    p0 = eB / (eA + eB)
    t = stats.binomtest(kB, n, p0)
    ci = t.proportion_ci(confidence_level=0.95, method="exact")
    to_ratio = lambda pi: pi / (1 - pi) * eA / eB
    rates.append({"kA": kA, "eA": eA, "kB": kB, "eB": eB, "p": float(t.pvalue), "ratio": (kB / eB) / (kA / eA), "ci": [float(to_ratio(ci.low)), float(to_ratio(ci.high))]})
out["rateRatio"] = rates

# ---- bootstrap -------------------------------------------------------------------------------
M32 = 0xFFFFFFFF


def imul(x, y):
    v = ((x & M32) * (y & M32)) & M32
    return v - (1 << 32) if v >= (1 << 31) else v


def mulberry32(seed):
    state = [seed & M32]

    def nxt():
        a = (state[0] + 0x6D2B79F5) & M32
        state[0] = a
        a_s = a - (1 << 32) if a >= (1 << 31) else a
        t = imul(a_s ^ (a >> 15), 1 | a_s)
        t = (t + imul(t ^ ((t & M32) >> 7), 61 | t)) ^ t
        t32 = t & M32
        return ((t32 ^ (t32 >> 14)) & M32) / 4294967296

    return nxt


def block_resample(x, L, rand):
    n = len(x)
    L = min(max(1, L), n)
    starts = n - L + 1
    out = []
    while len(out) < n:
        s = math.floor(rand() * starts)
        for k in range(L):
            if len(out) >= n:
                break
            out.append(x[s + k])
    return np.array(out)


def type7(sorted_x, q):
    n = len(sorted_x)
    h = (n - 1) * q
    lo = math.floor(h)
    hi = min(n - 1, lo + 1)
    return sorted_x[lo] + (h - lo) * (sorted_x[hi] - sorted_x[lo])


def replay(a, b, q, seed, resamples, la, lb):
    rand = mulberry32(seed)
    ratios, diffs = [], []
    for _ in range(resamples):
        va = type7(np.sort(block_resample(a, la, rand)), q)
        vb = type7(np.sort(block_resample(b, lb, rand)), q)
        diffs.append(vb - va)
        if va != 0:
            ratios.append(vb / va)
    ratios.sort()
    diffs.sort()
    return {"ratio": [type7(ratios, 0.025), type7(ratios, 0.975)], "difference": [type7(diffs, 0.025), type7(diffs, 0.975)]}


g = mulberry32(42)
out["mulberry32_seed42"] = [g() for _ in range(5)]
a = np.array(mwu[3]["a"])
b = np.array(mwu[3]["b"])
boot = []
for q, seed, la, lb in [(0.9, 1, 7, 6), (0.5, 12345, 1, 1)]:
    rep = replay(list(a), list(b), q, seed, 500, la, lb)
    boot.append({"q": q, "seed": seed, "resamples": 500, "blockLengthA": la, "blockLengthB": lb, **{k: r(v) for k, v in rep.items()}})
out["bootstrapReplay"] = boot
sci = stats.bootstrap((b, a), lambda y, x, axis=-1: np.quantile(y, 0.9, axis=axis) / np.quantile(x, 0.9, axis=axis), paired=False, vectorized=True,
                      n_resamples=20000, method="percentile", confidence_level=0.95, random_state=np.random.default_rng(7))
out["scipyBootstrapP90Ratio"] = [float(sci.confidence_interval.low), float(sci.confidence_interval.high)]

# ---- Benjamini-Hochberg (B&H 1995, section 3.2) ----------------------------------------------
bh = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000]
m = len(bh)
adj = [min(1.0, min(bh[j] * m / (j + 1) for j in range(i, m))) for i in range(m)]
out["benjaminiHochberg"] = {"p": bh, "adjusted": adj, "rejectedAtQ05": sum(1 for v in adj if v <= 0.05)}

print(json.dumps(out, indent=1))
