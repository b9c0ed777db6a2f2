package org.dpstream.core.data;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/** Tiny Fashion-MNIST stand-ins in the IDX format, for the tests of every module that reads them. */
public final class IdxFiles {

  private IdxFiles() {}

  /** An unsigned-byte IDX array of the given dimensions and values. */
  public static byte[] idx(int[] dimensions, int[] values) throws IOException {
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

  /**
   * Writes one split ({@code prefix} "train" or "t10k") of square images of {@code side} x {@code side}
   * pixels, row-major, with their labels, gzipped as Debian ships them or plain.
   */
  public static void writeSplit(Path directory, String prefix, int side, int[][] images, int[] labels, boolean gzip)
      throws IOException {
    int pixelsPerImage = side * side;
    int[] pixels = new int[images.length * pixelsPerImage];
    for (int i = 0; i < images.length; i++) {
      System.arraycopy(images[i], 0, pixels, pixelsPerImage * i, pixelsPerImage);
    }
    String suffix = gzip ? ".gz" : "";
    write(directory.resolve(prefix + "-images-idx3-ubyte" + suffix),
        idx(new int[] {images.length, side, side}, pixels), gzip);
    write(directory.resolve(prefix + "-labels-idx1-ubyte" + suffix), idx(new int[] {labels.length}, labels), gzip);
  }

  private static void write(Path file, byte[] content, boolean gzip) throws IOException {
    try (OutputStream raw = Files.newOutputStream(file);
        OutputStream out = gzip ? new GZIPOutputStream(raw) : raw) {
      out.write(content);
    }
  }
}
