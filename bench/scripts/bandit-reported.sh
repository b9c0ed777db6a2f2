#!/usr/bin/env bash
# The bandit settings reported in docs/results.md: every policy and the service's default, seeds 1-10, eps = 1,
# delta = 1/T. Usage: bench/scripts/bandit-reported.sh [OUT_DIR]   (after: mvn -B -o -pl bench -am package -DskipTests)
set -euo pipefail
out=${1:-out/reported}
jar=${JAR:-bench/target/dpstream-bench.jar}
algorithms=random,greedy,default,dplinear,dphdb,dpucb
java -jar "$jar" bandit --env synthetic --d 50 --K 5 --T 10000 --seeds 10 --epsilon 1 --algorithms "$algorithms" \
  --out "$out/synthetic-d50-K5-T1e4"
java -jar "$jar" bandit --env synthetic --d 10 --K 3 --T 100000 --seeds 10 --epsilon 1 --algorithms "$algorithms" \
  --out "$out/synthetic-d10-K3-T1e5"
java -jar "$jar" bandit --env fashion-mnist --pool 4 --T 100000 --seeds 10 --epsilon 1 --algorithms "$algorithms" \
  --out "$out/fashion-mnist-pool4-T1e5"
