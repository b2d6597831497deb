#!/usr/bin/python3
"""Reference values for package stats, computed once with scikit-learn,
scipy and numpy (Debian python3-sklearn, python3-scipy).

Run from this directory:  /usr/bin/python3 gen_reference.py > reference.json

go test reads reference.json; it never runs this script. Every input is
written into the JSON next to the expected values.
"""
import json
import sys

import numpy as np
import scipy
import sklearn
from scipy.special import ndtri
from scipy.stats._resampling import _bca_interval
from sklearn.metrics import (average_precision_score, brier_score_loss,
                             confusion_matrix, precision_recall_curve,
                             roc_auc_score, roc_curve)

rng = np.random.default_rng(20260118)


def weighted_case(name, n, levels, wmax):
    """A binary sample with many ties and integer weights 0..wmax."""
    y = rng.random(n) < 0.4
    # Scores on a coarse grid, higher for positives on average: many ties.
    raw = np.clip(rng.normal(0.35 + 0.3 * y, 0.25), 0, 1)
    p = np.round(raw * levels) / levels
    w = rng.integers(0, wmax + 1, n)
    yi = y.astype(int)

    case = {"name": name, "y": y.tolist(), "p": p.tolist(), "w": w.tolist()}
    case["auroc"] = roc_auc_score(yi, p, sample_weight=w)
    case["ap"] = average_precision_score(yi, p, sample_weight=w)
    case["brier"] = brier_score_loss(yi, p, sample_weight=w)

    # ECE, M = 10 equal-width bins, edges k/M, p = 1 in the last bin (SPEC 4.1).
    m = 10
    edges = np.arange(m + 1) / m
    b = np.minimum(np.searchsorted(edges, p, side="right") - 1, m - 1)
    ece = 0.0
    tot = w.sum()
    for k in range(m):
        sel = b == k
        wk = w[sel].sum()
        if wk == 0:
            continue
        acc = (w[sel] * yi[sel]).sum() / wk
        conf = (w[sel] * p[sel]).sum() / wk
        ece += wk / tot * abs(acc - conf)
    case["ece10"] = ece

    case["thresholds"] = [0.3, 0.5, 0.75]
    case["confusion"] = []
    for t in case["thresholds"]:
        tn, fp, fn, tp = confusion_matrix(yi, (p >= t).astype(int),
                                          labels=[0, 1], sample_weight=w).ravel()
        case["confusion"].append([tp, fp, tn, fn])

    # Step ROC: largest TPR with FPR <= budget.
    fpr, tpr, _ = roc_curve(yi, p, sample_weight=w, drop_intermediate=False)
    case["budgets"] = [0.0, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0]
    case["tpr_at_fpr"] = [float(tpr[fpr <= x].max()) for x in case["budgets"]]

    # Interpolated precision: max precision over PR points with recall >= r,
    # excluding sklearn's artificial (recall 0, precision 1) end point.
    prec, rec, _ = precision_recall_curve(yi, p, sample_weight=w)
    prec, rec = prec[:-1], rec[:-1]
    case["recall_grid"] = [0.0, 0.1, 0.2, 0.33, 0.5, 0.75, 0.9, 1.0]
    case["precision_at_recall"] = [float(prec[rec >= r].max()) for r in case["recall_grid"]]
    return case


def bca_case(name, x, B, seed, conf):
    r = np.random.default_rng(seed)
    idx = r.integers(0, len(x), (B, len(x)))
    reps = x[idx].mean(axis=1)
    alpha = (1 - conf) / 2
    a1, a2, ahat = _bca_interval((x,), lambda s, axis: np.mean(s, axis=axis),
                                 axis=-1, alpha=alpha, theta_hat_b=reps, batch=None)
    lo, hi = np.percentile(reps, [100 * float(a1), 100 * float(a2)])
    plo, phi = np.percentile(reps, [100 * alpha, 100 * (1 - alpha)])
    return {"name": name, "x": x.tolist(), "reps": reps.tolist(), "conf": conf,
            "theta": float(np.mean(x)), "accel": float(ahat),
            "bca": [float(lo), float(hi)], "percentile": [float(plo), float(phi)]}


def effect_case(name, a, b):
    na, nb = len(a), len(b)
    sp = np.sqrt(((na - 1) * np.var(a, ddof=1) + (nb - 1) * np.var(b, ddof=1)) / (na + nb - 2))
    d = a - b
    return {"name": name, "a": a.tolist(), "b": b.tolist(),
            "cohens_d": float((a.mean() - b.mean()) / sp),
            "cohens_dz": float(d.mean() / np.std(d, ddof=1))}


out = {
    "generator": "gen_reference.py",
    "versions": {"numpy": np.__version__, "scipy": scipy.__version__,
                 "sklearn": sklearn.__version__},
    "weighted": [weighted_case("coarse10", 60, 10, 3),
                 weighted_case("coarse4", 40, 4, 2),
                 weighted_case("fine", 200, 100, 4)],
}

q = rng.normal(size=37)
qs = [0.0, 0.025, 0.1, 0.5, 0.9, 0.975, 1.0]
out["quantile"] = {"x": sorted(q.tolist()), "q": qs,
                   "linear": [float(np.quantile(q, v)) for v in qs]}

out["bca"] = [bca_case("exp40", rng.exponential(size=40), 2000, 7, 0.95),
              bca_case("lognormal25", rng.lognormal(size=25), 1000, 11, 0.90)]

pn = rng.normal(size=500)
pn[rng.random(500) < 0.1] = np.nan
out["percentile_nan"] = {"reps": [None if np.isnan(v) else v for v in pn.tolist()],
                         "conf": 0.95,
                         "interval": np.nanpercentile(pn, [2.5, 97.5]).tolist(),
                         "dropped": int(np.isnan(pn).sum())}

a = rng.normal(0.6, 0.2, 50)
b = a - rng.normal(0.05, 0.1, 50)
out["effect"] = [effect_case("paired50", a, b),
                 effect_case("small", np.array([1.0, 2.0, 4.0, 7.0]), np.array([0.5, 2.5, 2.0, 5.0]))]

json.dump(out, sys.stdout, indent=1, default=lambda v: v.item())
sys.stdout.write("\n")
