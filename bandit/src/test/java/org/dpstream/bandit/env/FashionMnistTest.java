package org.dpstream.bandit.env;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FashionMnistTest {

  /** Three 2x2 images: pixel (i, r, c) = 10 i + 2 r + c (+ 200 in image 2), labels 2, 0, 1. */
  private static final int[][] IMAGES = {{0, 1, 2, 3}, {10, 11, 12, 13}, {220, 221, 222, 255}};
  private static final int[] LABELS = {2, 0, 1};

  private static byte[] idx(int[] dimensions, int[] values) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeShort(0);
    out.writeByte(IdxArray.UNSIGNED_BYTE);
    out.writeByte(dimensions.length);
    for (int size : dimensions) {
      out.writeInt(size);
    }
    for (int v : values) {
      out.writeByte(v);
    }
    out.flush();
    return bytes.toByteArray();
  }

  private static void writeSplit(Path directory, String prefix, boolean gzip) throws IOException {
    int[] pixels = new int[12];
    for (int i = 0; i < 3; i++) {
      System.arraycopy(IMAGES[i], 0, pixels, 4 * i, 4);
    }
    write(directory.resolve(prefix + "-images-idx3-ubyte" + (gzip ? ".gz" : "")), idx(new int[] {3, 2, 2}, pixels), gzip);
    write(directory.resolve(prefix + "-labels-idx1-ubyte" + (gzip ? ".gz" : "")), idx(new int[] {3}, LABELS), gzip);
  }

  private static void write(Path file, byte[] content, boolean gzip) throws IOException {
    try (OutputStream raw = Files.newOutputStream(file);
        OutputStream out = gzip ? new GZIPOutputStream(raw) : raw) {
      out.write(content);
    }
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
    byte[] whole = idx(new int[] {2, 2}, new int[] {1, 2, 3, 4});
    Files.write(truncated, java.util.Arrays.copyOf(whole, whole.length - 1));
    IOException e = assertThrows(IOException.class, () -> IdxArray.read(truncated));
    assertTrue(e.getMessage().contains("short") && e.getMessage().contains("truncated"), e.getMessage());
    Path foreign = dir.resolve("foreign");
    Files.write(foreign, new byte[] {0, 0, 0x0D, 1, 0, 0, 0, 0});
    e = assertThrows(IOException.class, () -> IdxArray.read(foreign));
    assertTrue(e.getMessage().contains("not an unsigned-byte IDX"), e.getMessage());
  }

  @Test
  void theClassificationBanditRewardsTheTrueClassOnUnitInfinityNormContexts(@TempDir Path dir) throws IOException {
    writeSplit(dir, "train", true);
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
