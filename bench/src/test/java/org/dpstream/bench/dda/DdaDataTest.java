package org.dpstream.bench.dda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import org.dpstream.core.data.IdxFiles;
import org.dpstream.core.erm.ErmDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DdaDataTest {

  @Test
  void fashionMnistKeepsTwoClassesAsPlusAndMinusOneOnUnitRows(@TempDir Path dir) throws IOException {
    int[][] images = {{3, 0, 0, 4}, {255, 0, 0, 0}, {0, 6, 8, 0}, {1, 1, 1, 1}};
    int[] labels = {6, 2, 0, 6};
    IdxFiles.writeSplit(dir, "train", 2, images, labels, true);
    IdxFiles.writeSplit(dir, "t10k", 2, images, labels, false);
    DdaData data = DdaData.fashionMnist(dir, 0, 6, 1);
    ErmDataset test = data.test(); // file order, the image of class 2 left out
    assertEquals(3, test.size());
    assertArrayEquals(new double[] {-1, 1, -1}, new double[] {test.label(0), test.label(1), test.label(2)});
    // pixels / 255, then unit l2 norm: (3, 0, 0, 4) / 5, (0, 6, 8, 0) / 10, (1, 1, 1, 1) / 2
    assertArrayEquals(new double[] {0.6, 0, 0, 0.8}, test.row(0), 1e-15);
    assertArrayEquals(new double[] {0, 0.6, 0.8, 0}, test.row(1), 1e-15);
    assertArrayEquals(new double[] {0.5, 0.5, 0.5, 0.5}, test.row(2), 1e-15);
    assertEquals(3, data.train().size());
  }
}
