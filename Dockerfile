# syntax=docker/dockerfile:1
# The dpstream service (service/target/dpstream-service.jar: the service alone, without the demo, its
# embedded broker and train; Linux x86_64 and aarch64), built from this repository.
#   docker build -t dpstream .
#   docker run --rm -e DPSTREAM_NOISE_KEY_FILE=/run/secrets/noise_key ... dpstream run --config /config/dpstream.yaml
# The noise key is never baked into the image: it comes from an env var or a mounted secret at run time.

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# Only the service and the modules it needs (not the demo, options, stream-app or bench; testkit, in the
# service's test scope, is built for its tests but not shipped). The cache mount keeps ~/.m2 between builds.
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q -pl service -am package -DskipTests

FROM eclipse-temurin:17-jre
RUN groupadd --system dpstream \
    && useradd --system --gid dpstream --home-dir /var/lib/dpstream --shell /usr/sbin/nologin dpstream \
    && mkdir -p /var/lib/dpstream /config \
    && chown dpstream:dpstream /var/lib/dpstream
COPY --from=build /src/service/target/dpstream-service.jar /app/dpstream-service.jar
USER dpstream
WORKDIR /var/lib/dpstream
# Prometheus endpoint /metrics (metricsPort in the config file).
EXPOSE 9400
# The bandits' decision API (decider.httpPort in the config), served only when the config has bandits; docs/http-api.md.
EXPOSE 9401
ENTRYPOINT ["java", "-jar", "/app/dpstream-service.jar"]
CMD ["run", "--config", "/config/dpstream.yaml"]
