package org.dpstream.service.dda;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalInt;
import org.dpstream.core.data.CsvReader;
import org.dpstream.core.data.DataFormat;
import org.dpstream.core.data.LabelledData;
import org.dpstream.core.data.LibSvmReader;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.erm.FeatureBounds;

/**
 * Reads one node's shard: CSV (header, label column {@code label}/{@code y} or the first) or LibSVM, labels
 * -1/+1, every row within the declared l2 bound L. A row outside the bound is refused rather than clipped:
 * shards are prepared offline, so a long row is a preparation mistake the operator should see (the hinge
 * subgradient is clipped to L anyway, so privacy does not depend on this check).
 */
final class ShardLoader {

  private ShardLoader() {}

  static ErmDataset load(Path file, String format, int dimension, double rowNormBound) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("shard " + file + " does not exist");
    }
    LabelledData data = switch (format(file, format)) {
      case LIBSVM -> LibSvmReader.read(file, OptionalInt.of(dimension)).toDense();
      case CSV -> CsvReader.read(file, CsvReader.Options.defaults());
    };
    if (data.dimension() != dimension) {
      throw new IllegalArgumentException("shard " + file + " has dimension " + data.dimension() + ", the run declares " + dimension);
    }
    for (int i = 0; i < data.size(); i++) {
      double y = data.label(i);
      if (y != 1 && y != -1) {
        throw new IllegalArgumentException("shard " + file + ", record " + (i + 1) + ": hinge-loss labels must be -1 or +1, got " + y);
      }
      double squaredNorm = 0;
      for (int j = 0; j < dimension; j++) {
        squaredNorm += data.feature(i, j) * data.feature(i, j);
      }
      if (Math.sqrt(squaredNorm) > rowNormBound) {
        throw new IllegalArgumentException(String.format(Locale.ROOT,
            "shard %s, record %d: ||x||_2 = %.6g exceeds the declared bound L = %s (privacy.lipschitz); normalise the rows",
            file, i + 1, Math.sqrt(squaredNorm), rowNormBound));
      }
    }
    return ErmDataset.of(data.features(), data.labels(), FeatureBounds.uniform(dimension, rowNormBound));
  }

  private static DataFormat format(Path file, String format) {
    try {
      return DataFormat.resolve(format, file);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("data.format: " + e.getMessage(), e);
    }
  }
}
