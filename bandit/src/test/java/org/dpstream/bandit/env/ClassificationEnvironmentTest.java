package org.dpstream.bandit.env;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import org.dpstream.core.data.FashionMnist;
import org.dpstream.core.data.IdxFiles;
import org.dpstream.core.data.LabelledImages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassificationEnvironmentTest {

  /** Three 2x2 images: pixel (i, r, c) = 10 i + 2 r + c (+ 200 in image 2), labels 2, 0, 1. */
  private static final int[][] IMAGES = {{0, 1, 2, 3}, {10, 11, 12, 13}, {220, 221, 222, 255}};
  private static final int[] LABELS = {2, 0, 1};

  @Test
  void theClassificationBanditRewardsTheTrueClassOnUnitInfinityNormContexts(@TempDir Path dir) throws IOException {
    IdxFiles.writeSplit(dir, "train", 2, IMAGES, LABELS, true);
    LabelledImages data = FashionMnist.load(dir, FashionMnist.Split.TRAIN);
    ClassificationEnvironment env = new ClassificationEnvironment("tiny", data, 1, 3);
    assertEquals(4, env.dimension());
    assertEquals(3, env.arms());
    assertArrayEquals(new double[] {220 / 255.0, 221 / 255.0, 222 / 255.0, 1.0}, env.context(2), 1e-12);
    assertArrayEquals(new double[] {0, 1 / 3.0, 2 / 3.0, 1}, env.context(0), 1e-12);
    for (int t = 0; t < 20; t++) {
      BanditRound round = env.nextRound();
      int label = round.optimalArm();
      assertEquals(1.0, round.observedReward(label));
      assertEquals(1.0, round.regretOf((label + 1) % 3));
    }
    ClassificationEnvironment pooled = new ClassificationEnvironment("tiny", data, 2, 3);
    assertArrayEquals(new double[] {0}, new double[] {pooled.context(0)[0] - 1.0}, 1e-12);
  }
}
