package org.dpstream.bench.bandit;

import java.io.IOException;
import java.nio.file.Path;
import org.dpstream.bandit.env.BanditEnvironment;
import org.dpstream.bandit.env.ClassificationEnvironment;
import org.dpstream.bandit.env.SyntheticLinearEnvironment;
import org.dpstream.core.data.FashionMnist;
import org.dpstream.core.data.LabelledImages;

/**
 * The environments of the {@code bandit} command. Fashion-MNIST (training split) is read once and
 * shared by every run; each run gets a fresh environment seeded with its seed.
 */
final class BanditEnvironments {

  static final String SYNTHETIC = "synthetic";
  static final String FASHION_MNIST = "fashion-mnist";

  private final String name;
  private final LabelledImages images;
  private final int pool;

  private BanditEnvironments(String name, LabelledImages images, int pool) {
    this.name = name;
    this.images = images;
    this.pool = pool;
  }

  static BanditEnvironments synthetic() {
    return new BanditEnvironments(SYNTHETIC, null, 1);
  }

  /**
   * @throws org.dpstream.core.data.MissingDatasetException if the files are not in {@code directory}
   */
  static BanditEnvironments fashionMnist(Path directory, int pool) throws IOException {
    return new BanditEnvironments(FASHION_MNIST, FashionMnist.load(directory, FashionMnist.Split.TRAIN), pool);
  }

  String name() {
    return name;
  }

  /** d fixed by the data, or 0 when the command's --d decides. */
  int fixedDimension() {
    return images == null ? 0 : (images.rows() / pool) * (images.columns() / pool);
  }

  /** K fixed by the data, or 0 when the command's --K decides. */
  int fixedArms() {
    return images == null ? 0 : images.classes();
  }

  BanditEnvironment create(int d, int arms, int sparsity, long seed) {
    return images == null
        ? new SyntheticLinearEnvironment(d, arms, sparsity, seed)
        : new ClassificationEnvironment(FASHION_MNIST, images, pool, seed);
  }
}
