/**
 * Where each model and bandit lives: the service routes every input record by its model or bandit id
 * through an internal repartition topic with a fixed partition count, so a model's placement is a
 * function of its id alone (ARCHITECTURE.md 4.8), never of the producer's partitioner or of the input
 * topic's partition count. The state records its placement, and the noise is scoped by it.
 */
package org.dpstream.service.routing;
