#!/usr/bin/python3
"""Reference values for the classification, calibration, threshold and
decision-curve kernels of package metrics (clf*.go, calib*.go,
threshold*.go, decision*.go).

Run once with Debian's python3 (python3-sklearn, python3-scipy):

    cd metrics/testdata && /usr/bin/python3 clf_gen_reference.py

It writes clf_reference.json, which the Go tests read; `go test` never
runs Python. The inputs of every case (labels and scores) are written into
the JSON too, so the Go tests evaluate exactly the same rows.

Sources of the expected values:
  * scikit-learn: roc_auc_score, average_precision_score, roc_curve,
    precision_recall_curve, confusion_matrix, recall_score, precision_score,
    f1_score, matthews_corrcoef, balanced_accuracy_score, accuracy_score,
    brier_score_loss, LogisticRegression(penalty=None).
  * scipy: binomtest(...).proportion_ci(method="wilson"), brentq (the
    calibration-in-the-large root), norm.sf (Spiegelhalter p-value).
  * Direct brute-force evaluation of the SPEC definitions, written here
    independently of the Go code: threshold choosers (every candidate
    threshold tried), ECE with SPEC 4.1's edges, equal-mass bins,
    Spiegelhalter's z, net benefit.
Where scikit-learn returns 0 (or 1) for an undefined 0/0 quantity, the
project's convention (SPEC 4.1: undefined is null) is written instead; each
such place is marked "convention".

JSON encoding: NaN -> null, +inf -> "+Inf", -inf -> "-Inf".
"""

import bisect
import json
import math
import warnings

import numpy as np
import scipy
import sklearn
from scipy.optimize import brentq
from scipy.special import expit
from scipy.stats import binomtest, norm
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (
    accuracy_score,
    average_precision_score,
    balanced_accuracy_score,
    brier_score_loss,
    confusion_matrix,
    f1_score,
    matthews_corrcoef,
    precision_recall_curve,
    precision_score,
    recall_score,
    roc_auc_score,
    roc_curve,
)

warnings.simplefilter("ignore")

Z95 = float(norm.ppf(0.975))
CLIP = 1e-6


def enc(x):
    """Make x JSON-safe (see module doc)."""
    if isinstance(x, dict):
        return {k: enc(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [enc(v) for v in x]
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if x is None or isinstance(x, str):
        return x
    x = float(x)
    if math.isnan(x):
        return None
    if math.isinf(x):
        return "+Inf" if x > 0 else "-Inf"
    return x


def ratio(a, b):
    return a / b if b else math.nan


# ---------------------------------------------------------------- cases


def make_cases():
    cases = []

    def add(name, y, p):
        cases.append({"name": name, "y": [int(v) for v in y], "p": [float(v) for v in p]})

    # Seed 003 section 8: perfect ranking, AUROC 1.0.
    add("seed003_section8", [1, 1, 0, 0, 1], [0.9, 0.7, 0.4, 0.2, 0.8])
    # Many scores tied across classes.
    add(
        "ties",
        [1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0, 1],
        [0.5, 0.5, 0.5, 0.2, 0.8, 0.8, 0.2, 0.2, 0.1, 0.5, 0.9, 0.1, 0.9, 0.5],
    )
    # One score for every row.
    add("all_tied", [1, 0, 0, 1, 0, 0], [0.4] * 6)
    # Only one class present.
    add("only_positives", [1, 1, 1, 1], [0.2, 0.6, 0.6, 0.9])
    add("only_negatives", [0, 0, 0, 0, 0], [0.1, 0.3, 0.3, 0.7, 1.0])
    # Probabilities exactly 0 and 1, and on bin edges (0.3 must be in bin 3 of 10).
    add(
        "extremes_and_edges",
        [0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 0],
        [0.0, 0.0, 0.1, 0.3, 0.3, 0.5, 0.7, 0.7, 1.0, 1.0, 0.9, 0.2],
    )
    # Inverted ranking (AUROC 0) and a small sample separated in logit.
    add("inverted", [0, 0, 1, 1], [0.9, 0.8, 0.2, 0.1])

    # Random-ish 200 rows with ties (scores rounded to 2 decimals).
    rng = np.random.default_rng(20260118)
    n = 200
    y = rng.random(n) < 0.3
    logit = -1.0 + 1.6 * y + rng.normal(0, 1.2, n)
    p = np.round(expit(logit), 2)
    add("random200", y, p)

    # 2,000 rows at the seed's prevalence (~9%), 3 decimals, mis-calibrated
    # on purpose (over-confident), some exact 0 and 1.
    n = 2000
    y = rng.random(n) < 0.0934
    logit = -3.2 + 2.4 * y + rng.normal(0, 1.0, n)
    p = np.round(expit(1.4 * logit + 0.3), 3)
    p[:5] = [0.0, 1.0, 0.3, 0.7, 0.0]
    add("random2000", y, p)
    return cases


# ---------------------------------------------------------------- pieces


def roc_ref(y, p):
    fpr, tpr, thr = roc_curve(y, p, drop_intermediate=False)
    thr = [float(t) for t in thr]
    # scikit-learn < 1.3 puts max(p)+1 first, >= 1.3 puts inf; the Go code
    # uses +Inf.
    assert thr[0] == math.inf or thr[0] == max(p) + 1, thr[0]
    thr[0] = math.inf
    return list(fpr), list(tpr), thr


def pr_ref(y, p):
    prec, rec, thr = precision_recall_curve(y, p)
    rec = list(rec)
    if sum(y) == 0:
        # convention: recall 0/0 is NaN (scikit-learn sets 1); end point kept.
        rec = [math.nan] * (len(rec) - 1) + [0.0]
    return {"precision": list(prec), "recall": rec, "thresholds": list(thr)}


def tpr_at_fpr(fpr, tpr, thr, target):
    best = None
    for i in range(len(fpr)):
        if math.isnan(fpr[i]) or math.isnan(tpr[i]) or not fpr[i] <= target:
            continue
        if best is None or tpr[i] > tpr[best] or (tpr[i] == tpr[best] and thr[i] > thr[best]):
            best = i
    if best is None:
        return {"target": target, "tpr": math.nan, "fpr": math.nan, "threshold": math.nan}
    return {"target": target, "tpr": tpr[best], "fpr": fpr[best], "threshold": thr[best]}


def confusion_ref(y, p, t):
    pred = (np.asarray(p) >= t).astype(int)
    tn, fp, fn, tp = confusion_matrix(y, pred, labels=[0, 1]).ravel()
    tn, fp, fn, tp = int(tn), int(fp), int(fn), int(tp)
    out = {"threshold": t, "tp": tp, "tn": tn, "fp": fp, "fn": fn}
    # sklearn where defined; convention (null) where its denominator is 0.
    out["sensitivity"] = recall_score(y, pred, zero_division=0) if tp + fn else math.nan
    out["specificity"] = recall_score(y, pred, pos_label=0, zero_division=0) if tn + fp else math.nan
    out["fpr"] = ratio(fp, fp + tn)
    out["fnr"] = ratio(fn, fn + tp)
    out["precision"] = precision_score(y, pred, zero_division=0) if tp + fp else math.nan
    out["npv"] = precision_score(y, pred, pos_label=0, zero_division=0) if tn + fn else math.nan
    out["f1"] = f1_score(y, pred, zero_division=0) if tp + fp + fn else math.nan
    marg = [tp + fp, tp + fn, tn + fp, tn + fn]
    out["mcc"] = matthews_corrcoef(y, pred) if min(marg) > 0 else math.nan
    out["balanced_accuracy"] = balanced_accuracy_score(y, pred) if tp + fn and tn + fp else math.nan
    out["accuracy"] = accuracy_score(y, pred)
    return out


def counts_at(y, p, t):
    y = np.asarray(y, bool)
    sel = np.asarray(p) >= t
    return int(np.sum(sel & y)), int(np.sum(sel & ~y))


def choose_fpr(y, p, budget):
    npos, nneg = sum(y), len(y) - sum(y)
    if npos == 0 or nneg == 0:
        return {"budget": budget, "threshold": math.inf, "ok": False}
    best = None
    for t in sorted(set(p)):
        tp, fp = counts_at(y, p, t)
        if not fp / nneg <= budget:
            continue
        key = (tp / npos, t)
        if best is None or key > best:
            best = key
    if best is None:
        return {"budget": budget, "threshold": math.inf, "ok": False}
    return {"budget": budget, "threshold": best[1], "ok": True}


def choose_screen(y, p, s):
    npos = sum(y)
    good = [t for t in sorted(set(p)) if npos and counts_at(y, p, t)[0] / npos >= s]
    if not good:
        return {"min_sensitivity": s, "threshold": -math.inf, "ok": False}
    return {"min_sensitivity": s, "threshold": max(good), "ok": True}


def choose_alert(y, p, tau_neg, m):
    good = []
    for t in sorted(set(p)):
        tp, fp = counts_at(y, p, t)
        if t >= tau_neg and tp / (tp + fp) >= m:
            good.append(t)
    if not good:
        return {"tau_neg": tau_neg, "min_precision": m, "threshold": math.inf, "ok": False}
    return {"tau_neg": tau_neg, "min_precision": m, "threshold": min(good), "ok": True}


def wilson(k, n):
    if n == 0:
        return math.nan, math.nan
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return float(ci.low), float(ci.high)


def uniform_bins(y, p, m):
    # SPEC 4.1: edge_k = k/M in float64; bin k holds edge_k <= p < edge_k+1;
    # the last bin is closed.
    edges = [k / m for k in range(m + 1)]
    bins = [[] for _ in range(m)]
    for yi, pi in zip(y, p):
        k = bisect.bisect_right(edges, pi) - 1
        k = min(max(k, 0), m - 1)
        bins[k].append((yi, pi))
    return [(edges[k], edges[k + 1], b) for k, b in enumerate(bins)]


def quantile_bins(y, p, m):
    order = np.lexsort((np.asarray(y, int), np.asarray(p)))  # p asc, then y (0 first)
    out = []
    for block in np.array_split(order, m):
        b = [(y[i], p[i]) for i in block]
        lo = b[0][1] if b else math.nan
        hi = b[-1][1] if b else math.nan
        out.append((lo, hi, b))
    return out


def ece_of(bins, n):
    if n == 0:
        return math.nan
    s = 0.0
    for _, _, b in bins:
        if b:
            nb = len(b)
            s += nb / n * abs(sum(v[0] for v in b) / nb - sum(v[1] for v in b) / nb)
    return s


def reliability(bins):
    out = []
    for lo, hi, b in bins:
        k = sum(v[0] for v in b)
        wl, wh = wilson(k, len(b))
        out.append(
            {
                "lo": lo,
                "hi": hi,
                "count": len(b),
                "mean_p": sum(v[1] for v in b) / len(b) if b else math.nan,
                "obs_freq": k / len(b) if b else math.nan,
                "wilson_lo": wl,
                "wilson_hi": wh,
            }
        )
    return out


def calibration_fit(y, p):
    y = np.asarray(y, int)
    if y.min() == y.max():
        return {"intercept": math.nan, "slope": math.nan}
    pc = np.clip(np.asarray(p, float), CLIP, 1 - CLIP)
    x = np.log(pc / (1 - pc))
    # calibration-in-the-large: root of the score equation of a in
    # logit P(y=1) = a + x.
    a = brentq(lambda a: float(np.sum(y - expit(a + x))), -60, 60, xtol=1e-15, rtol=8.9e-16, maxiter=500)
    xp, xn = x[y == 1], x[y == 0]
    if xn.max() <= xp.min() or xp.max() <= xn.min():
        return {"intercept": a, "slope": math.nan}
    lr = LogisticRegression(penalty=None, solver="newton-cholesky", tol=1e-14, max_iter=1000)
    lr.fit(x.reshape(-1, 1), y)
    return {"intercept": a, "slope": float(lr.coef_[0, 0]), "slope_model_intercept": float(lr.intercept_[0])}


def spiegelhalter(y, p):
    y = np.asarray(y, float)
    p = np.asarray(p, float)
    num = float(np.sum((y - p) * (1 - 2 * p)))
    den = float(np.sum((1 - 2 * p) ** 2 * p * (1 - p)))
    if not den > 0:
        return {"z": math.nan, "pvalue": math.nan}
    z = num / math.sqrt(den)
    return {"z": z, "pvalue": float(2 * norm.sf(abs(z)))}


def net_benefit(y, p, ts):
    y = np.asarray(y, bool)
    p = np.asarray(p, float)
    n = len(y)
    model, treat_all = [], []
    for t in ts:
        if not (0 <= t < 1) or n == 0:
            model.append(math.nan)
            treat_all.append(math.nan)
            continue
        w = t / (1 - t)
        tp = int(np.sum((p >= t) & y))
        fp = int(np.sum((p >= t) & ~y))
        model.append(tp / n - fp / n * w)
        treat_all.append(int(y.sum()) / n - int((~y).sum()) / n * w)
    return {"thresholds": ts, "model": model, "treat_all": treat_all}


# ---------------------------------------------------------------- main


def compute(case):
    y, p = case["y"], case["p"]
    npos = sum(y)
    two = 0 < npos < len(y)
    r = dict(case)
    r["auroc"] = roc_auc_score(y, p) if two else math.nan  # convention: one class -> null
    r["ap"] = average_precision_score(y, p) if npos else math.nan  # convention: no positive -> null
    fpr, tpr, thr = roc_ref(y, p)
    r["roc"] = {"fpr": fpr, "tpr": tpr, "thresholds": thr}
    r["pr"] = pr_ref(y, p)
    r["tpr_at_fpr"] = [tpr_at_fpr(fpr, tpr, thr, t) for t in [0, 0.01, 0.05, 0.1, 0.25, 0.5, 1]]
    r["confusion"] = [confusion_ref(y, p, t) for t in [0.5, 0.3, 0.0, 0.7, 1.0, 1.5]]
    r["brier"] = brier_score_loss(y, p, pos_label=1)
    r["ece"] = []
    r["reliability"] = []
    for m in [10, 5, 3, 1]:
        ub, qb = uniform_bins(y, p, m), quantile_bins(y, p, m)
        r["ece"].append({"bins": m, "ece": ece_of(ub, len(y)), "ece_equal_mass": ece_of(qb, len(y))})
        r["reliability"].append({"bins": m, "strategy": "uniform", "bin": reliability(ub)})
        r["reliability"].append({"bins": m, "strategy": "quantile", "bin": reliability(qb)})
    r["calibration_fit"] = calibration_fit(y, p)
    r["spiegelhalter"] = spiegelhalter(y, p)
    r["net_benefit"] = net_benefit(y, p, [0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.9, 0.99, 1, -0.1])
    r["fpr_threshold"] = [choose_fpr(y, p, b) for b in [0, 0.01, 0.05, 0.1, 0.2, 0.5, 1]]
    screens = [choose_screen(y, p, s) for s in [0.5, 0.9, 0.95, 0.995, 1.0, 1.01]]
    r["screen_threshold"] = screens
    taus = sorted({-math.inf, 0.0, 0.5} | {s["threshold"] for s in screens if s["ok"]})
    r["alert_threshold"] = [choose_alert(y, p, tn, m) for tn in taus for m in [0, 0.5, 0.8, 0.9, 1.0]]
    return r


def main():
    out = {
        "generator": "metrics/testdata/clf_gen_reference.py",
        "sklearn": sklearn.__version__,
        "scipy": scipy.__version__,
        "numpy": np.__version__,
        "z95": Z95,
        "cases": [compute(c) for c in make_cases()],
        "wilson": [],
    }
    for k, n in [(0, 10), (10, 10), (3, 10), (1, 1), (0, 1), (50, 1000), (7, 13), (999, 1000), (0, 0)]:
        lo, hi = wilson(k, n)
        out["wilson"].append({"successes": k, "n": n, "z": Z95, "lo": lo, "hi": hi})
    with open("clf_reference.json", "w") as f:
        json.dump(enc(out), f, indent=1, allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
