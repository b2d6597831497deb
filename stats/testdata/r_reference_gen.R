#!/usr/bin/env Rscript
# Reference values for stats.Holm (R's p.adjust) and stats.Curve.TPRAtGrid
# (pROC's coords(input = "specificity"), the rule its ci.se uses), computed
# once. Run from this directory:  Rscript r_reference_gen.R
# It writes r_reference.json (inputs included). go test never runs R.
suppressMessages(library(pROC))
source_lines <- readLines("delong_gen.R")
# Reuse the 17-digit JSON writer of delong_gen.R.
start <- grep("^to_json <- function", source_lines)
end <- grep("^vec <- function", source_lines)
eval(parse(text = source_lines[start:end]))
set.seed(7)

holm <- list()
add_holm <- function(name, p) {
  holm[[length(holm) + 1]] <<- list(name = name, p = vec(p), holm = vec(p.adjust(p, method = "holm")))
}
add_holm("five", c(0.01, 0.04, 0.03, 0.005, 0.2))
add_holm("ties", c(0.02, 0.02, 0.5, 0.001, 0.02, 0.9))
add_holm("capped", c(0.3, 0.6, 0.45, 0.01))
add_holm("nonmonotone", c(0.001, 0.0105, 0.011, 0.012, 0.04, 0.041))
add_holm("with_na", c(0.04, NA, 0.01, 0.03))
add_holm("single", c(0.07))
add_holm("random20", round(runif(20)^3, 6))

# ROC TPR on an FPR grid. 32 controls, so every vertex FPR k/32 is a grid
# point k/64 and 1 - FPR is exact in binary: the exact-match rule of pROC
# (largest sensitivity among equal specificities) and its linear
# interpolation are both exercised.
roc_grid <- list()
add_grid <- function(name, y, p) {
  r <- roc(response = y, predictor = p, levels = c(FALSE, TRUE), direction = "<", quiet = TRUE)
  fpr <- (0:64) / 64
  se <- coords(r, x = 1 - fpr, input = "specificity", ret = "sensitivity", transpose = FALSE)$sensitivity
  roc_grid[[length(roc_grid) + 1]] <<- list(name = name, y = vec(y), p = vec(p), fpr = vec(fpr), tpr = vec(se))
}
y <- c(rep(TRUE, 25), rep(FALSE, 32))
add_grid("ties57", y, round(c(rnorm(25, 1), rnorm(32)) * 2) / 2)
add_grid("distinct57", y, c(rnorm(25, 0.7), rnorm(32)))
add_grid("ratings57", y, pmin(pmax(round(c(rnorm(25, 3.8), rnorm(32, 3))), 1), 5))

out <- list(generator = "r_reference_gen.R",
            versions = list(R = R.version.string, pROC = as.character(packageVersion("pROC"))),
            holm = holm, roc_grid = roc_grid)
writeLines(to_json(out), "r_reference.json")
