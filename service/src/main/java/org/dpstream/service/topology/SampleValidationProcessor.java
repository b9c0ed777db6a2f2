package org.dpstream.service.topology;

import java.util.List;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.dpstream.core.online.OnlineModelSpec;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.Sample;
import org.dpstream.schemas.SparseFeatures;
import org.dpstream.service.config.ModelRegistry;
import org.dpstream.service.metrics.ModelMetrics;
import org.dpstream.service.routing.RoutedInput;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.SchemaSerde;

/**
 * Decodes a raw sample (Avro single-object or JSON) and checks it against its model: the key names a
 * configured model, the features have its dimension, the label suits its loss, a person-level model's sample names
 * its person. A valid sample goes to
 * the learner as dense features; anything else goes to dp.rejected with a reason code and the
 * original bytes. Nothing is dropped and nothing throws: bad input never stops the service.
 */
final class SampleValidationProcessor implements Processor<String, byte[], String, Object> {

  private final ModelRegistry models;
  private final SchemaSerde<Sample> samples;
  private final ModelMetrics metrics;
  private ProcessorContext<String, Object> context;

  SampleValidationProcessor(ModelRegistry models, SchemaSerde<Sample> samples, ModelMetrics metrics) {
    this.models = models;
    this.samples = samples;
    this.metrics = metrics;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    this.context = context;
  }

  @Override
  public void process(Record<String, byte[]> record) {
    String modelId = record.key();
    byte[] key = RoutedInput.originalKey(modelId, record.headers());
    if (modelId == null || modelId.isBlank()) {
      reject(record, null, SampleRejection.MISSING_KEY.name(), "a sample's key must name its model");
      return;
    }
    ModelRegistry.Entry entry = models.find(modelId).orElse(null);
    if (entry == null) {
      reject(record, null, SampleRejection.UNKNOWN_MODEL.name(), "no model '" + modelId + "' is configured");
      return;
    }
    DecodeResult<Sample> decoded = samples.decode(record.value());
    if (decoded instanceof DecodeResult.Rejected<Sample> rejected) {
      reject(record, modelId, rejected.reason().name(), rejected.message());
      return;
    }
    Sample sample = ((DecodeResult.Decoded<Sample>) decoded).value();
    OnlineModelSpec spec = entry.spec();
    double[] features;
    try {
      features = denseFeatures(sample.getFeatures(), spec.dimension());
    } catch (InvalidFeaturesException e) {
      reject(record, modelId, e.rejection.name(), e.getMessage());
      return;
    }
    double label = sample.getLabel();
    try {
      // Non-finite values were refused by the decoder; the loss checks the label's range.
      spec.loss().requireLabel(label);
    } catch (IllegalArgumentException e) {
      reject(record, modelId, SampleRejection.INVALID_LABEL.name(), e.getMessage());
      return;
    }
    String personId = null;
    if (entry.unit().byUser()) {
      personId = PersonIds.of(entry.unit(), sample, record.headers());
      if (personId == null) {
        reject(record, modelId, SampleRejection.MISSING_USER_ID.name(), "model " + modelId + " is person-level:"
            + " a sample needs its person's id in " + PersonIds.where(entry.unit()));
        return;
      }
    }
    context.forward(record.withValue(new ValidatedSample(modelId, features, label, key, record.value(), personId)));
  }

  private void reject(Record<String, byte[]> record, String modelId, String reason, String message) {
    metrics.rejected(modelId, reason);
    context.forward(record.withKey(RoutedInput.rejectionKey(record.key(), record.headers()))
        .withValue(Rejections.of(context, record.headers(), reason, message,
            RoutedInput.originalKey(record.key(), record.headers()), record.value())));
  }

  static double[] denseFeatures(Object features, int dimension) throws InvalidFeaturesException {
    if (features instanceof DenseFeatures dense) {
      List<Double> values = dense.getValues();
      if (values.size() != dimension) {
        throw new InvalidFeaturesException(SampleRejection.WRONG_DIMENSION,
            "the model has dimension " + dimension + ", the sample " + values.size());
      }
      double[] out = new double[dimension];
      for (int i = 0; i < dimension; i++) {
        out[i] = values.get(i);
      }
      return out;
    }
    SparseFeatures sparse = (SparseFeatures) features;
    if (sparse.getDimension() != dimension) {
      throw new InvalidFeaturesException(SampleRejection.WRONG_DIMENSION,
          "the model has dimension " + dimension + ", the sparse sample " + sparse.getDimension());
    }
    List<Integer> indices = sparse.getIndices();
    List<Double> values = sparse.getValues();
    if (indices.size() != values.size()) {
      throw new InvalidFeaturesException(SampleRejection.INVALID_SPARSE_FEATURES,
          indices.size() + " indices but " + values.size() + " values");
    }
    double[] out = new double[dimension];
    boolean[] seen = new boolean[dimension];
    for (int k = 0; k < indices.size(); k++) {
      int index = indices.get(k);
      if (index < 0 || index >= dimension || seen[index]) {
        throw new InvalidFeaturesException(SampleRejection.INVALID_SPARSE_FEATURES,
            "sparse index " + index + " is out of range [0, " + dimension + ") or repeated");
      }
      seen[index] = true;
      out[index] = values.get(k);
    }
    return out;
  }

  /** A features field that decodes but does not fit the model. */
  static final class InvalidFeaturesException extends Exception {
    final SampleRejection rejection;

    InvalidFeaturesException(SampleRejection rejection, String message) {
      super(message, null, false, false);
      this.rejection = rejection;
    }
  }
}
