/**
 * Liveness and readiness of the running service, served as {@code /health} and {@code /ready} next to
 * {@code /metrics}: what a process supervisor or Kubernetes probe, and an operator with curl, can check.
 */
package org.dpstream.service.health;
