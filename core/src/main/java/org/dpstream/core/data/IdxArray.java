package org.dpstream.core.data;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * An unsigned-byte array in LeCun's IDX format (the MNIST / Fashion-MNIST file format), plain or
 * gzip-compressed.
 *
 * <p>Format: a big-endian header of two zero bytes, a type byte (0x08 = unsigned byte, the only type
 * Fashion-MNIST uses and the only one read here), the number of dimensions n, then n big-endian 32-bit
 * sizes, then the values in row-major order. A file starting with the gzip magic 1f 8b is decompressed
 * first, whatever its name: Debian's {@code dataset-fashion-mnist} ships the {@code .gz} files.
 */
public final class IdxArray {

  static final int UNSIGNED_BYTE = 0x08;
  private static final int GZIP_MAGIC_FIRST = 0x1f;
  private static final int GZIP_MAGIC_SECOND = 0x8b;
  private static final int MAX_DIMENSIONS = 4;

  private final int[] dimensions;
  private final byte[] values;

  private IdxArray(int[] dimensions, byte[] values) {
    this.dimensions = dimensions;
    this.values = values;
  }

  /**
   * Reads a file.
   *
   * @throws IOException if the file cannot be read, is not an unsigned-byte IDX array, or is truncated
   *     (the message names the file)
   */
  public static IdxArray read(Path file) throws IOException {
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(file))) {
      return read(decompressIfGzip(raw), file.toString());
    }
  }

  private static InputStream decompressIfGzip(InputStream in) throws IOException {
    in.mark(2);
    int first = in.read();
    int second = in.read();
    in.reset();
    return first == GZIP_MAGIC_FIRST && second == GZIP_MAGIC_SECOND
        ? new BufferedInputStream(new GZIPInputStream(in, 1 << 16))
        : in;
  }

  private static IdxArray read(InputStream stream, String source) throws IOException {
    DataInputStream in = new DataInputStream(stream);
    try {
      int zeroes = in.readUnsignedShort();
      int type = in.readUnsignedByte();
      int rank = in.readUnsignedByte();
      if (zeroes != 0 || type != UNSIGNED_BYTE || rank < 1 || rank > MAX_DIMENSIONS) {
        throw new IOException(source + " is not an unsigned-byte IDX file (magic "
            + String.format("0x%04x%02x%02x", zeroes, type, rank) + ", expected 0x000008 then 1.."
            + MAX_DIMENSIONS + " dimensions)");
      }
      int[] dimensions = new int[rank];
      long count = 1;
      for (int i = 0; i < rank; i++) {
        dimensions[i] = in.readInt();
        if (dimensions[i] < 0) {
          throw new IOException(source + ": negative size " + dimensions[i] + " of dimension " + i);
        }
        count *= dimensions[i];
        if (count > Integer.MAX_VALUE - 8) {
          throw new IOException(source + ": " + Arrays.toString(dimensions) + " is too large to load");
        }
      }
      byte[] values = new byte[(int) count];
      in.readFully(values);
      return new IdxArray(dimensions, values);
    } catch (EOFException e) {
      throw new IOException(source + " is truncated", e);
    }
  }

  /** The sizes of the dimensions, e.g. [60000, 28, 28]. */
  public int[] dimensions() {
    return dimensions.clone();
  }

  public int rank() {
    return dimensions.length;
  }

  public int size(int dimension) {
    return dimensions[dimension];
  }

  /** The number of values. */
  public int length() {
    return values.length;
  }

  /** The value at a row-major flat index, in [0, 255]. */
  public int valueAt(int flatIndex) {
    return values[flatIndex] & 0xff;
  }
}
