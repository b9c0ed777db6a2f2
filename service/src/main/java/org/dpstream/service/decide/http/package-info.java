/**
 * The decision API over HTTP ({@code POST /v1/bandits/{id}/decide} and {@code /reward}, docs/openapi/decisions.yaml):
 * the Netty server ({@link org.dpstream.service.decide.http.DecisionHttpServer}), its connection handler, the
 * request body's reader, the JSON answers and their head, and the small client of the warm-up (and of the
 * bench's load generator). It decides nothing itself: every request goes to
 * {@link org.dpstream.service.decide.producer.DecisionService}.
 */
package org.dpstream.service.decide.http;
