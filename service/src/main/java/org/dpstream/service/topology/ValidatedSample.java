package org.dpstream.service.topology;

/**
 * A sample that passed validation, handed from the validation processor to the learner (in memory,
 * same task: no serde). The original bytes travel along so that a late rejection can still forward
 * them to dp.rejected. {@code personId} is the person's id for a model of privacyUnit by user (raw data: the
 * learner keeps only its keyed pseudonym), null for an event-level model.
 */
record ValidatedSample(String modelId, double[] features, double label, byte[] originalKey, byte[] originalValue,
    String personId) {}
