#!/usr/bin/env bash
# The selection runs of docs/design/bandit-default-protocol.md: DP-HDB against DP-Linear (and random, the
# reference) on synthetic settings that are not the reported ones. Seeds 1-3, delta = 1/T.
# Usage: bench/scripts/bandit-default-selection.sh [OUT_DIR]   (after: mvn -B -o -pl bench -am package -DskipTests)
set -euo pipefail
out=${1:-out/select}
jar=${JAR:-bench/target/dpstream-bench.jar}
run() { # d s K T eps
  java -jar "$jar" bandit --env synthetic --d "$1" --sparsity "$2" --K "$3" --T "$4" --epsilon "$5" --seeds 3 \
    --algorithms random,dphdb,dplinear --out "$out/d$1-s$2-K$3-T$4-eps$5" > /dev/null
}
# A: dimension x sparsity (s = d / 2: half the coordinates; s = d would give every arm the same theta*)
for s in 1 5; do run 10 "$s" 2 20000 1; done
for s in 1 5 25; do run 50 "$s" 2 20000 1; done
for s in 1 5 100; do run 200 "$s" 2 20000 1; done
# C: arms; D: budget; E: horizon
for d in 50 200; do
  run "$d" 1 8 20000 1
  run "$d" 1 2 20000 0.25
  run "$d" 1 2 20000 4
done
run 200 1 2 100000 1
# B: high dimension (the slow part: DP-Linear's statistics have 501,500 coordinates per arm)
run 1000 1 2 20000 1
run 1000 500 2 20000 1
