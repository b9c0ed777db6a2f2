/**
 * The end-to-end throughput benchmark ({@code dpstream-bench e2e}): samples per second through a real
 * (embedded) broker with exactly-once, for the dpstream topology and for a pass-through topology that
 * only decodes and re-encodes each sample, so the ratio isolates the cost of learning and releasing.
 */
package org.dpstream.bench.e2e;
