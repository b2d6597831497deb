# Second, independent reference for package metrics' classification and
# calibration kernels: R's glm (logistic recalibration), pROC (AUROC) and
# prop.test (Wilson interval). Reads the cases of clf_reference.json (written
# by clf_gen_reference.py) and writes clf_reference_r.json.
#
#   cd metrics/testdata && Rscript clf_gen_reference_r.R
#
# Needs Debian's r-cran-proc and r-cran-jsonlite; `go test` never runs R.
# glm stops on a relative deviance change below epsilon, and its IRLS loses
# accuracy when fitted probabilities come within 1e-10 of 0 or 1, so its
# coefficients are compared at 1e-7 only (scikit-learn's, at 1e-9, are the
# primary reference). jsonlite prints 15 significant digits.
suppressMessages({
  library(jsonlite)
  library(pROC)
})

ref <- fromJSON("clf_reference.json", simplifyVector = FALSE)
clip <- 1e-6
ctl <- glm.control(epsilon = 1e-10, maxit = 100)

out <- list()
for (cs in ref$cases) {
  y <- as.integer(unlist(cs$y))
  p <- as.numeric(unlist(cs$p))
  r <- list(name = cs$name, auroc = NA, intercept = NA, slope = NA)
  if (length(unique(y)) == 2) {
    r$auroc <- as.numeric(auc(roc(y, p, levels = c(0, 1), direction = "<", quiet = TRUE)))
    pc <- pmin(pmax(p, clip), 1 - clip)
    x <- log(pc / (1 - pc))
    citl <- glm(y ~ 1 + offset(x), family = binomial, control = ctl)
    r$intercept <- unname(coef(citl)[1])
    separated <- max(x[y == 0]) <= min(x[y == 1]) || max(x[y == 1]) <= min(x[y == 0])
    if (!separated) {
      fit <- glm(y ~ x, family = binomial, control = ctl)
      r$slope <- unname(coef(fit)[2])
    }
  }
  out[[length(out) + 1]] <- r
}

wil <- list()
for (w in ref$wilson) {
  if (w$n > 0) {
    ci <- suppressWarnings(prop.test(w$successes, w$n, correct = FALSE)$conf.int)
    wil[[length(wil) + 1]] <- list(successes = w$successes, n = w$n, lo = ci[1], hi = ci[2])
  }
}

res <- list(generator = "metrics/testdata/clf_gen_reference_r.R",
            r = R.version.string,
            pROC = as.character(packageVersion("pROC")),
            cases = out, wilson = wil)
writeLines(toJSON(res, auto_unbox = TRUE, digits = NA, na = "null", pretty = TRUE), "clf_reference_r.json")
