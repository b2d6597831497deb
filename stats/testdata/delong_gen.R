#!/usr/bin/env Rscript
# Reference values for stats.DeLongPaired and stats.DeLongClusteredSE,
# computed once with pROC (Debian r-cran-proc).
#
# Run from this directory:  Rscript delong_gen.R
# It writes delong_reference.json (inputs included). go test never runs R.
suppressMessages(library(pROC))

# Minimal JSON writer: numbers with 17 significant digits (jsonlite stops at
# 15), so the Go test reads back exactly the doubles R used.
to_json <- function(x, indent = "") {
  ind <- paste0(indent, " ")
  if (is.list(x)) {
    if (is.null(names(x))) {
      items <- sapply(x, to_json, indent = ind)
      return(paste0("[\n", ind, paste(items, collapse = paste0(",\n", ind)), "\n", indent, "]"))
    }
    items <- mapply(function(k, v) paste0("\"", k, "\": ", to_json(v, ind)), names(x), x)
    return(paste0("{\n", ind, paste(items, collapse = paste0(",\n", ind)), "\n", indent, "}"))
  }
  if (is.character(x) && length(x) == 1) return(paste0("\"", x, "\""))
  one <- function(v) {
    if (is.logical(v)) return(if (v) "true" else "false")
    if (is.na(v)) return("null")
    sprintf("%.17g", v)
  }
  vals <- vapply(as.vector(x), one, "")
  if (length(x) == 1 && is.null(attr(x, "array"))) return(vals)
  paste0("[", paste(vals, collapse = ", "), "]")
}
vec <- function(x) structure(x, array = TRUE) # always written as a JSON array
set.seed(20260118)

delong_case <- function(name, y, p1, p2) {
  r1 <- roc(response = y, predictor = p1, levels = c(FALSE, TRUE), direction = "<", quiet = TRUE)
  r2 <- roc(response = y, predictor = p2, levels = c(FALSE, TRUE), direction = "<", quiet = TRUE)
  t <- roc.test(r1, r2, paired = TRUE, method = "delong")
  list(name = name, y = vec(y), p1 = vec(p1), p2 = vec(p2),
       auc1 = as.numeric(auc(r1)), auc2 = as.numeric(auc(r2)),
       z = unname(t$statistic), p = t$p.value,
       var1 = var(r1, method = "delong"), var2 = var(r2, method = "delong"),
       cov12 = cov(r1, r2, method = "delong"))
}

cases <- list()

# 30 rows, scores on a 0.1 grid: many ties within and across classes.
y <- runif(30) < 0.45
p1 <- round(pmin(pmax(rnorm(30, 0.4 + 0.25 * y, 0.2), 0), 1), 1)
p2 <- round(pmin(pmax(0.5 * p1 + rnorm(30, 0.2 + 0.1 * y, 0.15), 0), 1), 1)
cases[[length(cases) + 1]] <- delong_case("ties30", y, p1, p2)

# 300 rows, binormal, correlated scores rounded to 0.01 (some ties).
y <- runif(300) < 0.3
u <- rnorm(300)
p1 <- round(1.2 * y + u, 2)
p2 <- round(0.8 * y + 0.7 * u + 0.7 * rnorm(300), 2)
cases[[length(cases) + 1]] <- delong_case("binormal300", y, p1, p2)

# Five-point ratings: ties everywhere.
y <- runif(80) < 0.5
p1 <- pmin(pmax(round(3 + 1.1 * y + rnorm(80)), 1), 5)
p2 <- pmin(pmax(round(3 + 0.6 * y + rnorm(80)), 1), 5)
cases[[length(cases) + 1]] <- delong_case("ratings80", y, p1, p2)

# Second score worse than chance.
y <- runif(50) < 0.4
p1 <- rnorm(50, 0.8 * y)
p2 <- rnorm(50, -0.5 * y)
cases[[length(cases) + 1]] <- delong_case("reversed50", y, p1, p2)

# Identical scores: pROC sets z = 0, p = 1.
y <- runif(25) < 0.5
p1 <- round(rnorm(25, y), 1)
cases[[length(cases) + 1]] <- delong_case("identical25", y, p1, p1)

# Clustered data for DeLongClusteredSE: Obuchowski (1997), written here
# independently of the Go code, from the paper's formulas (two paired
# scores). Components are pROC's placements of the pooled data.
obuchowski_se <- function(y, p1, p2, g) {
  pl <- function(p) {
    cs <- p[y]; ct <- p[!y]
    v <- numeric(length(p))
    v[y] <- sapply(cs, function(x) (sum(ct < x) + 0.5 * sum(ct == x)) / length(ct))
    v[!y] <- sapply(ct, function(x) (sum(cs > x) + 0.5 * sum(cs == x)) / length(cs))
    v
  }
  v <- list(pl(p1), pl(p2))
  th <- sapply(v, function(vv) mean(vv[y]))
  M <- sum(y); N <- sum(!y)
  ks <- sort(unique(g))
  m <- sapply(ks, function(k) sum(y & g == k))
  n <- sapply(ks, function(k) sum(!y & g == k))
  V10 <- sapply(1:2, function(r) sapply(ks, function(k) sum(v[[r]][y & g == k])))
  V01 <- sapply(1:2, function(r) sapply(ks, function(k) sum(v[[r]][!y & g == k])))
  A <- sapply(1:2, function(r) V10[, r] - m * th[r])
  B <- sapply(1:2, function(r) V01[, r] - n * th[r])
  I10 <- sum(m > 0); I01 <- sum(n > 0); I <- length(ks)
  S10 <- I10 / ((I10 - 1) * M) * t(A) %*% A
  S01 <- I01 / ((I01 - 1) * N) * t(B) %*% B
  S11 <- I / (I - 1) * t(A) %*% B
  C <- S10 / M + S01 / N + (S11 + t(S11)) / (M * N)
  list(auc = th, cov = C, se = sqrt(C[1, 1] + C[2, 2] - 2 * C[1, 2]))
}

clustered <- list()
ng <- 60
size <- sample(1:6, ng, replace = TRUE)
g <- rep(0:(ng - 1), size)
eff <- rnorm(ng, 0, 0.8)[g + 1]
prev <- runif(ng, 0.1, 0.6)[g + 1]
y <- runif(length(g)) < prev
p1 <- round(1.0 * y + eff + rnorm(length(g)), 2)
p2 <- round(0.6 * y + eff + rnorm(length(g)), 2)
o <- obuchowski_se(y, p1, p2, g)
clustered[[1]] <- list(name = "clusters60", y = vec(y), p1 = vec(p1), p2 = vec(p2), group = vec(g), ngroups = ng,
                       auc1 = o$auc[1], auc2 = o$auc[2], se = o$se)

out <- list(generator = "delong_gen.R",
            versions = list(R = R.version.string, pROC = as.character(packageVersion("pROC"))),
            delong = cases, clustered = clustered)
writeLines(to_json(out), "delong_reference.json")
