package org.dpstream.core.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FashionMnistTest {

  /** Three 2x2 images: pixel (i, r, c) = 10 i + 2 r + c (+ 200 in image 2), labels 2, 0, 1. */
  private static final int[][] IMAGES = {{0, 1, 2, 3}, {10, 11, 12, 13}, {220, 221, 222, 255}};
  private static final int[] LABELS = {2, 0, 1};

  private static void writeSplit(Path directory, String prefix, boolean gzip) throws IOException {
    IdxFiles.writeSplit(directory, prefix, 2, IMAGES, LABELS, gzip);
  }

  private static void assertLoaded(LabelledImages data) {
    assertEquals(3, data.count());
    assertEquals(2, data.rows());
    assertEquals(2, data.columns());
    assertEquals(3, data.classes());
    for (int i = 0; i < 3; i++) {
      assertEquals(LABELS[i], data.label(i));
      for (int p = 0; p < 4; p++) {
        assertEquals(IMAGES[i][p], data.pixel(i, p / 2, p % 2));
      }
    }
  }

  @Test
  void readsGzippedFilesAsTheDebianPackageShipsThem(@TempDir Path dir) throws IOException {
    writeSplit(dir, "train", true);
    assertLoaded(FashionMnist.load(dir, FashionMnist.Split.TRAIN));
  }

  @Test
  void readsUncompressedFiles(@TempDir Path dir) throws IOException {
    writeSplit(dir, "t10k", false);
    assertLoaded(FashionMnist.load(dir, FashionMnist.Split.TEST));
  }

  @Test
  void aMissingDirectoryNamesTheDebianPackage(@TempDir Path dir) {
    MissingDatasetException e = assertThrows(MissingDatasetException.class,
        () -> FashionMnist.load(dir.resolve("absent"), FashionMnist.Split.TRAIN));
    assertTrue(e.getMessage().contains("apt-get install dataset-fashion-mnist"), e.getMessage());
    assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
  }

  @Test
  void aTruncatedOrForeignFileIsRejectedWithItsName(@TempDir Path dir) throws IOException {
    Path truncated = dir.resolve("short");
    byte[] whole = IdxFiles.idx(new int[] {2, 2}, new int[] {1, 2, 3, 4});
    Files.write(truncated, java.util.Arrays.copyOf(whole, whole.length - 1));
    IOException e = assertThrows(IOException.class, () -> IdxArray.read(truncated));
    assertTrue(e.getMessage().contains("short") && e.getMessage().contains("truncated"), e.getMessage());
    Path foreign = dir.resolve("foreign");
    Files.write(foreign, new byte[] {0, 0, 0x0D, 1, 0, 0, 0, 0});
    e = assertThrows(IOException.class, () -> IdxArray.read(foreign));
    assertTrue(e.getMessage().contains("not an unsigned-byte IDX"), e.getMessage());
  }
}
