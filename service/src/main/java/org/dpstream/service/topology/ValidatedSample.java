package org.dpstream.service.topology;

/**
 * A sample that passed validation, handed from the validation processor to the learner (in memory,
 * same task: no serde). The original bytes travel along so that a late rejection can still forward
 * them to dp.rejected.
 */
record ValidatedSample(String modelId, double[] features, double label, byte[] originalKey, byte[] originalValue) {}
